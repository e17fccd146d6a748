// Compose's shortcuts against its general path: a page that is not drawn skips the pieces
// that join an open run (`OpenRun`), and what is read of each style is kept across a
// paragraph's lines (`PlaceStyles`).

import Foundation
import QuireCore
import QuireIngest
import Testing

@testable import QuireTypeset

@Suite struct LineComposerTests {
  /// A paragraph of several styles over several lines: bold, italic, a larger size, an
  /// underline, an inline background and text aligned with the line box's top, with
  /// hyphenation (inserted hyphens) so that runs start and end within lines.
  static func paragraph() -> Block {
    let plain = InlineRig.style()
    let bold = InlineRig.style { $0.fontWeight = 700 }
    let italic = InlineRig.style { $0.italic = true }
    let big = InlineRig.style { $0.fontSize = 2.2 }
    let under = InlineRig.style { $0.underline = true }
    let marked = InlineRig.style { $0.text.inlineBackground = RGBA(r: 255, g: 240, b: 0, a: 255) }
    let top = InlineRig.style { $0.text.verticalShift = .top }
    let words = "the extraordinary circumnavigation of incomprehensible whales "
    return InlineRig.block([
      (words, plain), ("bold words ", bold), (words, italic), ("Huge", big), (" " + words, under),
      ("marked text ", marked), (words, plain), ("top ", top), (words + "end.", under),
    ])
  }

  /// The paragraph composed at `width`, with every glyph or only each run's first ones.
  static func compose(_ rig: inout InlineRig, width: Double, draws: Bool) -> [ComposedLine] {
    var block = paragraph()
    block.style.hyphens = .auto
    let (text, itemized, shaped) = rig.shape(block, width: width)
    let breaks = InlineBreaking(
      breaker: GreedyBreaker(hyphenate: true), noWrap: false, firstWidth: width, width: width
    ).lines(shaped.items)
    var composer = LineComposer(
      text, shaped, bidi: itemized.bidi, styles: rig.flow.styles, fonts: rig.flow.fonts,
      geometry: LineGeometry(
        left: 10, width: width, indent: 0, firstWidth: width, align: .justify, rtl: false,
        pageHeight: 700),
      blockStyle: text.styles[0])
    composer.drawsGlyphs = draws
    return composer.compose(breaks, shaper: &rig.flow.shaper)
  }

  @Test(arguments: [120.0, 200.0, 333.0])
  func undrawnLinesMatchDrawnOnes(width: Double) throws {
    var rig = try InlineRig()
    let drawn = Self.compose(&rig, width: width, draws: true)
    let undrawn = Self.compose(&rig, width: width, draws: false)
    #expect(drawn.count == undrawn.count && drawn.count > 4)
    #expect(drawn.contains { $0.hyphenated })
    for (d, u) in zip(drawn, undrawn) {
      #expect(d.text == u.text && d.start == u.start && d.end == u.end)
      #expect(d.height == u.height && d.baseline == u.baseline)
      #expect(d.firstSource == u.firstSource && d.lastSource == u.lastSource)
      #expect(d.fills == u.fills && d.backgrounds == u.backgrounds)
      // The same runs, each starting where it would with its first piece's glyphs.
      #expect(d.runs.count == u.runs.count, "line \(d.index)")
      for (dr, ur) in zip(d.runs, u.runs) {
        #expect(dr.font == ur.font && dr.size == ur.size && dr.color == ur.color)
        #expect(dr.syntheticBold == ur.syntheticBold && dr.orientation == ur.orientation)
        #expect(dr.syntheticItalic == ur.syntheticItalic)
        #expect(!ur.glyphs.isEmpty && ur.glyphs.count <= dr.glyphs.count)
        #expect(Array(dr.glyphs.prefix(ur.glyphs.count)) == ur.glyphs)
        #expect(Array(dr.x.prefix(ur.x.count)) == ur.x && Array(dr.y.prefix(ur.y.count)) == ur.y)
      }
    }
  }

  /// Decorations and backgrounds follow each line's own baseline, also after a taller line
  /// (the kept styles are made again when the line box changes).
  @Test func decorationsFollowEachLinesBaseline() throws {
    var rig = try InlineRig()
    let lines = Self.compose(&rig, width: 160, draws: false)
    #expect(Set(lines.map(\.baseline)).count > 1)
    var offsets: Set<Double> = []
    for line in lines {
      for case .fill(let r, _) in line.fills { offsets.insert(r.y - line.baseline) }
    }
    // One underline position below every baseline (rounded against float noise).
    #expect(Set(offsets.map { ($0 * 1_000).rounded() }).count == 1, "\(offsets)")
    #expect(lines.contains { !$0.backgrounds.isEmpty })
  }

  @Test func placeStylesAreKeptPerLineBox() throws {
    var rig = try InlineRig()
    let glyph = GlyphStyle(rig.flow.styles[rig.flow.resolve(InlineRig.style())])
    func entry(_ i: Int, raw: Bool = false) -> PlaceStyle {
      PlaceStyle(
        index: i, raw: raw, glyph: glyph, size: 10, decorations: [], band: nil,
        annotated: false, inlineBoxes: [], plain: true)
    }
    var cache = PlaceStyles()
    cache.startLine(baseline: 12, height: 16)
    #expect(cache.find(3, raw: false) == nil)
    #expect(cache.add(entry(3)) == 0)
    #expect(cache.add(entry(3, raw: true)) == 1)
    #expect(cache.find(3, raw: false) == 0 && cache.find(3, raw: true) == 1)
    cache.startLine(baseline: 12, height: 16)
    #expect(cache.find(3, raw: false) == 0)
    cache.startLine(baseline: 13, height: 16)
    #expect(cache.find(3, raw: false) == nil)
    cache.startLine(baseline: .nan, height: 16)
    _ = cache.add(entry(5))
    cache.startLine(baseline: .nan, height: 16)
    #expect(cache.find(5, raw: false) == nil)
    // A lookup scans the last `window` entries; more are dropped at the next line.
    cache.startLine(baseline: 1, height: 2)
    for i in 0...PlaceStyles.window { _ = cache.add(entry(i)) }
    #expect(cache.find(0, raw: false) == nil && cache.find(1, raw: false) == 1)
    cache.startLine(baseline: 1, height: 2)
    #expect(cache.entries.isEmpty)
  }
}
