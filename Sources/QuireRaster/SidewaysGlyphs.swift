// Sideways glyphs: vertical text's rotated runs (`GlyphOrientation.sideways`, Latin in
// `text-orientation: mixed`) are drawn turned a quarter clockwise about their pen
// position, so the baseline runs down the page and the glyphs' tops face right.
//
// A quarter turn of a coverage bitmap is exact (no resampling), so the glyph is
// rasterized upright through the ordinary cache and its bitmap turned on the way to the
// canvas. Glyph-space pixel (column c, row r), at (left + c, top + r) from the pen (y
// down), lands at (−(top + r) − 1, left + c): the turned bitmap is `rows` wide and
// `width` tall, starting `−(top + rows)` right of and `left` below the pen. Rejected:
// `FT_Set_Transform` with a rotation matrix — a second glyph cache key space and hinting
// that differs from the upright glyph, for the same pixels.

import QuireCore

extension Canvas {
  /// Paints glyph coverage `bits` (as `g` describes it) turned a quarter clockwise about
  /// the pen at (`x`, `y`).
  mutating func blitSideways(
    _ bits: UnsafePointer<UInt8>, _ g: GlyphBitmap, x: Int, y: Int, ink: Ink
  ) {
    let w = Int(g.width)
    let h = Int(g.rows)
    guard w > 0, h > 0 else { return }
    var turned = [UInt8](repeating: 0, count: w * h)
    // Turned bitmap: h columns, w rows; turned[c][h − 1 − r] = bits[r][c].
    for r in 0..<h {
      let src = bits + r * w
      let column = h - 1 - r
      for c in 0..<w { turned[c * h + column] = src[c] }
    }
    turned.withUnsafeBufferPointer { p in
      blit(
        p.baseAddress!, width: h, rows: w, x: x - Int(g.top) - h, y: y + Int(g.left), ink: ink)
    }
  }
}
