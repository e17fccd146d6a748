import Foundation
import QuireTestSupport
import Testing

@testable import QuireIngest

struct ArchiveTests {
  @Test(arguments: [
    ("OEBPS/ch1.xhtml", "OEBPS/ch1.xhtml"),
    ("./OEBPS//a/./b.css", "OEBPS/a/b.css"),
    ("OEBPS/x/../ch1.xhtml", "OEBPS/ch1.xhtml"),
    ("/abs/file", "abs/file"),
    ("C:\\dir\\file", "dir/file"),
    ("a\\b", "a/b"),
  ])
  func normalizesNames(_ raw: String, _ expected: String) {
    guard case .path(let got, _) = EntryName.normalize(raw) else {
      Issue.record("\(raw) rejected")
      return
    }
    #expect(got == expected)
  }

  @Test(arguments: ["../evil", "a/../../evil", "..\\..\\evil", "", "/", "./.", "a\u{0}b"])
  func rejectsEscapingNames(_ raw: String) {
    if case .path(let p, _) = EntryName.normalize(raw) { Issue.record("\(raw) accepted as \(p)") }
  }

  /// The clean-name fast path answers exactly what the rewrite does, for every name of up to
  /// five characters over an alphabet of the characters the rewrite treats specially.
  @Test func cleanNamesAreTheRewritesFixedPoints() {
    let alphabet: [String] = ["a", ".", "/", "\\", ":", "é", "\u{0}"]
    var names: [String] = [""]
    var level: [String] = [""]
    for _ in 0..<5 {
      level = level.flatMap { prefix in alphabet.map { prefix + $0 } }
      names += level
    }
    var clean = 0
    for name in names {
      #expect(EntryName.normalize(name) == EntryName.rebuild(name), "\(name.debugDescription)")
      if EntryName.isClean(name) {
        clean += 1
        #expect(EntryName.rebuild(name) == .path(name, notes: []), "\(name.debugDescription)")
      }
    }
    #expect(names.count == 19_608 && clean > 100)
  }

  @Test func resolvesHrefsAgainstTheirFile() {
    #expect(EntryName.resolve("ch1.xhtml", against: "OEBPS/content.opf") == "OEBPS/ch1.xhtml")
    #expect(
      EntryName.resolve("../images/a.png", against: "OEBPS/text/ch1.xhtml") == "OEBPS/images/a.png")
    #expect(EntryName.resolve("../../../etc/passwd", against: "OEBPS/ch1.xhtml") == nil)
    #expect(EntryName.resolve("/OEBPS/a.css", against: "x/y.opf") == "OEBPS/a.css")
    #expect(
      PackageDocument.resolve("My%20Chapter.xhtml#p%201", from: "OPS/p.opf")! == (
        "OPS/My Chapter.xhtml", "p 1"
      ))
    #expect(PackageDocument.resolve("#note", from: "OPS/ch.xhtml")! == ("OPS/ch.xhtml", "note"))
    #expect(PackageDocument.resolve("http://example.com/x.html", from: "OPS/ch.xhtml") == nil)
  }

  @Test func decodesCP437AndUTF8Names() {
    #expect(EntryName.decode([0x63, 0x61, 0x66, 0x82], utf8Flag: false).0 == "café")
    #expect(EntryName.decode([0x63, 0x61, 0x66, 0xC3, 0xA9], utf8Flag: true).0 == "café")
    #expect(EntryName.decode([0x63, 0x61, 0x66, 0xC3, 0xA9], utf8Flag: false).0 == "café")
    #expect(EntryName.decode([0xB0, 0xE1], utf8Flag: false).0 == "\u{2591}ß")
    #expect(EntryName.decode([0xFF, 0x41], utf8Flag: true).lossy)
  }

  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
  func readsEveryCorpusEntryWithMatchingCRC() throws {
    let data = try Data(contentsOf: Corpus.url("wasteland-otf-obf.epub"))
    let archive = try ZipArchive(data: data, file: "w.epub", limits: IngestLimits())
    #expect(archive.entries.count == 14)
    #expect(archive.entries.first?.name == "mimetype")
    for entry in archive.entries {
      let bytes = try archive.read(entry.name)
      #expect(UInt64(bytes.count) == entry.uncompressedSize)
    }
    #expect(try archive.read("mimetype") == Data("application/epub+zip".utf8))
  }

  @Test func emptyArchiveHasNoEntries() throws {
    // 22-byte EOCD alone: a valid, empty ZIP.
    var eocd = Data([0x50, 0x4B, 0x05, 0x06])
    eocd.append(Data(count: 18))
    let archive = try ZipArchive(data: eocd, file: "e.zip", limits: IngestLimits())
    #expect(archive.entries.isEmpty)
    #expect(ZipArchive.looksLikeZip(eocd))
  }

  @Test func everyPrefixOfAnArchiveFailsCleanly() throws {
    // Truncation at every length: an error or a short archive, never a trap.
    let data = try Data(contentsOf: Hostile.url("minimal.epub"))
    for n in stride(from: 0, to: data.count, by: 7) {
      if let archive = try? ZipArchive(data: data.prefix(n), file: "t", limits: IngestLimits()) {
        for e in archive.entries { _ = try? archive.read(e.name) }
      }
    }
  }

  @Test func everyCorruptionOfABookOpensOrFailsCleanly() throws {
    // The whole EPUB reader (not only the ZIP layer) over single-byte corruptions of a book.
    let data = try Data(contentsOf: Hostile.url("minimal.epub"))
    var opened = 0
    var failed = 0
    for i in stride(from: 0, to: data.count, by: 5) {
      var copy = data
      copy[i] = copy[i] &+ 0x41
      do throws(IngestError) {
        let archive = try ZipArchive(data: copy, file: "c.epub", limits: IngestLimits())
        _ = try EPUBReader(files: archive, options: IngestOptions()).document()
        opened += 1
      } catch {
        failed += 1
      }
    }
    #expect(opened > 0 && failed > 0)
  }

  @Test func everySingleByteCorruptionFailsCleanly() throws {
    let data = try Data(contentsOf: Hostile.url("zip64-valid.epub"))
    for i in stride(from: 0, to: data.count, by: 3) {
      var copy = data
      copy[i] ^= 0xA5
      if let archive = try? ZipArchive(data: copy, file: "c", limits: IngestLimits()) {
        for e in archive.entries { _ = try? archive.read(e.name) }
      }
    }
  }
}
