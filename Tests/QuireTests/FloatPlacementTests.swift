// Floated tables and inline floats at their own line (Blocks/FloatBlocks.swift,
// Blocks/InlineFloats.swift): the float-tables and inline-floats fixtures of the browser
// oracle checked as geometry (shrink-to-fit widths, text beside the floats, clearance, a
// float's top at the line holding its source or the next one, lines above it untouched), as
// line dumps and exact PNG goldens, with invariants over a long paragraph of floats (never
// above the line holding its source, no line over a float, reading order) and hostile
// tables (taller or wider than the page, `break-inside: avoid`).

import Foundation
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite("Float placement", .serialized)
struct FloatPlacementTests {
  static let tables = BrowserOracle.fixtures.appendingPathComponent("float-tables.xhtml").path
  static let inline = BrowserOracle.fixtures.appendingPathComponent("inline-floats.xhtml").path
  static let edges = BrowserOracle.fixtures.appendingPathComponent("float-table-edges.xhtml").path

  func line(_ page: Page, _ prefix: String) throws -> LineBox {
    try #require(page.lines.first { $0.text.hasPrefix(prefix) }, "\(prefix)")
  }

  func lines(_ page: Page, block prefix: String) throws -> [LineBox] {
    let first = try line(page, prefix)
    return page.lines.filter { $0.block == first.block }
  }

  // MARK: floated tables

  @Test func floatedTableShrinksToItsColumnsAndTextWrapsBesideIt() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.tables)
    let unit = try line(page, "Unit")
    let size = try line(page, "Size")
    let caption = try line(page, "Below the rows")
    // Shrink-to-fit: the two columns hold their words and the table ends at the right edge
    // (550) with its collapsed 1-px border and 4-px cell padding.
    let fifty = try #require(page.lines.first { $0.text == "50" })
    #expect(size.rect.x > unit.rect.maxX)
    #expect(abs(max(size.rect.maxX, fifty.rect.maxX) - (550 - 4 - 0.5)) < 1.5)
    let tableLeft = try line(page, "margin").rect.x - 4 - 0.5
    #expect(tableLeft > 400)  // far narrower than the 500-px measure
    // caption-side: bottom.
    #expect(caption.rect.y > fifty.rect.maxY)
    // The paragraph beside it ends before the table's 1em left margin, and goes on at the
    // full measure below the float.
    let wrapped = try lines(page, block: "A table floated right")
    let beside = wrapped.filter { $0.rect.y < caption.rect.maxY }
    #expect(beside.count >= 3)
    for l in beside { #expect(l.rect.maxX <= tableLeft - 16 + 0.5, "\(l.text)") }
    // clear: below the caption and the table's 0.5em bottom margin, and below the
    // paragraph's last line and its own 0.5em margin (whichever is lower; no more).
    let cleared = try line(page, "This paragraph clears")
    let floor = max(caption.rect.maxY, try #require(wrapped.last).rect.maxY) + 8
    #expect(abs(cleared.rect.y - floor) < 0.5)
  }

  @Test func floatedBlockHoldingATableAndAListTakesItsWidestChild() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.tables)
    let one = try line(page, "one")
    let list = try line(page, "in a float")
    #expect(one.rect.x == 50 + 1 + 4 + 2 + 4)  // border, padding, spacing, cell padding
    // The list's widest item (after its 1.5em indent) is the float's widest content: the
    // text beside starts after it, the div's padding and border and its 1em margin.
    let beside = try line(page, "A floated block")
    #expect(abs(beside.rect.x - (list.rect.maxX + 4 + 1 + 16)) < 0.5)
    #expect(page.blocks.first { $0.index == list.block }?.marker == "•")
    let cleared = try line(page, "Cleared again")
    #expect(cleared.rect.y >= list.rect.maxY + 4 + 1 + 8 - 0.01)
  }

  @Test func percentageWidthOfAFloatedTableIsOfItsContainingBlock() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.tables)
    // width: 60% of 500 = 300 px (not of the room its 1em right margin leaves); the text
    // beside starts 1em after it.
    let beside = try line(page, "Text beside a")
    #expect(abs(beside.rect.x - (50 + 300 + 16)) < 0.01)
    let short = try #require(page.lines.first { $0.text == "short" })
    #expect(short.rect.maxX <= 350)
  }

  @Test func floatedTableGoldens() throws {
    for (path, name) in [
      (Self.tables, "float-tables"), (Self.inline, "inline-floats"),
      (Self.edges, "float-table-edges"),
    ] {
      let (book, page) = try oracleFixtureFirstPage(path)
      try checkGolden(Data(GoldenPageTests().lineDump(page).utf8), "\(name).lines.txt")
      let image = book.makeRenderer().render(page, width: 600, height: 800, format: .gray8)
      try checkGolden(Data(PNGCodec.encode(image)), "\(name).png")
    }
  }

  // MARK: edges (float-table-edges.xhtml; Chromium's boxes in the comments)

  @Test func lineTooNarrowBesideAMidParagraphFloatMovesBelowIt() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.edges)
    let note = try lines(page, block: "A wide note")
    let para = try lines(page, block: "A short first line")
    let word = try line(page, "Incomprehensibilities cannot")
    // The note floats from the second line (its top is that line's), 400 px + 10 px margin:
    // "Second" fits in the 90 px left, the long word does not, so its line starts at the
    // note's bottom at the full measure (Chromium: 89.56 px below the paragraph's top).
    let (noteTop, noteBottom) = (try #require(note.first).rect.y, try #require(note.last).rect.maxY)
    #expect(abs(noteTop - para[1].rect.y) < 0.01)
    #expect(abs(word.rect.y - noteBottom) < 0.01)
    #expect(abs(word.rect.y - para[0].rect.y - 89.56) < 0.5)
    #expect(word.rect.x == 50 && word.rect.maxX <= 550)
    // The right float after the word is at that line's top; no line crosses the note.
    let seven = try #require(page.lines.first { $0.text == "7" })
    #expect(abs(seven.rect.y - word.rect.y) < 0.01)
    for l in para where l.rect.y >= noteTop - 0.01 && l.rect.y < noteBottom - 0.01 {
      #expect(l.rect.x >= 460 - 0.01 && l.rect.maxX <= 550 + 0.01, "\(l.text)")
    }
  }

  @Test func manyFloatsLeavingNoRoomDropLinesWithoutLosingText() throws {
    // 200 floats each leaving 20 px beside them, every one before a word too long for that:
    // each line beside a float moves below it (drops are bounded per paragraph), all text
    // is kept, no line crosses the text area or a page's bottom.
    let word = "Incomprehensibilities"
    let body = (0..<200).map { "\(word) <span class=\"f\">n\($0)</span>" }.joined(separator: " ")
    let b = try oneChapterBook(
      "float-place", "narrow",
      css: ".f { float: left; width: 480px; height: 30px } p { hyphens: none }",
      body: "<p>\(body)</p><p>after all</p>",
      settings: LayoutSettings(pageWidth: 600, pageHeight: 800))
    let all = b.layout.pages.flatMap(\.lines)
    let words = all.map { $0.text.components(separatedBy: word).count - 1 }.reduce(0, +)
    #expect(words == 200)
    #expect(all.contains { $0.text == "n199" } && all.contains { $0.text == "after all" })
    for page in b.layout.pages {
      for l in page.lines {
        #expect(l.rect.x >= 49.5 && l.rect.maxX <= 550.5 && l.rect.maxY <= 750.5, "\(l.text)")
      }
    }
  }

  @Test func captionWiderThanItsTableWidensTheTable() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.edges)
    // Floated: the table is as wide as "Characteristically" (Chromium 133.75 px), its two
    // columns share the extra (1 at 57, 2 at 121.9: cells 62.9 px wide, 2 px spacing), and the text beside
    // it starts after its 1em margin.
    let caption = try line(page, "Characteristically")
    #expect(abs(caption.rect.width - 133.75) < 1)
    let one = try #require(page.lines.first { $0.text == "1" })
    let two = try #require(page.lines.first { $0.text == "2" })
    #expect(abs(two.rect.x - one.rect.x - 64.875) < 1)
    let beside = try line(page, "The floated table above")
    #expect(abs(beside.rect.x - (50 + 133.75 + 16)) < 1)
    // In the flow: as wide as its caption too (Chromium 167.27 px, b's cell at 102.77 − 20).
    let wide = try #require(page.lines.first { $0.text == "Incomprehensibilities" })
    let b = try #require(page.lines.first { $0.text == "b" })
    #expect(abs(wide.rect.width - 167.27) < 1)
    #expect(abs(b.rect.x - (50 + 82.77 + 4)) < 1)
  }

  @Test func tablePercentWidthIsOfTheContainingBlockBeforeMargins() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.edges)
    // width: 50% of 500 px = 250 px border box at margin-left 100 px (Chromium: table at 100,
    // first cell 205.34 px wide): the first cell's text at 50 + 100 + 1 + 2 + 4.
    let half = try line(page, "half of the containing")
    #expect(abs(half.rect.x - 157) < 0.5)
    let two = try #require(page.lines.first { $0.text == "two" })
    #expect(abs(two.rect.x - (50 + 310.34 + 4)) < 1)
    // 80% with 3em margins each side: 400 px from 98 (Chromium: first cell at 48).
    let eighty = try line(page, "eighty per cent")
    #expect(abs(eighty.rect.x - (50 + 48 + 0.5 + 4)) < 1)
    let sides = try line(page, "with margins on both")
    #expect(abs(sides.rect.x - (50 + 193.23 + 4)) < 1)
  }

  @Test func floatedTableTallerThanThePageIsSetInTheFlowWithItsHeader() throws {
    let rows = (0..<120).map { "<tr><td>row \($0)</td><td>\($0 * 7)</td></tr>" }.joined()
    let b = try oneChapterBook(
      "float-place", "tall-table",
      css: "table { float: right } th, td { padding: 2px 4px }",
      body: "<p>before</p><table><thead><tr><th>Name</th><th>N</th></tr></thead>"
        + "<tbody>\(rows)</tbody></table><p>after the table</p>",
      settings: LayoutSettings(pageWidth: 600, pageHeight: 800))
    let pages = b.layout.pages
    #expect(pages.count >= 3)
    let all = pages.flatMap(\.lines)
    for k in [0, 59, 119] { #expect(all.contains { $0.text == "row \(k)" }, "row \(k)") }
    // Header rows repeat on the pages the table continues on, at the table's right edge.
    for page in pages.dropFirst() where page.lines.contains(where: { $0.text.hasPrefix("row") }) {
      let header = page.items.contains {
        if case .glyphs(let run) = $0 {
          Double(run.x.first ?? 0) > 400 && Double(run.y.first ?? 0) < 80
        } else {
          false
        }
      }
      #expect(header, "page \(page.number)")
    }
    for page in pages {
      for l in page.lines {
        #expect(l.rect.x >= 49.5 && l.rect.maxX <= 550.5, "\(l.text)")
        #expect(l.rect.maxY <= 750.5, "\(l.text)")
      }
      let cells = page.lines.filter { $0.text.hasPrefix("row") }
      for c in cells { #expect(c.rect.x > 400, "\(c.text) stays at the right edge") }
    }
    #expect(all.contains { $0.text == "after the table" })
  }

  @Test func floatedTableThatDoesNotFitThePageRestStartsTheNextPage() throws {
    let filler = String(repeating: "Words that fill the page before the table. ", count: 7)
    let rows = (0..<8).map { "<tr><td>cell \($0)</td></tr>" }.joined()
    let body =
      (0..<10).map { "<p>\($0) \(filler)</p>" }.joined()
      + "<table>\(rows)</table><p>Beside the table. \(filler)</p>"
    let b = try oneChapterBook(
      "float-place", "next-page", css: "table { float: left; margin-right: 1em }", body: body,
      settings: LayoutSettings(pageWidth: 600, pageHeight: 800))
    let pages = b.layout.pages
    let first = try #require(pages.first { $0.lines.contains { $0.text == "cell 0" } })
    #expect(first.number > 1)
    // All its rows on that page, the lines beside it to its right.
    for k in 0..<8 { #expect(first.lines.contains { $0.text == "cell \(k)" }, "cell \(k)") }
    let beside = try line(first, "Beside the table")
    let cell = try #require(first.lines.first { $0.text == "cell 0" })
    #expect(beside.rect.x > cell.rect.maxX + 16)
    #expect(abs(beside.rect.y - first.lines[0].rect.y) < 30)
  }

  @Test func breakInsideAvoidKeepsATableOnOnePage() throws {
    let filler = String(repeating: "Words that fill the page before the table. ", count: 7)
    let rows = (0..<10).map { "<tr><td>kept \($0)</td></tr>" }.joined()
    let body = (0..<9).map { "<p>\($0) \(filler)</p>" }.joined() + "<table>\(rows)</table>"
    func pagesOfRows(_ css: String) throws -> Set<Int> {
      let b = try oneChapterBook(
        "float-place", "avoid", css: css, body: body,
        settings: LayoutSettings(pageWidth: 600, pageHeight: 800))
      return Set(
        b.layout.pages.filter { $0.lines.contains { $0.text.hasPrefix("kept") } }.map(\.number))
    }
    #expect(try pagesOfRows("").count == 2)  // the rows straddle a page break by default
    #expect(try pagesOfRows("table { break-inside: avoid }").count == 1)
    #expect(try pagesOfRows("table { page-break-inside: avoid }").count == 1)
  }

  @Test func hostileFloatedTables() throws {
    let wide = (0..<400).map { "<td>c\($0)</td>" }.joined()
    let word = String(repeating: "x", count: 400)
    let b = try oneChapterBook(
      "float-place", "hostile",
      css: "table { float: left; margin: -900px; width: 5000% } .n { float: right; width: -5px }",
      body: "<table><tr>\(wide)</tr></table><table class=\"n\"><tr><td>\(word)</td></tr></table>"
        + "<p>after both</p>",
      settings: LayoutSettings(pageWidth: 600, pageHeight: 800))
    let all = b.layout.pages.flatMap(\.lines)
    #expect(all.contains { $0.text == "c399" })
    #expect(all.contains { $0.text.hasPrefix("after both") })
    for page in b.layout.pages {
      for l in page.lines { #expect(l.rect.maxY <= 750.5, "\(l.text)") }
    }
  }

  // MARK: inline floats at their own line

  @Test func inlineFloatStartsAtTheLineHoldingItsSource() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.inline)
    let para = try lines(page, block: "The first line of this")
    let note = try lines(page, block: "A note")
    let top = try #require(note.first)
    #expect(para.count == 6)
    // Its source is in the second line: the float's top is that line's top (its text
    // starts there: no border or padding above it), not the paragraph's.
    #expect(abs(top.rect.y - para[1].rect.y) < 0.01)
    #expect(para[0].rect.y < top.rect.y)
    // The second line and those after it beside the note end before its 0.5em margin and
    // 2-px border with 4-px padding.
    let noteLeft = note.map(\.rect.x).min()! - 4 - 2 - 8
    let bottom = note.map(\.rect.maxY).max()!
    for l in para.dropFirst() where l.rect.y < bottom {
      #expect(l.rect.maxX <= noteLeft + 0.5, "\(l.text)")
    }
    // Reading order: the note's lines follow the line its source sits in.
    let order = page.lines.map(\.text)
    let second = try #require(order.firstIndex { $0.hasPrefix("Its second line") })
    let first = try #require(order.firstIndex { $0 == top.text })
    #expect(first == second + 1)
  }

  @Test func inlineFloatTooWideForItsLineGoesToTheNextLine() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.inline)
    let para = try lines(page, block: "A full line of words")
    let wide = try line(page, "Too wide")
    // It does not fit beside the first line's text: it starts at the second line's top
    // (its 1-px border above its text), and the lines from there start right of it.
    #expect(abs(wide.rect.y - 1 - para[1].rect.y) < 0.01)
    #expect(para[0].rect.x == 50)
    #expect(para[0].rect.y < wide.rect.y)
    let right = wide.rect.maxX + 2 + 1 + 8
    #expect(para[1].rect.x >= right - 0.5)
  }

  @Test func linesAboveAMidParagraphFloatKeepTheMeasure() throws {
    let (_, page) = try oracleFixtureFirstPage(Self.inline)
    let para = try lines(page, block: "A longer paragraph")
    let tag = try line(page, "Tag")
    let holding = try #require(
      para.firstIndex { $0.rect.y <= tag.rect.y + 0.01 && $0.rect.maxY > tag.rect.y + 0.01 })
    #expect(holding >= 2)  // the float sits in the middle of the paragraph
    #expect(para[holding].text.contains("source"))
    for l in para[..<holding] { #expect(abs(l.rect.maxX - 550) < 0.5, "\(l.text)") }
    #expect(para[holding].rect.maxX <= tag.rect.x - 8 + 0.5)
    #expect(abs(tag.rect.maxX - 550) < 0.5)
  }

  /// A long paragraph with floats all through it: each float is at the line holding its
  /// source or the next one (never higher, CSS 2.1 §9.5.1 rule 6), no line overlaps a
  /// float's text, every word is shown once, and the lines stay inside the text area.
  @Test func floatsThroughALongParagraphKeepRuleSix() throws {
    var body = ""
    for k in 0..<40 {
      body += "Sentence \(k) of a paragraph that runs on for many lines of text. "
      if k % 3 == 1 { body += "<span class=\"f\">F\(k)</span>" }
    }
    let b = try oneChapterBook(
      "float-place", "rule6", css: ".f { float: right; width: 3em; margin-left: 4px }",
      body: "<p>\(body)</p>", settings: LayoutSettings(pageWidth: 600, pageHeight: 800))
    var floatsSeen = 0
    for page in b.layout.pages {
      let floats = page.lines.filter { $0.text.hasPrefix("F") }
      let text = page.lines.filter { !$0.text.hasPrefix("F") }
      for f in floats {
        floatsSeen += 1
        // The line holding the float's source: the last line starting before it.
        let holding = try #require(text.last { $0.start.offset < f.start.offset })
        let next = text.first { $0.rect.y > holding.rect.y + 0.01 }
        #expect(f.rect.y >= holding.rect.y - 0.01, "\(f.text) above its line")
        if let next { #expect(f.rect.y <= next.rect.y + 0.01, "\(f.text) below the next line") }
        for l in text {
          let overlaps =
            l.rect.maxX > f.rect.x + 0.5 && l.rect.y < f.rect.maxY - 0.5
            && f.rect.y < l.rect.maxY - 0.5
          #expect(!overlaps, "\(l.text) over \(f.text)")
        }
      }
      for l in page.lines { #expect(l.rect.x >= 49.5 && l.rect.maxX <= 550.5) }
    }
    #expect(floatsSeen == 13)
    let shown = b.layout.pages.flatMap(\.lines).map(\.text).joined(separator: " ")
    for k in [0, 20, 39] { #expect(shown.contains("Sentence \(k) of"), "\(k)") }
  }
}
