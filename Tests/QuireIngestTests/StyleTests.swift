import Foundation
import QuireCore
import Testing

@testable import QuireIngest

private func page(_ body: String, css: String = "", options: IngestOptions = IngestOptions())
  -> Chapter
{ ContentFixtures.styled(body, css: css, options: options) }

/// The blocks under <body>, flattened in document order.
private func flat(_ c: Chapter) -> [Block] { c.blocksInOrder }

private func runs(_ b: Block) -> [TextRun] { b.textRuns }

@Suite struct StyleTests {
  @Test func specificityImportantAndSourceOrder() {
    let css = """
      p { text-align: left }
      .a { text-align: right }
      #x { text-align: center }
      p { text-align: justify }
      p.b { text-indent: 1em !important }
      #y { text-indent: 3em }
      """
    let bs = flat(
      page(
        "<p id=\"x\" class=\"a\">1</p><p class=\"a\">2</p><p>3</p><p id=\"y\" class=\"b\" style=\"text-indent: 5em\">4</p>",
        css: css)
    )
    .filter { $0.kind == .paragraph }
    #expect(bs.map(\.style.textAlign) == [.center, .right, .justify, .justify])
    #expect(bs[3].style.textIndent == .rem(1))
  }

  @Test func combinatorsAndAttributes() {
    let css = """
      div p { margin-left: 1em }
      div > p { margin-right: 2em }
      h1 + p { text-indent: 0 }
      p + p { text-indent: 1.5em }
      h1 ~ p { widows: 3 }
      [title] { orphans: 4 }
      [lang|=fr] { font-style: italic }
      a[href$=".html"] { text-decoration: underline }
      p:first-child { color: #f00 }
      p::first-letter { font-size: 3em }
      """
    let c = page(
      "<div><section><p title=\"t\">a</p></section><h1>h</h1><p lang=\"fr-CA\">b</p><p>c <a href=\"x.html\">l</a></p></div>",
      css: css)
    let ps = flat(c).filter { $0.kind == .paragraph }
    #expect(ps[0].style.margin.left == .rem(1))
    #expect(ps[0].style.margin.right == .zero)
    #expect(ps[1].style.margin.right == .rem(2))
    #expect(ps[0].style.orphans == 4)
    #expect(ps[0].style.color == RGBA(r: 255, g: 0, b: 0))
    #expect(ps[1].style.italic)
    #expect(ps[1].lang == "fr-CA")
    #expect(ps[1].style.textIndent == .zero)
    #expect(ps[2].style.textIndent == .rem(1.5))
    #expect(ps[1].style.widows == 3 && ps[2].style.widows == 3)
    #expect(ps.allSatisfy { $0.style.fontSize == 1 })
    #expect(runs(ps[2]).last?.style.underline == true)
    #expect(runs(ps[2]).last?.link == "OPS/x.html")
  }

  @Test func fontSizesAndUnits() {
    let css = """
      body { font-size: 12pt }
      .a { font-size: 150% }
      .a span { font-size: 2em; margin-left: 1em }
      .b { font-size: 24px; text-indent: 1em; line-height: 1.5 }
      .c { font-size: x-large; line-height: 24px }
      .d { font: italic bold 10px/120% Georgia, "Times New Roman", serif }
      .e { font-size: smaller; font-weight: bolder; margin: 1em 2em }
      .f { font-size: 1rem; padding: 1px 2px 3px; line-height: normal }
      """
    let ps = flat(
      page(
        "<p class=\"a\">x<span>y</span></p><p class=\"b\">b</p><p class=\"c\">c</p><p class=\"d\">d</p><p class=\"e\">e</p><p class=\"f\">f</p>",
        css: css)
    )
    .filter { $0.kind == .paragraph }
    #expect(ps[0].style.fontSize == 1.5)
    #expect(runs(ps[0]).map(\.style.fontSize) == [1.5, 3])
    #expect(ps[1].style.fontSize == 1.5)
    #expect(ps[1].style.textIndent == .rem(1.5))
    #expect(ps[1].style.lineHeight == .factor(1.5))
    #expect(ps[2].style.fontSize == 1.5)
    #expect(ps[2].style.lineHeight == .length(.rem(1.5)))
    #expect(ps[3].style.fontSize == 0.625)
    #expect(ps[3].style.italic && ps[3].style.fontWeight == 700)
    #expect(ps[3].style.fontFamilies == ["Georgia", "Times New Roman", "serif"])
    // 120 % of 10 px, a length (CSS 2.1 §10.8.1), not a factor.
    #expect(ps[3].style.lineHeight == .length(.rem(0.75)))
    #expect(abs(ps[4].style.fontSize - 1 / 1.2) < 1e-9)
    #expect(ps[4].style.fontWeight == 700)
    #expect(
      ps[4].style.margin
        == EdgeLengths(
          top: .rem(1 / 1.2), right: .rem(2 / 1.2), bottom: .rem(1 / 1.2), left: .rem(2 / 1.2)))
    #expect(
      ps[5].style.padding
        == EdgeLengths(
          top: .rem(1 / 16), right: .rem(2 / 16), bottom: .rem(3 / 16), left: .rem(2 / 16)))
    #expect(ps[5].style.lineHeight == .normal)
  }

  @Test func percentageLineHeightIsInheritedAsALength() {
    // CSS 2.1 §10.8.1: a percentage computes to a length from the element's own font size
    // and children inherit that length; a number is inherited as a number.
    let css = """
      div.pct { font-size: 20px; line-height: 150% }
      div.num { font-size: 20px; line-height: 1.5 }
      h4 { font-size: 40px }
      """
    let blocks = flat(
      page(
        "<div class=\"pct\"><h4>a</h4><p>b</p></div><div class=\"num\"><h4>c</h4></div>",
        css: css))
    let h4 = blocks.filter {
      if case .heading = $0.kind { return true }
      return false
    }
    #expect(h4.count == 2)
    #expect(h4.first?.style.lineHeight == .length(.rem(1.875)))  // 30 px, not 60
    #expect(h4.last?.style.lineHeight == .factor(1.5))
    let p = blocks.first { $0.kind == .paragraph }
    #expect(p?.style.lineHeight == .length(.rem(1.875)))
  }

  @Test func nestedListsHaveNoVerticalMargins() {
    // HTML §15.3.8: a list inside a list has no block margins; the outer keeps its 1em.
    let lists = flat(page("<ul><li>a<ol><li>b</li></ol></li></ul><ol><li>c</li></ol>"))
      .filter {
        if case .list = $0.kind { return true }
        return false
      }
    #expect(lists.map(\.style.margin.top) == [.rem(1), .zero, .rem(1)])
    #expect(lists.map(\.style.margin.bottom) == [.rem(1), .zero, .rem(1)])
  }

  @Test func propertiesAndPrefixes() {
    let css = """
      p { -webkit-hyphens: auto; page-break-before: always; break-after: avoid; page-break-inside: avoid;
          white-space: pre-line; text-transform: uppercase; font-variant: small-caps; direction: rtl;
          color: rgb(10, 20, 30); vertical-align: super; unknown-prop: 12; margin: auto }
      .n { hyphens: none; -epub-hyphens: auto; color: navy }
      .g { color: #abc; text-decoration: line-through }
      @media print { p { color: red } }
      @media screen, print { .g { text-indent: 2em } }
      @page { margin: 0 }
      @unknown foo { p { color: red } }
      """
    let ps = flat(page("<p>a</p><p class=\"n\">b</p><p class=\"g\">c</p>", css: css)).filter {
      $0.kind == .paragraph
    }
    let s = ps[0].style
    #expect(s.hyphens == .auto)
    #expect(s.breakBefore == .page && s.breakAfter == .avoid && s.breakInside == .avoid)
    #expect(s.whiteSpace == .preLine)
    #expect(s.textTransform == .uppercase && s.smallCaps)
    #expect(s.direction == .rtl)
    #expect(s.color == RGBA(r: 10, g: 20, b: 30))
    #expect(s.margin == .zero)
    #expect(ps[1].style.hyphens == .auto)
    #expect(ps[1].style.color == RGBA(r: 0, g: 0, b: 128))
    #expect(ps[2].style.color == RGBA(r: 0xAA, g: 0xBB, b: 0xCC))
    #expect(ps[2].style.lineThrough)
    #expect(ps[2].style.textIndent == .rem(2))
  }

  @Test func userAgentDefaultsAndPublisherStylesOff() {
    let body =
      "<h1>T</h1><p>x <sup>2</sup> <small>s</small> <code>c</code> <b>b</b></p><pre>  a\n  b</pre><blockquote><p>q</p></blockquote>"
    var off = IngestOptions()
    off.publisherStyles = false
    for c in [page(body, css: "p { text-indent: 9em }", options: off), page(body, css: "")] {
      let bs = flat(c)
      let h1 = bs.first { $0.kind == .heading(level: 1) }!
      #expect(h1.style.fontSize == 2 && h1.style.fontWeight == 700)
      let p = bs.first { $0.element == "p" }!
      #expect(p.style.textIndent == .zero)
      #expect(p.style.margin.top == .rem(1))
      let rs = runs(p)
      #expect(rs.first { $0.text == "2" }?.style.verticalAlign == .super)
      #expect(rs.first { $0.text == "2" }.map { abs($0.style.fontSize - 1 / 1.2) < 1e-9 } == true)
      #expect(rs.first { $0.text == "c" }?.style.fontFamilies == ["monospace"])
      #expect(rs.first { $0.text == "b" }?.style.fontWeight == 700)
      let pre = bs.first { $0.kind == .preformatted }!
      #expect(pre.style.whiteSpace == .pre && pre.style.fontFamilies == ["monospace"])
      let bq = bs.first { $0.kind == .blockquote }!
      #expect(bq.style.margin.left == .rem(2.5))
    }
  }

  @Test func styleElementAlternateAndMedia() {
    let doc = """
      <html xmlns="http://www.w3.org/1999/xhtml"><head>
      <style>p { text-indent: 1em }</style>
      <style media="print">p { text-indent: 7em }</style>
      <link rel="alternate stylesheet" href="alt.css"/>
      <link rel="stylesheet" href="print.css" media="print"/>
      </head><body><p>x</p></body></html>
      """
    let c = ContentFixtures.convert(
      doc, resources: ["OPS/alt.css": "p { color: red }", "OPS/print.css": "p { color: red }"]
    ).chapter
    let p = flat(c).first { $0.kind == .paragraph }!
    #expect(p.style.textIndent == .rem(1))
    #expect(p.style.color == .black)
  }

  @Test func fontFaceRules() {
    let css = """
      @font-face { font-family: "My Serif"; src: local(Foo), url(../fonts/a.otf) format("opentype"); font-weight: bold; font-style: italic }
      @font-face { font-family: Plain; src: url('b%20c.ttf') }
      @font-face { src: url(x.ttf) }
      """
    let c = ContentFixtures.convert(
      "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><link rel=\"stylesheet\" href=\"css/s.css\"/></head><body/></html>",
      resources: ["OPS/css/s.css": css])
    #expect(
      c.fontFaces == [
        FontFaceRule(
          family: "My Serif",
          descriptors: FontFaceDescriptors(weight: 700...700, slant: .italic),
          sources: [.local("Foo"), .url(href: "OPS/fonts/a.otf", fragment: nil)]),
        FontFaceRule(family: "Plain", weight: 400, italic: false, src: "OPS/css/b c.ttf"),
      ])
    #expect(c.fontFaces.map(\.src) == ["OPS/fonts/a.otf", "OPS/css/b c.ttf"])
  }

  @Test func fontFaceDescriptors() {
    let css = """
      @font-face { font-family: A; font-display: swap;
        src: url(a.eot) format("embedded-opentype"), url(c.otf) tech(color-COLRv1),
             local( "Noto Serif Bold" ), url("fonts/x.ttc#2") format(collection),
             url(y.woff2) format("woff2") tech(variations), url(data:font/woff2;base64,AAAA);
        font-weight: 100 400; font-style: oblique 10deg 20deg; font-stretch: condensed 150%;
        unicode-range: U+0025-00FF, u+4??, U+00E0, U+1F600, U+0-7F, U+110000, U+30-20 }
      @font-face { font-family: B; src: url(b.woff); font-style: oblique; font-weight: bold }
      @font-face { font-family: C; src: url(c.svg) format(svg) }
      """
    let c = ContentFixtures.convert(
      "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><link rel=\"stylesheet\" href=\"css/s.css\"/></head><body/></html>",
      resources: ["OPS/css/s.css": css])
    #expect(c.fontFaces.map(\.family) == ["A", "B"])
    let a = c.fontFaces[0]
    #expect(
      a.sources == [
        .local("Noto Serif Bold"), .url(href: "OPS/css/fonts/x.ttc", fragment: "2"),
        .url(href: "OPS/css/y.woff2", fragment: nil),
      ])
    #expect(a.descriptors.weight == 100...400)
    #expect(a.descriptors.slant == .oblique(10...20))
    #expect(a.descriptors.stretch == 75...150)
    #expect(
      a.descriptors.unicodeRange == [
        0x25...0xFF, 0x400...0x4FF, 0xE0...0xE0, 0x1F600...0x1F600, 0...0x7F,
      ])
    #expect(a.descriptors.covers(0x4A0) && !a.descriptors.covers(0x500))
    let b = c.fontFaces[1].descriptors
    #expect(b.slant == .oblique(14...14) && b.weight == 700...700 && b.unicodeRange.isEmpty)
  }

  @Test func tokenizerEdgeCases() {
    let t = CSSTokenizer.tokenize(
      "a\\3A b/* c */ #x .5em -1.5e2% url( 'q' ) url(p.png) \"s\\\"t\" @media <!-- -->")
    let kinds = t.filter { !$0.isWhitespace }.map(\.kind)
    #expect(
      kinds == [
        .ident, .hash, .dimension, .percentage, .function, .string, .closeParen, .url, .string,
        .atKeyword, .cdo, .cdc,
      ])
    // The escape `\3A ` swallows one following space: one identifier.
    #expect(t[0].text == "a:b")
    #expect(t.first { $0.kind == .percentage }?.number == -150)
    #expect(t.first { $0.kind == .string }?.text == "q")
  }
}

@Suite struct StyleKeywordTests {
  @Test func inheritOverridesEarlierDeclarations() {
    let c = ContentFixtures.convert(
      """
      <html xmlns="http://www.w3.org/1999/xhtml"><head><style>
      div { color: #00f; text-align: right; margin-left: 3em }
      p { color: red; text-align: center }
      p.i { color: inherit; text-align: inherit; margin-left: inherit }
      </style></head><body><div><p class="i">x</p><p>y</p></div></body></html>
      """)
    let ps = c.chapter.blocks[0].children[0].children
    #expect(ps[0].style.color == RGBA(r: 0, g: 0, b: 255))
    #expect(ps[0].style.textAlign == .right)
    #expect(ps[0].style.margin.left == .rem(3))
    #expect(ps[1].style.color == RGBA(r: 255, g: 0, b: 0))
    #expect(ps[1].style.margin.left == .zero)
  }
}

@Suite struct StyleHostileValueTests {
  /// Numbers that do not fit an Int must not trap (`Int(1e300)` does).
  @Test func hugeNumbersAreClamped() {
    let css = """
      p { widows: 1e300; orphans: -1e300; font-weight: 1e300; line-height: 1e300; margin-left: 1e300px;
          font-size: 1e300em; text-indent: -1e300%; }
      @font-face { font-family: X; src: url(x.otf); font-weight: 1e300 }
      """
    let c = ContentFixtures.convert(
      "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><style>\(css)</style></head><body><p>x</p></body></html>"
    )
    let p = c.chapter.blocks[0].children[0]
    #expect(p.style.widows == 100 && p.style.orphans == 1)
    #expect(p.style.fontSize == 100)
    #expect(p.style.margin.left == .rem(10_000))
    #expect(p.style.textIndent == .percent(-10_000))
    #expect(p.style.lineHeight == .factor(100))
    #expect(c.fontFaces.first?.weight == 900)
  }
}
