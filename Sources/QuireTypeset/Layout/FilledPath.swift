// A filled outline in the display list: the shapes rectangles and box frames cannot draw —
// a diagonal strike, an arrow, the curved bracket of a long division (MathML `menclose`).
//
// The model is FreeType's outline model, so the raster stage hands it to FreeType's
// anti-aliased scan converter unchanged (QuireRaster/PathRasterizer.swift): closed contours of
// on-curve points, with two off-curve points between two on-curve ones for a cubic Bézier's
// controls; filled by the non-zero winding rule. A stroked line is the quadrilateral around
// it (`stroke`), so the raster needs no stroker.

import QuireCore

/// Closed contours filled with one colour (page pixels, y down).
package struct FilledPath: Sendable, Hashable {
  /// An outline point: on the curve, or a cubic Bézier control point.
  package struct Point: Sendable, Hashable {
    package var x: Double
    package var y: Double
    package var onCurve: Bool
    package init(_ x: Double, _ y: Double, onCurve: Bool = true) {
      self.x = x
      self.y = y
      self.onCurve = onCurve
    }
  }

  /// Points per path beyond which the raster draws nothing (FreeType counts in 16 bits).
  package static let maxPoints = 4096

  package var contours: [[Point]]
  package var color: RGBA

  package init(contours: [[Point]], color: RGBA) {
    self.contours = contours
    self.color = color
  }

  /// The straight stroke from (`x0`, `y0`) to (`x1`, `y1`), `width` wide, with butt ends.
  package static func stroke(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, width: Double
  ) -> [Point] {
    let length = ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot()
    guard length > 0 else { return [] }
    let nx = -(y1 - y0) / length * width / 2
    let ny = (x1 - x0) / length * width / 2
    return [
      Point(x0 + nx, y0 + ny), Point(x1 + nx, y1 + ny), Point(x1 - nx, y1 - ny),
      Point(x0 - nx, y0 - ny),
    ]
  }

  /// The path with every point moved by `f`.
  package func mapped(_ f: (Double, Double) -> (Double, Double)) -> FilledPath {
    var out = self
    out.contours = contours.map { c in
      c.map { p in
        let (x, y) = f(p.x, p.y)
        return Point(x, y, onCurve: p.onCurve)
      }
    }
    return out
  }

  /// The smallest rectangle holding every point (control points included).
  package var bounds: Rect {
    let points = contours.joined()
    guard let first = points.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
    var (x0, y0, x1, y1) = (first.x, first.y, first.x, first.y)
    for p in points {
      (x0, x1) = (min(x0, p.x), max(x1, p.x))
      (y0, y1) = (min(y0, p.y), max(y1, p.y))
    }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
