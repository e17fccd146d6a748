// Direction and language come from the content, not the package (EPUB 3.3; issue #13):
// page progression orders pages and never sets text direction; a document without `dir`
// is LTR; `dc:language` reaches content that names no language only where the text's script
// (and, for Latin, its common words) fit it (QuireTypeset's Inline/ContentLanguage.swift).

import CHarfBuzz
import Foundation
import QuireIngest
import QuireTestSupport
import Testing

@testable import Quire
@testable import QuireTypeset

@Suite struct LanguagePrecedenceTests {
  /// An unpacked EPUB with one chapter `html` (the whole document), `dc:language` `language`
  /// and the spine's page progression `progression`.
  static func book(_ name: String, language: String, progression: String?, html: String) throws
    -> String
  {
    let dir = temporaryFolder("precedence-\(name)")
    let ppd = progression.map { " page-progression-direction=\"\($0)\"" } ?? ""
    let opf = """
      <?xml version="1.0" encoding="utf-8"?>
      <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id" xml:lang="\(language)">
      <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier>
      <dc:title>T</dc:title><dc:language>\(language)</dc:language></metadata>
      <manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>
      <spine\(ppd)><itemref idref="c"/></spine></package>
      """
    try writeUnpackedEPUB(dir, opf: opf, files: ["c.xhtml": Data(html.utf8)])
    return dir
  }

  static func html(_ body: String, htmlAttributes: String = "") -> String {
    """
    <?xml version="1.0" encoding="utf-8"?>
    <html xmlns="http://www.w3.org/1999/xhtml"\(htmlAttributes)><head><title>c</title></head><body>\(body)</body></html>
    """
  }

  static let settings = LayoutSettings(pageWidth: 600, pageHeight: 800)
  static var left: Double { settings.effectiveMargins.left }
  static var right: Double { 600 - settings.effectiveMargins.right }

  @Test(arguments: [("he", "rtl"), ("ar", nil), ("ja", "rtl")] as [(String, String?)])
  func packageDirectionNeverReachesText(language: String, progression: String?) throws {
    let path = try Self.book(
      "dir-\(language)", language: language, progression: progression,
      html: Self.html("<p>This is a test.</p><p>これは日本語の文です。</p>"))
    let book = try EagerBook(path, settings: Self.settings)
    let lines = book.layout.pages.flatMap(\.lines).filter { $0.role == .text }
    #expect(lines.count == 2)
    // Left-aligned (LTR): each line starts at the left margin, its stop at its end.
    for l in lines { #expect(abs(l.rect.x - Self.left) < 0.5, "\(l.text) at \(l.rect)") }
    #expect(lines[0].text == "This is a test.")
    // The glyph drawn last (rightmost) is the full stop: punctuation stays in place.
    let runs = book.layout.pages[0].items.compactMap { item -> GlyphRun? in
      if case .glyphs(let r) = item { return r }
      return nil
    }
    let first = try #require(runs.first)
    #expect(first.x.last == first.x.max())
    // Page progression still orders the pages (flips, spreads).
    if progression == "rtl" { #expect(book.document.metadata.direction == .rtl) }
  }

  @Test func contentDirectionIsKept() throws {
    let path = try Self.book(
      "dir-content", language: "en", progression: nil,
      html: Self.html("<p>שלום עולם.</p>", htmlAttributes: " dir=\"rtl\" xml:lang=\"he\""))
    let book = try EagerBook(path, settings: Self.settings)
    let l = try #require(book.layout.pages.first?.lines.first)
    #expect(abs(l.rect.maxX - Self.right) < 0.5, "\(l.rect)")
  }

  static let english = String(
    repeating: """
      The extraordinary circumstances of the expedition, which nobody in the establishment \
      had anticipated, were the subject of considerable conversation and interminable \
      correspondence with the administration of the university and the international press. 
      """, count: 3)
  static let french = String(
    repeating: """
      Les circonstances extraordinaires de cette expédition, que personne dans \
      l’établissement n’avait anticipées, furent le sujet de conversations considérables et \
      d’une correspondance interminable avec l’administration de l’université. 
      """, count: 3)

  /// The line dump of `text` in a package of `language`, the paragraph's own `lang` (if any).
  static func lines(_ text: String, package: String, own: String?) throws -> String {
    let attr = own.map { " xml:lang=\"\($0)\" lang=\"\($0)\"" } ?? ""
    let path = try Self.book(
      "lang-\(package)-\(own ?? "none")-\(text.prefix(3))", language: package, progression: nil,
      html: Self.html("<p\(attr)>\(text)</p>"))
    var s = Self.settings
    s.pageWidth = 320
    let book = try EagerBook(path, settings: s)
    return book.layout.pages.flatMap(\.lines).map { ($0.hyphenated ? "-" : " ") + $0.text }
      .joined(separator: "\n")
  }

  @Test func englishInAFrenchPackageIsNotHyphenatedAsFrench() throws {
    let undeclared = try Self.lines(Self.english, package: "fr", own: nil)
    let asEnglish = try Self.lines(Self.english, package: "fr", own: "en")
    let asFrench = try Self.lines(Self.english, package: "fr", own: "fr")
    #expect(asEnglish != asFrench)  // the two pattern sets break this text differently
    // No language of its own, words clearly English: not French. With no --lang, no
    // language at all, so no hyphenation.
    #expect(undeclared != asFrench)
    #expect(!undeclared.contains("\n-"))
  }

  @Test func frenchContentWithoutLanguageUsesTheFrenchPackage() throws {
    let undeclared = try Self.lines(Self.french, package: "fr", own: nil)
    let asFrench = try Self.lines(Self.french, package: "fr", own: "fr")
    #expect(undeclared == asFrench)
    #expect(undeclared.contains("\n-"))
  }

  static let german =
    "Geschwindigkeitsbegrenzung, Rechtsschutzversicherungsgesellschaften und das "
    + "Bundesverfassungsgericht an der Straßenbahnhaltestelle mit Lebensversicherung "
  static let latin =
    "consectetur adipiscing sollicitudin, pellentesque vestibulum condimentum "
    + "ullamcorper sollicitudin consectetur "

  /// Each hyphenated line's broken word and where it was broken (scalars before the break).
  static func brokenWords(_ dump: String) -> [(word: String, at: Int)] {
    let lines = dump.split(separator: "\n").map(String.init)
    var out: [(String, Int)] = []
    for (a, b) in zip(lines, lines.dropFirst()) where a.hasPrefix("-") {
      let head = a.split(separator: " ").last.map(String.init) ?? ""
      let tail = b.dropFirst().split(separator: " ").first.map(String.init) ?? ""
      let word = (head + tail).filter { $0.isLetter }
      out.append((word, head.filter { $0.isLetter }.unicodeScalars.count))
    }
    return out
  }

  /// The German words of `dump` (`german`'s) are broken only at German pattern points, at
  /// least twice, and at least once where English patterns have no point.
  static func expectGermanBreaks(_ dump: String) throws {
    let de = try #require(Hyphenator.forLanguage("de"))
    let en = try #require(Hyphenator.forLanguage("en"))
    let germanWords = Set(german.split(separator: " ").map { $0.filter(\.isLetter) })
    var breaks = 0
    var onlyGerman = 0
    for b in brokenWords(dump) where germanWords.contains(b.word) {
      breaks += 1
      #expect(de.hyphenationPoints(in: b.word).contains(b.at), "\(b.word) at \(b.at)")
      if !en.hyphenationPoints(in: b.word).contains(b.at) { onlyGerman += 1 }
    }
    #expect(breaks >= 2 && onlyGerman >= 1, "\(dump)")
  }

  /// A `lang` span inside an English paragraph is hyphenated with its own language's
  /// patterns (German here), and not at all when libhyphen has none for it (Latin).
  @Test func spanLanguageHyphenatesItsOwnWords() throws {
    let latinWords = Set(Self.latin.split(separator: " ").map { $0.filter(\.isLetter) })
    let body = String(repeating: "In the city <span lang=\"de\">\(Self.german)</span>", count: 3)
    let dump = try Self.lines(body, package: "en", own: "en")
    try Self.expectGermanBreaks(dump)
    // Latin: no patterns installed, so its words are never broken; as English they would be.
    let latin = String(repeating: "In the city <span lang=\"la\">\(Self.latin)</span>", count: 3)
    let asLatin = Self.brokenWords(try Self.lines(latin, package: "en", own: "en"))
    #expect(!asLatin.contains { latinWords.contains($0.word) }, "\(asLatin)")
    let undeclared = latin.replacingOccurrences(of: " lang=\"la\"", with: "")
    let asEnglish = Self.brokenWords(try Self.lines(undeclared, package: "en", own: "en"))
    #expect(asEnglish.contains { latinWords.contains($0.word) })
  }

  /// Paragraphs in two languages, one after the other on the same worker: the second is
  /// hyphenated with its own patterns, not the points the first cached for the same words.
  @Test func paragraphsInTwoLanguagesDoNotShareHyphenationPoints() throws {
    let text = String(repeating: Self.german, count: 3)
    let path = try Self.book(
      "lang-two-paragraphs", language: "en", progression: nil,
      html: Self.html("<p lang=\"en\">\(text)</p><p lang=\"de\">\(text)</p>"))
    var s = Self.settings
    s.pageWidth = 320
    let lines = try EagerBook(path, settings: s).layout.pages.flatMap(\.lines)
    let blocks = Array(Set(lines.map(\.block))).sorted()
    try #require(blocks.count >= 2)
    let german = lines.filter { $0.block == blocks.last }
      .map { ($0.hyphenated ? "-" : " ") + $0.text }.joined(separator: "\n")
    try Self.expectGermanBreaks(german)
  }

  @Test func scriptsOfTags() {
    #expect(ContentLanguage.scripts(of: "fr-CA") == [HB_SCRIPT_LATIN])
    #expect(ContentLanguage.scripts(of: "sr-Latn") == [HB_SCRIPT_LATIN])
    #expect(ContentLanguage.scripts(of: "sr") == [HB_SCRIPT_CYRILLIC])
    #expect(ContentLanguage.scripts(of: "ja").contains(HB_SCRIPT_HIRAGANA))
    #expect(
      ContentLanguage.firstScript(Array("«Это»".unicodeScalars.map(\.value))) == HB_SCRIPT_CYRILLIC)
  }
}
