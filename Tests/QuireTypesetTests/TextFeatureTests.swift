import CHarfBuzz
import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

/// CSS font features as HarfBuzz sees them (`ShapeKey.features`), letter spacing per
/// cluster, address detection and the decoration metrics read from the face.
@Suite struct TextFeatureTests {
  static let serif = FontTests.set.match(family: "noto serif", weight: 400, italic: false).face

  func shape(_ s: String, _ features: [FontFeature] = [], smallCaps: Bool = false) -> ShapedText {
    var shaper = Shaper(fonts: FontTests.set, shared: ShapeCache())
    return shaper.shape(
      ShapeKey(
        text: s.unicodeScalars.map(\.value), face: Self.serif, smallCaps: smallCaps, rtl: false,
        script: HB_SCRIPT_LATIN.rawValue, language: "en",
        features: features.map(ChapterFlow.feature)))
  }

  @Test func variantFeaturesChangeGlyphs() {
    let digits = shape("0123456789")
    #expect(
      shape("0123456789", [FontFeature("onum")]).glyphs.map(\.glyph) != digits.glyphs.map(\.glyph))
    #expect(
      shape("1/2", [FontFeature("frac")]).glyphs.map(\.glyph) != shape("1/2").glyphs.map(\.glyph))
    // all-small-caps: c2sc turns capitals into small capitals too.
    let caps = shape("NASA", smallCaps: true)
    #expect(
      shape("NASA", [FontFeature("c2sc")], smallCaps: true).glyphs.map(\.glyph)
        != caps.glyphs.map(\.glyph))
    // font-variant-ligatures: none (and letter spacing) keeps "ffi" three glyphs.
    #expect(shape("office").glyphs.count < 6)
    #expect(shape("office", [FontFeature("liga", 0)]).glyphs.count == 6)
    // font-kerning: none.
    #expect(shape("AV", [FontFeature("kern", 0)]).advance > shape("AV").advance)
  }

  @Test func featuresAreACacheKey() {
    var shaper = Shaper(fonts: FontTests.set, shared: ShapeCache())
    let text = "office".unicodeScalars.map(\.value)
    let plain = ShapeKey(
      text: text, face: Self.serif, smallCaps: false, rtl: false, script: HB_SCRIPT_LATIN.rawValue,
      language: "en")
    var off = plain
    off.style.features = FeatureList([ChapterFlow.feature(FontFeature("liga", 0))])
    #expect(plain != off)
    #expect(shaper.shape(plain).glyphs.count != shaper.shape(off).glyphs.count)
  }

  @Test func letterSpacingGoesAfterEveryCluster() {
    let word = shape("ab\u{301}c")  // b with a combining acute: one cluster
    let part = WordPart(start: 0, end: 4, shaped: word)
    let spaced = PieceShaper.letterSpaced(part, by: 100)
    #expect(spaced.shaped.advance == word.advance + 300)
    #expect(PieceShaper.isCursive(HB_SCRIPT_ARABIC) && !PieceShaper.isCursive(HB_SCRIPT_LATIN))
  }

  @Test func addressesAreFound() {
    func isAddress(_ s: String) -> Bool {
      AddressSpans.isAddress(ArraySlice(s.unicodeScalars.map(\.value)))
    }
    for a in [
      "http://www.idpf.org/2007/opf", "(https://example.com/a)", "www.example.com",
      "someone@example.com", "/usr/share/hyphen", "~/books/moby.epub", "C:\\Windows\\fonts",
      "src/main/java",
    ] {
      #expect(isAddress(a), "\(a)")
    }
    for w in ["characteristically", "and/or", "e.g.", "@home", "internationalization,"] {
      #expect(!isAddress(w), "\(w)")
    }
    let text = "see http://x.org/a/b now".unicodeScalars.map(\.value)
    let spans = AddressSpans(text, enabled: true)
    #expect(!spans[0] && spans[4] && spans[19] && !spans[21])
    #expect(!AddressSpans(text, enabled: false)[4])
  }

  @Test func decorationMetricsComeFromTheFace() {
    let face = FontTests.set.faces[Self.serif]
    let m = face.decoration
    // Noto Serif's post table: underline position −0.1 em (top below the baseline),
    // thickness 0.05 em; OS/2 strike-out 0.322 em, 0.05 em.
    #expect(m.underlineOffset > 0.05 && m.underlineOffset < 0.2)
    #expect(m.underlineThickness > 0.03 && m.underlineThickness < 0.1)
    #expect(m.strikeoutOffset > 0.2 && m.strikeoutOffset < 0.4)
    #expect(m.xHeight > 0.4 && m.xHeight < 0.6)
  }

  @Test func wordBreakRules() {
    let a: UInt32 = 0x61
    let b: UInt32 = 0x62
    let han: UInt32 = 0x6F22
    #expect(PieceShaper.wordBreak(.breakAll, a, b, allowed: false))
    #expect(!PieceShaper.wordBreak(.normal, a, b, allowed: false))
    #expect(!PieceShaper.wordBreak(.keepAll, han, han, allowed: true))
    #expect(PieceShaper.wordBreak(.keepAll, 0x3002, han, allowed: true))  // after 。
  }
}
