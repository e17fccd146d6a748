// `initial-letter: N M` (CSS Inline 3 §7, Blocks/FloatBlocks.swift) measured on the page:
// the letter's cap height spans from the first line's cap top to the Nth line's baseline,
// its baseline sits on the Mth line's baseline, and the M lines beside it start at its
// right edge (its advance) while the later ones take the whole measure again.
//
// The font numbers are Noto Serif's (fonts/NotoSerif-Regular.ttf, read with `hb-shape
// --font-size=1000` and the OS/2 table): upem 1000, sCapHeight 714, advance of "T" 613.

import Foundation
import QuireTypeset
import Testing

@testable import Quire

@Suite("Initial letters")
struct InitialLetterTests {
  static let capHeight = 0.714
  static let advanceOfT = 0.613
  static let text = """
    The first letter of this paragraph is an initial letter in the sense of CSS Inline 3: \
    it is sized so that its cap height spans the lines it is sunk into, and the lines \
    beside it are shortened by its width while the rest of the paragraph takes the whole \
    measure of the page again, as in a printed book whose chapters open with a large \
    capital set into the text.
    """

  /// The first page, the paragraph's lines and their baselines (of their 16-px runs), top
  /// to bottom, the letter's line box and its glyph run.
  static func layout(_ value: String) throws -> (
    lines: [LineBox], baselines: [Double], cap: LineBox, letter: GlyphRun
  ) {
    let css = """
      body { font-family: serif; margin: 0 }
      p { text-align: left; margin: 0; hyphens: none }
      p::first-letter { initial-letter: \(value) }
      """
    let book = try oneChapterBook(
      "initial-letter", value.replacingOccurrences(of: " ", with: "-"), css: css,
      body: "<p>\(text)</p>")
    let page = try #require(book.layout.pages.first)
    var runs: [GlyphRun] = []
    for item in page.items { item.forEachGlyphRun { runs.append($0) } }
    let letter = try #require(runs.first { $0.size > 16 })
    let cap = try #require(page.lines.first { $0.text == "T" })
    let lines = page.lines.filter { $0.role == .text && $0.block != cap.block }
      .sorted { $0.rect.y < $1.rect.y }
    let baselines = try lines.map { line in
      let run = try #require(
        runs.first { run in
          run.size == 16
            && run.y.first.map { Double($0) > line.rect.y && Double($0) < line.rect.maxY }
              ?? false
        })
      return Double(run.y[0])
    }
    return (lines, baselines, cap, letter)
  }

  @Test(arguments: [(2, 2), (3, 3), (4, 4), (3, 2)])
  func theLetterSpansItsLinesAndIndentsThoseBesideIt(size: Int, sink: Int) throws {
    let (body, baselines, cap, letter) = try Self.layout(
      size == sink ? "\(size)" : "\(size) \(sink)")
    #expect(baselines.count >= sink + 2)
    let letterBaseline = Double(try #require(letter.y.first))
    // Baseline on the sink-th line's; cap top on the first line's cap top: the cap height
    // spans size − 1 line pitches plus the text's cap height.
    #expect(abs(letterBaseline - baselines[sink - 1]) < 0.05)
    let pitch = baselines[1] - baselines[0]
    let expectedSize = (Double(size - 1) * pitch + 16 * Self.capHeight) / Self.capHeight
    #expect(abs(letter.size - expectedSize) < 0.05, "letter \(letter.size) px")
    if size == sink {
      let capTop = letterBaseline - letter.size * Self.capHeight
      #expect(abs(capTop - (baselines[0] - 16 * Self.capHeight)) < 0.05)
    }
    // The letter is a float as wide as its advance, at the content's left edge (0 margin).
    let width = letter.size * Self.advanceOfT
    #expect(abs(cap.rect.width - width) < 0.05)
    // The sink lines beside it start at its right edge; the next ones at the content edge.
    let left = cap.rect.x
    for (k, line) in body.enumerated() {
      let expected = k < sink ? left + width : left
      #expect(abs(line.rect.x - expected) < 0.05, "line \(k + 1): \(line.text)")
    }
  }
}
