// Issue #10's selectors, generated content, counters, quotes and lists: a fixture chapter
// with a document-dump golden (every feature, element by element), and unit tests per
// selector and per `content` form, including the bounds.

import Foundation
import Testing

@testable import QuireIngest

private func chapter(_ body: String, css: String = "", lang: String = "en") -> Chapter {
  ContentFixtures.styled(body, css: css, lang: lang)
}

/// Blocks in document order.
private func flat(_ c: Chapter) -> [Block] { c.blocksInOrder }

private func runs(_ b: Block) -> [TextRun] { b.textRuns }

/// What a block shows, generated text included.
private func shown(_ b: Block) -> String { runs(b).map(\.text).joined() }

private func paragraphs(_ c: Chapter) -> [Block] {
  flat(c).filter { $0.kind == .paragraph }
}

private func markers(_ c: Chapter) -> [String] {
  flat(c).compactMap { if case .listItem(let m) = $0.kind { m } else { nil } }
}

private let red = "color=#ff0000"

@Suite struct SelectorContentGoldenTests {
  @Test func fixtureChapterDump() throws {
    let converted = try ContentFixtures.chapter("css-selectors", "OPS/selectors.xhtml")
    #expect(converted.warnings.isEmpty)
    try ContentFixtures.checkGolden("css-selectors.txt", converted.chapter.textDump())
    // Generated text is shown but not counted (Document.swift's Location contract).
    let c = converted.chapter
    #expect(c.plainText.unicodeScalars.count == c.length)
    #expect(!c.plainText.contains("Note:"))
  }
}

@Suite struct ImplicitCounterTests {
  /// Counters used or incremented without a `counter-reset` (CSS Lists 3 §4.5, CSS 2.1
  /// §12.4.1: instantiated on the element, reset to 0). The expected texts are what headless
  /// Chromium prints for the same markup (checked 2026-12-01 with --print-to-pdf).
  @Test func countersWithoutAReset() {
    let c = chapter(
      """
      <div class="c1"><h4>x</h4><h4>y</h4><h4>z</h4></div>
      <div class="c2"><p>never</p></div>
      <div class="c3"><section><h5>s1</h5></section><section><h5>s2</h5><h5>s3</h5></section></div>
      <div class="c4"><p>u1</p><p class="i">i1</p><p>u2</p></div>
      <div class="c6"><p>f1</p><p class="s">f2</p><p>f3</p></div>
      <div class="c7"><p>g1</p><p>g2</p></div>
      <ul class="c8"><li>l1<ul><li>l2</li></ul></li><li>l3</li></ul>
      """,
      css: """
        .c1 h4 { counter-increment: a } .c1 h4::before { content: "A" counter(a) " " }
        .c2 p::before { content: "B" counter(zz) " " }
        .c3 h5 { counter-increment: b } .c3 h5::before { content: "C" counter(b) " " }
        .c4 .i { counter-increment: d } .c4 p::before { content: "D" counter(d) " " }
        .c6 p.s { counter-set: f 5 } .c6 p { counter-increment: f }
        .c6 p::before { content: "F" counter(f) " " }
        .c7 p::before { counter-increment: g; content: "G" counter(g) " " }
        .c8 li::before { content: "H" counters(h, ".") " " } .c8 li { counter-increment: h }
        ul { list-style-type: none }
        """)
    let texts = flat(c).map(shown).filter { !$0.isEmpty }
    #expect(
      texts == [
        "A1 x", "A2 y", "A3 z", "B0 never", "C1 s1", "C1 s2", "C2 s3", "D0 u1", "D1 i1",
        "D1 u2", "F1 f1", "F5 f2", "F6 f3", "G1 g1", "G1 g2", "H1 l1", "H2 l2", "H3 l3",
      ])
  }
}

@Suite struct StructuralSelectorTests {
  /// Which of `count` paragraphs (1-based) a selector colours red.
  private func matched(_ selector: String, count: Int = 10) -> [Int] {
    let body = (1...count).map { "<p>\($0)</p>" }.joined()
    let c = chapter("<div>\(body)</div>", css: "div > \(selector) { color: red }")
    return paragraphs(c).enumerated().filter {
      $0.element.style.color.r == 255
    }.map { $0.offset + 1 }
  }

  @Test func nthChildForms() {
    #expect(matched("p:nth-child(odd)") == [1, 3, 5, 7, 9])
    #expect(matched("p:nth-child(even)") == [2, 4, 6, 8, 10])
    #expect(matched("p:nth-child(3)") == [3])
    #expect(matched("p:nth-child(3n+1)") == [1, 4, 7, 10])
    #expect(matched("p:nth-child( 2n - 1 )") == [1, 3, 5, 7, 9])
    #expect(matched("p:nth-child(-n+3)") == [1, 2, 3])
    #expect(matched("p:nth-child(n+8)") == [8, 9, 10])
    #expect(matched("p:nth-child(-2n+5)") == [1, 3, 5])
    #expect(matched("p:nth-child(+n)") == Array(1...10))
    #expect(matched("p:nth-child(0n+0)") == [])
    #expect(matched("p:nth-last-child(1)") == [10])
    #expect(matched("p:nth-last-child(-n+2)") == [9, 10])
    #expect(matched("p:only-child") == [])
    #expect(matched("p:only-child", count: 1) == [1])
    // Huge coefficients are clamped, never overflow.
    #expect(matched("p:nth-child(99999999999999999999n+1)") == [1])
    #expect(matched("p:nth-child(-99999999999999999999n+3)") == [3])
    // Malformed An+B: the rule is dropped.
    #expect(matched("p:nth-child(2n+)") == [])
    #expect(matched("p:nth-child(n2)") == [])
  }

  /// Which of the paragraphs 1…10 (3, 4, 7 and 9 of class "x") a selector colours red.
  private func matchedOf(_ selector: String) -> [Int] {
    let body = (1...10).map {
      [3, 4, 7, 9].contains($0) ? "<p class=\"x\">\($0)</p>" : "<p>\($0)</p>"
    }
    let c = chapter(
      "<div>\(body.joined())</div>", css: "div > \(selector) { color: red }")
    return paragraphs(c).enumerated().filter { $0.element.style.color.r == 255 }.map {
      $0.offset + 1
    }
  }

  @Test("`:nth-child(An+B of S)` counts only the siblings matching S (Selectors 4 §14.4.1)")
  func nthChildOfSelector() {
    #expect(matchedOf("p:nth-child(odd of .x)") == [3, 7])
    #expect(matchedOf("p:nth-child(2 of .x)") == [4])
    #expect(matchedOf("p:nth-child(-n+2 of :not(.x))") == [1, 2])
    #expect(matchedOf("p:nth-last-child(1 of .x)") == [9])
    #expect(matchedOf("p:nth-last-child(2n of .x, :first-child)") == [3, 7])
    #expect(matchedOf(":nth-child(1 of p:nth-child(2 of .x))") == [4])
    // Malformed or misplaced: the whole rule is dropped.
    #expect(matchedOf("p:nth-child(odd of)") == [])
    #expect(matchedOf("p:nth-child(of .x)") == [])
    #expect(matchedOf("p:nth-of-type(1 of .x)") == [])
    // Specificity: the most specific argument is added (beats two classes here).
    let c = chapter(
      "<div class=\"d\"><p class=\"x y\" id=\"i\">1</p></div>",
      css: "p:nth-child(1 of #i) { color: red } .d .x.y { color: blue }")
    #expect(paragraphs(c).first?.style.color.r == 255)
  }

  @Test("`of S` over a long sibling list costs one check of S per sibling")
  func nthChildOfLongList() {
    let n = 5_000
    let body = (1...n).map { $0 % 3 == 0 ? "<p class=\"x\">\($0)</p>" : "<p>\($0)</p>" }
    let c = chapter("<div>\(body.joined())</div>", css: "p:nth-last-child(1 of .x) { color: red }")
    let red = paragraphs(c).enumerated().filter { $0.element.style.color.r == 255 }
    #expect(red.map { $0.offset + 1 } == [n - n % 3])
  }

  @Test func typedPositions() {
    let c = chapter(
      "<div><h3>a</h3><p>b</p><h3>c</h3><p>d</p><p>e</p></div>",
      css: """
        p:first-of-type { color: red }
        p:last-of-type { font-style: italic }
        h3:nth-of-type(2) { font-weight: bold }
        h3:nth-last-of-type(2) { text-indent: 2em }
        p:nth-of-type(2n) { text-align: right }
        """)
    let bs = flat(c).filter { $0.kind == .paragraph || $0.kind == .heading(level: 3) }
    #expect(bs.map { $0.style.color.r == 255 } == [false, true, false, false, false])
    #expect(bs.map(\.style.italic) == [false, false, false, false, true])
    #expect(bs.map(\.style.fontWeight) == [700, 400, 700, 400, 400])
    #expect(bs.map { $0.style.textIndent != .zero } == [true, false, false, false, false])
    #expect(bs.map { $0.style.textAlign == .right } == [false, false, false, true, false])
  }

  @Test func emptyRootNotIsWhere() {
    let c = chapter(
      "<div class=\"x\"><span></span><p>a</p><p class=\"s\">b</p><p id=\"i\">c</p></div>",
      css: """
        :root p { font-style: italic }
        span:empty + p { color: red }
        p:not(.s, #i) { font-weight: bold }
        .x :is(.s, #i) { text-align: right }
        #i { text-align: center }
        :where(.x) p { text-indent: 1em }
        p { text-indent: 2em }
        :not(:not(:not(:not(:not(p))))) { text-transform: uppercase }
        """)
    let ps = paragraphs(c)
    #expect(ps.allSatisfy { $0.style.italic })
    #expect(ps.map { $0.style.color.r == 255 } == [true, false, false])
    #expect(ps.map(\.style.fontWeight) == [700, 400, 400])
    // :is() takes its most specific argument (#i: 1,1,0 beats #i alone: 1,0,0).
    #expect(ps.map(\.style.textAlign) == [.start, .right, .right])
    // :where() adds nothing, so the later `p` wins.
    #expect(ps.allSatisfy { $0.style.textIndent == .rem(2) })
    // Nesting deeper than PseudoLimits.maxNesting makes the selector invalid.
    #expect(ps.allSatisfy { $0.style.textTransform == .none })
  }

  @Test func langPrefixMatchingInheritsFromAncestorsAndTheBook() {
    let c = chapter(
      "<p lang=\"de-CH\">a</p><p lang=\"den\">b</p><div xml:lang=\"DE\"><p>c</p></div><p>d</p><p lang=\"\">e</p>",
      css: "p:lang(de) { color: red } p:lang(en) { font-style: italic }")
    let ps = paragraphs(c)
    #expect(ps.map { $0.style.color.r == 255 } == [true, false, true, false, false])
    // The book's language reaches unmarked elements; lang="" means unknown.
    #expect(ps.map(\.style.italic) == [false, false, false, true, false])
  }

  @Test func attributeOperatorsAndCaseFlag() {
    let c = chapter(
      """
      <p title="a b">1</p><p title="en-US">2</p><p title="prefix-x">3</p><p title="x.pdf">4</p>
      <p title="xmidy">5</p><p title="ABC">6</p><p title="abc">7</p>
      """,
      css: """
        p[title~="b"] { color: red }
        p[title|="en"] { font-style: italic }
        p[title^="pre"] { font-weight: bold }
        p[title$=".pdf"] { text-align: right }
        p[title*="mid"] { text-indent: 1em }
        p[title="abc" i] { text-transform: uppercase }
        p[title="abc"] { text-align: center }
        """)
    let ps = paragraphs(c)
    #expect(ps.map { $0.style.color.r == 255 } == [true, false, false, false, false, false, false])
    #expect(ps.map(\.style.italic) == [false, true, false, false, false, false, false])
    #expect(ps.map(\.style.fontWeight) == [400, 400, 700, 400, 400, 400, 400])
    #expect(ps[3].style.textAlign == .right)
    #expect(ps[4].style.textIndent == .rem(1))
    #expect(
      ps.map(\.style.textTransform) == [.none, .none, .none, .none, .none, .uppercase, .uppercase])
    #expect(ps.map(\.style.textAlign)[5...] == [.start, .center])
  }

  @Test func siblingCombinators() {
    let c = chapter(
      "<div><p>1</p><h3>h</h3><p>2</p><p>3</p></div><p>4</p>",
      css: "h3 + p { color: red } h3 ~ p { font-style: italic } div ~ p { font-weight: bold }")
    let ps = paragraphs(c)
    #expect(ps.map { $0.style.color.r == 255 } == [false, true, false, false])
    #expect(ps.map(\.style.italic) == [false, true, true, false])
    #expect(ps.map(\.style.fontWeight) == [400, 400, 400, 700])
  }

  @Test func selectorsWithPseudoElementsInTheMiddleAreInvalid() {
    let c = chapter("<p>a</p>", css: "p::before span { color: red } p::before:hover { color: red }")
    #expect(paragraphs(c)[0].style.color == .black)
    #expect(shown(paragraphs(c)[0]) == "a")
  }
}

@Suite struct GeneratedContentTests {
  @Test func stringsAttrAndBothColonForms() {
    let c = chapter(
      "<p class=\"a\" title=\"T\">x</p><p class=\"b\">y</p><p class=\"c\">z</p>",
      css: """
        .a::before { content: "<" attr(title) "> " }
        .a::after { content: "!" }
        .b:before { content: "\\201C" } .b:after { content: '\\201D' }
        .c::before { content: none } .c::after { content: normal }
        """)
    let ps = paragraphs(c)
    #expect(ps.map(shown) == ["<T> x!", "“y”", "z"])
    let first = runs(ps[0])
    #expect(first.map(\.generated) == [true, false, true])
    // Generated runs sit at the next source character and advance nothing.
    #expect(first.map(\.location.offset) == [0, 0, 1])
    #expect(c.length == 3)
  }

  @Test func pseudoElementStyleInheritsFromItsElement() {
    let c = chapter(
      "<p class=\"a\">x</p>",
      css: ".a { color: red; font-style: italic } .a::before { content: \"*\"; font-weight: bold }")
    let r = runs(paragraphs(c)[0])
    #expect(r[0].style.color.r == 255 && r[0].style.italic && r[0].style.fontWeight == 700)
    #expect(r[1].style.fontWeight == 400)
  }

  @Test func countersNestAndScopeLikeCSS21() {
    let c = chapter(
      """
      <ol class="t"><li>a<ol class="t"><li>b</li><li>c</li></ol></li><li>d</li></ol>
      <h3>x</h3><h3 class="r">y</h3><h3>z</h3>
      """,
      css: """
        ol.t { counter-reset: item; list-style-type: none }
        ol.t li { display: block; counter-increment: item }
        ol.t li::before { content: counters(item, ".", lower-alpha) ") " }
        body { counter-reset: h 4 }
        h3::before { content: counter(h) " " counter(missing, upper-roman) " " }
        h3 { counter-increment: h 2 }
        h3.r { counter-reset: h 100 }
        """)
    let texts = flat(c).filter { !$0.inlines.isEmpty }.map(shown)
    #expect(texts == ["a) a", "a.a) b", "a.b) c", "b) d", "6 0 x", "102 0 y", "104 0 z"])
  }

  @Test func counterSetComesAfterIncrement() {
    let c = chapter(
      "<p>a</p><p class=\"s\">b</p><p>c</p>",
      css: """
        body { counter-reset: n }
        p { counter-increment: n }
        p.s { counter-set: n 7 }
        p::before { content: counter(n) }
        """)
    #expect(paragraphs(c).map(shown) == ["1a", "7b", "8c"])
  }

  @Test func quotesByLanguageAndDepth() {
    let c = chapter(
      """
      <p><q>a <q>b <q>c</q></q></q></p>
      <p lang="de"><q>d <q>e</q></q></p>
      <p lang="fr"><q>f</q></p>
      <p lang="ja"><q>g<q>h</q></q></p>
      <p class="c"><q>i</q></p>
      <p class="n"><q>j</q></p>
      <p>stray <span class="close">k</span></p>
      """,
      css: """
        .c { quotes: "[" "]" }
        .n q { quotes: none }
        .close::after { content: close-quote }
        """)
    #expect(
      paragraphs(c).map(shown) == [
        "“a ‘b ‘c’’”", "„d ‚e‘“", "«\u{A0}f\u{A0}»", "「g『h』」", "[i]", "j", "stray k",
      ])
  }

  @Test func firstLetterTakesPunctuationAndPassesToTheFirstChild() {
    let c = chapter(
      "<p class=\"d\">  “Call me,” he said.</p><div class=\"d\"><p>Inner</p><p>Second</p></div><p class=\"d\">—</p>",
      css: ".d::first-letter { font-size: 3em }")
    let ps = paragraphs(c)
    let first = runs(ps[0])
    #expect(first.map(\.text) == ["“C", "all me,” he said."])
    #expect(first[0].style.fontSize == 3 && first[1].style.fontSize == 1)
    #expect(first.map(\.generated) == [false, false])
    #expect(runs(ps[1]).map(\.text) == ["I", "nner"])
    #expect(runs(ps[2]).count == 1)
    // No letter: nothing is split.
    #expect(runs(ps[3]).map(\.text) == ["—"])
  }

  /// The white space that indents markup makes no line: a container's first letter still
  /// goes to its first child block, as when the tags touch (browsers agree).
  @Test func firstLetterPassesOverIndentationToTheFirstChild() {
    let c = chapter(
      "<div class=\"d\">\n  <p>Inner</p></div><div class=\"d\">\n\t<a id=\"x\"></a> <p>Anchored</p></div>"
        + "<div class=\"d\">\n  <span>Inline</span><p>Block</p></div>",
      css: ".d::first-letter { font-size: 3em }")
    let ps = paragraphs(c)
    #expect(runs(ps[0]).map(\.text) == ["I", "nner"])
    #expect(runs(ps[0])[0].style.fontSize == 3)
    #expect(runs(ps[1]).map(\.text) == ["A", "nchored"])
    // Inline content before the block child holds the first line: the letter is its.
    #expect(runs(ps[2]).map(\.text) == ["I", "nline"])
    #expect(runs(ps[3]).map(\.text) == ["Block"])
  }

  @Test func hostileContentIsBounded() {
    var css =
      "body { counter-reset: " + (0..<5_000).map { "c\($0)" }.joined(separator: " ") + " }\n"
    css +=
      "p::before { content: " + String(repeating: "counters(c1, \"----------\") ", count: 500)
      + "}\n"
    css += "p { counter-increment: c1 9999999999999999999 }"
    let nested =
      String(repeating: "<div>", count: 150) + "<p>x</p>" + String(repeating: "</div>", count: 150)
    let c = chapter(nested, css: css)
    let p = paragraphs(c)[0]
    #expect(shown(p).unicodeScalars.count <= GeneratedLimits.maxGeneratedScalars + 1)
    #expect(shown(p).hasPrefix("1000000000"))
  }
}

@Suite struct ListNumberingTests {
  @Test func htmlListAttributes() {
    let c = chapter(
      """
      <ol start="5"><li>a</li><li>b</li></ol>
      <ol reversed=""><li>a</li><li>b</li><li>c</li></ol>
      <ol reversed="" start="10"><li>a</li><li value="3">b</li><li>c</li></ol>
      <ol><li>a</li><li value="-2">b</li><li>c</li></ol>
      <ul><li>a</li></ul><li>stray, a disc as in browsers</li>
      """)
    #expect(
      markers(c) == ["5.", "6.", "3.", "2.", "1.", "10.", "3.", "2.", "1.", "-2.", "-1.", "•", "•"])
    let lists = flat(c).compactMap { if case .list(let o, let s) = $0.kind, o { s } else { nil } }
    #expect(lists == [5, 3, 10, 1])
  }

  @Test func counterStylesAndFallbacks() {
    let cases: [(CounterStyle, [Int], [String])] = [
      (.decimal, [-3, 0, 7], ["-3", "0", "7"]),
      (.decimalLeadingZero, [-3, 7, 10], ["-03", "07", "10"]),
      (
        .lowerRoman, [1, 4, 1994, 3999, 4000, 0], ["i", "iv", "mcmxciv", "mmmcmxcix", "4000", "0"]
      ),
      (.upperAlpha, [1, 26, 27, 702, 0], ["A", "Z", "AA", "ZZ", "0"]),
      (.lowerGreek, [1, 24, 25], ["α", "ω", "αα"]),
      (.upperArmenian, [1, 10, 1999, 10000], ["Ա", "Ժ", "ՌՋՂԹ", "10000"]),
      (.lowerArmenian, [2], ["բ"]),
      (.georgian, [1, 19999, 20000], ["ა", "ჵჰშჟთ", "20000"]),
      (.hebrew, [1, 15, 16, 115, 1000, 11000], ["א", "טו", "טז", "קטו", "א׳", "11000"]),
      (.cjkDecimal, [2026, -5], ["二〇二六", "-五"]),
      (
        .cjkIdeographic, [0, 10, 11, 20, 101, 110, 1001, 10000],
        ["零", "十", "十一", "二十", "一百零一", "一百一十", "一千零一", "一〇〇〇〇"]
      ),
      (.japaneseInformal, [10, 101, 1111, 2345], ["十", "百一", "千百十一", "二千三百四十五"]),
      (.hiragana, [1, 48, 49, 0], ["あ", "ん", "ああ", "〇"]),
      (.katakana, [2], ["イ"]),
      (.hiraganaIroha, [1, 47], ["い", "す"]),
      (.katakanaIroha, [3], ["ハ"]),
      (.disc, [5], ["•"]),
      (.string("– "), [5], ["– "]),
    ]
    for (style, values, expected) in cases {
      #expect(values.map(style.text) == expected, "\(style)")
    }
    #expect(CounterStyle.decimal.text(Int.max) == "1000000000")
    #expect(CounterStyle.upperRoman.marker(4) == "IV. ")
    #expect(CounterStyle.cjkDecimal.marker(4) == "四、")
    #expect(CounterStyle.square.marker(4) == "▪ ")
  }

  @Test func listStylePropertiesAndInsideMarkers() {
    let c = chapter(
      """
      <ol style="list-style-type: lower-greek"><li>a</li></ol>
      <ul style="list-style: square inside"><li>b</li><li><p>c</p></li></ul>
      <ul style="list-style-type: '* '"><li>d</li></ul>
      <ol style="list-style: none"><li>e</li></ol>
      <ol style="list-style-type: bogus"><li>f</li></ol>
      <ul><li class="m">g</li></ul>
      """,
      css: "li.m::marker { content: \"→\" } ")
    // Outside markers lose trailing spaces: the typesetter sets its own gap.
    #expect(markers(c) == ["α.", "", "", "*", "", "1.", "→"])
    let items = flat(c).filter { if case .listItem = $0.kind { true } else { false } }
    #expect(shown(items[1]) == "▪ b")
    #expect(runs(items[1]).first?.generated == true)
    // A block child after an inside marker: the marker is an anonymous line of its own.
    #expect(items[2].children.map(shown) == ["▪", "c"])
  }
}
