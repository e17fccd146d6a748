// The shortcuts of chapter conversion (issue #16) against the plain computations they
// replace: scalar counting eight bytes a step, class names split on bytes, sibling name
// positions without hashing, the failed-pair memo of selector matching, `pre` text split on
// bytes, style sheets parsed once per book however many workers ask at once, and the
// computed style's partial hash.

import Foundation
import QuireCore
import Testing

@testable import QuireIngest

@Suite struct StyleConversionCostTests {
  /// Strings of every length up to 40 with one- to four-byte scalars at every alignment.
  private static let samples: [String] = {
    let pieces = ["a", "é", "日", "😀", " ", "\u{301}", "ß", "\n", "z"]
    var out = [""]
    for n in 1...40 {
      var s = ""
      for i in 0..<n { s += pieces[(i * 7 + n) % pieces.count] }
      out.append(s)
    }
    return out
  }()

  @Test func scalarCountEqualsUnicodeScalars() {
    for s in Self.samples {
      #expect(ChapterBuilder.scalarCount(s) == s.unicodeScalars.count, "\(s)")
      // Substring-backed and bridged storage start at other addresses.
      let tail = String(s.dropFirst())
      #expect(ChapterBuilder.scalarCount(tail) == tail.unicodeScalars.count, "\(tail)")
    }
  }

  @Test func classNamesSplitLikeCharacters() {
    let values = [
      "", "a", "a b", "  a\tb\nc\rd\u{0B}e\u{0C}f  ", "a a b a", "x\u{1F}y", "é b",
      "a\u{A0}b", "a\u{2003}b c", "\r\n", String(repeating: "c ", count: 3),
    ]
    for v in values {
      var expected: [String] = []
      for name in v.split(whereSeparator: { $0.isWhitespace })
      where !expected.contains(String(name)) {
        expected.append(String(name))
      }
      #expect(StyleResolver.classNames(v) == expected, "\(v.debugDescription)")
    }
    let many = (0..<100).map { "c\($0)" }.joined(separator: " ")
    #expect(StyleResolver.classNames(many).count == MatchLimits.maxClassesPerElement)
  }

  /// Sibling positions by name, with more distinct names than the linear scan keeps (the
  /// dictionary takes over), against counting by hand.
  @Test func siblingPositionsCountEveryName() {
    let names = (0..<24).map { "e\($0)" }
    var children: [String] = []
    for i in 0..<200 { children.append(names[(i * i + 3 * i) % names.count]) }
    let body = children.map { "<\($0)>x</\($0)>" }.joined()
    let xhtml = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>\(body)<p/></body></html>"
    let tree = MarkupParser.parse(
      Data(xhtml.utf8), limits: IngestOptions().limits, isHTML: false)
    let resolver = StyleResolver(tree: tree, rules: RuleSet())
    let body0 = tree.nodes.indices.first { tree.nodes[$0].name == "body" }!
    let kids = tree.nodes[body0].children.filter { tree.nodes[$0].kind == .element }
    #expect(kids.count == 201)
    for (k, c) in kids.enumerated() {
      let name = tree.nodes[c].name
      let before = kids[..<k].filter { tree.nodes[$0].name == name }.count
      let all = kids.filter { tree.nodes[$0].name == name }.count
      let p = resolver.subjects[c]!.position
      #expect(p.index == k + 1 && p.count == 201)
      #expect(p.typeIndex == before + 1 && p.typeCount == all, "\(name) at \(k)")
      #expect(p.isEmpty == (name == "p"))
    }
  }

  @Test func failedPairsRememberEveryKey() {
    var failed = FailedPairs()
    for k in stride(from: 0, to: 200, by: 3) {
      #expect(!failed.contains(k))
      failed.insert(k)
      #expect(failed.contains(k))
    }
    for k in 0..<200 { #expect(failed.contains(k) == (k % 3 == 0)) }
  }

  /// A `pre` block's inlines: text, and "|" for each forced break.
  private static func preformatted(_ xhtml: String) -> [String] {
    let converter = ChapterConverter(
      options: IngestOptions(), bookLanguage: nil, loadResource: { _ in nil })
    let chapter = converter.convert(
      ChapterSource(
        spineIndex: 0, href: "c.xhtml", mediaType: "application/xhtml+xml", linear: true,
        data: Data(
          "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>\(xhtml)</body></html>".utf8))
    ).chapter
    var out: [String] = []
    var stack = Array(chapter.blocks.reversed())
    while let b = stack.popLast() {
      for inline in b.inlines {
        switch inline {
        case .text(let r): out.append(r.text)
        case .lineBreak: out.append("|")
        default: out.append("?")
        }
      }
      stack.append(contentsOf: b.children.reversed())
    }
    return out
  }

  /// CR LF, CR and LF each break a line once; the newline right after `<pre>` goes (CR LF
  /// too), elsewhere it stays; text between keeps its spaces.
  @Test func preservedTextBreaksAtEachNewline() {
    #expect(
      Self.preformatted("<pre>&#13;&#10;A &#13;&#10;B&#13;C\n\n D  é</pre>")
        == ["A ", "|", "B", "|", "C", "|", "|", " D  é"])
    #expect(Self.preformatted("<pre>\nx\n</pre>") == ["x"])
    #expect(Self.preformatted("<pre>&#13;x</pre>") == ["|", "x"])
    #expect(
      Self.preformatted("<p style=\"white-space: pre-wrap\">&#13;&#10;a&#13;&#13;&#10;b</p>")
        == ["|", "a", "|", "|", "b"])
  }

  /// Workers that need the same sheets at once parse them once; other lists parse apart.
  @Test func styleSheetsParseOncePerList() {
    let cache = StyleCache()
    let calls = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: 16) { i in
      let styles = cache.styles(i % 2 == 0 ? "even" : "odd") {
        calls.withLock { $0 += 1 }
        Thread.sleep(forTimeInterval: 0.01)
        return CachedStyles(rules: RuleSet(), fontFaces: [], warnings: ["\(i % 2)"])
      }
      #expect(styles.warnings == ["\(i % 2)"])
    }
    #expect(calls.withLock { $0 } == 2)
    #expect(cache.parseCount == 2)
  }

  /// Styles that differ only in values the hash leaves out stay apart as keys.
  @Test func partialHashKeepsUnequalStylesApart() {
    var a = ComputedStyle()
    var b = ComputedStyle()
    a.text.letterSpacing = .rem(0.1)
    b.text.letterSpacing = .rem(0.2)
    #expect(a.hashValue == b.hashValue)
    let table = [a: 1, b: 2, ComputedStyle(): 3]
    #expect(table.count == 3)
    #expect(table[a] == 1 && table[b] == 2)
  }
}
