// A tiny XML element tree for the package files (container.xml, the OPF, NCX, the nav
// document, encryption.xml). libxml2 parses; the C tree is converted once into these Swift
// values and freed before `parse` returns, so no C pointer outlives the call.
//
// Parser options for untrusted books: XML_PARSE_NONET (no network), never XML_PARSE_NOENT or
// XML_PARSE_DTDLOAD (with them external entities such as SYSTEM "file:///etc/passwd" are read
// from the local disk), never XML_PARSE_HUGE (libxml2's own depth/size/amplification limits
// stay on). Entity references that are left unexpanded are dropped from the tree.
// XML_PARSE_NOERROR/NOWARNING keep libxml2 from printing: the library never prints.

import CLibXML2
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
  private static let initialized: Bool = {
    xmlInitParser()
    return true
  }()

  /// Parses `data` as XML. Malformed XML is a `badData` error naming `file`.
  static func parse(_ data: Data, file: String, limits: IngestLimits) throws(IngestError)
    -> XMLElement
  {
    _ = initialized
    guard !data.isEmpty else { throw .badData(file: file, reason: "empty XML document") }
    guard data.count < Int(Int32.max) else {
      throw .badData(file: file, reason: "XML document too large")
    }
    let options = Int32(
      XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
    let doc: xmlDocPtr? = data.withUnsafeBytes { raw in
      raw.withMemoryRebound(to: CChar.self) { chars in
        xmlReadMemory(chars.baseAddress, Int32(chars.count), file, nil, options)
      }
    }
    guard let doc else {
      throw .badData(file: file, reason: "malformed XML (xmlReadMemory failed)")
    }
    defer { xmlFreeDoc(doc) }
    guard let root = xmlDocGetRootElement(doc) else {
      throw .badData(file: file, reason: "XML document has no root element")
    }
    return convert(root, depth: 0, maxDepth: max(limits.maxDepth, 8))
  }

  private static func string(_ p: UnsafePointer<xmlChar>?) -> String {
    guard let p else { return "" }
    return String(cString: p)
  }

  private static func convert(_ node: xmlNodePtr, depth: Int, maxDepth: Int) -> XMLElement {
    var attributes: [String: String] = [:]
    var a = node.pointee.properties
    while let attr = a {
      let local = string(attr.pointee.name)
      var value = ""
      if let v = xmlNodeListGetString(node.pointee.doc, attr.pointee.children, 1) {
        value = String(cString: v)
        cxml_free(v)
      }
      if let ns = attr.pointee.ns, let prefix = ns.pointee.prefix {
        attributes["\(string(prefix)):\(local)"] = value
        if attributes[local] == nil { attributes[local] = value }
      } else {
        attributes[local] = value
      }
      a = attr.pointee.next
    }
    var children: [XMLNode] = []
    var c = node.pointee.children
    while let child = c {
      switch child.pointee.type {
      case XML_ELEMENT_NODE:
        if depth + 1 < maxDepth {
          children.append(.element(convert(child, depth: depth + 1, maxDepth: maxDepth)))
        }
      case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
        children.append(.text(string(child.pointee.content)))
      default:
        break  // comments, PIs, unexpanded entity references
      }
      c = child.pointee.next
    }
    let ns = node.pointee.ns.map { string($0.pointee.href) } ?? ""
    return XMLElement(
      name: string(node.pointee.name), namespace: ns, attributes: attributes, children: children)
  }
}
