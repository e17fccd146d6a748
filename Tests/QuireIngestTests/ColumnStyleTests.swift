// Multi-column properties (Style/ColumnProperties.swift): longhands, the `columns` and
// `column-rule` shorthands, prefixed names, bounds, and invalid values ignored.

import Foundation
import QuireCore
import Testing

@testable import QuireIngest

private func columns(_ css: String) -> ColumnStyle {
  let bs = ContentFixtures.styled(
    "<div class=\"t\">x</div>", css: ".t { \(css) }", cssHref: "css/s.css"
  )
  .blocksInOrder
  return bs.first { $0.element == "div" }?.box.columns ?? ColumnStyle()
}

private let px = 1.0 / 16

@Suite struct ColumnStyleTests {
  @Test func longhandsAndShorthands() {
    let a = columns(
      "column-count: 3; column-width: 10em; column-gap: 20px; column-rule: 2px dashed red; column-fill: auto"
    )
    #expect(a.count == 3 && a.width == .rem(10) && a.gap == .rem(20 * px))
    #expect(
      a.rule == BorderSide(width: .rem(2 * px), style: .dashed, color: RGBA(r: 255, g: 0, b: 0)))
    #expect(a.fill == .auto && a.isMultiColumn)
    // `columns: <width> || <count>` in either order; an omitted one is auto.
    let b = columns("columns: 2 12em")
    #expect(b.count == 2 && b.width == .rem(12))
    let c = columns("column-count: 4; columns: 8em")
    #expect(c.count == nil && c.width == .rem(8))
    #expect(!columns("columns: auto").isMultiColumn)
    // EPUB style sheets' prefixed names; `gap`'s second value is the column gap.
    let d = columns("-webkit-column-count: 2; -epub-column-gap: 1em; gap: 4px 6%")
    #expect(d.count == 2 && d.gap == .percent(6))
    #expect(columns("column-span: all").spanAll)
  }

  @Test func boundsAndInvalidValues() {
    #expect(columns("column-count: 100000").count == ColumnStyle.maxCount)
    let bad = columns(
      "column-count: 2; column-count: 0; column-count: 2.5; column-width: 5em; column-width: 30%; column-width: -1px; column-gap: -3px; columns: 1 2 3"
    )
    #expect(bad.count == 2 && bad.width == .rem(5) && bad.gap == nil)
    #expect(columns("column-width: 0.001px").width == .rem(0.001 * px))
  }
}
