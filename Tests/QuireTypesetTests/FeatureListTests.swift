import CHarfBuzz
import QuireIngest
import Testing

@testable import QuireTypeset

/// The interned feature lists of shaping keys (Shaping/FeatureList.swift).
@Suite struct FeatureListTests {
  let liga0 = ChapterFlow.feature(FontFeature("liga", 0))
  let onum = ChapterFlow.feature(FontFeature("onum"))

  @Test func equalListsShareANumberAndReadBack() {
    let a = FeatureList([onum, liga0])
    let b = FeatureList([onum, liga0])
    let c = FeatureList([liga0, onum])  // order is part of the list (HarfBuzz applies in order)
    #expect(a == b)
    #expect(a != c)
    #expect(a.features == [onum, liga0])
    #expect(c.features == [liga0, onum])
    #expect(FeatureList([]) == .none)
    #expect(FeatureList.none.features.isEmpty)
  }

  @Test func keysDifferByFeaturesAndWordTableKeepsThemApart() {
    var plain = ShapeKey(
      text: [0x66, 0x69], face: 0, smallCaps: false, rtl: false, script: 0, language: "en")
    var off = plain
    off.style.features = FeatureList([liga0])
    #expect(plain != off)
    #expect(off.style.features.features == [liga0])
    plain.style.features = FeatureList([liga0])
    #expect(plain == off)
    #expect(plain.hashValue == off.hashValue)

    var table = WordTable()
    let part = WordPart(start: 0, end: 2, shaped: ShapedText(glyphs: [], advance: 7))
    table.insert(off, hyphenated: false, parts: [part])
    let word = ArraySlice<UInt32>([0x66, 0x69])
    var other = off.style
    other.features = .none
    #expect(
      table.find(word, fold: ShapeKey.fold(word), style: off.style, hyphenated: false)?.first?
        .shaped.advance == 7)
    #expect(table.find(word, fold: ShapeKey.fold(word), style: other, hyphenated: false) == nil)
    #expect(table.find(word, fold: ShapeKey.fold(word), style: off.style, hyphenated: true) == nil)
  }

  /// A full table numbers no new list: it answers `unshared`, and known lists keep theirs.
  @Test func aFullTableAnswersUnshared() {
    var table = FeatureTable(limit: 2)
    let a = table.intern([onum])
    let b = table.intern([liga0])
    #expect(a != b && a != .unshared && b != .unshared && a != .none)
    #expect(table.intern([onum, liga0]) == .unshared)
    #expect(table.intern([liga0, onum]) == .unshared)
    #expect(table.intern([onum]) == a)
    #expect(FeatureList.unshared.features.isEmpty)  // the caller holds an unshared list
  }

  /// An unshared list is shaped with its features, exactly as an interned one: never
  /// silently without them.
  @Test func unsharedListsShapeWithTheirFeatures() {
    let text = "office".unicodeScalars.map(\.value)
    var key = ShapeKey(
      text: text, face: TextFeatureTests.serif, smallCaps: false, rtl: false,
      script: HB_SCRIPT_LATIN.rawValue, language: "en")
    let shaper = Shaper(fonts: FontTests.set, shared: ShapeCache())
    let plain = shaper.shapeUnshared(key, features: [])
    var interned = key
    interned.style.features = FeatureList([liga0])
    let face = FontTests.set.faces[TextFeatureTests.serif]
    let withList = Shaper.run(interned, face: face)
    key.style.features = .unshared
    let unshared = shaper.shapeUnshared(key, features: [liga0])
    #expect(plain.glyphs.count < 6)  // the ffi ligature
    #expect(withList.glyphs.count == 6)
    #expect(unshared.glyphs.map(\.glyph) == withList.glyphs.map(\.glyph))
    #expect(unshared.advance == withList.advance)
  }
}
