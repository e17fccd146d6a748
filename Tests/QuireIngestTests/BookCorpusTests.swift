import Foundation
import QuireCore
import QuireTestSupport
import Testing

@testable import QuireIngest

struct KnownBook: Sendable, CustomTestStringConvertible {
  var file: String
  var title: String
  var spine: Int
  var language: String
  var direction: TextDirection
  var hasTOC: Bool
  var testDescription: String { file }
}

@Suite(.enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
struct BookCorpusTests {
  static let books: [KnownBook] = [
    KnownBook(
      file: "moby-dick.epub", title: "Moby-Dick", spine: 144, language: "en-US", direction: .ltr,
      hasTOC: true),
    KnownBook(
      file: "childrens-literature.epub", title: "Children's Literature", spine: 3, language: "en",
      direction: .ltr,
      hasTOC: true),
    KnownBook(
      file: "accessible_epub_3.epub", title: "Accessible EPUB 3", spine: 22, language: "en",
      direction: .ltr,
      hasTOC: true),
    KnownBook(
      // The package's cover image (shown by no spine document) is chapter 0 (`--cover auto`).
      file: "wasteland-otf-obf.epub", title: "The Waste Land", spine: 2, language: "en-US",
      direction: .ltr,
      hasTOC: true),
    KnownBook(
      file: "regime-anticancer-arabic.epub", title: "Le Vrai Régime anti-cancer", spine: 3,
      language: "ar",
      direction: .rtl, hasTOC: true),
    KnownBook(
      file: "jlreq-in-japanese.epub", title: "日本語組版処理の要件（日本語版）", spine: 159, language: "ja",
      direction: .ltr, hasTOC: true),
    KnownBook(
      file: "pg84-frankenstein.epub", title: "Frankenstein; Or, The Modern Prometheus", spine: 32,
      language: "en",
      direction: .ltr, hasTOC: true),
  ]

  @Test(arguments: books)
  func opensWithKnownMetadata(_ book: KnownBook) throws {
    let doc = try Book.open(Corpus.url(book.file))
    #expect(doc.format == .epub)
    #expect(doc.metadata.title == book.title)
    #expect(doc.chapters.count == book.spine)
    #expect(doc.metadata.language == book.language)
    #expect(doc.metadata.direction == book.direction)
    #expect(doc.toc.isEmpty == !book.hasTOC)
    #expect(doc.chapters.enumerated().allSatisfy { $0.offset == $0.element.spineIndex })
    // A well-formed corpus book opens without package warnings.
    #expect(doc.warnings.isEmpty, "\(doc.warnings)")
    // Every TOC target that names a chapter resolves to a Location inside the spine.
    func check(_ entries: [TOCEntry]) {
      for e in entries {
        if let l = e.location { #expect(l.spine >= 0 && l.spine < doc.chapters.count) }
        check(e.children)
      }
    }
    check(doc.toc)
  }

  @Test func mobyDickDetails() throws {
    let doc = try Book.open(Corpus.url("moby-dick.epub"))
    #expect(doc.metadata.creators == ["Herman Melville"])
    #expect(doc.metadata.coverHref == "OPS/images/9780316000000.jpg")
    #expect(doc.images.count == 2)
    #expect(doc.chapters.first?.href.hasPrefix("OPS/") == true)
    let cover = try #require(doc.resources.data(forHref: "OPS/images/9780316000000.jpg"))
    #expect(cover.starts(with: [0xFF, 0xD8]))
    // Four plain (not obfuscated) OpenType fonts from @font-face.
    #expect(doc.fonts.count == 4)
    #expect(doc.fonts.allSatisfy { !$0.wasObfuscated && $0.data.starts(with: Array("OTTO".utf8)) })
  }

  @Test func resourceStoreServesConcurrentReaders() throws {
    let doc = try Book.open(Corpus.url("jlreq-in-japanese.epub"))
    let hrefs = doc.images.prefix(40).map(\.href)
    #expect(hrefs.count == 40)
    let expected = hrefs.map { doc.resources.data(forHref: $0) }
    #expect(expected.allSatisfy { $0 != nil })
    let store = doc.resources
    let slots = ResultSlots<Data?>(count: hrefs.count * 4)
    DispatchQueue.concurrentPerform(iterations: hrefs.count * 4) { i in
      slots.set(i, store.data(forHref: hrefs[i % hrefs.count]))
    }
    for (i, got) in slots.values.enumerated() {
      #expect(got == expected[i % hrefs.count])
    }
    #expect(doc.images.count == 335)  // the 335 PNG figures of the manifest
  }

  @Test func frankensteinNCX() throws {
    let doc = try Book.open(Corpus.url("pg84-frankenstein.epub"))
    // EPUB 2: no nav document, the TOC comes from the NCX.
    #expect(doc.toc.count == 32)
    #expect(
      doc.toc.prefix(6).map(\.title) == [
        "Frankenstein;", "or, the Modern Prometheus", "CONTENTS", "Letter 1", "Letter 2",
        "Letter 3",
      ])
    #expect(doc.toc.allSatisfy { $0.location != nil })
    #expect(doc.toc.allSatisfy { $0.href.hasPrefix("OEBPS/") })
    // Spine order: a later TOC entry never points to an earlier chapter.
    let spines = doc.toc.compactMap { $0.location?.spine }
    #expect(spines == spines.sorted())
    #expect(doc.metadata.creators == ["Mary Wollstonecraft Shelley"])
    // EPUB 2 guide → landmarks.
    #expect(doc.landmarks.map(\.type) == ["toc", "cover"])
    #expect(doc.landmarks.first?.href == "OEBPS/110231777846946344_84-h-1.htm.html#pgepubid00002")
    #expect(doc.landmarks.allSatisfy { $0.location != nil })
  }

  @Test func wastelandFontsDeobfuscated() throws {
    let doc = try Book.open(Corpus.url("wasteland-otf-obf.epub"))
    for name in ["OldStandard-Regular", "OldStandard-Bold", "OldStandard-Italic"] {
      let data = try #require(doc.resources.data(forHref: "EPUB/\(name).obf.otf"))
      #expect(Array(data.prefix(4)) == Array("OTTO".utf8), "\(name)")
    }
    // The three @font-face rules of fonts.css, served de-obfuscated.
    #expect(doc.fonts.count == 3)
    #expect(
      Set(doc.fonts.map(\.href)) == [
        "EPUB/OldStandard-Regular.obf.otf", "EPUB/OldStandard-Bold.obf.otf",
        "EPUB/OldStandard-Italic.obf.otf",
      ])
    for font in doc.fonts {
      #expect(font.wasObfuscated)
      #expect(Array(font.data.prefix(4)) == Array("OTTO".utf8), "\(font.href)")
    }
  }

  @Test func tocFragmentsResolveToChapterOffsets() throws {
    // The Waste Land is one spine document (after its cover page); its five parts are anchors
    // inside it.
    let doc = try Book.open(Corpus.url("wasteland-otf-obf.epub"))
    let parts = doc.toc.prefix(5)
    #expect(parts.map(\.href) == (1...5).map { "EPUB/wasteland-content.xhtml#ch\($0)" })
    let offsets = parts.compactMap { $0.location?.offset }
    #expect(offsets.count == 5)
    #expect(parts.allSatisfy { $0.location?.spine == 1 })
    #expect(offsets == offsets.sorted() && Set(offsets).count == 5)
    #expect(offsets.allSatisfy { $0 > 0 && $0 < doc.chapters[1].length })
  }

  @Test func fontFaceRulesLoadDecodedFonts() throws {
    let doc = try Book.open(Corpus.url("wasteland-otf-obf.epub"))
    var encryption = EncryptionMap()
    encryption.obfuscated["EPUB/OldStandard-Regular.obf.otf"] = .idpf
    let regular = FontFaceRule(
      family: "Old Standard", weight: 400, italic: false, src: "EPUB/OldStandard-Regular.obf.otf")
    let missing = FontFaceRule(family: "Ghost", weight: 400, italic: false, src: "EPUB/ghost.otf")
    var warnings: [Diagnostic] = []
    let fonts = EPUBReader.loadFonts(
      [regular, missing, regular], store: doc.resources, encryption: encryption, warnings: &warnings
    )
    #expect(fonts.map(\.family) == ["Old Standard"])
    #expect(fonts.first?.wasObfuscated == true)
    #expect(fonts.first.map { Array($0.data.prefix(4)) } == Array("OTTO".utf8))
    #expect(warnings.map(\.file) == ["EPUB/ghost.otf"])
  }

  @Test func unpackedFolderMatchesArchive() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "quire-unpacked-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    defer { try? FileManager.default.removeItem(at: folder) }
    let archive = try ZipArchive(
      data: try Data(contentsOf: Corpus.url("childrens-literature.epub")), file: "c.epub",
      limits: IngestLimits())
    for entry in archive.entries {
      let url = folder.appendingPathComponent(entry.name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try archive.read(entry.name).write(to: url)
    }
    let zipped = try Book.open(Corpus.url("childrens-literature.epub"))
    let unpacked = try Book.open(folder)
    #expect(unpacked.metadata == zipped.metadata)
    #expect(unpacked.chapters.map(\.href) == zipped.chapters.map(\.href))
    #expect(unpacked.toc == zipped.toc)
    #expect(unpacked.images == zipped.images)
  }

  @Test func openingIsDeterministic() throws {
    let a = try Book.open(Corpus.url("accessible_epub_3.epub"))
    let b = try Book.open(Corpus.url("accessible_epub_3.epub"))
    #expect(a.toc == b.toc)
    #expect(a.chapters.map(\.href) == b.chapters.map(\.href))
    #expect(a.chapters.map(\.length) == b.chapters.map(\.length))
    #expect(a.warnings == b.warnings)
  }
}
