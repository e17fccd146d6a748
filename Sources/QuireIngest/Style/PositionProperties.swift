// `position`, `top`/`right`/`bottom`/`left`, `z-index`, `transform` and `transform-origin`
// onto `BoxStyle` (CSS 2.1 §9.3, §9.9; CSS Transforms 1 for the last two, read in
// TransformProperties.swift). Typeset reads them for fixed-layout pages only
// (Fixed/PositionedBoxes.swift); reflowable pages keep the flow, as a reading system's
// paginated mode does.
//
// Offsets are lengths (rem or percent of the containing block; `auto` is nil). `z-index` is
// an integer clamped to ±100 000 (`auto` is nil).

extension StyleComputer {
  /// Applies the positioning properties; true when the name was one of them.
  static func applyPosition(_ name: String, _ v: [CSSToken], _ fs: Double, _ s: inout ElementStyle)
    -> Bool
  {
    switch name {
    case "position":
      if let k = keyword(v), let p = BoxPosition(rawValue: k) { s.box.position = p }
    case "top", "right", "bottom", "left":
      guard v.count == 1 else { return true }
      let value: Length? = keyword(v) == "auto" ? nil : length(v[0], fontSize: fs)
      guard keyword(v) == "auto" || value != nil else { return true }
      switch name {
      case "top": s.box.top = value
      case "right": s.box.right = value
      case "bottom": s.box.bottom = value
      default: s.box.left = value
      }
    case "z-index":
      if keyword(v) == "auto" {
        s.box.zIndex = nil
      } else if v.count == 1, v[0].kind == .number, v[0].number.isFinite {
        s.box.zIndex = Int(max(-100_000, min(100_000, v[0].number.rounded())))
      }
    case "transform", "-webkit-transform":
      applyTransform(v, fs, &s)
    case "transform-origin", "-webkit-transform-origin":
      applyTransformOrigin(v, fs, &s)
    default: return false
    }
    return true
  }
}
