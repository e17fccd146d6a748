import CHarfBuzz
import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

@Suite struct FontTests {
  static let set: FontSet = try! FontSet(embedded: [], userFont: nil)

  @Test func locatesTheVendoredFonts() throws {
    let folder = try FontSet.locateFontsFolder()
    #expect(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("DejaVuSans.ttf").path))
    #expect(FontTests.set.faces.count == FontSet.vendored.count)
  }

  /// The Latin coverage table asked in runs equals one nominal-glyph lookup per code point,
  /// for every vendored face (their gaps differ: controls, unassigned and uncovered letters).
  @Test func latinCoverageEqualsPerCodePointLookups() {
    var gaps = 0
    for face in FontTests.set.faces {
      let table = Face.latinCoverage(face.hbFont)
      let single = (0..<UInt32(0x250)).map { c in
        var g: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(face.hbFont, c, &g) != 0
      }
      #expect(table == single, "\(face.record.origin)")
      gaps += single.filter { !$0 }.count
    }
    #expect(gaps >= 32 * FontTests.set.faces.count)
  }

  /// Font sets share the vendored faces, opened once, in `FontSet.vendored` order.
  @Test func fontSetsShareTheVendoredFaces() throws {
    Typesetter.prefetchFaces()
    let a = try FontSet(embedded: [], userFont: nil)
    let b = try FontSet(embedded: [], userFont: "monospace")
    #expect(a.faces.count == FontSet.vendored.count && b.faces.count == a.faces.count)
    for (k, v) in FontSet.vendored.enumerated() {
      #expect(a.faces[k] === b.faces[k] && a.faces[k] === FontTests.set.faces[k])
      #expect(a.faces[k].record.origin == "fonts/\(v.file)")
    }
  }

  @Test func genericFamiliesAndCSSMatching() {
    let s = FontTests.set
    var st = ComputedStyle()
    st.fontFamilies = ["Nonexistent", "monospace"]
    #expect(
      s.faces[s.choose(st, publisherFonts: true).face].record.origin
        == "fonts/NotoSansMono-Regular.ttf")
    st.italic = true
    let monoItalic = s.choose(st, publisherFonts: true)
    #expect(monoItalic.syntheticItalic && !monoItalic.syntheticBold)
    st.fontFamilies = ["serif"]
    st.fontWeight = 800
    let heavy = s.choose(st, publisherFonts: true)
    #expect(s.faces[heavy.face].record.origin == "fonts/NotoSerif-BoldItalic.ttf")
    #expect(!heavy.syntheticBold && !heavy.syntheticItalic)
    st.fontFamilies = ["sans-serif"]
    let sansBold = s.choose(st, publisherFonts: true)
    #expect(s.faces[sansBold.face].record.origin == "fonts/DejaVuSans.ttf")
    #expect(sansBold.syntheticBold && sansBold.syntheticItalic)
    // A lighter request prefers the lighter face.
    #expect(s.faces[s.match(family: "noto serif", weight: 300, italic: false).face].weight == 400)
  }

  @Test func fallbackPerScript() {
    let s = FontTests.set
    let serif = s.match(family: "noto serif", weight: 400, italic: false)
    func origin(_ c: Character) -> String? {
      let v = c.unicodeScalars.first!.value
      return s.face(for: v, choice: serif, script: Scripts.script(v)).map {
        s.faces[$0].record.origin
      }
    }
    #expect(origin("a") == "fonts/NotoSerif-Regular.ttf")
    #expect(origin("中") == "fonts/NotoSerifCJK-Regular.otf")
    #expect(origin("。") == "fonts/NotoSerifCJK-Regular.otf")
    #expect(origin("ع") == "fonts/NotoNaskhArabic-Regular.ttf")
    #expect(origin("♔") == "fonts/NotoSansSymbols2-Regular.ttf")
    #expect(origin("∮") != nil)
    #expect(s.face(for: 0x10FFFD, choice: serif, script: Scripts.script(0x10FFFD)) == nil)
  }

  @Test func embeddedFontsMatchByFamilyOnlyWithPublisherStyles() throws {
    let folder = try FontSet.locateFontsFolder()
    let data = try Data(contentsOf: folder.appendingPathComponent("NotoSansMono-Regular.ttf"))
    let embedded = EmbeddedFont(
      family: "Book Face", weight: 400, italic: false, href: "fonts/book.ttf", data: data,
      wasObfuscated: false)
    let s = try FontSet(embedded: [embedded], userFont: nil)
    var st = ComputedStyle()
    st.fontFamilies = ["Book Face", "serif"]
    #expect(s.faces[s.choose(st, publisherFonts: true).face].record.origin == "book:fonts/book.ttf")
    #expect(
      s.faces[s.choose(st, publisherFonts: false).face].record.origin
        == "fonts/NotoSerif-Regular.ttf")
    // A damaged embedded font is a warning, not an error.
    let broken = EmbeddedFont(
      family: "Broken", weight: 400, italic: false, href: "fonts/bad.otf",
      data: Data(repeating: 7, count: 100), wasObfuscated: true)
    let s2 = try FontSet(embedded: [broken], userFont: nil)
    #expect(s2.warnings.count == 1 && s2.warnings[0].description.contains("fonts/bad.otf"))
  }

  @Test func readerFontByFamilyOrPath() throws {
    let folder = try FontSet.locateFontsFolder()
    let byPath = try FontSet(
      embedded: [], userFont: folder.appendingPathComponent("DejaVuSans.ttf").path)
    #expect(
      byPath.faces[byPath.choose(ComputedStyle(), publisherFonts: true).face].record.origin
        .hasSuffix("DejaVuSans.ttf"))
    let byName = try FontSet(embedded: [], userFont: "Noto Sans Mono")
    #expect(
      byName.faces[byName.choose(ComputedStyle(), publisherFonts: true).face].record.origin
        == "fonts/NotoSansMono-Regular.ttf")
    #expect(throws: FontError.self) { try FontSet(embedded: [], userFont: "/nonexistent/font.ttf") }
  }
}
