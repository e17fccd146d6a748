// The vertical-writing properties as the cascade reads them (CSS Writing Modes 3/4, CSS Text
// Decoration 3 §3, CSS Ruby 1), with EPUB's `-epub-` and WebKit's `-webkit-` prefixes.

import Foundation
import QuireCore
import Testing

@testable import QuireIngest

/// The writing style of the span in `<p><span class="t">字</span></p>` under `.t { css }`.
private func writing(_ css: String) -> WritingStyle {
  let chapter = ContentFixtures.styled(
    "<p><span class=\"t\">字</span></p>", css: ".t { \(css) }", lang: "ja")
  for block in chapter.blocksInOrder {
    for case .text(let run) in block.inlines where run.text == "字" {
      return run.style.text.writing
    }
  }
  return WritingStyle()
}

@Suite struct WritingStyleTests {
  @Test func writingModeWithPrefixesAndSVGValues() {
    // The chapter's mode is its root's (or body's) `writing-mode`.
    let root = { (css: String) -> WritingMode in
      ContentFixtures.styled("<p>字</p>", css: css, lang: "ja").writingMode
    }
    #expect(root("") == .horizontalTB)
    #expect(root("html { writing-mode: vertical-rl; }") == .verticalRL)
    #expect(root("html { -epub-writing-mode: vertical-rl; }") == .verticalRL)
    #expect(root("body { -webkit-writing-mode: vertical-lr; }") == .verticalLR)
    #expect(root("html { writing-mode: tb-rl; }") == .verticalRL)  // SVG 1.1's values
    #expect(root("html { writing-mode: tb-lr; }") == .verticalLR)
    #expect(root("html { writing-mode: vertical-rl; writing-mode: sideways; }") == .verticalRL)
  }

  @Test func orientationAndCombine() {
    #expect(writing("text-orientation: upright").orientation == .upright)
    #expect(writing("-epub-text-orientation: sideways").orientation == .sideways)
    #expect(writing("-webkit-text-orientation: sideways-right").orientation == .sideways)
    #expect(writing("text-orientation: upright; text-orientation: 3").orientation == .upright)
    #expect(writing("text-combine-upright: all").combine == .all)
    #expect(writing("text-combine-upright: digits").combine == .digits(2))
    #expect(writing("text-combine-upright: digits 3").combine == .digits(3))
    #expect(writing("-webkit-text-combine-upright: digits 4").combine == .digits(4))
    #expect(writing("-epub-text-combine: horizontal").combine == .all)
    #expect(writing("-epub-text-combine-horizontal: all").combine == .all)
    #expect(writing("-epub-text-combine-horizontal: digits 2").combine == .digits(2))
    // `digits <integer [2,4]>`: out of range or fractional is invalid, the value before kept.
    for bad in ["digits 5", "digits 1", "digits 2.5", "all all"] {
      #expect(writing("text-combine-upright: all; text-combine-upright: \(bad)").combine == .all)
    }
  }

  @Test func emphasisStylesColoursAndPositions() throws {
    let sesame = try #require(writing("text-emphasis: filled sesame").emphasis)
    #expect(sesame.shape == "sesame" && !sesame.open && sesame.color == nil)
    let dot = try #require(writing("-epub-text-emphasis: open dot red").emphasis)
    #expect(dot.shape == "dot" && dot.open && dot.color == RGBA(r: 255, g: 0, b: 0, a: 255))
    let string = try #require(writing("-webkit-text-emphasis-style: 'xyz'").emphasis)
    #expect(string.isString && string.shape == "x")
    let open = try #require(writing("text-emphasis-style: open").emphasis)
    #expect(open.open && open.shape == "")  // the writing mode's default shape
    #expect(writing("text-emphasis: sesame; text-emphasis-style: none").emphasis == nil)
    #expect(
      writing("text-emphasis-style: circle; text-emphasis-style: bogus").emphasis?.shape == "circle"
    )
    // Colour and position longhands, prefixed too.
    let coloured = try #require(
      writing("text-emphasis-style: triangle; -epub-text-emphasis-color: #0066cc").emphasis)
    #expect(coloured.color == RGBA(r: 0, g: 0x66, b: 0xcc, a: 255))
    // over/under for horizontal lines, right/left for vertical ones, independently.
    let placed = try #require(
      writing("text-emphasis-style: dot; -epub-text-emphasis-position: under right").emphasis)
    #expect(placed.side == .under && placed.verticalSide == .over)
    let left = try #require(
      writing("text-emphasis-style: dot; text-emphasis-position: over left").emphasis)
    #expect(left.side == .over && left.verticalSide == .under)
    // The shorthand resets the colour but keeps the position.
    let kept = try #require(
      writing(
        "text-emphasis: dot red; text-emphasis-position: under left; text-emphasis: circle"
      ).emphasis)
    #expect(kept.shape == "circle" && kept.color == nil && kept.side == .under)
    #expect(kept.verticalSide == .under)
    // Invalid positions are ignored.
    let invalid = try #require(
      writing("text-emphasis-style: dot; text-emphasis-position: left right").emphasis)
    #expect(invalid.side == .over && invalid.verticalSide == .over)
  }

  @Test func rubyPositionWithPrefix() {
    #expect(writing("ruby-position: under").rubyPosition == .under)
    #expect(writing("-epub-ruby-position: under").rubyPosition == .under)
    #expect(writing("-webkit-ruby-position: after").rubyPosition == .under)
    #expect(writing("ruby-position: under; ruby-position: over").rubyPosition == .over)
  }
}
