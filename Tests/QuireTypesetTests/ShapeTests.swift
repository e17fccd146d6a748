import CHarfBuzz
import Foundation
import Testing

@testable import QuireTypeset

@Suite struct ShapeTests {
  func key(
    _ s: String, face: Int, smallCaps: Bool = false, script: hb_script_t = HB_SCRIPT_LATIN,
    rtl: Bool = false
  ) -> ShapeKey {
    ShapeKey(
      text: s.unicodeScalars.map(\.value), face: face, smallCaps: smallCaps, rtl: rtl,
      script: script.rawValue, language: "en")
  }

  @Test func ligaturesAndKerning() {
    let set = FontTests.set
    let serif = set.match(family: "noto serif", weight: 400, italic: false).face
    var shaper = Shaper(fonts: set, shared: ShapeCache())
    let fi = shaper.shape(key("fi", face: serif))
    #expect(fi.glyphs.count == 1)  // the fi ligature
    let av = shaper.shape(key("AV", face: serif))
    let a = shaper.shape(key("A", face: serif))
    let v = shaper.shape(key("V", face: serif))
    #expect(av.advance < a.advance + v.advance)  // kerned
  }

  @Test func arabicJoinsRightToLeft() {
    let set = FontTests.set
    let naskh = set.families["noto naskh arabic"]![0]
    var shaper = Shaper(fonts: set, shared: ShapeCache())
    let word = shaper.shape(key("سلام", face: naskh, script: HB_SCRIPT_ARABIC, rtl: true))
    let isolated = "سلام".unicodeScalars.map {
      shaper.shape(key(String($0), face: naskh, script: HB_SCRIPT_ARABIC, rtl: true)).glyphs[0]
        .glyph
    }
    #expect(word.glyphs.count == 4)
    #expect(word.glyphs.map(\.glyph) != isolated.reversed())  // contextual forms
    #expect(word.glyphs.first?.cluster == 3)  // visual order: the last letter first
  }

  @Test func smallCapsFeatureOrFallback() {
    let set = FontTests.set
    let serif = set.match(family: "noto serif", weight: 400, italic: false).face
    var shaper = Shaper(fonts: set, shared: ShapeCache())
    if set.faces[serif].hasSmallCaps {
      #expect(
        shaper.shape(key("a", face: serif, smallCaps: true)).glyphs[0].glyph
          != shaper.shape(key("a", face: serif)).glyphs[0].glyph)
    }
    // DejaVu Sans lacks smcp: the typesetter uppercases and scales instead.
    let dejavu = set.families["dejavu sans"]![0]
    #expect(!set.faces[dejavu].hasSmallCaps)
  }

  @Test func sharedCacheServesOtherChapters() {
    let set = FontTests.set
    let shared = ShapeCache()
    var one = Shaper(fonts: set, shared: shared)
    let k = key("cached", face: 0)
    let first = one.shape(k)
    #expect(shared.get(k)?.glyphs == first.glyphs)
  }
}
