// Table properties (CSS 2.1 §17) and HTML's presentational hints for tables (HTML
// "Rendering" §15.3.8: `border`, `cellpadding`, `cellspacing`, `width`, `align`, `valign`,
// `bgcolor`), and the table facts of an element (`TablePart`: spans, row group, columns).
//
// Hints are written as CSS text and parsed by the style-attribute parser, so they obey the
// same value rules as the publisher's CSS; the cascade puts them below every author rule
// and above the user-agent sheet, as HTML asks. Hints that depend on the enclosing table
// (`cellpadding`, `border`) look the table up through the markup tree's parent links, at
// most `maxTableLookup` levels.
//
// Rejected: copying the table's attributes onto each cell at parse time — the markup tree is
// shared with the package reader and stays as parsed.

import Foundation

extension StyleComputer {
  /// Records a table property; true when `d` was one. `vertical-align` and `display` are
  /// recorded and then left to the other groups too (they answer for inline content and
  /// for the block kind).
  static func applyTable(
    _ d: CSSDeclaration, _ v: [CSSToken], _ k: String?, _ s: inout ElementStyle
  ) -> Bool {
    switch d.name {
    case "caption-side":
      if let k, let side = CaptionSide(rawValue: k) { s.table.captionSide = side }
      return true
    case "table-layout":
      if k == "fixed" { s.table.fixedLayout = true }
      if k == "auto" { s.table.fixedLayout = false }
      return true
    case "vertical-align":
      if let k, let a = CellAlign(rawValue: k) { s.table.cellAlign = a }
      return false
    case "display":
      switch k {
      case "table-header-group": s.table.rowGroup = .header
      case "table-footer-group": s.table.rowGroup = .footer
      case "table-row-group": s.table.rowGroup = .body
      default: s.table.rowGroup = nil
      }
      return false
    default:
      return false
    }
  }
}

/// Presentational hints and table facts read from the markup.
enum TableMarkup {
  /// Ancestors searched for the enclosing table (row groups and rows lie between).
  static let maxTableLookup = 4

  /// The enclosing `table` element of a cell or row, if near enough.
  static func enclosingTable(_ n: Int, in tree: MarkupTree) -> Int? {
    var m = tree.nodes[n].parent
    for _ in 0..<maxTableLookup {
      guard m > 0, m < tree.nodes.count else { return nil }
      if tree.nodes[m].name == "table" { return m }
      m = tree.nodes[m].parent
    }
    return nil
  }

  /// A non-negative pixel count from an HTML length attribute ("3", "3px"), nil if none.
  static func pixels(_ s: String?) -> Double? {
    guard let s else { return nil }
    let digits = s.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber || $0 == "." }
    guard let v = Double(digits.prefix(12)), v.isFinite, v >= 0 else { return nil }
    return min(v, 10_000)
  }

  /// A non-negative integer attribute (HTML's "rules for parsing non-negative integers":
  /// leading digits), at most 999,999,999.
  static func count(_ s: String?) -> Int? {
    guard let s else { return nil }
    return Int(
      s.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }.prefix(9))
  }

  /// An HTML length attribute as CSS ("50%", "120px"), nil if not a length.
  static func cssLength(_ s: String?) -> String? {
    guard let s, let v = pixels(s) else { return nil }
    return s.trimmingCharacters(in: .whitespaces).hasSuffix("%") ? "\(v)%" : "\(v)px"
  }

  /// The hints of one element as declarations (empty for most elements).
  static func hints(_ n: Int, in tree: MarkupTree) -> [CSSDeclaration] {
    let node = tree.nodes[n]
    var css = ""
    switch node.name {
    case "table":
      if let b = pixels(node.attribute("border")) { css += "border: \(b)px outset;" }
      if let s = pixels(node.attribute("cellspacing")) { css += "border-spacing: \(s)px;" }
      if let w = cssLength(node.attribute("width")) { css += "width: \(w);" }
      if node.attribute("align")?.lowercased() == "center" {
        css += "margin-left: auto; margin-right: auto;"
      }
    case "td", "th":
      if let t = enclosingTable(n, in: tree) {
        let table = tree.nodes[t]
        if let p = pixels(table.attribute("cellpadding")) { css += "padding: \(p)px;" }
        if let b = pixels(table.attribute("border")), b > 0 { css += "border: 1px inset;" }
      }
      if let w = cssLength(node.attribute("width")) { css += "width: \(w);" }
      css += alignment(node)
    case "tr", "thead", "tbody", "tfoot":
      css += alignment(node)
    case "col", "colgroup":
      if let w = cssLength(node.attribute("width")) { css += "width: \(w);" }
    default:
      return []
    }
    if let c = node.attribute("bgcolor"), c.count < 32 { css += "background-color: \(c);" }
    return css.isEmpty ? [] : CSSRuleParser.styleAttribute(css, baseHref: "")
  }

  private static func alignment(_ node: MarkupNode) -> String {
    var css = ""
    if let a = node.attribute("align")?.lowercased(),
      ["left", "right", "center", "justify"].contains(a)
    {
      css += "text-align: \(a);"
    }
    if let v = node.attribute("valign")?.lowercased(),
      ["top", "middle", "bottom", "baseline"].contains(v)
    {
      css += "vertical-align: \(v);"
    }
    return css
  }

  /// The table facts of an element that opens a block.
  static func part(_ n: Int, in tree: MarkupTree, style: ElementStyle, parent: ElementStyle)
    -> TablePart
  {
    var part = TablePart()
    part.style = style.table
    let node = tree.nodes[n]
    switch style.display {
    case .tableCell:
      if let c = count(node.attribute("colspan")) {
        part.columnSpan = max(1, min(TablePart.maxColumnSpan, c))
      }
      if let r = count(node.attribute("rowspan")) {
        part.rowSpan = max(0, min(TablePart.maxRowSpan, r))
      }
    case .tableRow:
      // The row group element's display (thead/tfoot by the user-agent sheet, or CSS).
      part.rowGroup = parent.table.rowGroup ?? rowGroup(of: n, in: tree)
    case .table:
      part.columns = columns(of: n, in: tree)
    default: break
    }
    return part
  }

  /// The row group of a row: its parent's element name.
  static func rowGroup(of n: Int, in tree: MarkupTree) -> TableRowGroup {
    let p = tree.nodes[n].parent
    guard p > 0, p < tree.nodes.count else { return .body }
    switch tree.nodes[p].name {
    case "thead": return .header
    case "tfoot": return .footer
    default: return .body
    }
  }

  /// The columns a table's `col` and `colgroup` children declare (width from the `width`
  /// attribute or a `width` in the element's style attribute).
  static func columns(of n: Int, in tree: MarkupTree) -> [TableColumn] {
    var out: [TableColumn] = []
    var total = 0
    func add(_ m: Int, inherited: Length?) {
      guard total < TablePart.maxDeclaredColumns else { return }
      let node = tree.nodes[m]
      let span = max(1, min(TablePart.maxColumnSpan, count(node.attribute("span")) ?? 1))
      let width = width(of: node) ?? inherited
      let kept = min(span, TablePart.maxDeclaredColumns - total)
      out.append(TableColumn(span: kept, width: width))
      total += kept
    }
    for c in tree.nodes[n].children where tree.nodes[c].kind == .element {
      switch tree.nodes[c].name {
      case "col": add(c, inherited: nil)
      case "colgroup":
        let cols = tree.nodes[c].children.filter { tree.nodes[$0].name == "col" }
        if cols.isEmpty {
          add(c, inherited: nil)
        } else {
          let w = width(of: tree.nodes[c])
          for col in cols.prefix(TablePart.maxDeclaredColumns) { add(col, inherited: w) }
        }
      default: break
      }
    }
    return out
  }

  private static func width(of node: MarkupNode) -> Length? {
    var s = ElementStyle()
    for d in hintsOrStyle(node) where d.name == "width" {
      _ = StyleComputer.applyBox(d, d.value.filter { !$0.isWhitespace }, &s)
    }
    return s.box.width
  }

  private static func hintsOrStyle(_ node: MarkupNode) -> [CSSDeclaration] {
    var css = ""
    if let w = cssLength(node.attribute("width")) { css += "width: \(w);" }
    if let st = node.attribute("style") { css += st.prefix(4096) }
    return CSSRuleParser.styleAttribute(css, baseHref: "")
  }
}
