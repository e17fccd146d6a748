// Multi-column properties → `ColumnStyle` (CSS Multi-column Layout 1 §3, §4, §6, §7):
// `column-count`, `column-width`, the `columns` shorthand, `column-gap` (and the `gap`
// shorthand's column half), `column-rule` and its longhands, `column-fill`, `column-span`.
// The `-webkit-`, `-moz-` and `-epub-` prefixed names found in EPUB style sheets mean the
// same. An invalid value leaves the style untouched (an ignored declaration).

import Foundation

extension StyleComputer {
  /// Applies a column property; false when `name` is not one.
  static func applyColumns(_ name: String, _ v: [CSSToken], _ fs: Double, _ s: inout ElementStyle)
    -> Bool
  {
    var name = name
    for prefix in ["-webkit-", "-moz-", "-epub-"] where name.hasPrefix(prefix + "column") {
      name.removeFirst(prefix.count)
    }
    guard name.hasPrefix("column") || name == "gap" else { return false }
    let k = keyword(v)
    switch name {
    case "column-count": if let c = columnCount(v) { s.box.columns.count = c.value }
    case "column-width": if let w = columnWidth(v, fs) { s.box.columns.width = w.value }
    case "columns": applyColumnsShorthand(v, fs, &s.box.columns)
    case "column-gap": if let g = columnGap(v, fs) { s.box.columns.gap = g.value }
    case "gap":
      // `gap: row column?`: the column gap is the second value, or the only one.
      if v.count == 1 || v.count == 2, let g = columnGap([v[v.count - 1]], fs) {
        s.box.columns.gap = g.value
      }
    case "column-rule":
      if let side = borderSide(v, fs) { s.box.columns.rule = side }
    case "column-rule-width":
      if v.count == 1, let w = borderWidth(v[0], fs) { s.box.columns.rule.width = w }
    case "column-rule-style":
      if let k, let st = BorderStyle(rawValue: k) { s.box.columns.rule.style = st }
    case "column-rule-color":
      if let c = color(v) { s.box.columns.rule.color = c }
      if k == "currentcolor" { s.box.columns.rule.color = nil }
    case "column-fill":
      if k == "balance" || k == "balance-all" { s.box.columns.fill = .balance }
      if k == "auto" { s.box.columns.fill = .auto }
    case "column-span":
      if k == "all" { s.box.columns.spanAll = true }
      if k == "none" { s.box.columns.spanAll = false }
    default: return false
    }
    return true
  }

  /// A parsed value; `value` nil is `auto` (or `normal`).
  struct ColumnValue<T> { var value: T? }

  /// `auto` or a positive integer, clamped to `ColumnStyle.maxCount`.
  static func columnCount(_ v: [CSSToken]) -> ColumnValue<Int>? {
    guard v.count == 1 else { return nil }
    if keyword(v) == "auto" { return ColumnValue(value: nil) }
    let t = v[0]
    guard t.kind == .number, t.number >= 1, t.number == t.number.rounded() else { return nil }
    return ColumnValue(value: Int(min(t.number, Double(ColumnStyle.maxCount))))
  }

  /// `auto` or a non-negative length (no percentages).
  static func columnWidth(_ v: [CSSToken], _ fs: Double) -> ColumnValue<Length>? {
    guard v.count == 1 else { return nil }
    if keyword(v) == "auto" { return ColumnValue(value: nil) }
    guard v[0].kind != .percentage, let l = length(v[0], fontSize: fs), case .rem(let r) = l,
      r >= 0
    else { return nil }
    return ColumnValue(value: l)
  }

  /// `normal` or a non-negative length or percentage (of the container's content width).
  static func columnGap(_ v: [CSSToken], _ fs: Double) -> ColumnValue<Length>? {
    guard v.count == 1 else { return nil }
    if keyword(v) == "normal" { return ColumnValue(value: nil) }
    guard v[0].kind != .ident, let l = length(v[0], fontSize: fs) else { return nil }
    switch l {
    case .rem(let r) where r >= 0: return ColumnValue(value: l)
    case .percent(let p) where p >= 0: return ColumnValue(value: l)
    default: return nil
    }
  }

  /// `columns: <width> || <count>`, each optional and `auto` when omitted (§3.3).
  static func applyColumnsShorthand(_ v: [CSSToken], _ fs: Double, _ columns: inout ColumnStyle) {
    guard (1...2).contains(v.count) else { return }
    var count: Int? = nil
    var width: Length? = nil
    var sawCount = false
    var sawWidth = false
    for t in v {
      if keyword([t]) == "auto" { continue }
      if !sawCount, t.kind == .number, let c = columnCount([t]) {
        count = c.value
        sawCount = true
      } else if !sawWidth, let w = columnWidth([t], fs) {
        width = w.value
        sawWidth = true
      } else {
        return
      }
    }
    columns.count = count
    columns.width = width
  }
}
