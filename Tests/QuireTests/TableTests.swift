// Tables (issue #10, CSS 2.1 §17): the grid, column widths checked against headless
// Chromium, header rows repeated on each page, a row taller than a page split between
// lines, separated and collapsed borders as PNG goldens, and ingest of spans and hints.

import Foundation
import QuireIngest
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite("Tables")
struct TableTests {
  static let fixtures = packageRoot.appendingPathComponent("Tests/QuireTests/Fixtures/tables")

  func book(_ xhtml: String, name: String, settings: LayoutSettings = LayoutSettings()) throws
    -> EagerBook
  {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "quire-tables-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try Data(xhtml.utf8).write(to: url)
    return try EagerBook(url.path, settings: settings)
  }

  func page(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="utf-8"?>
    <html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><title>t</title></head>
    <body>\(body)</body></html>
    """
  }

  @Test("Spans fill the HTML grid: rowspans push later cells right, short rows leave holes")
  func gridSlots() throws {
    let grid = try #require(
      TableGrid.build([
        [(1, 2), (2, 1)],
        [(1, 1), (1, 1)],
        [(1, 0)],
      ]))
    #expect(grid.columnCount == 3)
    #expect(grid.dump == "0 1 1\n0 2 3\n4 . .")
    // A rowspan past the last row is cut there.
    let cut = try #require(TableGrid.build([[(1, 65534)], [(1, 1)]]))
    #expect(cut.cells[0].rowSpan == 2 && cut.dump == "0 .\n0 1")
    // Bounds: more than 1,000 columns, or a million slots, is no grid.
    #expect(TableGrid.build([[(1000, 1), (1, 1)]]) == nil)
    #expect(TableGrid.build([[(1000, 1)]]) != nil)
    #expect(TableGrid.build([[(1000, 1001)]] + Array(repeating: [], count: 1000)) == nil)
  }

  @Test("Column widths: shrink to fit, min/max interpolation, empty columns, spans, overflow")
  func columnWidths() {
    let cols = TableColumns(
      columnCount: 3,
      requests: [
        ColumnRequest(column: 0, span: 1, minWidth: 40, maxWidth: 40),
        ColumnRequest(column: 1, span: 1, minWidth: 100, maxWidth: 400),
        ColumnRequest(column: 2, span: 1, minWidth: 0, maxWidth: 0),
      ])
    #expect(cols.usedWidth(available: 1000, specified: nil) == 440)
    #expect(cols.widths(for: 440) == [40, 400, 0])
    // Between min and max: each column gets min + a share of (max − min).
    #expect(cols.widths(for: 290) == [40, 250, 0])
    // Narrower than the minimum: proportional to the minimums.
    #expect(cols.usedWidth(available: 70, specified: nil) == 70)
    let tight = cols.widths(for: 70)
    #expect(abs(tight[0] - 20) < 1e-9 && abs(tight[1] - 50) < 1e-9 && tight[2] == 0)
    // A span wider than its columns raises them in proportion to their max widths.
    let spanned = TableColumns(
      columnCount: 2,
      requests: [
        ColumnRequest(column: 0, span: 1, minWidth: 10, maxWidth: 30),
        ColumnRequest(column: 1, span: 1, minWidth: 10, maxWidth: 10),
        ColumnRequest(column: 0, span: 2, minWidth: 20, maxWidth: 80),
      ])
    #expect(spanned.maxWidths == [60, 20])
    // Fixed layout: declared widths, the rest shared equally.
    #expect(
      TableColumns.fixedLayout(
        columnCount: 3, declared: [100], firstRow: [], used: 300) == [100, 100, 100])
  }

  @Test("Cell text starts where headless Chromium puts it (widths.xhtml, ±1 px)")
  func chromiumAgreement() throws {
    let b = try EagerBook(Self.fixtures.appendingPathComponent("widths.xhtml").path)
    let lines = try #require(b.layout.pages.first).lines
    let oracle = try String(
      contentsOf: Self.fixtures.appendingPathComponent("widths.chromium.jsonl"), encoding: .utf8)
    var used = Set<Int>()
    var agree = 0
    var total = 0
    for row in oracle.split(separator: "\n") {
      let cell = try JSONSerialization.jsonObject(with: Data(row.utf8)) as! [String: Any]
      let word = cell["word"] as! String
      let x = cell["x"] as! Double
      total += 1
      guard
        let i = lines.indices.first(where: {
          !used.contains($0) && lines[$0].text.split(separator: " ").first.map(String.init) == word
        })
      else {
        Issue.record("no line starts with \(word)")
        continue
      }
      used.insert(i)
      if abs(lines[i].rect.x - x) <= 1 {
        agree += 1
      } else {
        Issue.record("\(word): \(lines[i].rect.x) vs \(x)")
      }
    }
    #expect(total == 18 && agree == total)
  }

  @Test("Japanese min-content follows line-break: normal lets ー and small kana start lines")
  func lineBreakMinContent() throws {
    // A 1-px table is its columns' min-content wide. Chromium (line-break: auto = normal)
    // breaks プロポーショナル before every kana, so the column is one 16-px character wide;
    // `strict` keeps ポー and ショ together (32 px).
    func gap(_ rule: String) throws -> Double {
      let cell = "<td style=\"padding:0\">"
      let b = try book(
        """
        <?xml version="1.0" encoding="utf-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" lang="ja"><head><title>t</title></head>
        <body><table style="width:1px;border-spacing:0;line-break:\(rule)"><tr>
        \(cell)プロポーショナル</td>\(cell)X</td></tr></table></body></html>
        """, name: "line-break-\(rule).xhtml")
      let lines = try #require(b.layout.pages.first).lines
      let first = try #require(lines.first { $0.text.hasPrefix("プ") })
      let x = try #require(lines.first { $0.text == "X" })
      return x.rect.x - first.rect.x
    }
    #expect(abs(try gap("auto") - 16) < 0.01)
    #expect(abs(try gap("normal") - 16) < 0.01)
    #expect(abs(try gap("strict") - 32) < 0.01)
  }

  @Test("Japanese min-content keeps a comma with its character and breaks before a wide （")
  func punctuationMinContent() throws {
    // A 1-px table is its columns' min-content wide; each cell is measured on its own. As in
    // Chromium: the comma that may not start a line keeps "い，" together at its full 32 px
    // (hanging it or trimming its blank half is for lines that would not fit otherwise,
    // never a narrower min-content), and UAX #14 LB30 (Unicode 8) lets "2" break before the
    // wide "（", whose pair "（逆" (32 px) is the widest unit. A cell "X" after each shows
    // where the column ends. Before: 16 px (the comma hung) and 40.9 px ("2（逆").
    func gap(_ text: String) throws -> Double {
      let cell = "<td style=\"padding:0\">"
      let b = try book(
        """
        <?xml version="1.0" encoding="utf-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" lang="ja"><head><title>t</title></head>
        <body><table style="width:1px;border-spacing:0;font-family:sans-serif"><tr>
        \(cell)\(text)</td>\(cell)X</td></tr></table></body></html>
        """, name: "punctuation-\(text.unicodeScalars.count).xhtml")
      let lines = try #require(b.layout.pages.first).lines
      let first = try #require(lines.first { $0.text.hasPrefix(String(text.prefix(1))) })
      let x = try #require(lines.first { $0.text == "X" })
      return x.rect.x - first.rect.x
    }
    #expect(abs(try gap("漸進的に等しい，ホモトープ") - 32) < 0.01)
    #expect(abs(try gap("真部分集合2（逆方向）") - 32) < 0.01)
  }

  @Test("A long table repeats its header on every page; a row taller than a page is split")
  func headerRepeatAndRowSplit() throws {
    let rows = (0..<60).map { "<tr><td>\($0)</td><td>Row \($0) text</td></tr>" }.joined()
    let words = Array(repeating: "word", count: 1500).joined(separator: " ")
    let b = try book(
      page(
        "<table border=\"1\"><thead><tr><th>No.</th><th>Text</th></tr></thead><tbody>\(rows)"
          + "<tr><td>big</td><td>\(words)</td></tr></tbody></table>"), name: "long.xhtml")
    let pages = b.layout.pages
    #expect(pages.count >= 6)
    let all = pages.flatMap(\.lines).map(\.text).joined(separator: " ")
    #expect(all.components(separatedBy: "word").count - 1 == 1500)
    for r in 0..<60 { #expect(all.contains("Row \(r) text")) }
    for p in pages {
      // No line crosses the page's bottom or the table's edges.
      #expect(
        p.lines.allSatisfy { $0.rect.maxY <= 750.01 && $0.rect.x >= 50 && $0.rect.maxX <= 550 })
    }
    for p in pages.dropFirst() {
      let top = try #require(p.lines.map(\.rect.y).min())
      // The header's glyphs sit above the first line of the page, inside the top margin area.
      let above = p.items.contains {
        if case .glyphs(let run) = $0, let y = run.y.first {
          return Double(y) < top
        } else {
          return false
        }
      }
      #expect(top > 70 && above, "page \(p.number)")
    }
  }

  @Test("Cell vertical-align: top, middle and bottom against the row's tallest cell (§17.5.3)")
  func cellVerticalAlign() throws {
    let b = try book(
      page(
        "<table style=\"border-spacing: 0\"><tr><td>one<br/>two<br/>three<br/>four</td>"
          + "<td style=\"vertical-align: top\">top</td>"
          + "<td style=\"vertical-align: middle\">mid</td>"
          + "<td style=\"vertical-align: bottom\">bot</td>"
          + "<td>base</td></tr></table>"), name: "valign.xhtml")
    let lines = try #require(b.layout.pages.first).lines
    func line(_ text: String) throws -> Rect { try #require(lines.first { $0.text == text }).rect }
    let (one, four) = (try line("one"), try line("four"))
    #expect(abs(try line("top").y - one.y) < 0.5)
    #expect(abs(try line("bot").maxY - four.maxY) < 0.5)
    let mid = try line("mid")
    #expect(abs((mid.y + mid.maxY) / 2 - (one.y + four.maxY) / 2) < 0.5)
    // A cell without the property inherits the row's `middle` (HTML's user-agent sheet).
    #expect(abs(try line("base").y - mid.y) < 0.5)
  }

  @Test("Separated and collapsed borders, spans, captions and backgrounds (PNG golden)")
  func bordersGolden() throws {
    let b = try EagerBook(Self.fixtures.appendingPathComponent("borders.xhtml").path)
    let p = try #require(b.layout.pages.first)
    let image = b.makeRenderer().render(p, width: 600, height: 800, format: .rgba8)
    try checkGolden(Data(PNGCodec.encode(image)), "tables-borders.png")
  }

  @Test("Collapsed borders: a row's right border competes for the table's right edge (§17.6.2.1)")
  func collapsedRowRightBorder() throws {
    let b = try book(
      page(
        """
        <table style="border-collapse: collapse; border: 1px solid black"><tr style="border-left: 4px solid rgb(255, 0, 0); border-right: 8px solid rgb(0, 160, 0)"><td>left</td><td>right</td></tr></table>
        """), name: "collapsed-row.xhtml")
    let p = try #require(b.layout.pages.first)
    let image = b.makeRenderer().render(p, width: 600, height: 800, format: .rgba8)
    let cell = try #require(p.lines.first { $0.text == "right" })
    let y = Int(cell.rect.y + cell.rect.height / 2)
    func px(_ x: Int) -> [UInt8] {
      let o = (y * 600 + x) * 4
      return Array(image.pixels[o..<o + 3])
    }
    // The left edge is the row's red 4 px, the right edge its green 8 px (edges may fall
    // between pixels: count the pixels that are mostly red or green).
    let red = (0..<600).filter { px($0)[0] > 200 && px($0)[1] < 60 }
    let green = (0..<600).filter { px($0)[1] > 140 && px($0)[0] < 60 }
    #expect(red.count == 4 && green.count >= 7 && green.count <= 8)
    #expect(red.max()! < Int(cell.rect.x) && green.min()! > Int(cell.rect.maxX))
  }

  @Test("A collapsed-border table whose rows hold no cells lays out (it has no columns)")
  func collapsedTableWithoutCells() throws {
    let b = try book(
      page(
        """
        <p>before</p><table style="border-collapse: collapse; border: 3px solid black"><tr></tr><tr></tr></table><p>after</p>
        """), name: "collapsed-empty.xhtml")
    let p = try #require(b.layout.pages.first)
    _ = b.makeRenderer().render(p, width: 600, height: 800, format: .gray8)
    #expect(p.lines.map(\.text) == ["before", "after"])
  }

  @Test(
    "On a page narrower than the tables' min-content, columns shrink and words break; no line leaves the page",
    arguments: ["widths.xhtml", "borders.xhtml"])
  func narrowPage(_ name: String) throws {
    var settings = LayoutSettings(pageWidth: 200, pageHeight: 400)
    settings.margins = PageMargins(top: 10, right: 10, bottom: 10, left: 10)
    let b = try EagerBook(Self.fixtures.appendingPathComponent(name).path, settings: settings)
    let lines = b.layout.pages.flatMap(\.lines)
    #expect(!lines.isEmpty)
    #expect(
      lines.allSatisfy { $0.rect.x >= 9.99 && $0.rect.maxX <= 190.01 && $0.rect.maxY <= 390.01 })
    // Side by side, not stacked: some two lines share a baseline.
    #expect(Set(lines.map { Int($0.rect.y) }).count < lines.count)
  }

  @Test("Ingest: colspan/rowspan bounds, row groups, col widths, hints below author CSS")
  func ingest() throws {
    let doc = try book(
      page(
        """
        <style>td.p { padding: 9px }</style>
        <table cellpadding="5" border="2"><colgroup><col width="40"/><col span="2" style="width: 3em"/></colgroup>
        <tfoot><tr><td>f</td></tr></tfoot>
        <thead><tr><th colspan="5000">h</th></tr></thead>
        <tr><td rowspan="70000" class="p">a</td><td valign="bottom" align="right">b</td></tr>
        <tbody style="display: table-header-group"><tr><td>g</td></tr></tbody>
        </table>
        """), name: "ingest.xhtml"
    ).document
    var stack = doc.chapters[0].blocks
    var found: Block? = nil
    while let b = stack.popLast(), found == nil {
      if case .table = b.kind { found = b } else { stack += b.children }
    }
    let table = try #require(found)
    #expect(table.table.columns.map(\.span) == [1, 2])
    #expect(table.table.columns.map(\.width) == [.rem(2.5), .rem(3)])
    #expect(table.box.border.top.style == .outset)
    let rows = table.children.filter { if case .tableRow = $0.kind { true } else { false } }
    #expect(rows.map(\.table.rowGroup) == [.footer, .header, .body, .header])
    #expect(rows[1].children[0].table.columnSpan == 1000)
    let a = rows[2].children[0]
    let bCell = rows[2].children[1]
    #expect(a.table.rowSpan == 65534)
    #expect(a.style.padding.top == .rem(9.0 / 16))
    #expect(bCell.style.padding.top == .rem(5.0 / 16))
    #expect(bCell.table.style.cellAlign == .bottom && bCell.style.textAlign == .right)
    #expect(bCell.box.border.left.style == .inset)
  }
}
