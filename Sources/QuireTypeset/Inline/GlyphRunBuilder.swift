// Shaped text → positioned glyphs: the one place that walks a pen along HarfBuzz advances.
// Text lines, list markers, inserted hyphens and folios all go through it.
//
// Units: shaped advances and offsets are in font units; `scale` (size / units per em) turns
// them into page pixels. x grows along the pen; y is the baseline (page pixels, y down), and
// a glyph's HarfBuzz y offset (up) moves it up. Letter spacing adds `gap` before each
// advancing glyph but the first (marks stay on their base) and half a gap at the start, so
// a piece widened by `extra` keeps half a gap at either end.

import QuireCore

/// Appends shaped glyphs to glyph runs.
struct GlyphRunBuilder {
  /// Pixels per font unit.
  var scale: Double
  /// The baseline, page pixels.
  var baseline: Double

  /// Appends `shaped`'s glyphs to `run` with the pen starting at `x`; `extra` px of letter
  /// spacing are spread between the advancing glyphs. Returns the pen after the last glyph.
  @discardableResult
  @inline(__always)
  func append(_ shaped: ShapedText, at x: Double, extra: Double = 0, to run: inout GlyphRun)
    -> Double
  {
    var pen = x
    let gy = Float(baseline)
    var gap = 0.0
    if extra != 0 {
      let advancing = shaped.glyphs.reduce(0) { $0 + ($1.advance != 0 ? 1 : 0) }
      gap = extra / Double(max(1, advancing))
      pen += gap / 2
    }
    var firstAdvancing = true
    for g in shaped.glyphs {
      if g.advance != 0 {
        if !firstAdvancing { pen += gap }
        firstAdvancing = false
      }
      run.glyphs.append(g.glyph)
      run.x.append(Float(pen + Double(g.dx) * scale))
      run.y.append(g.dy == 0 ? gy : Float(baseline - Double(g.dy) * scale))
      pen += Double(g.advance) * scale
    }
    return pen
  }

  /// A run of its own for `shaped` in `choice`'s face at `size` px, pen starting at `x`.
  func run(
    _ shaped: ShapedText, face choice: FaceChoice, size: Double, color: RGBA, at x: Double
  ) -> GlyphRun {
    var run = GlyphRun(
      font: choice.face, size: size, color: color, glyphs: [], x: [], y: [],
      syntheticBold: choice.syntheticBold, syntheticItalic: choice.syntheticItalic)
    run.glyphs.reserveCapacity(shaped.glyphs.count)
    run.x.reserveCapacity(shaped.glyphs.count)
    run.y.reserveCapacity(shaped.glyphs.count)
    append(shaped, at: x, to: &run)
    return run
  }
}
