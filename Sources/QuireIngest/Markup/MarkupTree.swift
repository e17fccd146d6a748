// The parsed document as Swift values: what MarkupParser (the one libxml2 front end) hands
// to everyone else. A flat array of nodes with parent/child indices, so walks are loops, not
// recursion, and the tree is Sendable. Chapters use it directly; the package files see it
// through `XMLElement` (Package/XMLTree.swift).

import Foundation

/// One node of the parsed document: an element or a run of character data.
struct MarkupNode: Sendable {
  enum Kind: Sendable { case element, text }
  var kind: Kind
  /// Local name for elements, without prefix ("p", "h1", "svg"; "navPoint" when case is
  /// preserved); empty for text.
  var name: String
  /// Namespace URI of an element, "" when none (or for text).
  var namespace: String = ""
  /// Attributes; namespaced ones keep their prefix ("xml:lang", "epub:type", "opf:role").
  /// Names are lower-cased unless the parse preserved case.
  var attributes: [(name: String, value: String)]
  /// Character data for text nodes.
  var text: String
  var parent: Int
  var children: [Int]
  /// An outermost `<svg>` element (XML parse) serialized as a standalone document
  /// (InlineSVG.swift); nil for everything else.
  var markup: String? = nil

  func attribute(_ name: String) -> String? {
    for a in attributes where a.name == name { return a.value }
    return nil
  }
}

/// A parsed document: node 0 is a synthetic root whose children are the top-level elements.
struct MarkupTree: Sendable {
  var nodes: [MarkupNode]
  var warnings: [String]
  /// True when the XML parser failed and the HTML parser recovered the content.
  var recoveredAsHTML: Bool
  /// Start tags and text bytes of the (bounded) source, for the book's caps.
  var elementCount = 0
  var textBytes = 0

  var root: Int { 0 }

  /// The first element with this name, in document order.
  func firstElement(named name: String) -> Int? {
    var stack = [root]
    while let n = stack.popLast() {
      if nodes[n].kind == .element && nodes[n].name == name { return n }
      stack.append(contentsOf: nodes[n].children.reversed())
    }
    return nil
  }

  /// Concatenated character data below `node` (document order), as libxml2 sees it.
  func textContent(of node: Int) -> String {
    var out = ""
    var stack = [node]
    while let n = stack.popLast() {
      if nodes[n].kind == .text { out += nodes[n].text }
      stack.append(contentsOf: nodes[n].children.reversed())
    }
    return out
  }
}

extension String {
  /// nil unless `data` is valid UTF-8.
  init?(validatingUTF8Data data: Data) {
    guard let s = String(data: data, encoding: .utf8) else { return nil }
    self = s
  }
}
