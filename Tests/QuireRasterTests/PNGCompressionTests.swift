import Foundation
import QuireCore
import QuireTestSupport
import Testing

@testable import QuireRaster

/// The igzip page compressor (`DeflateMethod.igzip`, `PNGCompression`): every level and row
/// filter writes a PNG that libpng decodes to the encoded pixels, as a well-formed zlib
/// stream (header check bits, Adler-32 of the filtered rows), deterministically.
@Suite struct PNGCompressionTests {
  /// Pixels mixing noise (literals, and stored blocks when incompressible) with runs and
  /// repeats (matches at short and long distances).
  static func mixed(width: Int, height: Int, format: PixelBuffer.Format, seed: UInt64)
    -> PixelBuffer
  {
    var rng = SplitMix64(seed: seed)
    var pixels = [UInt8](repeating: 255, count: width * height * format.channels)
    for i in pixels.indices {
      switch (i / 97) % 3 {
      case 0: pixels[i] = UInt8(truncatingIfNeeded: rng.next())
      case 1: pixels[i] = UInt8((i / 5) % 4 * 60)
      default: break
      }
    }
    return PixelBuffer(width: width, height: height, format: format, pixels: pixels)
  }

  /// Adler-32 (RFC 1950) byte by byte: an oracle independent of both libraries.
  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for x in bytes {
      a = (a + UInt32(x)) % 65521
      b = (b + a) % 65521
    }
    return b << 16 | a
  }

  @Test(arguments: [PixelBuffer.Format.gray8, .rgba8])
  func everyIgzipLevelAndFilterDecodesWithLibpng(format: PixelBuffer.Format) throws {
    let sizes = [(1, 1), (37, 23), (600, 80)]
    for (w, h) in sizes {
      let image = Self.mixed(width: w, height: h, format: format, seed: UInt64(w * h))
      for level: Int32 in 0...3 {
        for filter in PNGEncoder.Filter.allCases {
          let method = DeflateMethod.igzip(level)
          let png = PNGCodec.encode(image, filter: filter, method: method)
          #expect(
            try PNGCodec.decode(Data(png)) == image, "\(w)x\(h) \(format) \(method) \(filter)")
          #expect(png == PNGCodec.encode(image, filter: filter, method: method), "deterministic")
        }
      }
    }
  }

  @Test func theIgzipStreamIsZlibWithTheAdler32OfTheFilteredRows() throws {
    let image = Self.mixed(width: 300, height: 200, format: .gray8, seed: 3)
    for level: Int32 in 0...3 {
      for filter in [PNGEncoder.Filter.none, .paeth] {
        let rows = image.withView { PNGEncoder.filteredRows($0, filter: filter) }
        let stream = image.withView {
          PNGEncoder.imageData($0, filter: filter, method: .igzip(level))
        }
        try #require(stream.count > 6)
        #expect(stream[0] & 0x0F == 8, "deflate (CM 8)")
        #expect((UInt32(stream[0]) << 8 | UInt32(stream[1])) % 31 == 0, "FCHECK")
        #expect(stream[1] & 0x20 == 0, "no preset dictionary")
        let tail = stream.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(tail == Self.adler32(rows), "level \(level) \(filter)")
      }
    }
  }

  @Test func incompressibleRowsStillFitTheBoundAndDecode() throws {
    // Pure noise makes igzip fall back to stored blocks: the output bound must hold them.
    var rng = SplitMix64(seed: 11)
    let pixels = (0..<(700 * 500 * 4)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    let image = PixelBuffer(width: 700, height: 500, format: .rgba8, pixels: pixels)
    for level: Int32 in 0...3 {
      let png = PNGCodec.encode(image, filter: .none, method: .igzip(level))
      #expect(try PNGCodec.decode(Data(png)) == image, "level \(level)")
      #expect(png.count < pixels.count + pixels.count / 16, "level \(level): \(png.count)")
    }
  }

  @Test func aPageEncodesAlikeWhateverThePooledStreamEncodedBefore() {
    // igzip keeps hash tables in the level buffer a pooled compressor reuses: what it
    // compressed before must not change the next stream (threads take compressors in any order).
    let page = Self.mixed(width: 200, height: 150, format: .gray8, seed: 21)
    let others = (1...3).map { Self.mixed(width: 180, height: 90, format: .gray8, seed: $0) }
    for level: Int32 in 0...3 {
      let method = DeflateMethod.igzip(level)
      var seen: Set<[UInt8]> = []
      for other in others {
        _ = PNGCodec.encode(other, filter: .sub, method: method)
        seen.insert(PNGCodec.encode(page, filter: .none, method: method))
      }
      #expect(seen.count == 1, "level \(level)")
    }
  }

  @Test func levelsClampToEachLibrarysRange() {
    #expect(DeflateMethod.igzip(9) == .igzip(3))
    #expect(DeflateMethod.igzip(-1) == .igzip(0))
    #expect(DeflateMethod.libdeflate(40) == .libdeflate(12))
    #expect(DeflateMethod.igzip(2).description == "igzip 2")
  }

  @Test func bothPageCompressionsWriteTheSamePixelsAndSmallKeepsTheOldBytes() throws {
    // A real text page: the golden of a rendered paragraph (an exact golden elsewhere).
    let goldens = try #require(Bundle.module.url(forResource: "Goldens", withExtension: nil))
    let names = try FileManager.default.contentsOfDirectory(atPath: goldens.path)
      .filter { $0.hasSuffix(".png") && !$0.hasPrefix("fixture-") }.sorted()
    try #require(!names.isEmpty)
    var formats: Set<PixelBuffer.Format> = []
    for name in names {
      let data = try Data(contentsOf: goldens.appendingPathComponent(name))
      let page = try PNGCodec.decode(data)
      let fast = PNGCodec.encodePage(page, compression: .fast)
      let small = PNGCodec.encodePage(page, compression: .small)
      #expect(try PNGCodec.decode(Data(fast)) == page, "\(name)")
      #expect(try PNGCodec.decode(Data(small)) == page, "\(name)")
      // small is what every render wrote before: libdeflate level 1, filter none.
      #expect(small == PNGCodec.encode(page, filter: .none, level: PNGCodec.pageLevel), "\(name)")
      // fast: igzip 2 for gray pages; colour pages keep libdeflate 1 (igzip's were larger).
      let method: DeflateMethod = page.format == .gray8 ? .igzip(2) : .libdeflate(1)
      #expect(fast == PNGCodec.encode(page, filter: .none, method: method), "\(name)")
      #expect((fast == small) == (page.format == .rgba8), "\(name)")
      #expect(PNGCodec.encodePage(page) == fast, "the standard is fast")
      formats.insert(page.format)
    }
    #expect(formats == [.gray8, .rgba8], "goldens of both formats")
  }
}
