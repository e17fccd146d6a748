// Style sharing (Style/Cascade.swift, `StyleSharing`): elements that matched the same rules
// under the same parent reuse one computed style. Shared or not, every block and run must
// carry the same style, value for value (not just what the text dump shows).

import Foundation
import QuireCore
import QuireTestSupport
import Testing

@testable import QuireIngest

@Suite struct StyleSharingTests {
  /// Every style a chapter carries, in document order: blocks' styles and boxes, runs'
  /// styles, recursively (inline blocks included).
  private static func styles(_ blocks: [Block]) -> [String] {
    var out: [String] = []
    var stack = Array(blocks.reversed())
    while let b = stack.popLast() {
      out.append("block \(b.element) \(b.style) \(b.box)")
      for inline in b.inlines {
        switch inline {
        case .text(let r): out.append("run \(r.text.prefix(20)) \(r.style)")
        case .inlineBlock(let ib):
          out.append("inline-block \(ib.style)")
          stack.append(ib.block)
        default: continue
        }
      }
      stack.append(contentsOf: b.children.reversed())
    }
    return out
  }

  private static func convert(_ xhtml: String, css: String, sharing: Bool) -> (
    [String], Int
  ) {
    var converter = ChapterConverter(
      options: IngestOptions(), bookLanguage: nil,
      loadResource: { $0 == "OPS/s.css" ? Data(css.utf8) : nil })
    converter.sharesStyles = sharing
    let chapter = converter.convert(
      ChapterSource(
        spineIndex: 0, href: "OPS/c.xhtml", mediaType: "application/xhtml+xml", linear: true,
        data: Data(xhtml.utf8))
    ).chapter
    return (styles(chapter.blocks), chapter.length)
  }

  /// Siblings with the same rules share; a `dir`, a style attribute, a different rule
  /// (`:first-child`, `+`, a class) or another parent each keep their own style.
  @Test func sharedStylesEqualComputedOnes() {
    let css = """
      p { margin: 1em 0; font-family: "A", serif }
      p + p { text-indent: 2em }
      p:first-child { color: red }
      .x { font-size: 80% }
      div p { font-weight: bold }
      """
    let body =
      "<p>a</p><p>b</p><p class='x'>c</p><p dir='rtl'>d</p><p style='color: blue'>e</p>"
      + "<div><p>f</p><p>g <span>h</span> <span>i</span></p></div><p>j</p>"
    let xhtml = """
      <html xmlns="http://www.w3.org/1999/xhtml"><head>
      <link rel="stylesheet" href="s.css"/></head><body>\(body)</body></html>
      """
    let (shared, length) = Self.convert(xhtml, css: css, sharing: true)
    let (own, ownLength) = Self.convert(xhtml, css: css, sharing: false)
    #expect(shared == own)
    #expect(length == ownLength)
    #expect(shared.count >= 10)
    // The rules do reach the styles compared: the second paragraph is indented, the first
    // red, the one in the div bold.
    #expect(
      shared.contains {
        $0.hasPrefix("block p") && $0.contains("textIndent: QuireIngest.Length.rem(2.0)")
      })
  }

  /// Chapters of one book share computed styles by the parent's value
  /// (`BookStyleSharing`): the second chapter's `html`, `body` and paragraphs take the
  /// first's, a paragraph under another parent does not, and every style equals one
  /// computed apart.
  @Test func chaptersShareStylesByParentValue() {
    let css = "p { margin: 1em 0 } .c p { color: red } p + p { text-indent: 1em }"
    let converter = ChapterConverter(
      options: IngestOptions(), bookLanguage: nil,
      loadResource: { $0 == "OPS/s.css" ? Data(css.utf8) : nil })
    var plain = converter
    plain.sharesStyles = false
    func source(_ i: Int, _ body: String) -> ChapterSource {
      let xhtml = """
        <html xmlns="http://www.w3.org/1999/xhtml"><head>
        <link rel="stylesheet" href="s.css"/></head><body>\(body)</body></html>
        """
      return ChapterSource(
        spineIndex: i, href: "OPS/c\(i).xhtml", mediaType: "application/xhtml+xml",
        linear: true, data: Data(xhtml.utf8))
    }
    let chapters = [
      source(0, "<p>a</p><p>b</p>"),
      source(1, "<p>c</p><p>d</p><div class='c'><p>e</p><p>f</p></div><p dir='rtl'>g</p>"),
    ]
    var shared: [[String]] = []
    for c in chapters {
      shared.append(Self.styles(converter.convert(c).chapter.blocks))
      #expect(shared.last == Self.styles(plain.convert(c).chapter.blocks))
    }
    #expect(shared[1].contains { $0.hasPrefix("block p") && $0.contains("r: 255") })
    let cached = converter.styleCache.styles("L:OPS/s.css") {
      Issue.record("the sheet was not cached under its link")
      return CachedStyles(rules: RuleSet(), fontFaces: [], warnings: [])
    }
    // html, body, the first and the second paragraph of chapter two.
    #expect(cached.sharing.hits >= 4)
  }

  /// The memo is bounded and counts what it answered.
  @Test func siblingsHitTheMemo() {
    var sharing = StyleSharing()
    var computed = 0
    let key = StyleSharing.Key(parent: 1, dir: 0, rules: [3, 7])
    for _ in 0..<5 {
      _ = sharing.style(key) {
        computed += 1
        return ElementStyle()
      }
    }
    #expect(computed == 1)
    #expect(sharing.hits == 4)
    for p in 0..<(StyleSharing.maxEntries + 10) {
      _ = sharing.style(StyleSharing.Key(parent: p + 2, dir: 0, rules: [])) { ElementStyle() }
    }
    #expect(computed == 1)
  }

  /// Candidates lose their repeats and keep the order found, short lists and long.
  @Test func candidatesKeepTheirFirstOccurrences() {
    #expect(StyleResolver.firstOccurrences([4, 2, 4, 9, 2, 1]) == [4, 2, 9, 1])
    let long = (0..<100).map { $0 % 37 }
    #expect(StyleResolver.firstOccurrences(long) == Array(0..<37))
    #expect(StyleResolver.firstOccurrences([]) == [])
  }

  /// Family names are trimmed of `CharacterSet.whitespaces` exactly as Foundation trims them,
  /// with or without the ASCII shortcut.
  @Test func familyNamesTrimLikeFoundation() {
    for name in [
      "Stix", " Stix", "Stix\t", "\u{3000}Mincho\u{3000}", "Times New Roman", "\u{A0}A", "é",
      "", " ", "a\u{2003}", "\u{0B}x",
    ] {
      #expect(
        StyleComputer.trimmingSpaces(name) == name.trimmingCharacters(in: .whitespaces), "\(name)")
    }
    #expect(StyleComputer.families([CSSToken(kind: .string, text: " Stix ")]) == ["Stix"])
  }

  /// Shared or not, corpus chapters carry the same styles.
  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
  func corpusChaptersStyleTheSameShared() throws {
    let chapters = try corpusChapters(
      ["moby-dick.epub", "accessible_epub_3.epub", "childrens-literature.epub"], prefix: 10)
    for c in chapters {
      var plain = c.converter
      plain.sharesStyles = false
      let shared = Self.styles(c.converter.convert(c.source).chapter.blocks)
      let own = Self.styles(plain.convert(c.source).chapter.blocks)
      #expect(shared == own, "\(c.book) \(c.source.href)")
    }
    #expect(chapters.count > 10)
  }
}
