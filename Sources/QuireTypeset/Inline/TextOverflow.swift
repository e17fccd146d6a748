// `text-overflow: ellipsis` (CSS Overflow 3 §3.2): a line of a block that may not wrap
// (`white-space: nowrap`/`pre`) and clips its overflow ends, when it is cut at the block's
// end edge, in an ellipsis "…" (U+2026; three full stops when the block's face lacks it),
// set in the block's own style. Glyphs and atomic inlines that do not fit before the
// ellipsis are hidden whole; the ellipsis follows the last one kept (as Chromium sets it).
//
// The line is placed once as usual; only when it turned out clipped is it placed again with
// the ellipsis's width kept free at the end edge (`ComposedLine.endReserve`), so lines that
// fit pay nothing. The line's `text` stays the source text (the manifest's text of a cut
// line is what the book says, as for any clipped line).

import CHarfBuzz
import QuireCore

extension ComposedLine {
  /// Widens the extent of what a clipped line kept inside its edges.
  @inline(__always) mutating func keep(_ lo: Double, _ hi: Double) {
    guard lo <= hi else { return }
    keptLeft = min(keptLeft, lo)
    keptRight = max(keptRight, hi)
  }
}

extension LineComposer {
  /// `line` placed from `order` (`from` its first item in logical order), ending in an
  /// ellipsis when it is cut at its end edge.
  func ellipsized(
    _ order: [Int], from: Int, ratio: Double, _ line: ComposedLine,
    styles cache: inout PlaceStyles, shaper: inout Shaper
  ) -> ComposedLine {
    var plain = line
    place(order, from: from, ratio: ratio, into: &plain, styles: &cache, shaper: &shaper)
    guard plain.cutAtEnd else { return plain }
    let rs = styles[blockStyle]
    let face = fonts.faces[rs.choice.face]
    func shape(_ text: [UInt32]) -> ShapedText {
      shaper.shape(
        ShapeKey(
          text: text, face: rs.choice.face, smallCaps: false, rtl: false,
          script: HB_SCRIPT_COMMON.rawValue, language: ""))
    }
    var mark = shape([0x2026])
    if mark.glyphs.isEmpty || mark.glyphs.contains(where: { $0.glyph == 0 }) {
      mark = shape([0x2E, 0x2E, 0x2E])
    }
    let scale = rs.size / face.upem
    let width = mark.advance * scale
    var cut = line
    cut.endReserve = width
    place(order, from: from, ratio: ratio, into: &cut, styles: &cache, shaper: &shaper)
    let lo = geometry.lineLeft(first: cut.first, index: cut.index)
    let hi = lo + geometry.lineWidth(first: cut.first, index: cut.index)
    let x: Double
    if geometry.rtl {
      x = cut.keptLeft <= cut.keptRight ? cut.keptLeft - width : hi - width
      cut.start = max(lo, x)
    } else {
      x = cut.keptLeft <= cut.keptRight ? cut.keptRight : lo
      cut.end = min(hi, x + width)
    }
    let builder = GlyphRunBuilder(scale: scale, baseline: cut.baseline - rs.shift)
    cut.runs.append(builder.run(mark, face: rs.choice, size: rs.size, color: rs.style.color, at: x))
    return cut
  }
}
