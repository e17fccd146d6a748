// `render --png-compression fast|small` through the built `quire` and through `RenderJob`:
// the option parses (a bad value is a usage error naming it), both choices write the same
// pixels, and each writes the bytes of its own compressor.

import Foundation
import QuireCore
import QuireRaster
import Testing

@testable import Quire

@Suite("PNG compression option", .serialized)
struct PNGCompressionOptionTests {
  /// The decoded pages of a render folder, by file name.
  static func pages(_ folder: String) throws -> [String: [UInt8]] {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { $0.hasPrefix("page-") && $0.hasSuffix(".png") }
    var out: [String: [UInt8]] = [:]
    for name in names {
      out[name] = try #require(FileManager.default.contents(atPath: folder + "/" + name)).map {
        $0
      }
    }
    return out
  }

  @Test("fast and small write the same pixels, each with its own compressor's bytes")
  func bothChoicesWriteTheSamePixels() throws {
    let book = try generatedBook("png-compression", paragraphs: 40)
    var bytes: [PNGCompression: [String: [UInt8]]] = [:]
    for choice in PNGCompression.allCases {
      var r = RenderRequest(
        book: URL(fileURLWithPath: book),
        output: URL(fileURLWithPath: temporaryFolder("pc-\(choice)")))
      r.pages = PageSelection(ranges: [1...3])
      r.threads = 2
      r.cache = nil
      r.compression = choice
      _ = try RenderJob.run(r)
      bytes[choice] = try Self.pages(r.output.path)
    }
    let fast = try #require(bytes[.fast])
    let small = try #require(bytes[.small])
    #expect(fast.keys.sorted() == ["page-0001.png", "page-0002.png", "page-0003.png"])
    #expect(small.keys.sorted() == fast.keys.sorted())
    for name in fast.keys.sorted() {
      let f = try #require(fast[name])
      let s = try #require(small[name])
      #expect(f != s, "\(name): igzip and libdeflate write different streams")
      let pixels = try PNGCodec.decode(Data(s))
      #expect(try PNGCodec.decode(Data(f)) == pixels, "\(name)")
      #expect(f == PNGEncoder.encode(pixels, filter: .none, method: .igzip(2)), "\(name)")
      #expect(s == PNGEncoder.encode(pixels, filter: .none, method: .libdeflate(1)), "\(name)")
    }
  }

  @Test("--png-compression parses fast and small; anything else exits 64 naming it")
  func cliOption() throws {
    guard quireExecutable != nil else {
      Issue.record("quire executable not built")
      return
    }
    let book = try generatedBook("png-compression-cli", paragraphs: 12)
    var files: [String: [UInt8]] = [:]
    for choice in ["fast", "small"] {
      let out = temporaryFolder("pc-cli-\(choice)")
      let r = try runQuire(
        ["render", book, "-o", out, "--pages", "1", "--png-compression", choice, "--cache", "off"])
      #expect(r.status == 0, "\(r.stderr)")
      files[choice] = try Self.pages(out)["page-0001.png"]
    }
    let fast = try #require(files["fast"])
    let small = try #require(files["small"])
    #expect(fast != small)
    #expect(try PNGCodec.decode(Data(fast)) == PNGCodec.decode(Data(small)))
    // Without the option: fast, the standard.
    let plain = temporaryFolder("pc-cli-default")
    let d = try runQuire(["render", book, "-o", plain, "--pages", "1", "--cache", "off"])
    #expect(d.status == 0, "\(d.stderr)")
    #expect(try Self.pages(plain)["page-0001.png"] == fast)
    let bad = try runQuire(
      ["render", book, "-o", temporaryFolder("pc-bad"), "--png-compression", "tiny"])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("--png-compression"), "\(bad.stderr)")
    #expect(bad.stderr.split(separator: "\n").count == 1)
    let batch = try runQuire(
      ["batch", book, "-o", temporaryFolder("pc-batch"), "--png-compression", "tiny"])
    #expect(batch.status == 64 && batch.stderr.contains("--png-compression"), "\(batch.stderr)")
    let help = try runQuire(["help", "render"])
    #expect(help.stdout.contains("--png-compression fast|small"))
  }
}
