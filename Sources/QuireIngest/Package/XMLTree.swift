// A tiny XML element tree for the package files (container.xml, the OPF, NCX, the nav
// document, encryption.xml): nested values, easy to query by local name. The bytes go
// through the one libxml2 front end (Markup/MarkupParser.swift, which owns every parser
// option and frees the C tree before it returns); this file only reshapes its flat
// `MarkupTree` into nested elements, dropping elements nested deeper than
// `IngestLimits.maxDepth` (package files are never legitimately deep).

import Foundation

struct XMLElement: Sendable {
  /// Local name, without prefix ("package", "item").
  var name: String
  /// Namespace URI, or "" when none.
  var namespace: String
  /// Attributes by local name; `prefixed` keeps "prefix:name" for namespaced ones too
  /// (EPUB 2 `opf:role`, EPUB 3 `epub:type`).
  var attributes: [String: String]
  var children: [XMLNode]

  func attribute(_ name: String) -> String? { attributes[name] }

  var elements: [XMLElement] {
    children.compactMap { if case .element(let e) = $0 { return e } else { return nil } }
  }

  func elements(named name: String) -> [XMLElement] { elements.filter { $0.name == name } }
  func first(_ name: String) -> XMLElement? { elements.first { $0.name == name } }

  /// Every descendant element (depth-first, document order) with this local name.
  func descendants(named name: String) -> [XMLElement] {
    var out: [XMLElement] = []
    var stack: [XMLElement] = [self]
    while let e = stack.popLast() {
      for child in e.elements.reversed() { stack.append(child) }
      if e.name == name { out.append(e) }
    }
    // The stack walk visits self first, then children in document order.
    return out
  }

  /// All text below this element, concatenated, whitespace collapsed and trimmed.
  var text: String {
    var s = ""
    func walk(_ e: XMLElement) {
      for c in e.children {
        switch c {
        case .text(let t): s += t
        case .element(let child): walk(child)
        }
      }
    }
    walk(self)
    return s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }
}

indirect enum XMLNode: Sendable {
  case element(XMLElement)
  case text(String)
}

enum XMLTree {
  /// Parses `data` as XML. Malformed XML is a `badData` error naming `file`.
  static func parse(_ data: Data, file: String, limits: IngestLimits) throws(IngestError)
    -> XMLElement
  {
    let tree = try MarkupParser.parseWellFormed(data, file: file, limits: limits)
    let maxDepth = max(limits.maxDepth, 8)
    // The root element exists: `parseWellFormed` checked.
    let root = tree.nodes[tree.root].children.first { tree.nodes[$0].kind == .element } ?? 0
    return element(root, in: tree, depth: 0, maxDepth: maxDepth)
  }

  /// Recursion is bounded by `maxDepth` (and libxml2 refuses XML deeper than 256 anyway).
  private static func element(_ index: Int, in tree: MarkupTree, depth: Int, maxDepth: Int)
    -> XMLElement
  {
    let node = tree.nodes[index]
    var attributes: [String: String] = [:]
    for (name, value) in node.attributes {
      if let colon = name.firstIndex(of: ":") {
        attributes[name] = value
        let local = String(name[name.index(after: colon)...])
        if attributes[local] == nil { attributes[local] = value }
      } else {
        attributes[name] = value
      }
    }
    var children: [XMLNode] = []
    for c in node.children {
      let child = tree.nodes[c]
      switch child.kind {
      case .text: children.append(.text(child.text))
      case .element where depth + 1 < maxDepth:
        children.append(.element(element(c, in: tree, depth: depth + 1, maxDepth: maxDepth)))
      case .element: break
      }
    }
    return XMLElement(
      name: node.name, namespace: node.namespace, attributes: attributes, children: children)
  }
}
