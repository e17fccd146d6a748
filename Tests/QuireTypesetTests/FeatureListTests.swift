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
}
