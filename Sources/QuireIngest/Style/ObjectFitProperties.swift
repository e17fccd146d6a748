// `object-fit` and `object-position` for replaced elements (images), onto `BoxStyle`; the
// sizes they act with (`width`, `height`, min/max) are parsed with the other box properties
// (BoxProperties.swift). Unknown values are skipped, as everywhere in the cascade.

extension StyleComputer {
  /// Applies `object-fit`/`object-position`; true when the name was one of them.
  static func applyObjectFit(_ name: String, _ v: [CSSToken], _ s: inout ElementStyle) -> Bool {
    switch name {
    case "object-fit":
      if let k = keyword(v), let fit = ObjectFit(rawValue: k) { s.box.objectFit = fit }
    case "object-position":
      if let (x, y) = objectPosition(v) {
        s.box.objectPositionX = x
        s.box.objectPositionY = y
      }
    default: return false
    }
    return true
  }

  /// `object-position` keywords and percentages as fractions (x, y); one value sets x and
  /// centres y unless it is a vertical keyword.
  static func objectPosition(_ v: [CSSToken]) -> (Double, Double)? {
    var xs: [Double] = []
    var ys: [Double] = []
    var either: [Double] = []
    for t in v.prefix(4) {
      switch t.kind {
      case .percentage: either.append(max(0, min(1, t.number / 100)))
      case .number where t.number == 0: either.append(0)
      case .ident:
        switch t.text.lowercased() {
        case "left": xs.append(0)
        case "right": xs.append(1)
        case "top": ys.append(0)
        case "bottom": ys.append(1)
        case "center": either.append(0.5)
        default: return nil
        }
      default: return nil
      }
    }
    // Fill x then y from the values that could be either, in order.
    for value in either {
      if xs.isEmpty {
        xs.append(value)
      } else if ys.isEmpty {
        ys.append(value)
      }
    }
    guard xs.count <= 1, ys.count <= 1, !(xs.isEmpty && ys.isEmpty) else { return nil }
    return (xs.first ?? 0.5, ys.first ?? 0.5)
  }
}
