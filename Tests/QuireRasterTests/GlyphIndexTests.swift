import Testing

@testable import QuireRaster

/// The glyph cache's open-addressing index against a `Dictionary` holding the same entries.
@Suite struct GlyphIndexTests {
  private func key(_ i: Int) -> GlyphKey {
    // Keys that differ in one field at a time collide in the low bits of a weak hash.
    GlyphKey(
      font: Int32(i % 3), glyph: UInt32(i / 12), size: Int32(1024 + (i / 3) % 2 * 64),
      variant: UInt8(i % 4))
  }

  private func bitmap(_ i: Int) -> GlyphBitmap {
    GlyphBitmap(left: Int32(i), top: -Int32(i), width: Int32(i % 17), rows: 3, offset: i * 7)
  }

  @Test func findsWhatWasInsertedThroughGrowthAndOverwrite() {
    var index = GlyphIndex()
    var reference: [GlyphKey: Int] = [:]
    for i in 0..<5000 {
      index.insert(key(i), bitmap(i))
      reference[key(i)] = i
    }
    // Overwrite every third entry.
    for i in stride(from: 0, to: 5000, by: 3) {
      index.insert(key(i), bitmap(i + 1))
      reference[key(i)] = i + 1
    }
    #expect(index.count == reference.count)
    for (k, i) in reference {
      let found = index.find(k)
      #expect(found?.offset == bitmap(i).offset && found?.left == bitmap(i).left)
    }
    #expect(index.find(GlyphKey(font: 9, glyph: 1, size: 1024, variant: 0)) == nil)
    index.removeAll()
    #expect(index.count == 0)
    #expect(index.find(key(1)) == nil)
    index.insert(key(1), bitmap(5))
    #expect(index.find(key(1))?.offset == bitmap(5).offset)
  }
}
