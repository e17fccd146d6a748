import Foundation
import QuireCore
import QuireIngest
import QuireRaster
import QuireTypeset
import Testing

@testable import Quire

/// Decorated inline boxes (Inline/InlineBoxEdges.swift) on the browser-oracle fixture
/// Tests/Fixtures/browser-oracle/inline-boxes.xhtml and small hostile chapters: the sides
/// take room in the line, each line fragment is one `BoxPaint` with the right sides for
/// `slice` and `clone`, vertical padding leaves line heights alone, breaking keeps lines
/// inside the measure, huge values stay bounded. Chromium's fragment boxes are compared by
/// BrowserOracleTests.
@Suite("Inline box decorations")
struct InlineBoxDecorationTests {
  static let width = 600
  static let height = 800

  static func book(_ path: String) throws -> EagerBook {
    try EagerBook(path, settings: LayoutSettings(pageWidth: width, pageHeight: height))
  }

  static func fixture() throws -> EagerBook {
    try book(
      packageRoot.appendingPathComponent("Tests/Fixtures/browser-oracle/inline-boxes.xhtml").path)
  }

  /// A chapter written to a temporary file.
  static func chapter(_ style: String, _ body: String) throws -> EagerBook {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "inline-boxes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("c.xhtml")
    let xhtml = """
      <?xml version="1.0" encoding="utf-8"?>
      <html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title>
      <style>\(style)</style></head><body>\(body)</body></html>
      """
    try xhtml.write(to: file, atomically: true, encoding: .utf8)
    return try book(file.path)
  }

  /// The box paints of a page whose top lies within `line`.
  static func paints(_ page: Page, on line: LineBox) -> [BoxPaint] {
    page.items.compactMap {
      if case .box(let b) = $0, b.rect.y + b.rect.height / 2 > line.rect.y,
        b.rect.y + b.rect.height / 2 < line.rect.maxY
      {
        return b
      }
      return nil
    }
  }

  static func line(_ page: Page, _ prefix: String) throws -> LineBox {
    try #require(page.lines.first { $0.text.hasPrefix(prefix) })
  }

  @Test func sidesTakeRoomInTheLine() throws {
    let b = try Self.fixture()
    let page = try #require(b.layout.pages.first)
    // "A framed word": 10 px margins, 3 px borders, 6 px padding on each side.
    let line = try Self.line(page, "A framed")
    let box = try #require(Self.paints(page, on: line).first)
    #expect(box.left.width == 3 && box.right.width == 3)
    #expect(box.left.style == .solid)
    let plain = try #require(
      try Self.chapter("p { text-align: left }", "<p>A framed word with margins.</p>").layout
        .pages.first?.lines.first)
    // The line is 2 × (10 + 3 + 6) = 38 px wider than without the box.
    #expect(abs(line.rect.width - plain.rect.width - 38) < 0.01)
    // The border box starts one margin after "A ".
    let a = try #require(
      try Self.chapter("p { text-align: left }", "<p>A </p>").layout.pages.first?.lines.first)
    #expect(box.rect.x > line.rect.x + a.rect.width + 9)
  }

  @Test func verticalPaddingIsPaintedButLeavesTheLineHeight() throws {
    let b = try Self.fixture()
    let page = try #require(b.layout.pages.first)
    let pill = try Self.line(page, "A rounded pill")
    let plain = try Self.line(page, "A gradient")
    #expect(abs(pill.rect.height - plain.rect.height) < 0.01)
    let box = try #require(Self.paints(page, on: pill).first)
    // 3 px of padding above and below the content area: taller than the gradient's box.
    let band = try #require(Self.paints(page, on: plain).first)
    #expect(abs(box.rect.height - band.rect.height - 6) < 0.01)
    #expect(box.radii == [10, 10, 10, 10])
  }

  @Test func sliceCutsTheBoxAtLineEnds() throws {
    let page = try #require(try Self.fixture().layout.pages.first)
    let first = try #require(Self.paints(page, on: try Self.line(page, "sliced")).first)
    let second = try #require(Self.paints(page, on: try Self.line(page, "forced break ends")).first)
    #expect(first.left.width == 2 && first.right.width == 0)
    #expect(second.left.width == 0 && second.right.width == 2)
  }

  @Test func cloneGivesEachFragmentItsSidesAndRoom() throws {
    let page = try #require(try Self.fixture().layout.pages.first)
    let lines = page.lines.filter { $0.text.hasPrefix("cloned") || $0.text.hasPrefix("forced") }
    let cloned = try #require(lines.first { $0.text.hasPrefix("cloned") })
    let next = try #require(page.lines.last { $0.text.hasPrefix("forced break") })
    let a = try #require(Self.paints(page, on: cloned).first)
    let b = try #require(Self.paints(page, on: next).first)
    for p in [a, b] {
      #expect(p.left.width == 2 && p.right.width == 2)
      #expect(p.radii == [6, 6, 6, 6])
    }
    // The second fragment's left side is reserved in its line: it starts at the text's edge.
    #expect(abs(b.rect.x - next.rect.x) < 0.01)
    // A word space inside a clone box is the space, unbroken.
    #expect(next.text.hasPrefix("forced break"))
  }

  @Test func nestedBoxesPaintOuterFirst() throws {
    let page = try #require(try Self.fixture().layout.pages.first)
    let p = Self.paints(page, on: try Self.line(page, "Nested"))
    #expect(p.count == 2)
    if p.count == 2 {
      #expect(p[0].rect.width > p[1].rect.width)
      #expect(p[1].left.style == .dashed)
      #expect(p[0].rect.x < p[1].rect.x && p[0].rect.maxX > p[1].rect.maxX)
    }
  }

  @Test func rightToLeftBoxKeepsItsPhysicalSides() throws {
    let page = try #require(try Self.fixture().layout.pages.first)
    let line = try #require(page.lines.first { $0.text.contains("عربي") })
    let box = try #require(Self.paints(page, on: line).first)
    #expect(box.left.width == 6 && box.right.width == 0)
  }

  @Test func breakingCountsTheSides() throws {
    // Many padded code spans in a justified paragraph: no line past the measure, every
    // fragment inside the text area, each span's sides with its words.
    let words = (1...120).map { $0 % 3 == 0 ? "<code>item_\($0)</code>" : "word\($0)" }
    let b = try Self.chapter(
      "code { padding: 2px 9px; border: 2px solid #888; margin: 0 3px; background: #eee }",
      "<p>\(words.joined(separator: " "))</p>")
    let margins = LayoutSettings(pageWidth: Self.width, pageHeight: Self.height)
      .effectiveMargins
    let lo = Double(margins.left)
    let hi = Double(Self.width) - Double(margins.right)
    var fragments = 0
    for page in b.layout.pages {
      for line in page.lines { #expect(line.rect.maxX <= hi + 0.5) }
      for f in page.inlineBoxes {
        fragments += 1
        #expect(f.rect.x >= lo - 0.5 && f.rect.maxX <= hi + 0.5)
      }
    }
    // One fragment per span: a span is one word, never split.
    #expect(fragments == 40)
  }

  @Test func hugeValuesAreBounded() throws {
    let b = try Self.chapter(
      "span { padding: 0 100000px; border: 1e9px solid red; margin: 0 -1e9px }",
      "<p>before <span>huge</span> after and <span>more <span>nested</span></span></p>")
    for page in b.layout.pages {
      for f in page.inlineBoxes {
        #expect(f.rect.width.isFinite && f.rect.width < 10 * Double(Self.width))
        #expect(f.rect.height < Double(Self.height))
      }
    }
    #expect(b.layout.pages.flatMap(\.lines).map(\.text).joined(separator: " ").contains("after"))
  }

  @Test func generatedContentIsAnInlineBox() throws {
    // CSS 2.1 §12.1: a ::before/::after is an inline box child of its element, so its
    // padding, borders and margins take room and it paints its own border box.
    let css = """
      p { text-align: left }
      a::after { content: "x"; border: 1px solid; padding: 0 2px; margin-left: 3px }
      span::before { content: "Note"; background: #eeeeee; border-radius: 3px; padding: 0 5px }
      """
    let b = try Self.chapter(css, "<p>A <a href=\"#z\">link</a> and <span>text</span>.</p>")
    let page = try #require(b.layout.pages.first)
    let line = try Self.line(page, "A link")
    #expect(line.text.hasPrefix("A linkx and Notetext"), "\(line.text)")
    let plain = try Self.chapter(
      "p { text-align: left } a::after { content: \"x\" } span::before { content: \"Note\" }",
      "<p>A <a href=\"#z\">link</a> and <span>text</span>.</p>")
    let plainLine = try #require(plain.layout.pages.first?.lines.first)
    // (1 + 2) × 2 + 3 for the arrow's box, 5 × 2 for the label's.
    #expect(abs(line.rect.width - plainLine.rect.width - 19) < 0.01)
    let paints = Self.paints(page, on: line)
    #expect(paints.count == 2)
    let arrow = try #require(paints.first { $0.left.width == 1 })
    #expect(arrow.right.width == 1 && arrow.backgroundColor == nil)
    let label = try #require(paints.first { $0.backgroundColor != nil })
    #expect(label.radii == [3, 3, 3, 3] && label.left.width == 0)
    #expect(label.rect.x > arrow.rect.maxX)
    // The manifest names each box's element and which pseudo-element it is.
    let fragments = page.inlineBoxes.map { InlineBoxDecoration.element(of: $0.source) }
    #expect(fragments.map(\.pseudo) == ["after", "before"])
    #expect(fragments.map(\.element).allSatisfy { $0 > 0 })
  }

  @Test func pageGolden() throws {
    let b = try Self.fixture()
    let page = try #require(b.layout.pages.first)
    let image = b.makeRenderer().render(
      page, width: Self.width, height: Self.height, format: PixelBuffer.Format.rgba8)
    try checkGolden(Data(PNGCodec.encode(image)), "css-inline-boxes.png")
  }
}
