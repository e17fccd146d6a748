// A placed table as flow entries: one per band (TablePlacement.bands), painted back to
// front — the table's box slice, row backgrounds, cell boxes or collapsed edges, then the
// cells' content. Header bands keep with the first body band; every body band carries the
// header to repeat (`FlowEntry.repeatHeader`), and a band taller than a page (less the
// header) is cut between lines by `TableSlicing`.

import QuireCore
import QuireIngest

extension ChapterFlow {
  func tableEntries(_ p: TablePlacement, _ laid: [LaidCell], block: Block) -> [FlowEntry] {
    let bands = p.bands()
    var starts = [Int](repeating: 0, count: p.structure.grid.rowCount + 1)
    for c in p.structure.grid.cells { starts[c.row + 1] += 1 }
    for r in 0..<p.structure.grid.rowCount { starts[r + 1] += starts[r] }
    var out: [FlowEntry] = []
    var header: TableHeaderRepeat? = nil
    var headerItems: [DisplayItem] = []
    var headerHeight = 0.0
    for (b, rows) in bands.enumerated() {
      var e = bandEntry(
        p, laid, rows: rows, cells: starts[rows.lowerBound]..<starts[rows.upperBound], block: block,
        first: b == 0, last: b == bands.count - 1)
      if rows.lowerBound < p.structure.headerRows {
        headerItems += e.items.map { $0.offset(dy: headerHeight) }
        headerHeight += e.height
        e.avoidBreakAfter = true
        out.append(e)
        continue
      }
      if header == nil && headerHeight > 0 && headerHeight < pageHeight / 2 {
        header = TableHeaderRepeat(items: headerItems, height: headerHeight)
      }
      e.repeatHeader = header
      if p.structure.rows[rows.lowerBound].style.breakBefore == .page { e.forcedBreakBefore = true }
      let limit = pageHeight - (header?.height ?? 0)
      if e.height > limit {
        out += TableSlicing.slices(e, limit: max(limit, pageHeight / 2))
      } else {
        out.append(e)
      }
    }
    return out
  }

  private func bandEntry(
    _ p: TablePlacement, _ laid: [LaidCell], rows: Range<Int>, cells: Range<Int>, block: Block,
    first: Bool, last: Bool
  ) -> FlowEntry {
    let (top, bottom) = p.bandExtent(rows)
    let loc = p.structure.rows[rows.lowerBound].location
    var e = FlowEntry(spaceBefore: 0, height: bottom - top, start: loc, end: loc)
    var items: [DisplayItem] = []
    // The table's box, sliced at the band's edges.
    let sides =
      p.frame.collapsed ? [PaintedBorderSide](repeating: .none, count: 4) : p.frame.tableSides
    let bg = block.box.background
    if sides.contains(where: \.isDrawn) || !bg.isEmpty {
      items.append(
        .box(
          BoxPaint(
            rect: Rect(x: p.left, y: 0, width: p.width, height: bottom - top),
            top: first ? sides[0] : .none, right: sides[1], bottom: last ? sides[2] : .none,
            left: sides[3], backgroundColor: bg.color, backgroundLayers: bg.layers)))
    }
    for k in cells {
      let row = p.structure.rows[p.structure.grid.cells[k].row]
      guard let color = row.box.background.color else { continue }
      var r = p.cellRect(k)
      r.y -= top
      items.append(.box(BoxPaint(rect: r, backgroundColor: color)))
    }
    for k in cells {
      var r = p.cellRect(k)
      r.y -= top
      let cell = p.structure.cells[k]
      let s =
        p.frame.collapsed ? [PaintedBorderSide](repeating: .none, count: 4) : p.frame.cellSides[k]
      let cbg = cell.box.background
      guard s.contains(where: \.isDrawn) || !cbg.isEmpty else { continue }
      items.append(
        .box(
          BoxPaint(
            rect: r, top: s[0], right: s[1], bottom: s[2], left: s[3],
            backgroundColor: cbg.color, backgroundLayers: cbg.layers)))
    }
    if p.frame.collapsed { items += collapsedEdges(p, rows: rows, top: top) }
    var start: Location? = nil
    for k in cells {
      let c = p.structure.grid.cells[k]
      let dy = p.rowTop[c.row] - top + p.contentY[k]
      for (entry, y) in laid[k].entries {
        let d = dy + y
        items += entry.items.map { $0.offset(dy: d) }
        e.lines += entry.lines.map {
          var l = $0
          l.rect.y += d
          return l
        }
        e.images += entry.images.map {
          var i = $0
          i.rect.y += d
          return i
        }
        e.maths += entry.maths.map {
          var m = $0
          m.rect.y += d
          return m
        }
        e.inlineBoxes += entry.inlineBoxes.map {
          var f = $0
          f.rect.y += d
          return f
        }
        e.blockBoxes += entry.blockBoxes
        start = min(start ?? entry.start, entry.start)
        e.end = max(e.end, entry.end)
      }
    }
    if let start { e.start = start }
    e.end = max(e.end, e.start)
    e.items = items
    return e
  }

  /// The collapsed edge segments of a band's rows (the edges above and below each row),
  /// each centred on its grid line.
  private func collapsedEdges(_ p: TablePlacement, rows: Range<Int>, top: Double)
    -> [DisplayItem]
  {
    let f = p.frame
    let cols = f.columnCount
    // Rows without cells make a table of no columns: no grid line has a position.
    guard cols > 0 else { return [] }
    var out: [DisplayItem] = []
    // Every band draws its bottom edge too, so a page that ends inside the table closes it
    // (where the next band follows on the same page, the edge is painted twice in place).
    let lines = rows.lowerBound...rows.upperBound
    for y in lines {
      let gy = (y < p.rowTop.count ? p.rowTop[y] : p.rowBottom[y - 1]) - top
      for x in 0..<cols {
        let s = f.horizontal[y * cols + x]
        guard s.isDrawn else { continue }
        let x0 = p.colLeft[x] - (x == 0 ? f.table.left : 0)
        let x1 = p.colRight[x] + (x == cols - 1 ? f.table.right : 0)
        out.append(
          .box(
            BoxPaint(
              rect: Rect(x: x0, y: gy - s.width / 2, width: x1 - x0, height: s.width), top: s)))
      }
    }
    for y in rows {
      for x in 0...cols {
        let s = f.vertical[y * (cols + 1) + x]
        guard s.isDrawn else { continue }
        let gx = x < cols ? p.colLeft[x] : p.colRight[cols - 1]
        let r = Rect(
          x: gx - s.width / 2, y: p.rowTop[y] - top, width: s.width,
          height: p.rowBottom[y] - p.rowTop[y])
        out.append(.box(BoxPaint(rect: r, left: s)))
      }
    }
    return out
  }
}
