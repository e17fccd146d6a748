// The borders, padding and spacing of a table (CSS 2.1 §17.6): what each cell's content is
// inset by, what the columns and rows are separated by, and which border each grid edge
// draws.
//
// Separated borders (§17.6.1): every cell draws its own border box; `border-spacing` lies
// between cells and between the outer cells and the table's padding edge; the table draws
// its own border and background around it all.
//
// Collapsed borders (§17.6.2): one border per grid edge segment, chosen among the cells and
// rows on either side of it and the table (for the outer edges) by §17.6.2.1: `hidden` wins,
// then the wider, then the style (double, solid, dashed, dotted, ridge, outset, groove,
// inset), then cell over row over table, then the earlier (left or top) one. Each segment
// is centred on its grid line; a cell's content is inset by half its edges' widths. The
// table's padding does not apply. Edges are kept per segment: `(rows + 1) × columns`
// horizontal and `rows × (columns + 1)` vertical, bounded by the grid's slot bound.

import QuireCore
import QuireIngest

/// Insets of a cell's content box from its border box (borders + padding), px.
struct CellInsets {
  var top = 0.0, right = 0.0, bottom = 0.0, left = 0.0
}

struct TableFrame {
  var collapsed: Bool
  /// `border-spacing`, px (0 when collapsed).
  var spacingX = 0.0
  var spacingY = 0.0
  /// The table's own border and padding, px (separate model; outer half edges collapsed).
  var table = CellInsets()
  var tableSides: [PaintedBorderSide] = [.none, .none, .none, .none]
  /// Per cell (in `grid.cells` order).
  var insets: [CellInsets] = []
  /// Separate model: each cell's own sides (top, right, bottom, left).
  var cellSides: [[PaintedBorderSide]] = []
  /// Collapsed model: the edge above slot (r, c) at `r * columns + c` (r ≤ rows) and the
  /// edge left of slot (r, c) at `r * (columns + 1) + c` (c ≤ columns).
  var horizontal: [PaintedBorderSide] = []
  var vertical: [PaintedBorderSide] = []
  var rowCount = 0
  var columnCount = 0

  init(_ block: Block, structure s: TableStructure, flow: ChapterFlow, width: Double) {
    collapsed = block.box.collapsesBorders
    rowCount = s.grid.rowCount
    columnCount = s.grid.columnCount
    let px = { (l: Length) in max(0, flow.px(l, of: width)) }
    let color = block.style.color
    tableSides = TableFrame.sides(block.box.border, color: color, px: px)
    if collapsed {
      resolveCollapsed(block, s, px: px)
      return
    }
    spacingX = px(block.box.borderSpacingX)
    spacingY = px(block.box.borderSpacingY)
    let st = block.style
    table = CellInsets(
      top: tableSides[0].width + px(st.padding.top),
      right: tableSides[1].width + px(st.padding.right),
      bottom: tableSides[2].width + px(st.padding.bottom),
      left: tableSides[3].width + px(st.padding.left))
    for cell in s.cells {
      let sides = TableFrame.sides(cell.box.border, color: cell.style.color, px: px)
      cellSides.append(sides)
      let p = cell.style.padding
      insets.append(
        CellInsets(
          top: sides[0].width + px(p.top), right: sides[1].width + px(p.right),
          bottom: sides[2].width + px(p.bottom), left: sides[3].width + px(p.left)))
    }
  }

  /// Width of everything horizontal but the columns: table borders and padding, spacing.
  func horizontalChrome(columns n: Int) -> Double {
    table.left + table.right + spacingX * Double(n + 1)
  }

  /// The drawn sides (top, right, bottom, left) of a border.
  static func sides(_ b: BorderSides, color: RGBA, px: (Length) -> Double) -> [PaintedBorderSide] {
    [b.top, b.right, b.bottom, b.left].map { side in
      guard side.style.isVisible else { return .none }
      return PaintedBorderSide(width: px(side.width), style: side.style, color: side.color ?? color)
    }
  }

  // MARK: collapsed borders

  /// A border candidate for an edge: its side and whether its style is `hidden`.
  struct Candidate {
    var side: PaintedBorderSide
    var hidden: Bool
  }

  static func candidate(_ b: BorderSide, color: RGBA, px: (Length) -> Double) -> Candidate {
    Candidate(
      side: b.style.isVisible
        ? PaintedBorderSide(width: px(b.width), style: b.style, color: b.color ?? color) : .none,
      hidden: b.style == .hidden)
  }

  static let styleRank: [BorderStyle: Int] = [
    .double: 8, .solid: 7, .dashed: 6, .dotted: 5, .ridge: 4, .outset: 3, .groove: 2, .inset: 1,
  ]

  /// §17.6.2.1 over candidates in precedence order (cell before row before table, left/top
  /// before right/bottom).
  static func resolve(_ candidates: [Candidate]) -> PaintedBorderSide {
    if candidates.contains(where: \.hidden) { return .none }
    var best: PaintedBorderSide = .none
    for c in candidates where c.side.isDrawn {
      let s = c.side
      if !best.isDrawn || s.width > best.width
        || (s.width == best.width
          && styleRank[s.style, default: 0] > styleRank[best.style, default: 0])
      {
        best = s
      }
    }
    return best
  }

  private mutating func resolveCollapsed(
    _ block: Block, _ s: TableStructure, px: (Length) -> Double
  ) {
    let rows = rowCount
    let cols = columnCount
    var owner = [Int32](repeating: -1, count: rows * cols)
    for (k, c) in s.grid.cells.enumerated() {
      for y in c.row..<(c.row + c.rowSpan) {
        for x in c.column..<(c.column + c.columnSpan) { owner[y * cols + x] = Int32(k) }
      }
    }
    func cellAt(_ y: Int, _ x: Int) -> Int? {
      guard y >= 0, y < rows, x >= 0, x < cols, owner[y * cols + x] >= 0 else { return nil }
      return Int(owner[y * cols + x])
    }
    // The candidates of one edge segment: a cell's, a row's or the table's side.
    typealias Side = KeyPath<BorderSides, BorderSide>
    func cell(_ k: Int?, _ side: Side) -> Candidate? {
      k.map {
        Self.candidate(
          s.cells[$0].box.border[keyPath: side], color: s.cells[$0].style.color, px: px)
      }
    }
    func row(_ y: Int, _ side: Side) -> Candidate {
      Self.candidate(s.rows[y].box.border[keyPath: side], color: s.rows[y].style.color, px: px)
    }
    func table(_ side: Side) -> Candidate {
      Self.candidate(block.box.border[keyPath: side], color: block.style.color, px: px)
    }
    horizontal = [PaintedBorderSide](repeating: .none, count: (rows + 1) * cols)
    vertical = [PaintedBorderSide](repeating: .none, count: rows * (cols + 1))
    for y in 0...rows {
      for x in 0..<cols {
        let above = cellAt(y - 1, x)
        let below = cellAt(y, x)
        if above != nil && above == below { continue }
        var list = [cell(above, \.bottom), cell(below, \.top)].compactMap { $0 }
        if y > 0 { list.append(row(y - 1, \.bottom)) }
        if y < rows { list.append(row(y, \.top)) }
        if y == 0 { list.append(table(\.top)) }
        if y == rows { list.append(table(\.bottom)) }
        horizontal[y * cols + x] = Self.resolve(list)
      }
    }
    for y in 0..<rows {
      for x in 0...cols {
        let before = cellAt(y, x - 1)
        let after = cellAt(y, x)
        if before != nil && before == after { continue }
        var list = [cell(before, \.right), cell(after, \.left)].compactMap { $0 }
        if x == 0 { list.append(row(y, \.left)) }
        if x == cols { list.append(row(y, \.right)) }
        if x == 0 { list.append(table(\.left)) }
        if x == cols { list.append(table(\.right)) }
        vertical[y * (cols + 1) + x] = Self.resolve(list)
      }
    }
    collapsedInsets(s, px: px)
  }

  /// Half the widest edge segment on each side of each cell, plus its padding; the
  /// table's outer halves.
  private mutating func collapsedInsets(_ s: TableStructure, px: (Length) -> Double) {
    let cols = columnCount
    func h(_ y: Int, _ xs: Range<Int>) -> Double {
      xs.map { horizontal[y * cols + $0].width }.max() ?? 0
    }
    func v(_ ys: Range<Int>, _ x: Int) -> Double {
      ys.map { vertical[$0 * (cols + 1) + x].width }.max() ?? 0
    }
    for (k, c) in s.grid.cells.enumerated() {
      let xs = c.column..<(c.column + c.columnSpan)
      let ys = c.row..<(c.row + c.rowSpan)
      let p = s.cells[k].style.padding
      insets.append(
        CellInsets(
          top: h(c.row, xs) / 2 + px(p.top),
          right: v(ys, c.column + c.columnSpan) / 2 + px(p.right),
          bottom: h(c.row + c.rowSpan, xs) / 2 + px(p.bottom),
          left: v(ys, c.column) / 2 + px(p.left)))
    }
    table = CellInsets(
      top: h(0, 0..<cols) / 2, right: v(0..<rowCount, cols) / 2, bottom: h(rowCount, 0..<cols) / 2,
      left: v(0..<rowCount, 0) / 2)
  }
}
