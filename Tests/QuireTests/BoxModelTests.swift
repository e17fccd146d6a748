import Foundation
import QuireCore
import QuireIngest
import QuireRaster
import QuireTypeset
import Testing

@testable import Quire

/// The CSS box model end to end: XHTML fixtures through ingest and layout, checked on the
/// pages' block fragments (border and content boxes, page px) and `.box` paints. Pages are
/// 400×600 with 20 px margins, 16 px text, line height 1.4 (22.4 px lines).
@Suite("Box model")
struct BoxModelTests {
  static let css = "body { margin: 0; padding: 0 } p { margin: 0 }"

  /// Lays out one chapter with `css` in its head and `body` as its body.
  static func book(
    _ body: String, css: String = "", name: String, height: Int = 600, files: [String: Data] = [:]
  ) throws -> EagerBook {
    let dir = temporaryFolder("boxes-\(name)")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for (file, data) in files { try data.write(to: URL(fileURLWithPath: dir + "/" + file)) }
    let xhtml = """
      <?xml version="1.0" encoding="utf-8"?>
      <html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><title>t</title>
      <style>\(Self.css) \(css)</style></head><body>\(body)</body></html>
      """
    let path = dir + "/chapter.xhtml"
    try Data(xhtml.utf8).write(to: URL(fileURLWithPath: path))
    var settings = LayoutSettings(pageWidth: 400, pageHeight: height)
    settings.margins = PageMargins(all: 20)
    return try EagerBook(path, settings: settings)
  }

  /// The fragments of the first block named `tag`, one per page.
  static func fragments(_ book: EagerBook, _ tag: String, nth: Int = 0) -> [BlockFragment] {
    let all = book.layout.pages.flatMap(\.boxes).filter { $0.tag == tag }
    guard let index = Array(Set(all.map(\.index))).sorted().dropFirst(nth).first else { return [] }
    return all.filter { $0.index == index }.map {
      var f = $0
      f.border = rect(f.border.x, f.border.y, f.border.width, f.border.height)
      f.content = rect(f.content.x, f.content.y, f.content.width, f.content.height)
      return f
    }
  }

  /// Two decimals, as the manifest writes them (sums of 22.4 px lines are not exact).
  static func r(_ v: Double) -> Double { (v * 100).rounded() / 100 }

  static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
    Rect(x: r(x), y: r(y), width: r(w), height: r(h))
  }

  @Test func bordersAndPaddingTakeSpaceInsideMargins() throws {
    let b = try Self.book(
      "<div><p>One</p></div><p>After</p>",
      css: "div { margin: 10px 30px; border: 4px solid red; padding: 6px 8px }", name: "bp")
    let div = try #require(Self.fragments(b, "div").first)
    #expect(div.border == Self.rect(50, 30, 300, 4 + 6 + 22.4 + 6 + 4))
    #expect(div.content == Self.rect(62, 40, 276, 22.4))
    let after = try #require(Self.fragments(b, "p", nth: 1).first)
    #expect(after.border.y == Self.r(30 + 42.4 + 10))  // the bottom margin stays outside the border
    let paints = b.layout.pages[0].items.compactMap { item -> BoxPaint? in
      if case .box(let p) = item { return p }
      return nil
    }
    #expect(paints.count == 1)
    #expect(
      paints.first.map { Self.rect($0.rect.x, $0.rect.y, $0.rect.width, $0.rect.height) }
        == div.border)
    #expect(paints.first?.top.width == 4 && paints.first?.top.color == RGBA(r: 255, g: 0, b: 0))
    // The paint comes before the text it surrounds.
    guard case .box = b.layout.pages[0].items.first else {
      Issue.record("the box is not painted first")
      return
    }
  }

  @Test func marginsCollapsePerCSS21() throws {
    // Siblings: the larger margin wins; a negative one is added to the largest positive.
    let siblings = try Self.book(
      "<p class='a'>A</p><p class='b'>B</p><p class='c'>C</p>",
      css:
        ".a { margin-bottom: 20px } .b { margin-top: 10px; margin-bottom: 25px } .c { margin-top: -5px }",
      name: "siblings")
    let ys = (0..<3).compactMap { Self.fragments(siblings, "p", nth: $0).first?.border.y }
    let expected: [Double] = [20, Self.r(20 + 22.4 + 20), Self.r(20 + 2 * 22.4 + 40)]
    #expect(ys == expected)
    // Parent and first child: with nothing between, the margins collapse through the parent.
    let through = try Self.book(
      "<p>x</p><div><p class='in'>A</p></div>",
      css: "div { margin-top: 10px } .in { margin-top: 30px }", name: "through")
    let div = try #require(Self.fragments(through, "div").first)
    let inner = try #require(Self.fragments(through, "p", nth: 1).first)
    #expect(div.border.y == Self.r(20 + 22.4 + 30) && inner.border.y == div.border.y)
    // Padding and borders stop the collapsing.
    for (name, css, gap) in [
      ("padded", "div { margin-top: 10px; padding-top: 1px }", 10.0 + 1 + 30),
      ("bordered", "div { margin-top: 10px; border-top: 2px solid black }", 10.0 + 2 + 30),
    ] {
      let b = try Self.book(
        "<p>x</p><div><p class='in'>A</p></div>", css: css + " .in { margin-top: 30px }",
        name: name)
      let d = try #require(Self.fragments(b, "div").first)
      let p = try #require(Self.fragments(b, "p", nth: 1).first)
      #expect(d.border.y == Self.r(20 + 22.4 + 10), "\(name)")
      #expect(p.border.y == Self.r(20 + 22.4 + gap), "\(name)")
    }
    // Last child and parent bottom: collapse through; a bottom border keeps it inside.
    let bottom = try Self.book(
      "<div><p class='in'>A</p></div><p>after</p>",
      css: ".in { margin-bottom: 30px } div { margin-bottom: 10px; border-bottom: 1px solid }",
      name: "bottom")
    let d = try #require(Self.fragments(bottom, "div").first)
    #expect(d.border.height == Self.r(22.4 + 30 + 1))
    #expect(Self.fragments(bottom, "p", nth: 1).first?.border.y == Self.r(20 + 22.4 + 30 + 1 + 10))
  }

  @Test func widthsCentringAndBoxSizing() throws {
    let b = try Self.book(
      """
      <div class='c'><p>centred</p></div><div class='r'><p>right</p></div>
      <div class='m'><p>max</p></div><div class='bb'><p>border-box</p></div>
      <div class='pc'><p>percent</p></div><div class='em'><p>em</p></div>
      <div class='min'><p>min</p></div>
      """,
      css: """
        .c { width: 200px; margin: 0 auto; border: 5px solid; padding: 0 10px }
        .r { width: 100px; margin-left: auto }
        .m { max-width: 150px; margin: 0 auto }
        .bb { box-sizing: border-box; width: 200px; padding: 0 20px; border: 10px solid }
        .pc { width: 50%; margin-left: 10% }
        .em { width: 10em; font-size: 2em }
        .min { width: 10px; min-width: 120px }
        """, name: "widths")
    let f = { (n: Int) in Self.fragments(b, "div", nth: n).first }
    // Text area 360 px from x = 20.
    #expect(f(0)?.border == Self.rect(20 + (360 - 230) / 2, 20, 230, 22.4 + 10))
    #expect(f(0)?.content.width == 200 && f(0)?.content.x == 20 + 65 + 15)
    #expect(f(1)?.border.x == 20 + 260 && f(1)?.border.width == 100)
    #expect(f(2)?.border.x == 20 + 105 && f(2)?.border.width == 150)
    #expect(f(3)?.border.width == 200 && f(3)?.content.width == 140)
    #expect(f(4)?.border.x == 20 + 36 && f(4)?.border.width == 180)
    #expect(f(5)?.border.width == 320)  // 10em at 32 px
    #expect(f(6)?.border.width == 120)
  }

  @Test func heightAndMinHeightReserveSpace() throws {
    let b = try Self.book(
      "<div class='h'><p>short</p></div><div class='m'></div><p>after</p>",
      css: ".h { height: 100px; background: #ddd } .m { min-height: 50px; border: 1px solid }",
      name: "heights")
    let h = try #require(Self.fragments(b, "div").first)
    let m = try #require(Self.fragments(b, "div", nth: 1).first)
    #expect(h.border == Self.rect(20, 20, 360, 100))
    #expect(m.border == Self.rect(20, 120, 360, 52))
    #expect(Self.fragments(b, "p", nth: 1).first?.border.y == 172)
  }

  @Test func boxesSplitAcrossPagesLoseTheCutBorders() throws {
    let text = (1...30).map { "<p>Line \($0)</p>" }.joined()
    let b = try Self.book(
      "<div>\(text)</div>",
      css: "div { border: 3px dashed blue; padding: 5px; border-radius: 8px }",
      name: "split", height: 300)
    let frags = Self.fragments(b, "div")
    #expect(frags.count >= 3)
    #expect(frags.first?.border.y == 20 && frags.first?.border.maxY == 280)  // to the page bottom
    #expect(frags.dropFirst().first?.border.y == 20)
    var paints: [BoxPaint] = []
    for page in b.layout.pages {
      for case .box(let p) in page.items { paints.append(p) }
    }
    #expect(paints.count == frags.count)
    #expect(paints.first?.top.width == 3 && paints.first?.bottom.width == 0)
    #expect(paints.first?.radii == [8, 8, 0, 0])
    #expect(paints.last?.top.width == 0 && paints.last?.bottom.width == 3)
    #expect(paints.dropFirst().first.map { $0.top.width == 0 && $0.bottom.width == 0 } == true)
    // Every line stays inside its page's fragment.
    for page in b.layout.pages {
      guard let f = page.boxes.first(where: { $0.tag == "div" }) else { continue }
      for line in page.lines {
        #expect(line.rect.y >= f.content.y - 0.01 && line.rect.maxY <= f.content.maxY + 0.01)
      }
    }
  }

  @Test func bodyAndHtmlBackgroundsFillThePage() throws {
    let body = try Self.book("<p>x</p>", css: "body { background: #123456 }", name: "bodybg")
    #expect(body.layout.pages[0].background?.backgroundColor == RGBA(r: 0x12, g: 0x34, b: 0x56))
    #expect(body.layout.pages[0].background?.rect == Self.rect(0, 0, 400, 600))
    #expect(!body.layout.pages[0].items.contains { if case .box = $0 { true } else { false } })
    let both = try Self.book(
      "<p>x</p>", css: "html { background: red } body { background: blue }", name: "htmlbg")
    #expect(both.layout.pages[0].background?.backgroundColor == RGBA(r: 255, g: 0, b: 0))
    // The body keeps its own background when the root has one.
    #expect(both.layout.pages[0].items.contains { if case .box = $0 { true } else { false } })
    let image = both.makeRenderer().render(
      both.layout.pages[0], width: 400, height: 600, format: .rgba8)
    #expect(Array(image.pixels[0..<3]) == [255, 0, 0])  // the margin takes the root's colour
    let gray = body.makeRenderer().render(
      body.layout.pages[0], width: 400, height: 600, format: .gray8)
    let luminance: Int = (54 * 0x12 + 183 * 0x34 + 19 * 0x56 + 128) >> 8
    #expect(Int(gray.pixels[0]) == luminance)
  }

  /// The fixture chapter of the golden: coloured boxes, every border style, rounded corners,
  /// a gradient, a background image with repeat/size/position, a page-filling body colour.
  static let sampler = """
    <h2 class='t'>Boxes</h2>
    <div class='note'><p>A note in a rounded box with a dashed border, centred at 80%.</p></div>
    <div class='dots'><p>Dotted, double and groove sides.</p></div>
    <div class='grad'><p>A gradient from gold to sky.</p></div>
    <div class='img'><p>Tiles repeat along x at the bottom.</p></div>
    <div class='deco'><p>Inset, outset and ridge.</p></div>
    """
  static let samplerCSS = """
    body { background: #f4efe2 } h2.t { margin: 0 0 8px; font-size: 1.2em }
    div { margin: 10px 0; padding: 6px 10px }
    .note { width: 80%; margin: 0 auto; border: 2px dashed #a33; border-radius: 12px;
      background: #fff8d0 }
    .dots { border-top: 4px dotted navy; border-left: 6px double navy;
      border-bottom: 6px groove #888; border-right: 3px solid navy }
    .grad { background-image: linear-gradient(to right, #fc0, #8cf 80%); color: #123 }
    .img { background: #eef url(tile.png) repeat-x left 4px bottom 2px / 12px 6px;
      padding-bottom: 12px }
    .deco { border-width: 5px; border-style: inset outset ridge; border-color: #6a6;
      max-width: 200px }
    """

  @Test func samplerChapterGolden() throws {
    var px: [UInt8] = []
    for _ in 0..<4 {
      for x in 0..<4 { px += x < 2 ? [200, 40, 40, 255] : [40, 40, 200, 255] }
    }
    let tile = Data(PNGCodec.encode(PixelBuffer(width: 4, height: 4, format: .rgba8, pixels: px)))
    let b = try Self.book(
      Self.sampler, css: Self.samplerCSS, name: "sampler", files: ["tile.png": tile])
    let page = b.layout.pages[0]
    let image = b.makeRenderer().render(page, width: 400, height: 600, format: .rgba8)
    try checkGolden(Data(PNGCodec.encode(image)), "box-model-sampler.png")
    var dump = ""
    for f in page.boxes {
      dump += f.tag.padding(toLength: 5, withPad: " ", startingAt: 0)
      dump += String(
        format: "%3d border %6.1f %6.1f %6.1f %6.1f  content %6.1f %6.1f %6.1f %6.1f\n",
        f.index, f.border.x, f.border.y, f.border.width, f.border.height, f.content.x,
        f.content.y, f.content.width, f.content.height)
    }
    try checkGolden(Data(dump.utf8), "box-model-sampler.blocks.txt")
  }

  /// getBoundingClientRect of the sampler's elements in headless Chromium (Debian chromium
  /// 2026, the vendored Noto Serif, a 360 px wide body at 20, 20; scripts/chromium-box-rects.py
  /// regenerates them): tag, x, y, width, height.
  static let chromiumSampler: [(String, Double, Double, Double, Double)] = [
    ("body", 20, 20, 360, 299.22), ("h2", 20, 20, 360, 26.88), ("div", 44, 54.88, 312, 60.78),
    ("p", 56, 62.88, 288, 44.78), ("div", 20, 125.66, 360, 44.39), ("p", 36, 135.66, 331, 22.39),
    ("div", 20, 180.05, 360, 34.39), ("p", 30, 186.05, 340, 22.39),
    ("div", 20, 224.44, 360, 40.39), ("p", 30, 230.44, 340, 22.39),
    ("div", 20, 274.83, 230, 44.39), ("p", 35, 285.83, 200, 22.39),
  ]

  @Test func samplerBoxesAgreeWithChromium() throws {
    let b = try Self.book(Self.sampler, css: Self.samplerCSS, name: "sampler-oracle")
    let blocks = b.layout.pages[0].boxes
    #expect(blocks.count == Self.chromiumSampler.count)
    for (f, c) in zip(blocks, Self.chromiumSampler) {
      let r = f.border
      let worst = max(abs(r.x - c.1), abs(r.y - c.2), abs(r.width - c.3), abs(r.height - c.4))
      #expect(f.tag == c.0 && worst < 0.5, "\(f.tag) \(r) vs Chromium \(c)")
    }
  }
}

extension BoxModelTests {
  @Test func overflowHiddenClipsToThePaddingBox() throws {
    let wide = String(repeating: "W", count: 60)
    let b = try Self.book(
      "<div><pre>\(wide)</pre></div>",
      css: "div { width: 100px; overflow: hidden; border: 2px solid red } pre { margin: 0 }",
      name: "clip")
    let page = b.layout.pages[0]
    let clip = page.items.compactMap { item -> BoxPaint? in
      if case .box(let p) = item { return p }
      return nil
    }.first
    #expect(clip?.clippedItems ?? 0 >= 1)
    let image = b.makeRenderer().render(page, width: 400, height: 600, format: .rgba8)
    func px(_ x: Int, _ y: Int) -> [UInt8] {
      let o = (y * 400 + x) * 4
      return Array(image.pixels[o..<o + 3])
    }
    let line = try #require(page.lines.first)
    let y = Int(line.rect.y + line.rect.height / 2)
    // Ink inside the box, none right of its border (the W's run on to x ≈ 900).
    #expect((20..<122).contains { px($0, y) != [255, 255, 255] })
    #expect((125..<380).allSatisfy { px($0, y) == [255, 255, 255] })
    #expect(px(123, y) == [255, 0, 0])  // the right border (122..<124) itself stays
  }
}
