import Foundation
import Testing

@testable import QuireIngest

private func chapter(_ body: String, css: String = "", htmlAttributes: String = "") -> Chapter {
  let doc = """
    <?xml version="1.0" encoding="UTF-8"?>
    <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" \(htmlAttributes)><head><style>\(css)</style></head><body>\(body)</body></html>
    """
  return ContentFixtures.convert(doc).chapter
}

/// The dump without the chapter line, body line and indentation of the body level.
private func dump(_ c: Chapter) -> String {
  c.textDump().split(separator: "\n").dropFirst().filter { !$0.hasPrefix("anchors") }.map(
    String.init
  )
  .joined(separator: "\n").replacingOccurrences(of: " lang=en", with: "")
}

@Suite struct MarkupStructureTests {
  @Test func listsAndMarkers() {
    let c = chapter(
      """
      <ol start="3"><li>three</li><li value="10">ten</li><li>eleven</li></ol>
      <ol style="list-style-type: lower-roman"><li>i</li><li>ii</li><li>iii</li><li>iv</li></ol>
      <ul><li>a<ul><li>b</li></ul></li></ul>
      <ol style="list-style-type: upper-alpha" start="27"><li>AA</li></ol>
      """)
    var markers: [String] = []
    var starts: [Int] = []
    var stack = c.blocks
    while !stack.isEmpty {
      let b = stack.removeFirst()
      if case .listItem(let m) = b.kind { markers.append(m) }
      if case .list(true, let s) = b.kind { starts.append(s) }
      stack.insert(contentsOf: b.children, at: 0)
    }
    #expect(markers == ["3.", "10.", "11.", "i.", "ii.", "iii.", "iv.", "•", "◦", "AA."])
    #expect(starts == [3, 1, 27])
    #expect(c.plainText == "threeteneleveniiiiiiivabAA")
  }

  @Test func anonymousBlocksWhiteSpaceAndBreaks() {
    let c = chapter(
      "<div>  lead <em>in</em>  <p>para\n  graph</p> tail<br/> after </div><p> a <span> b </span> c&#xAD;d </p>"
    )
    #expect(
      dump(c) == """
          container <body> @0
            container <div> @0
              paragraph <anon> @0
                text @0 "lead "
                text @5 {italic} "in"
              paragraph <p> @7 {margin=1rem,0,1rem,0}
                text @7 "para graph"
              paragraph <anon> @17
                text @17 "tail"
                br @21
                text @22 "after"
            paragraph <p> @27 {margin=1rem,0,1rem,0}
              text @27 "a b c\\u{AD}d"
        """)
    #expect(c.length == 34)
  }

  @Test func preformattedKeepsWhiteSpace() {
    let c = chapter(
      "<pre>\nline 1\n  indented\tTab\n\n</pre><p style=\"white-space: pre-line\">a   b\n c</p>")
    let pre = c.blocks[0].children[0]
    #expect(pre.kind == .preformatted)
    let parts = pre.inlines.map { i -> String in
      switch i {
      case .text(let r): return r.text
      case .lineBreak: return "⏎"
      case .image, .math, .inlineBlock: return "□"
      }
    }
    #expect(parts == ["line 1", "⏎", "  indented\tTab"])
    let pl = c.blocks[0].children[1]
    #expect(pl.inlines.count == 3)
    #expect(c.plainText == "line 1\n  indented\tTaba b\nc")
  }

  @Test func inlineBlocksHoldTheirContentAsAParagraphOrBlocks() {
    // Spaces inside the box collapse at its edges and at the blocks inside it, spaces around
    // it stay; block-level content inside keeps its blocks (an anonymous paragraph before
    // the div); Locations run through the box's text in document order.
    let c = chapter(
      "<p>a <span class=\"b\"> b <em>c</em> <div>d</div> </span> e</p>",
      css: ".b { display: inline-block; padding: 1px }")
    #expect(
      dump(c) == """
          container <body> @0
            paragraph <p> @0 {margin=1rem,0,1rem,0}
              text @0 "a "
              inline-block @2..6
                container <span> @2 {padding=0.0625rem,0.0625rem,0.0625rem,0.0625rem}
                  paragraph <anon> @2
                    text @2 "b "
                    text @4 {italic} "c"
                  container <div> @5
                    paragraph <anon> @5
                      text @5 "d"
              text @6 " e"
        """)
    #expect(c.plainText == "a b cd e")
    #expect(c.length == 8)
  }

  @Test func displayNoneHeadScriptAndHidden() {
    let c = chapter(
      "<p>a</p><script>var x = 1;</script><p style=\"display:none\">gone</p><p hidden=\"hidden\">gone</p><span class=\"x\">b</span><p>c<span id=\"h\" style=\"display: none\">gone</span></p>",
      css: ".x { display: block }")
    #expect(c.plainText == "abc")
    #expect(!c.plainText.contains("var"))
    #expect(c.anchors["h"] == 3)  // after "c", where the hidden span sits
    #expect(c.blocks[0].children[1].kind == .container)
  }

  @Test func anchorsLinksLangAndDirection() {
    let c = chapter(
      "<h2 id=\"top\">T</h2><p>x <a id=\"n1\" href=\"#fn1\">1</a> <a href=\"../Text/ch%202.xhtml#s\">s</a></p><p xml:lang=\"ar\" dir=\"rtl\" id=\"ar\">مرحبا <span lang=\"en\">hi</span></p>",
      htmlAttributes: "xml:lang=\"fr\"")
    #expect(c.anchors == ["top": 0, "n1": 3, "ar": 6])
    #expect(c.language == "fr")
    let p = c.blocks[0].children[1]
    let links = p.inlines.compactMap { if case .text(let r) = $0 { r.link } else { nil } }
    #expect(links == ["OPS/c.xhtml#fn1", "Text/ch 2.xhtml#s"])
    let ar = c.blocks[0].children[2]
    #expect(ar.lang == "ar" && ar.dir == .rtl && ar.style.direction == .rtl)
    let langs = ar.inlines.compactMap { if case .text(let r) = $0 { r.lang } else { nil } }
    #expect(langs == ["ar", "en"])
  }

  @Test func imagesFiguresTablesAndSVGCover() {
    let c = chapter(
      """
      <figure id="f"><img src="../images/a.png" alt="An A" width="300" height="200"/><figcaption>Fig. 1</figcaption></figure>
      <p>inline <img src="i.png" alt="i"/> image</p>
      <p><img src="alone.jpg" alt=""/></p>
      <table><thead><tr><th>H</th></tr></thead><tbody><tr><td>D</td></tr></tbody></table>
      <div><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><image width="10" height="10" xlink:href="cover.jpg"/></svg></div>
      <hr/>
      """)
    #expect(
      dump(c) == """
          container <body> @0
            figure <figure> @0 {margin=1rem,2.5rem,1rem,2.5rem}
              image(src=images/a.png alt="An A" w=300 h=200) <img> @0
              caption <figcaption> @0
                text @0 "Fig. 1"
            paragraph <p> @6 {margin=1rem,0,1rem,0}
              text @6 "inline "
              img @13 src=OPS/i.png alt="i"
              text @14 " image"
            paragraph <p> @20 {margin=1rem,0,1rem,0}
              image(src=OPS/alone.jpg alt="") <img> @20
            table <table> @20
              row <tr> @20
                cell(header) <th> @20 {weight=700 align=center padding=0.0625rem,0.0625rem,0.0625rem,0.0625rem}
                  text @20 "H"
              row <tr> @21
                cell <td> @21 {padding=0.0625rem,0.0625rem,0.0625rem,0.0625rem}
                  text @21 "D"
            container <div> @22
              image(src=OPS/cover.jpg alt="" w=10 h=10) <svg> @22
            rule <hr> @22 {margin=0.5rem,0,0.5rem,0}
        """)
  }
}
