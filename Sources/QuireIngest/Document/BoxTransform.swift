// The `transform` and `transform-origin` of a box (CSS Transforms 1 §5, §7, §13), as the
// cascade read them: the 2-D transform functions in source order with their lengths
// unresolved (a percentage in `translate` is of the box's own border box, known only after
// layout), angles in radians. Typeset resolves them into one affine matrix per box
// (Fixed/BoxMatrix.swift).

/// One 2-D transform function.
package enum TransformFunction: Sendable, Hashable, Codable {
  /// `translate(x, y)`, `translateX`, `translateY`: percentages of the border box.
  case translate(Length, Length)
  /// `scale(sx, sy)`, `scaleX`, `scaleY`.
  case scale(Double, Double)
  /// `rotate(a)`: clockwise on screen (y down), radians.
  case rotate(Double)
  /// `skew(ax, ay)`, `skewX`, `skewY`: radians.
  case skew(Double, Double)
  /// `matrix(a, b, c, d, e, f)`: e and f in rem.
  case matrix(a: Double, b: Double, c: Double, d: Double, e: Length, f: Length)
}

/// The `transform` of one element.
package struct BoxTransform: Sendable, Hashable, Codable {
  /// The functions, applied in order (the first is the outermost).
  package var functions: [TransformFunction] = []

  package init(functions: [TransformFunction] = []) {
    self.functions = functions
  }

  /// True when every function is a translation (the box is only moved).
  package var isTranslation: Bool {
    functions.allSatisfy { if case .translate = $0 { true } else { false } }
  }
}
