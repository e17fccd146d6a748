// `position`, `top`/`right`/`bottom`/`left`, `z-index` and the translations of `transform`,
// onto `BoxStyle` (CSS 2.1 §9.3, §9.9; CSS Transforms 1 §6 for `translate*`). Typeset reads
// them for fixed-layout pages only (Fixed/PositionedBoxes.swift); reflowable pages keep the
// flow, as a reading system's paginated mode does.
//
// Offsets are lengths (rem or percent of the containing block; `auto` is nil). `z-index` is
// an integer clamped to ±100 000 (`auto` is nil). `transform` keeps the sum of its
// `translate(x[, y])`, `translateX`, `translateY` steps; a list with any other function
// (scale, rotate, matrix, skew) keeps only its translations and sets `transformDropped`,
// which Typeset reports once per chapter.

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
    default: return false
    }
    return true
  }

  /// The translation steps of a `transform` list (at most 16 functions read).
  private static func applyTransform(_ v: [CSSToken], _ fs: Double, _ s: inout ElementStyle) {
    if keyword(v) == "none" {
      s.box.translate = nil
      s.box.transformDropped = false
      return
    }
    var x = 0.0
    var y = 0.0
    var dropped = false
    var i = 0
    var functions = 0
    while i < v.count, functions < 16 {
      guard v[i].kind == .function else {
        i += 1
        continue
      }
      functions += 1
      let name = v[i].text.lowercased()
      var args: [Double] = []
      var j = i + 1
      while j < v.count, v[j].kind != .closeParen {
        if let l = length(v[j], fontSize: fs), case .rem(let r) = l { args.append(r) }
        j += 1
      }
      switch name {
      case "translate": (x, y) = (x + (args.first ?? 0), y + (args.count > 1 ? args[1] : 0))
      case "translatex": x += args.first ?? 0
      case "translatey": y += args.first ?? 0
      default: dropped = true
      }
      i = j + 1
    }
    s.box.translate = (x != 0 || y != 0) ? [x, y] : nil
    s.box.transformDropped = dropped
  }
}
