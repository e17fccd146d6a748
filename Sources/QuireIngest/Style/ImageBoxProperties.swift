// Parsing of the image box properties (`width`, `height`, `min-`/`max-` of both,
// `object-fit`, `object-position`) into `ElementStyle.imageBox` (see Document/ImageBox.swift
// for what they mean and why they live apart from ComputedStyle). Called for every
// declaration before the cascade's main switch, so it keeps working when other properties
// read the same names. Unknown values are skipped, as everywhere in the cascade.

extension StyleComputer {
  /// Applies one declaration to the element's image box; true when the name was one of its
  /// properties.
  @discardableResult
  static func applyImageBox(
    _ name: String, _ v: [CSSToken], _ s: inout ElementStyle, fontSize: Double
  ) -> Bool {
    switch name {
    case "width": s.imageBox.width = boxLength(v, fontSize: fontSize, none: "auto")
    case "height": s.imageBox.height = boxLength(v, fontSize: fontSize, none: "auto")
    case "min-width": s.imageBox.minWidth = boxLength(v, fontSize: fontSize, none: "auto")
    case "min-height": s.imageBox.minHeight = boxLength(v, fontSize: fontSize, none: "auto")
    case "max-width": s.imageBox.maxWidth = boxLength(v, fontSize: fontSize, none: "none")
    case "max-height": s.imageBox.maxHeight = boxLength(v, fontSize: fontSize, none: "none")
    case "object-fit":
      if let k = keyword(v), let fit = ObjectFit(rawValue: k) { s.imageBox.fit = fit }
    case "object-position":
      if let (x, y) = objectPosition(v) {
        s.imageBox.positionX = x
        s.imageBox.positionY = y
      }
    default: return false
    }
    return true
  }

  /// A non-negative length, or nil for `none`/`auto`, a keyword or anything unparsable.
  /// `vh` and `vw` count as percentages of their own axis (see ImageBox.swift).
  static func boxLength(_ v: [CSSToken], fontSize: Double, none: String) -> Length? {
    guard v.count == 1 else { return nil }
    let t = v[0]
    if t.kind == .ident { return nil }
    if t.kind == .dimension, ["vw", "vh", "vmin", "vmax"].contains(t.unit) {
      return .percent(max(0, min(10_000, t.number)))
    }
    switch length(t, fontSize: fontSize) {
    case .rem(let r)?: return .rem(max(0, r))
    case .percent(let p)?: return .percent(max(0, p))
    case nil: return nil
    }
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
