// Issue #9 on the ingest side: selector matching linear in elements (rule hashing and the
// ancestor filter agree with the plain matcher), chapter caps applied to the bytes before
// libxml2 (elements, text, attributes per start tag), book caps, and quoted input elided in
// messages. Sizes are small enough for a debug build; costs are asserted as counts of
// selector checks, never as time.

import Foundation
import QuireCore
import QuireTestSupport
import Testing

@testable import QuireIngest

private enum Cascades {
  static func sheet(_ css: String) -> StyleSheet {
    var sheet = StyleSheet()
    var loader = StyleSheetLoader(loadResource: { _ in nil })
    loader.parse(css, baseHref: "OPS/s.css", into: &sheet)
    return sheet
  }

  static func rules(_ css: String) -> RuleSet {
    var rules = RuleSet()
    rules.add(UserAgentSheet.sheet, origin: 0)
    rules.add(sheet(css), origin: 1)
    return rules
  }

  /// Elements in document order (the order the builder asks for them).
  static func elements(_ tree: MarkupTree) -> [Int] {
    var out: [Int] = []
    var stack = [tree.root]
    while let n = stack.popLast() {
      if n != tree.root && tree.nodes[n].kind == .element { out.append(n) }
      stack.append(contentsOf: tree.nodes[n].children.reversed())
    }
    return out
  }

  /// Every element's declarations with the fast matcher and with the plain one.
  static func both(_ tree: MarkupTree, _ rules: RuleSet) -> (
    fast: [[CSSDeclaration]], plain: [[CSSDeclaration]], checks: Int
  ) {
    var fast = StyleResolver(tree: tree, rules: rules)
    var plain = StyleResolver(tree: tree, rules: rules, reference: true)
    var a: [[CSSDeclaration]] = []
    var b: [[CSSDeclaration]] = []
    // Each pseudo-element's declarations follow the element's, in a fixed order.
    func all(_ r: inout StyleResolver, _ e: Int) -> [CSSDeclaration] {
      let m = r.match(e, inlineStyle: [])
      var decls = m.element
      for p in [PseudoElement.before, .after, .firstLetter, .marker] {
        decls.append(CSSDeclaration(name: "--pseudo", value: [], important: false))
        decls += m.pseudo[p] ?? []
      }
      return decls
    }
    for e in elements(tree) {
      a.append(all(&fast, e))
      b.append(all(&plain, e))
    }
    return (a, b, fast.selectorChecks)
  }

  static func xhtml(_ body: String) -> Data {
    Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body>\(body)</body></html>
      """.utf8)
  }
}

@Suite struct SelectorMatchingTests {
  /// Random trees and random selectors over a small vocabulary (so that many match): the
  /// hashed, filtered matcher gives exactly the plain matcher's declarations, in order.
  @Test func hashedMatcherAgreesWithThePlainOneOnRandomInput() {
    var rng = SplitMix64(seed: 9)
    let tags = ["div", "p", "span", "em", "section"]
    let classes = ["a", "b", "c", "d"]
    let ids = ["x", "y"]
    func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
    func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }
    for round in 0..<12 {
      // A random tree: each element opens children while depth allows.
      var body = ""
      var count = 0
      func element(_ depth: Int) {
        count += 1
        let tag = pick(tags)
        var attrs = ""
        if chance(50) {
          attrs += " class=\"\(pick(classes))\(chance(30) ? " " + pick(classes) : "")\""
        }
        if chance(10) { attrs += " id=\"\(pick(ids))\"" }
        if chance(10) { attrs += " title=\"t\(pick(classes))\"" }
        body += "<\(tag)\(attrs)>"
        let children = depth < 5 ? Int(rng.next() % 4) : 0
        for _ in 0..<children where count < 150 { element(depth + 1) }
        body += "t</\(tag)>"
      }
      while count < 120 { element(0) }
      // Random selectors with every combinator.
      var css = ""
      for r in 0..<60 {
        var sel = ""
        for k in 0..<(1 + Int(rng.next() % 4)) {
          if k > 0 { sel += pick([" ", " > ", " + ", " ~ "]) }
          var compound = chance(60) ? pick(tags) : ""
          if chance(50) { compound += "." + pick(classes) }
          if chance(10) { compound += "#" + pick(ids) }
          if chance(8) { compound += "[title]" }
          if chance(5) { compound += ":first-child" }
          if chance(6) {
            compound += pick([
              ":nth-child(2n+1)", ":nth-last-child(-n+2)", ":nth-of-type(2)", ":last-of-type",
              ":only-child", ":empty", ":root",
            ])
          }
          if chance(6) {
            compound += pick([
              ":not(.a)", ":not(p, .b > *)", ":is(.c, #x)", ":where(span ~ *)", ":lang(en)",
              "[title^=\"T\" i]",
            ])
          }
          sel += compound.isEmpty ? "*" : compound
        }
        if chance(10) { sel += pick(["::before", "::after", ":first-letter", "::marker"]) }
        css += "\(sel) { margin-left: \(r)px; widows: \(round + 1) }\n"
      }
      let tree = MarkupParser.parse(Cascades.xhtml(body), limits: IngestLimits())
      #expect(!tree.recoveredAsHTML)
      let (fast, plain, _) = Cascades.both(tree, Cascades.rules(css))
      #expect(fast == plain, "round \(round): \(css)")
      // The test can fail: the random rules do match (not everything is default).
      #expect(fast.contains { $0.contains { $0.name == "margin-left" } })
    }
  }

  /// The attack of issue #9 (2,000 rules × 30,000 elements, each rule needing an ancestor
  /// class no element has): a few selector checks per element, not 2,000.
  @Test func twoThousandRulesOverThirtyThousandElementsAreChecksNotProducts() {
    var css = ""
    for i in 0..<2_000 {
      css += ".c\(i) p { margin-left: 1px }\ndiv.d\(i) > span.s\(i) { color: red }\n"
    }
    let body =
      "<div class=\"x\">"
      + String(repeating: "<p class=\"y\">a <span class=\"z\">b</span></p>", count: 15_000)
      + "</div>"
    let tree = MarkupParser.parse(Cascades.xhtml(body), limits: IngestLimits())
    let elements = Cascades.elements(tree)
    #expect(elements.count > 30_000)
    var resolver = StyleResolver(tree: tree, rules: Cascades.rules(css))
    var styled = 0
    for e in elements where !resolver.declarations(for: e, inlineStyle: []).isEmpty { styled += 1 }
    #expect(styled > 0)
    // The plain matcher checks 4,000+ rules per element: 120 M here.
    #expect(resolver.selectorChecks < 4 * elements.count)
    #expect(!resolver.budgetExhausted)
  }

  /// `~` over a 20,000-element sibling list with no match to the left: one sibling step per
  /// element and rule (the memo), not a scan back to the list's start (200 M steps).
  @Test func generalSiblingCombinatorIsLinearInALongSiblingList() {
    let css = "h1 ~ p { color: red }\n.x ~ p.y { margin-left: 1px }\nh2 ~ p ~ p { widows: 3 }"
    let body =
      "<div>" + String(repeating: "<p class=\"y\">a</p>", count: 20_000)
      + "<h2>h</h2><p>b</p><p>c</p></div>"
    let tree = MarkupParser.parse(Cascades.xhtml(body), limits: IngestLimits())
    var resolver = StyleResolver(tree: tree, rules: Cascades.rules(css))
    var widows = 0
    for e in Cascades.elements(tree) {
      let decls = resolver.declarations(for: e, inlineStyle: [])
      #expect(!decls.contains { $0.name == "color" || $0.name == "margin-left" })
      widows += decls.filter { $0.name == "widows" }.count
    }
    #expect(widows == 1)
    #expect(resolver.siblingSteps < 4 * 20_010)
  }

  /// The same rules where the ancestor exists: they apply (the filter only rejects what
  /// cannot match).
  @Test func filteredRulesStillApplyWhenTheirAncestorExists() {
    var css = ""
    for i in 0..<200 { css += ".c\(i) p { margin-left: \(i)px }\n" }
    let body =
      "<div class=\"c7\"><p>a</p></div><div class=\"c150\"><section><p>b</p></section></div><p>c</p>"
    let tree = MarkupParser.parse(Cascades.xhtml(body), limits: IngestLimits())
    let (fast, plain, _) = Cascades.both(tree, Cascades.rules(css))
    #expect(fast == plain)
    let margins = fast.map { $0.filter { $0.name == "margin-left" }.count }
    #expect(margins.filter { $0 == 1 }.count == 2)
  }

  /// Corpus chapters convert to the same blocks and styles with either matcher.
  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
  func corpusChaptersStyleTheSameWithEitherMatcher() throws {
    let chapters = try corpusChapters(
      ["moby-dick.epub", "accessible_epub_3.epub", "childrens-literature.epub", "trees.epub"],
      prefix: 12)
    for c in chapters {
      var plainConverter = c.converter
      plainConverter.referenceMatching = true
      let fast = c.converter.convert(c.source).chapter.textDump()
      let plain = plainConverter.convert(c.source).chapter.textDump()
      #expect(fast == plain, "\(c.book) \(c.source.href)")
    }
    #expect(chapters.count > 10)
  }

  /// Past `maxSelectors`, selectors are dropped with one warning.
  @Test func selectorsPastTheCapAreDroppedWithAWarning() {
    let css = String(repeating: "p { color: red }\n", count: MatchLimits.maxSelectors + 10)
    let rules = Cascades.rules(css)
    #expect(rules.rules.count == MatchLimits.maxSelectors)
    #expect(rules.droppedSelectors > 10)
    #expect(rules.warnings.count == 1)
  }
}

@Suite struct MarkupBoundsTests {
  /// Ordinary chapters pass the scan untouched: same bytes, no warning.
  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
  func corpusChaptersAreUnchanged() throws {
    var scanned = 0
    for name in [
      "moby-dick.epub", "accessible_epub_3.epub", "jlreq-in-japanese.epub",
      "regime-anticancer-arabic.epub",
    ]
    where Corpus.has(name) {
      let data = try Data(contentsOf: Corpus.url(name))
      let archive = try ZipArchive(data: data, file: name, limits: IngestLimits())
      for path in archive.entries.map(\.name) where path.hasSuffix("html") {
        let bytes = try archive.read(path)
        let bounds = MarkupBounds.apply(bytes, limits: IngestLimits())
        #expect(bounds.data == bytes, "\(name) \(path)")
        #expect(bounds.warnings(IngestLimits()).isEmpty)
        #expect(bounds.elements > 0)
        scanned += 1
      }
    }
    #expect(scanned > 10)
  }

  /// One start tag with 100,000 attributes: the extras are cut before libxml2 (whose
  /// duplicate check is quadratic), the element and its text survive, one warning.
  @Test func attributesPastTheCapAreDroppedBeforeParsing() {
    let attributes = (0..<100_000).map { "a\($0)=\"v\"" }.joined(separator: " ")
    let converted = ContentFixtures.convert(
      String(
        decoding: Cascades.xhtml("<p id=\"keep\" \(attributes)>text</p><p>after</p>"), as: UTF8.self
      ))
    let text = converted.chapter.textDump()
    #expect(text.contains("text"))
    #expect(text.contains("after"))
    #expect(converted.chapter.anchors["keep"] != nil)
    let notes = converted.warnings.filter { $0.message.contains("maxAttributesPerElement") }
    #expect(notes.count == 1)
    #expect(notes.first?.message.contains("99745 attributes") == true)
  }

  @Test func selfClosingTagKeepsItsCloseWhenAttributesAreCut() {
    var limits = IngestLimits()
    limits.maxAttributesPerElement = 2
    let bounds = MarkupBounds.apply(
      Data("<a><b x='1' y=\"2\" z=3 w/><c/></a>".utf8), limits: limits)
    #expect(String(decoding: bounds.data, as: UTF8.self) == "<a><b x='1' y=\"2\" /><c/></a>")
    #expect(bounds.droppedAttributes == 2)
  }

  /// A chapter past `maxChapterElements` is truncated and closed: still well-formed XML, the
  /// first part kept, one warning naming the cap.
  @Test func chapterPastTheElementCapIsTruncatedAndClosed() {
    var options = IngestOptions()
    options.limits.maxChapterElements = 50
    let body = (0..<1_000).map { "<p>p\($0)</p>" }.joined()
    let converted = ContentFixtures.convert(
      String(decoding: Cascades.xhtml("<div><section>\(body)</section></div>"), as: UTF8.self),
      options: options)
    let text = converted.chapter.textDump()
    #expect(text.contains("p0"))
    #expect(text.contains("p40"))
    #expect(!text.contains("p60"))
    #expect(
      !converted.warnings.contains {
        $0.kind == .malformedMarkup && $0.message.contains("not well-formed")
      })
    #expect(converted.warnings.filter { $0.message.contains("maxChapterElements=50") }.count == 1)
    #expect(converted.elements == 50)
  }

  /// Text past `maxChapterTextBytes` is cut on a character boundary, never inside `&amp;`.
  @Test func chapterPastTheTextCapIsCutOnACharacterBoundary() {
    var limits = IngestLimits()
    func cut(_ text: String, cap: Int) -> MarkupBounds {
      limits.maxChapterTextBytes = cap
      let doc = "<html><head><title>t</title></head><body><p>\(text)</p></body></html>"
      return MarkupBounds.apply(Data(doc.utf8), limits: limits)
    }
    let utf8 = cut("éééé&amp;xyz", cap: 1 + 5)
    #expect(utf8.truncatedBy == .chapterTextBytes)
    #expect(
      String(decoding: utf8.data, as: UTF8.self)
        == "<html><head><title>t</title></head><body><p>éé</p></body></html>")
    let entity = cut("ab&amp;xyz", cap: 1 + 4)
    #expect(
      String(decoding: entity.data, as: UTF8.self)
        == "<html><head><title>t</title></head><body><p>ab</p></body></html>")
    #expect(!MarkupParser.parse(entity.data, limits: IngestLimits()).recoveredAsHTML)
    #expect(
      cut("ab&amp;xyz", cap: 100).data
        == Data("<html><head><title>t</title></head><body><p>ab&amp;xyz</p></body></html>".utf8))
  }

  /// Comments, CDATA, declarations and quoted `>` do not confuse the scan.
  @Test func scanKnowsCommentsCDATAAndQuotes() {
    var limits = IngestLimits()
    limits.maxChapterElements = 3
    let doc =
      "<!DOCTYPE x [<!ENTITY e \"<p>\">]><a t='>'><!-- <p><p><p> --><![CDATA[<p><p>]]><b/><c>x</c><d/></a>"
    let bounds = MarkupBounds.apply(Data(doc.utf8), limits: limits)
    #expect(bounds.elements == 3)
    #expect(
      String(decoding: bounds.data, as: UTF8.self)
        == "<!DOCTYPE x [<!ENTITY e \"<p>\">]><a t='>'><!-- <p><p><p> --><![CDATA[<p><p>]]><b/><c>x</c></a>"
    )
  }

  /// Past the book caps the book is refused with a limit naming the cap.
  @Test(.enabled(if: Corpus.has("moby-dick.epub"), Comment(rawValue: Corpus.missing)))
  func bookPastItsCapsIsRefused() {
    var options = IngestOptions()
    options.limits.maxBookElements = 500
    do {
      _ = try Book.open(Corpus.url("moby-dick.epub"), options: options)
      Issue.record("opened")
    } catch {
      #expect(error.limit == .bookElements)
      #expect(error.description.contains("maxBookElements"))
    }
    options = IngestOptions()
    options.limits.maxBookTextBytes = 10_000
    do {
      _ = try Book.open(Corpus.url("moby-dick.epub"), options: options)
      Issue.record("opened")
    } catch {
      #expect(error.limit == .bookTextBytes)
    }
    #expect((try? Book.open(Corpus.url("moby-dick.epub"))) != nil)
  }
}

@Suite struct QuotedInputTests {
  @Test func longInputIsElidedWithItsLength() {
    let uri = "data:image/png;base64," + String(repeating: "QUJD", count: 250_000)
    let quoted = QuotedInput.elided(uri)
    #expect(quoted.count <= 220)
    #expect(quoted.hasPrefix("data:image/png;base64,QUJD"))
    #expect(quoted.contains("[1000022 characters]"))
    #expect(QuotedInput.elided("chapter1.xhtml") == "chapter1.xhtml")
    #expect(QuotedInput.elided("a\nb") == "a\u{FFFD}b")
  }

  @Test func diagnosticsAndErrorsNeverRepeatMegabytes() {
    let uri = "data:image/png;base64," + String(repeating: "A", count: 1 << 20)
    let d = Diagnostic(.font, file: uri, message: "font '\(uri)' is missing")
    #expect(d.description.count < 700)
    let e = IngestError.badData(file: uri, reason: "entry '\(uri)' is not in the archive")
    #expect(e.description.count < 700)
    #expect(e.description.contains("characters]"))
  }
}
