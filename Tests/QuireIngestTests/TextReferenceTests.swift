// Session 17's shortcut of chapter parsing (issue #16): non-ASCII character data handed to
// libxml2 as character references (TextReferences.swift) gives the same tree, warnings and
// recovery as the bytes as they are, and the rewrite stays out of everything but text.

import Foundation
import QuireCore
import QuireTestSupport
import Testing

@testable import QuireIngest

@Suite struct TextReferenceTests {
  /// Everything the parse hands on, as one comparable string.
  private func summary(_ tree: MarkupTree) -> String {
    var out = "\(tree.recoveredAsHTML) \(tree.warnings) \(tree.elementCount) \(tree.textBytes)\n"
    for (i, n) in tree.nodes.enumerated() {
      let attributes = n.attributes.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
      out +=
        "\(i) \(n.kind) \(n.name) \(n.namespace) [\(attributes)] \(n.parent) \(n.children) "
        + "\(n.markup ?? "-") |\(n.text)|\n"
    }
    return out
  }

  private func parsesAlike(_ document: String, _ comment: Comment? = nil) {
    let data = Data(document.utf8)
    let escaped = MarkupParser.parse(data, limits: IngestLimits(), escapesText: true)
    let plain = MarkupParser.parse(data, limits: IngestLimits(), escapesText: false)
    #expect(summary(escaped) == summary(plain), comment)
  }

  private func xhtml(_ body: String, declaration: String = "<?xml version=\"1.0\"?>") -> String {
    declaration + "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>\(body)</body></html>"
  }

  @Test func textIsRewrittenAndParsesTheSame() throws {
    let body =
      "<p class=\"é\" title='a>“b”'>" + "“Call me Ishmael,” — he said. 日本 😀 \u{85}</p>"
    let document = xhtml(body)
    let escaped = try #require(TextReferences.escapingText(Data(document.utf8)))
    let text = String(decoding: escaped, as: UTF8.self)
    #expect(text.contains("&#x201C;Call me Ishmael,&#x201D; &#x2014; he said."))
    #expect(text.contains("&#x1F600;") && text.contains("&#x85;"))
    // Attribute values are markup: left as they are.
    #expect(text.contains("class=\"é\" title='a>“b”'>"))
    parsesAlike(document)
  }

  @Test func onlyCharacterDataIsRewritten() {
    let bodies = [
      "<p>a<!-- “comment” > x --> b’c</p>",
      "<p><![CDATA[“cdata” <b> ]]>’</p>",
      "<p><?pi “x” > ?>’</p>",
      "<p a=\"“>”\" b='’'>’</p><br/>’<img src=\"é.png\"/>",
      "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>“svg”</text></svg>’",
      "<p>&amp;’&#x2019;&nbsp;’</p>",
      "<p>AT&T’s</p>",
      "<p>’\n’\r\n’</p>\n\n<p>a < b ’</p>",
      "<p>]]>’</p>",
      "<p>\u{FFFE}’</p>",
      "<p>’</p></body></html>’",
      "<p>’</div>",
      "<pre>   ’   </pre><p xml:lang=\"fr\">« ça »</p>",
    ]
    for body in bodies { parsesAlike(xhtml(body), "\(body)") }
    // The prolog and a byte-order mark stay as they are.
    parsesAlike("\u{FEFF}" + xhtml("<p>’</p>"))
    parsesAlike("’" + xhtml("<p>’</p>", declaration: ""))
    parsesAlike(
      "<?xml version=\"1.0\"?><!DOCTYPE html [<!ENTITY q \"’>\">]>"
        + "<html><body><p>&q;’</p></body></html>")
    parsesAlike("<!DOCTYPE html><html><body><p>’</p></body></html>")
  }

  @Test func otherEncodingsAreLeftAlone() throws {
    let latin = xhtml("<p>’</p>", declaration: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>")
    #expect(TextReferences.escapingText(Data(latin.utf8)) == nil)
    parsesAlike(latin)
    for declaration in [
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<?xml version='1.0' encoding = 'utf-8' ?>",
      "<?xml version=\"1.0\"?>", "",
    ] {
      let document = xhtml("<p>’</p>", declaration: declaration)
      #expect(TextReferences.escapingText(Data(document.utf8)) != nil, "\(declaration)")
    }
    // UTF-16, and invalid UTF-8 in text.
    let utf16 = try #require(xhtml("<p>’</p>").data(using: .utf16))
    #expect(TextReferences.escapingText(utf16) == nil)
    var invalid = Data(xhtml("<p>’ x</p>").utf8)
    let x = try #require(invalid.lastIndex(of: UInt8(ascii: "x")))
    invalid[x] = 0xC3
    #expect(TextReferences.escapingText(invalid) == nil)
    let summaries = [true, false].map {
      summary(MarkupParser.parse(invalid, limits: IngestLimits(), escapesText: $0))
    }
    #expect(summaries[0] == summaries[1])
  }

  @Test func denseNonASCIITextIsLeftAlone() {
    let cjk = xhtml("<p>" + String(repeating: "日本語の文章。", count: 50) + "</p>")
    #expect(TextReferences.escapingText(Data(cjk.utf8)) == nil)
    let ascii = xhtml("<p>plain</p>")
    #expect(TextReferences.escapingText(Data(ascii.utf8)) == nil)
  }

  @Test func utf8DecodingRejectsWhatLibxml2Would() {
    let cases: [([UInt8], UInt32?)] = [
      ([0xC3, 0xA9], 0xE9), ([0xE2, 0x80, 0x99], 0x2019), ([0xF0, 0x9F, 0x98, 0x80], 0x1F600),
      ([0xC0, 0x80], nil), ([0xE0, 0x80, 0x80], nil), ([0xED, 0xA0, 0x80], nil),
      ([0xF4, 0x90, 0x80, 0x80], nil), ([0x80], nil), ([0xE2, 0x80], nil),
      ([0xE2, 0x41, 0x41], nil), ([0xFF], nil),
    ]
    for (bytes, expected) in cases {
      let data = Array("<html><body><p>a".utf8) + bytes + Array("</p></body></html>".utf8)
      let escaped = TextReferences.escapingText(Data(data))
      if let expected {
        let reference = "&#x" + String(expected, radix: 16, uppercase: true) + ";"
        #expect(escaped.map { String(decoding: $0, as: UTF8.self) }?.contains(reference) == true)
      } else {
        #expect(escaped == nil, "\(bytes)")
      }
      let summaries = [true, false].map {
        summary(MarkupParser.parse(Data(data), limits: IngestLimits(), escapesText: $0))
      }
      #expect(summaries[0] == summaries[1], "\(bytes)")
    }
  }

  @Test func corpusChaptersParseTheSame() throws {
    let names = [
      "moby-dick.epub", "accessible_epub_3.epub", "childrens-literature.epub",
      "israelsailing.epub", "jlreq-in-japanese.epub", "pg84-frankenstein.epub",
      "regime-anticancer-arabic.epub", "trees.epub", "svg-in-spine.epub",
    ]
    for chapter in try corpusChapters(names, prefix: 40) {
      let data = chapter.source.data
      let escaped = MarkupParser.parse(data, limits: IngestLimits(), escapesText: true)
      let plain = MarkupParser.parse(data, limits: IngestLimits(), escapesText: false)
      #expect(summary(escaped) == summary(plain), "\(chapter.book) \(chapter.source.href)")
    }
  }
}
