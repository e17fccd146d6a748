// A 2-D affine matrix in page pixels (CSS Transforms 1 §5: [a c e; b d f; 0 0 1], y down),
// and the display-list item that draws items under one: `TransformedGroup`.

/// A 2-D affine matrix mapping (x, y) to (a·x + c·y + e, b·x + d·y + f).
package struct AffineMatrix: Sendable, Hashable {
  package var a: Double, b: Double, c: Double, d: Double, e: Double, f: Double

  package init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
    (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
  }

  /// The identity.
  package static let identity = AffineMatrix(a: 1, b: 0, c: 0, d: 1, e: 0, f: 0)

  /// A translation by (x, y).
  package static func translation(_ x: Double, _ y: Double) -> AffineMatrix {
    AffineMatrix(a: 1, b: 0, c: 0, d: 1, e: x, f: y)
  }

  /// `self` applied after `inner`: the matrix product self × inner.
  package func concatenating(_ inner: AffineMatrix) -> AffineMatrix {
    AffineMatrix(
      a: a * inner.a + c * inner.b, b: b * inner.a + d * inner.b,
      c: a * inner.c + c * inner.d, d: b * inner.c + d * inner.d,
      e: a * inner.e + c * inner.f + e, f: b * inner.e + d * inner.f + f)
  }

  /// The point (x, y) mapped.
  package func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
    (a * x + c * y + e, b * x + d * y + f)
  }

  /// The determinant; 0 for a matrix that flattens the plane (nothing is drawn then).
  package var determinant: Double { a * d - b * c }

  /// The inverse, nil when the matrix is singular or not finite.
  package var inverted: AffineMatrix? {
    let det = determinant
    guard det.isFinite, abs(det) > 1e-12 else { return nil }
    return AffineMatrix(
      a: d / det, b: -b / det, c: -c / det, d: a / det, e: (c * f - d * e) / det,
      f: (b * e - a * f) / det)
  }

  /// True when the matrix only moves (no scale, rotation or skew).
  package var isTranslation: Bool { a == 1 && b == 0 && c == 0 && d == 1 }

  /// The axis-aligned bounding box of `r` mapped.
  package func bounds(of r: Rect) -> Rect {
    let corners = [
      apply(r.x, r.y), apply(r.maxX, r.y), apply(r.x, r.maxY), apply(r.maxX, r.maxY),
    ]
    let xs = corners.map(\.x)
    let ys = corners.map(\.y)
    let (x0, y0) = (xs.min()!, ys.min()!)
    return Rect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
  }
}

/// Items drawn under an affine matrix (a box with a CSS `transform` and its descendants):
/// the raster stage paints them on an offscreen layer and composites the layer through the
/// matrix with bilinear filtering.
package struct TransformedGroup: Sendable, Hashable {
  /// From the items' page coordinates to the page.
  package var matrix: AffineMatrix
  /// Where the items draw, before the matrix, page px (glyph ink past a line box included
  /// by a margin): the offscreen layer covers this rectangle.
  package var bounds: Rect
  package var items: [DisplayItem]

  package init(matrix: AffineMatrix, bounds: Rect, items: [DisplayItem]) {
    self.matrix = matrix
    self.bounds = bounds
    self.items = items
  }
}
