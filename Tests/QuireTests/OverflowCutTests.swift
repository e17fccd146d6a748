// `overflow` other than visible with a definite height cuts a box's content at its padding
// box bottom (Blocks/OverflowCut.swift), and `text-overflow: ellipsis` ends a cut line in
// "…" (Inline/TextOverflow.swift). Pages are 400×600 with 20 px margins, 16 px text, line
// height 1.4 (22.4 px lines), as in BoxModelTests.

import Foundation
import QuireCore
import QuireRaster
import QuireTypeset
import Testing

@testable import Quire

@Suite("Overflow cut")
struct OverflowCutTests {
  static let lines = (1...12).map { "<p>Line \($0)</p>" }.joined()

  static func render(_ b: EagerBook, _ page: Page) -> (Int, Int) -> [UInt8] {
    let image = b.makeRenderer().render(page, width: 400, height: 600, format: .rgba8)
    return { x, y in
      let o = (y * 400 + x) * 4
      return Array(image.pixels[o..<o + 3])
    }
  }

  @Test(
    "A clipping box with a height does not grow; lines below the cut are neither drawn nor listed")
  func heightCutsContent() throws {
    let b = try BoxModelTests.book(
      "<div>\(Self.lines)</div><p>After</p>",
      css: "div { height: 50px; overflow: hidden; border: 2px solid red; padding: 3px }",
      name: "cut")
    let div = try #require(BoxModelTests.fragments(b, "div").first)
    #expect(div.border == BoxModelTests.rect(20, 20, 360, 2 + 3 + 50 + 3 + 2))
    let page = b.layout.pages[0]
    // Lines 1 and 2 start above the cut (25 + 50 = 75: 25, 47.4, 69.8); line 3 crosses it.
    let inside = page.lines.filter { $0.text.hasPrefix("Line") }.map(\.text)
    #expect(inside == ["Line 1", "Line 2", "Line 3"])
    let after = try #require(page.lines.first { $0.text == "After" })
    #expect(BoxModelTests.r(after.rect.y) == 80)
    // Drawn: lines 1–3 and "After" (line 3 clipped at the padding box bottom, 78); the
    // border under it is whole.
    let runs = page.items.filter { if case .glyphs = $0 { true } else { false } }
    #expect(runs.count == 4)
    let px = Self.render(b, page)
    #expect((78..<80).allSatisfy { y in (20..<380).allSatisfy { px($0, y) == [255, 0, 0] } })
  }

  @Test("max-height cuts; min-height below it keeps the box at least that tall")
  func maxHeightCuts() throws {
    let b = try BoxModelTests.book(
      "<div class='a'>\(Self.lines)</div><div class='b'><p>x</p></div>",
      css:
        ".a { max-height: 3em; overflow: clip } .b { max-height: 100px; min-height: 40px; overflow: hidden }",
      name: "maxcut")
    let a = try #require(BoxModelTests.fragments(b, "div").first)
    #expect(a.border.height == 48)
    let bBox = try #require(BoxModelTests.fragments(b, "div", nth: 1).first)
    #expect(bBox.border.y == 68 && bBox.border.height == 40)
    #expect(b.layout.pages[0].lines.map(\.text) == ["Line 1", "Line 2", "Line 3", "x"])
  }

  @Test("Without a height, or with overflow visible, the box grows with its content")
  func noCutWithoutHeight() throws {
    let b = try BoxModelTests.book(
      "<div class='v'>\(Self.lines)</div><div class='h'>\(Self.lines)</div>",
      css: ".v { height: 50px } .h { overflow: hidden }", name: "nocut", height: 2000)
    let texts = b.layout.pages.flatMap(\.lines).map(\.text)
    #expect(texts.count == 24)
    let h = try #require(BoxModelTests.fragments(b, "div", nth: 1).first)
    #expect(BoxModelTests.r(h.border.height) == BoxModelTests.r(12 * 22.4))
  }

  @Test("Nested boxes and tables below a cut vanish; hostile heights stay bounded")
  func nestedAndHostile() throws {
    let nested =
      String(repeating: "<div class='n'>", count: 60) + Self.lines
      + String(repeating: "</div>", count: 60)
    let b = try BoxModelTests.book(
      "<div class='cut'>\(Self.lines)<div class='inner'><p>Hidden</p></div>"
        + "<table><tr><td>cell</td></tr></table></div>"
        + "<div class='zero'>\(nested)</div><div class='neg'>\(Self.lines)</div><p>End</p>",
      css: """
        .cut { height: 30px; overflow: hidden } .inner { border: 5px solid blue }
        .zero { height: 0; overflow: hidden } .n { border: 1px solid; overflow: hidden; height: 1e9px }
        .neg { height: -40px; max-height: 1e12px; overflow: scroll }
        """, name: "nested")
    let texts = b.layout.pages.flatMap(\.lines).map(\.text)
    #expect(!texts.contains("Hidden") && !texts.contains("cell"))
    #expect(texts.filter { $0.hasPrefix("Line") }.count == 2 + 12)
    #expect(texts.last == "End")
    // No blue border ink anywhere: the inner box is below the cut.
    let page = b.layout.pages[0]
    let px = Self.render(b, page)
    #expect((0..<600).allSatisfy { y in (0..<400).allSatisfy { px($0, y) != [0, 0, 255] } })
  }
}

@Suite("Text overflow")
struct TextOverflowTests {
  static let long = "A line much too long to fit in this narrow box at all"

  static func book(_ css: String, name: String, dir: String = "ltr") throws -> EagerBook {
    try BoxModelTests.book(
      "<div dir='\(dir)'>\(long)</div>",
      css: "div { width: 120px; white-space: nowrap; overflow: hidden; \(css) }", name: name)
  }

  @Test("ellipsis: the cut line ends in “…” inside the box; clip: no mark")
  func ellipsisEndsTheLine() throws {
    let e = try Self.book("text-overflow: ellipsis", name: "ell")
    let c = try Self.book("text-overflow: clip", name: "clipped")
    func runs(_ b: EagerBook) -> [GlyphRun] {
      b.layout.pages[0].items.compactMap { if case .glyphs(let r) = $0 { r } else { nil } }
    }
    let eg = runs(e).flatMap(\.glyphs)
    let ex = runs(e).flatMap(\.x)
    let cg = runs(c).flatMap(\.glyphs)
    // The clipped glyphs, fewer of them, then the mark after the last one kept.
    #expect(eg.count >= 2 && eg.count <= cg.count)
    #expect(Array(eg.dropLast()) == Array(cg.prefix(eg.count - 1)))
    #expect(eg.last != cg[eg.count - 1])
    #expect(ex.count >= 2 && ex[ex.count - 1] > ex[ex.count - 2] && ex[ex.count - 1] < 140)
    let line = try #require(e.layout.pages[0].lines.first)
    #expect(line.rect.maxX <= 140.01 && line.text == Self.long)
    // The same width with the mark on: the words hidden whole are those past 120 − “…”.
    let ink = e.makeRenderer().render(e.layout.pages[0], width: 400, height: 600, format: .gray8)
    let y = Int(line.rect.y + line.rect.height * 0.7)
    #expect((141..<400).allSatisfy { ink.pixels[y * 400 + $0] == 255 })
  }

  @Test("Right to left: the mark is at the left end")
  func rightToLeft() throws {
    let e = try Self.book("text-overflow: ellipsis; direction: rtl", name: "rtl", dir: "rtl")
    let runs = e.layout.pages[0].items.compactMap { if case .glyphs(let r) = $0 { r } else { nil } }
    let xs = runs.flatMap(\.x)
    // The mark, placed last, is the leftmost glyph, inside the box.
    let mark = try #require(xs.last)
    #expect(mark >= 19.5 && xs.min() == mark)
  }

  @Test("A line that fits is untouched; wrapping text never gets a mark")
  func fittingLines() throws {
    let b = try BoxModelTests.book(
      "<div class='n'>short</div><div class='w'>\(Self.long)</div>",
      css:
        "div { width: 120px; overflow: hidden; text-overflow: ellipsis } .n { white-space: nowrap }",
      name: "fits")
    let p = b.layout.pages[0]
    #expect(p.lines.map(\.text).first == "short")
    #expect(p.lines.count > 2)
    #expect(p.lines.allSatisfy { $0.rect.maxX <= 140.01 })
  }
}

@Suite("Box decoration break")
struct DecorationBreakTests {
  static let text = (1...30).map { "<p>Line \($0)</p>" }.joined()

  static func paints(_ b: EagerBook) -> [[BoxPaint]] {
    b.layout.pages.map { page in
      page.items.compactMap { if case .box(let p) = $0 { p } else { nil } }
    }
  }

  @Test("clone: every page fragment has its borders, padding and corners; lines stay inside")
  func cloneRepeatsTheEdges() throws {
    for property in ["box-decoration-break", "-webkit-box-decoration-break"] {
      let b = try BoxModelTests.book(
        "<div>\(Self.text)</div>",
        css: "div { border: 3px solid blue; padding: 5px; border-radius: 8px; \(property): clone }",
        name: "clone", height: 300)
      let frags = BoxModelTests.fragments(b, "div")
      #expect(frags.count >= 3)
      let paints = Self.paints(b).flatMap { $0 }
      #expect(paints.count == frags.count)
      #expect(
        paints.allSatisfy { $0.top.width == 3 && $0.bottom.width == 3 && $0.radii == [8, 8, 8, 8] })
      for (k, page) in b.layout.pages.enumerated() {
        guard let f = page.boxes.first(where: { $0.tag == "div" }) else { continue }
        #expect(f.border.y == 20, "page \(k + 1)")
        #expect(f.content.y == 28 && f.border.maxY <= 280.01)
        for line in page.lines {
          #expect(line.rect.y >= f.content.y - 0.01 && line.rect.maxY <= f.content.maxY + 0.01)
        }
      }
      // Continuation pages start 8 px lower than slice pages would: text is not lost.
      #expect(b.layout.pages.flatMap(\.lines).count == 30)
    }
  }

  @Test("Nested cloned boxes stack their edges inward; a sliced box inside keeps its cut")
  func nestedClones() throws {
    let b = try BoxModelTests.book(
      "<div class='o'><div class='i'><section>\(Self.text)</section></div></div>",
      css: """
        div { box-decoration-break: clone } .o { border: 4px solid red; padding: 2px }
        .i { border: 2px solid green } section { border: 1px solid black }
        """, name: "nested-clone", height: 300)
    for page in b.layout.pages.dropFirst().dropLast() {
      let o = try #require(page.boxes.first { $0.tag == "div" })
      let i = try #require(page.boxes.last { $0.tag == "div" })
      let s = try #require(page.boxes.first { $0.tag == "section" })
      #expect(o.border.y == 20 && i.border.y == 26 && s.border.y == 28)
      #expect(i.border.maxY == o.content.maxY && s.border.maxY == i.content.maxY)
      let sp = page.items.compactMap {
        if case .box(let p) = $0, p.left.width == 1 { p } else { nil }
      }
      #expect(sp.allSatisfy { $0.top.width == 0 && $0.bottom.width == 0 })
      for line in page.lines { #expect(line.rect.maxY <= s.content.maxY + 0.01) }
    }
  }
}
