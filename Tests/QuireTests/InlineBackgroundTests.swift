import Foundation
import QuireCore
import QuireRaster
import QuireTypeset
import Testing

@testable import Quire

/// Inline `background-color` (Style/InlineBackground.swift, Inline/LineBackgrounds.swift) on
/// the fixture Tests/QuireIngestTests/Fixtures/css-inline/background.xhtml: one band per line
/// fragment, the content area's height, behind the glyphs, none for block backgrounds.
@Suite("Inline backgrounds")
struct InlineBackgroundTests {
  static let yellow = RGBA(r: 255, g: 221, b: 0)
  static let blue = RGBA(r: 170, g: 200, b: 255)

  static func page() throws -> Page {
    let b = try InlineTextTests.book("background")
    return try #require(b.layout.pages.first)
  }

  /// The fills of `color` whose top lies within `line` (or a few px above: the content
  /// area of larger text reaches above a tight line box).
  static func bands(_ page: Page, _ line: LineBox, _ color: RGBA) -> [Rect] {
    page.items.compactMap {
      if case .fill(let r, let c) = $0, c == color, r.maxY > line.rect.y + 1,
        r.y < line.rect.maxY - 1
      {
        return r
      }
      return nil
    }
  }

  @Test func oneBandAcrossTheSpacesOfAPhrase() throws {
    let page = try Self.page()
    let line = try #require(page.lines.first { $0.text.hasPrefix("plain") })
    let bands = Self.bands(page, line, Self.yellow)
    #expect(bands.count == 1)
    let band = try #require(bands.first)
    // Not the whole line: "plain " before and " after" after stay unpainted.
    #expect(band.x > line.rect.x + 20)
    #expect(band.maxX < line.rect.maxX - 20)
    // The content area of 16 px text (ascent + descent), not the line height.
    #expect(band.height > 14 && band.height < 22)
  }

  @Test func aWrappedPhraseIsPaintedPerLine() throws {
    let page = try Self.page()
    let first = try #require(page.lines.first { $0.text.hasPrefix("a long") })
    let k = try #require(page.lines.firstIndex { $0.text.hasPrefix("a long") })
    let next = page.lines[k + 1]
    let a = Self.bands(page, first, Self.blue)
    let b = Self.bands(page, next, Self.blue)
    #expect(a.count == 1 && b.count == 1)
    if let a = a.first, let b = b.first {
      #expect(abs(a.x - first.rect.x) < 0.5)
      #expect(b.y > a.maxY - 1)
    }
  }

  @Test func blockBackgroundsAreNotPaintedPerLine() throws {
    let page = try Self.page()
    let line = try #require(page.lines.first { $0.text.hasPrefix("a block") })
    #expect(Self.bands(page, line, RGBA(r: 221, g: 221, b: 221)).isEmpty)
  }

  @Test func descendantsKeepTheColourAtTheirOwnSize() throws {
    let page = try Self.page()
    let line = try #require(page.lines.first { $0.text.hasPrefix("outer") })
    let bands = Self.bands(page, line, Self.yellow)
    // outer·, bigger (taller band), ·inner·x (transparent keeps the outer colour), ² raised.
    #expect(bands.count >= 3)
    let tallest = try #require(bands.max { $0.height < $1.height })
    let first = try #require(bands.first)
    #expect(tallest.height > first.height * 1.3)
  }

  @Test func backgroundsAreDrawnBeforeTheGlyphs() throws {
    let page = try Self.page()
    let fill = try #require(
      page.items.firstIndex {
        if case .fill(_, let c) = $0 { return c == Self.yellow }
        return false
      })
    let glyphs = try #require(
      page.items.firstIndex {
        if case .glyphs = $0 { return true }
        return false
      })
    #expect(fill < glyphs)
  }

  @Test func pageGolden() throws {
    let b = try InlineTextTests.book("background")
    let page = try #require(b.layout.pages.first)
    let image = b.makeRenderer().render(
      page, width: InlineTextTests.width, height: InlineTextTests.height,
      format: PixelBuffer.Format.rgba8)
    try checkGolden(Data(PNGCodec.encode(image)), "css-inline-background.png")
  }
}
