// The parsed document as Swift values. libxml2's C tree is walked exactly once (iteratively,
// by following parent/child/next pointers, so no stack frame per nesting level) and then
// freed; nothing downstream sees a C pointer.
//
// Parsing policy for untrusted books:
// - XML first (`XML_PARSE_NONET`, errors and warnings silenced and collected through the
//   parser context's structured error callback). Never `XML_PARSE_NOENT` (which substitutes
//   entities and, with it, reads external ones from disk), never `XML_PARSE_DTDLOAD`, never
//   `XML_PARSE_HUGE`. An external-entity loader that refuses everything is installed once.
// - Entity references that survive (declared in an internal subset, or HTML names such as
//   `&nbsp;` in an XHTML file with a DOCTYPE) are not expanded through their declaration
//   (that is how billion-laughs explodes): an HTML entity name yields its character,
//   anything else yields its literal `&name;`.
// - On a well-formedness error the bytes are parsed again with libxml2's forgiving HTML
//   parser and a warning is recorded.
// - Depth is capped at `IngestLimits.maxDepth`: elements below it are flattened (their text
//   and empty elements such as <br/> are kept, their element boxes are not). libxml2 itself
//   refuses nesting deeper than 256 without `XML_PARSE_HUGE`; for such documents the bytes
//   are flattened by a small tag scanner (`flattenDeepNesting`) and parsed again.

import CLibXML2
import Foundation

/// One node of the parsed document: an element or a run of character data.
struct MarkupNode: Sendable {
  enum Kind: Sendable { case element, text }
  var kind: Kind
  /// Lower-cased local name for elements ("p", "h1", "svg"); empty for text.
  var name: String
  /// Attributes with lower-cased names; namespaced ones keep their prefix ("xml:lang", "epub:type").
  var attributes: [(name: String, value: String)]
  /// Character data for text nodes.
  var text: String
  var parent: Int
  var children: [Int]

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

/// Collects parser errors without printing them (libxml2 would print to stderr by default).
private final class ErrorSink {
  var messages: [String] = []
  var count = 0
}

enum MarkupParser {
  /// libxml2 wants `xmlInitParser` once before parsing on several threads.
  private static let initialized: Bool = {
    xmlInitParser()
    // Defence in depth: whatever options a caller passes, no entity or DTD is ever read
    // from the disk or the network.
    xmlSetExternalEntityLoader { _, _, _ in nil }
    return true
  }()

  /// Parses `data` as XHTML, falling back to the HTML parser. Never throws: the worst case
  /// is an empty tree with warnings.
  /// `isHTML`: the document is declared text/html, so falling back to the HTML parser is
  /// expected and not worth a warning.
  static func parse(_ data: Data, limits: IngestLimits, isHTML: Bool = false) -> MarkupTree {
    _ = initialized
    silenceThreadErrors()
    var warnings: [String] = []
    if data.count > limits.maxEntryBytes {
      return MarkupTree(
        nodes: [emptyRoot()],
        warnings: ["document larger than \(limits.maxEntryBytes) bytes ignored"],
        recoveredAsHTML: false)
    }
    if data.isEmpty {
      return MarkupTree(nodes: [emptyRoot()], warnings: ["empty document"], recoveredAsHTML: false)
    }
    if let tree = parseXML(data, limits: limits, warnings: &warnings) {
      return MarkupTree(nodes: tree, warnings: warnings, recoveredAsHTML: false)
    }
    if isHTML { warnings.removeAll() }
    // libxml2 refuses nesting deeper than 256 (without XML_PARSE_HUGE, which we never set);
    // flatten such documents ourselves and try again, so deep content is kept, not cut.
    var input = data
    let cap = min(max(1, limits.maxDepth), 250)
    if let flat = flattenDeepNesting(data, cap: cap) {
      input = flat
      var retryWarnings: [String] = []
      if let tree = parseXML(flat, limits: limits, warnings: &retryWarnings) {
        return MarkupTree(
          nodes: tree, warnings: ["elements nested deeper than \(cap) were flattened"],
          recoveredAsHTML: false)
      }
    }
    let html = parseHTML(withoutInternalSubset(input), limits: limits)
    if html == nil { warnings.append("htmlCtxtReadMemory: no document could be recovered") }
    return MarkupTree(nodes: html ?? [emptyRoot()], warnings: warnings, recoveredAsHTML: true)
  }

  private static func emptyRoot() -> MarkupNode {
    MarkupNode(kind: .element, name: "#root", attributes: [], text: "", parent: -1, children: [])
  }

  private static func parseXML(_ data: Data, limits: IngestLimits, warnings: inout [String])
    -> [MarkupNode]?
  {
    guard let ctxt = xmlNewParserCtxt() else {
      warnings.append("xmlNewParserCtxt failed")
      return nil
    }
    defer { xmlFreeParserCtxt(ctxt) }
    let sink = ErrorSink()
    let unmanaged = Unmanaged.passRetained(sink)
    defer { unmanaged.release() }
    ctxt.pointee._private = unmanaged.toOpaque()
    if let sax = ctxt.pointee.sax {
      sax.pointee.initialized = XML_SAX2_MAGIC
      sax.pointee.serror = { userData, error in
        guard let userData, let error else { return }
        let ctxt = userData.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let priv = ctxt.pointee._private else { return }
        let sink = Unmanaged<ErrorSink>.fromOpaque(priv).takeUnretainedValue()
        sink.count += 1
        if sink.messages.count < 5, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue {
          let msg = error.pointee.message.map { String(cString: $0) } ?? "error"
          sink.messages.append(
            "line \(error.pointee.line): \(msg.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
      }
    }
    let options = Int32(
      XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
    let doc: xmlDocPtr? = data.withUnsafeBytes { raw -> xmlDocPtr? in
      guard let base = raw.baseAddress, raw.count <= Int(Int32.max) else { return nil }
      return xmlCtxtReadMemory(
        ctxt, base.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, nil, options)
    }
    guard let doc else {
      warnings.append(
        "xmlCtxtReadMemory: not well-formed (\(sink.messages.first ?? "unknown error")); recovered with the HTML parser"
      )
      return nil
    }
    defer { xmlFreeDoc(doc) }
    if ctxt.pointee.wellFormed == 0 {
      warnings.append(
        "xmlCtxtReadMemory: not well-formed (\(sink.messages.first ?? "unknown error")); recovered with the HTML parser"
      )
      return nil
    }
    return convert(doc, limits: limits)
  }

  /// Errors raised without a parser context (encoding conversion, I/O) go to libxml2's
  /// thread-local handlers, which print to stderr by default. The library never prints: a
  /// no-op structured handler is installed on the calling thread (cheap; threads vary, so
  /// on every parse). Per-context handlers still take precedence, and `xmlGetLastError`
  /// still records the error.
  static func silenceThreadErrors() {
    xmlSetStructuredErrorFunc(nil) { _, _ in }
  }

  /// Drops start and end tags nested deeper than `cap` (their text stays), or nil when the
  /// document is not that deep. A byte-level scan that knows comments, CDATA, processing
  /// instructions, the DOCTYPE and quoted attribute values; it only runs after libxml2 has
  /// already failed, and its output goes back through libxml2.
  static func flattenDeepNesting(_ data: Data, cap: Int) -> Data? {
    let b = [UInt8](data)
    let n = b.count
    let lt = UInt8(ascii: "<")
    let gt = UInt8(ascii: ">")
    let slash = UInt8(ascii: "/")
    let bang = UInt8(ascii: "!")
    let question = UInt8(ascii: "?")
    func starts(_ i: Int, _ s: String) -> Bool {
      let u = Array(s.utf8)
      guard i + u.count <= n else { return false }
      for k in 0..<u.count where b[i + k] != u[k] { return false }
      return true
    }
    func find(_ i: Int, _ s: String) -> Int {
      var j = i
      while j < n, !starts(j, s) { j += 1 }
      return min(n, j + s.utf8.count)
    }
    // First pass: is it deep at all?
    var depth = 0
    var maxSeen = 0
    var out = [UInt8]()
    var dropped = false
    for pass in 0..<2 {
      depth = 0
      var i = 0
      while i < n {
        if b[i] != lt {
          var j = i
          while j < n, b[j] != lt { j += 1 }
          if pass == 1 { out.append(contentsOf: b[i..<j]) }
          i = j
          continue
        }
        var end: Int
        var keep = true
        if starts(i, "<!--") {
          end = find(i + 4, "-->")
        } else if starts(i, "<![CDATA[") {
          end = find(i + 9, "]]>")
        } else if i + 1 < n, b[i + 1] == question {
          end = find(i + 2, "?>")
        } else if i + 1 < n, b[i + 1] == bang {
          var j = i + 2
          var bracket = 0
          var quote: UInt8? = nil
          while j < n {
            let c = b[j]
            if let q = quote {
              if c == q { quote = nil }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
              quote = c
            } else if c == UInt8(ascii: "[") {
              bracket += 1
            } else if c == UInt8(ascii: "]") {
              bracket -= 1
            } else if c == gt && bracket <= 0 {
              break
            }
            j += 1
          }
          end = min(n, j + 1)
        } else {
          var j = i + 1
          var quote: UInt8? = nil
          while j < n {
            let c = b[j]
            if let q = quote {
              if c == q { quote = nil }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
              quote = c
            } else if c == gt {
              break
            }
            j += 1
          }
          end = min(n, j + 1)
          if i + 1 < n, b[i + 1] == slash {
            depth -= 1
            keep = depth < cap
          } else if j < n, j > i, b[j - 1] == slash {
            keep = true  // an empty element adds no depth below itself (<br/>, <img/>)
          } else {
            keep = depth < cap
            depth += 1
            maxSeen = max(maxSeen, depth)
          }
        }
        if pass == 1 {
          if keep { out.append(contentsOf: b[i..<end]) } else { dropped = true }
        }
        i = end
      }
      if pass == 0 && maxSeen <= cap { return nil }
      if pass == 0 { out.reserveCapacity(n) }
    }
    return dropped ? Data(out) : nil
  }

  /// HTML has no internal DTD subset; the HTML parser would show one as text (entity
  /// declarations of a billion-laughs file, say). Replaces `<!DOCTYPE … [ … ]>` with
  /// `<!DOCTYPE html>` (ASCII-compatible encodings; quotes inside the subset are respected).
  static func withoutInternalSubset(_ data: Data) -> Data {
    let bytes = [UInt8](data.prefix(1 << 20))
    let pattern: [UInt8] = Array("<!doctype".utf8)
    func matchesAt(_ i: Int) -> Bool {
      for k in 0..<pattern.count where bytes[i + k] | 0x20 != pattern[k] | 0x20 { return false }
      return true
    }
    guard bytes.count > pattern.count,
      let start = (0..<(bytes.count - pattern.count)).first(where: matchesAt)
    else {
      return data
    }
    var i = start + pattern.count
    var quote: UInt8? = nil
    var inSubset = false
    while i < bytes.count {
      let c = bytes[i]
      if let q = quote {
        if c == q { quote = nil }
      } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
        quote = c
      } else if c == UInt8(ascii: "[") {
        inSubset = true
      } else if c == UInt8(ascii: "]") {
        inSubset = false
      } else if c == UInt8(ascii: ">") && !inSubset {
        var out = Data(bytes[0..<start])
        out.append(contentsOf: Array("<!DOCTYPE html>".utf8))
        out.append(data.dropFirst(i + 1))
        return out
      }
      i += 1
    }
    return data
  }

  private static func parseHTML(_ data: Data, limits: IngestLimits) -> [MarkupNode]? {
    guard let ctxt = htmlNewParserCtxt() else { return nil }
    defer { htmlFreeParserCtxt(ctxt) }
    let options = Int32(
      HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
        | HTML_PARSE_RECOVER.rawValue)
    // Without a declared charset the HTML parser assumes Latin-1; books are UTF-8 unless
    // they say otherwise, so name it when the bytes are valid UTF-8.
    let utf8 = String(validatingUTF8Data: data) != nil
    let doc: htmlDocPtr? = data.withUnsafeBytes { raw -> htmlDocPtr? in
      guard let base = raw.baseAddress, raw.count <= Int(Int32.max) else { return nil }
      return htmlCtxtReadMemory(
        ctxt, base.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, utf8 ? "UTF-8" : nil,
        options)
    }
    guard let doc else { return nil }
    defer { xmlFreeDoc(doc) }
    return convert(doc, limits: limits)
  }

  /// Walks the C tree once, iteratively, into Swift values.
  private static func convert(_ doc: xmlDocPtr, limits: IngestLimits) -> [MarkupNode] {
    var nodes = [emptyRoot()]
    // `parents[d]` is the Swift node that receives children of C nodes at depth d.
    var parents = [0]
    var current = doc.pointee.children
    var depth = 0  // depth of `current` below the document
    let maxDepth = max(1, limits.maxDepth)
    // Text and nodes are bounded by the input size; this cap only guards against a
    // pathological expansion we did not foresee.
    let maxNodes = 4_000_000

    func appendText(_ s: String, to parent: Int) {
      guard !s.isEmpty else { return }
      // Merge with a previous text sibling (flattened or split character data).
      if let last = nodes[parent].children.last, nodes[last].kind == .text {
        nodes[last].text += s
        return
      }
      nodes.append(
        MarkupNode(kind: .text, name: "", attributes: [], text: s, parent: parent, children: []))
      nodes[parent].children.append(nodes.count - 1)
    }

    while let node = current {
      let parentIndex = parents[min(depth, parents.count - 1)]
      var descend = false
      if nodes.count < maxNodes {
        switch node.pointee.type {
        case XML_ELEMENT_NODE:
          // Below the cap only leaves (<br/>, <img/>) keep their element: they add no depth.
          if depth < maxDepth || node.pointee.children == nil {
            let name = node.pointee.name.map { String(cString: $0).lowercased() } ?? ""
            nodes.append(
              MarkupNode(
                kind: .element, name: name, attributes: attributes(of: node), text: "",
                parent: parentIndex, children: []))
            nodes[parentIndex].children.append(nodes.count - 1)
            if parents.count > depth + 1 {
              parents[depth + 1] = nodes.count - 1
            } else {
              parents.append(nodes.count - 1)
            }
          } else if parents.count <= depth + 1 {
            // Flattened: deeper content goes to the deepest kept element.
            parents.append(parentIndex)
          } else {
            parents[depth + 1] = parentIndex
          }
          descend = node.pointee.children != nil
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
          if let content = node.pointee.content {
            appendText(String(cString: content), to: parentIndex)
          }
        case XML_ENTITY_REF_NODE:
          // Never follow the entity's children (billion laughs); see the essay above.
          let name = node.pointee.name.map { String(cString: $0) } ?? ""
          if let desc = htmlEntityLookup(node.pointee.name),
            let scalar = Unicode.Scalar(desc.pointee.value)
          {
            appendText(String(Character(scalar)), to: parentIndex)
          } else {
            appendText("&\(name);", to: parentIndex)
          }
        default:
          break  // comments, processing instructions, DTD nodes
        }
      }
      if descend, let child = node.pointee.children {
        current = child
        depth += 1
        continue
      }
      // Next sibling, or climb until one exists.
      var n: xmlNodePtr? = node
      while let m = n {
        if let next = m.pointee.next {
          current = next
          break
        }
        let up = m.pointee.parent
        depth -= 1
        if depth < 0 || up == nil || UnsafeMutableRawPointer(up!) == UnsafeMutableRawPointer(doc) {
          current = nil
          break
        }
        n = up
      }
      if n == nil { current = nil }
    }
    return nodes
  }

  private static func attributes(of node: xmlNodePtr) -> [(name: String, value: String)] {
    var out: [(name: String, value: String)] = []
    var attr = node.pointee.properties
    while let a = attr {
      var name = a.pointee.name.map { String(cString: $0).lowercased() } ?? ""
      if let ns = a.pointee.ns, let prefix = ns.pointee.prefix {
        name = String(cString: prefix).lowercased() + ":" + name
      }
      var value = ""
      // Attribute values hold text (and, rarely, entity references: never expanded).
      var child = a.pointee.children
      while let c = child {
        if c.pointee.type == XML_TEXT_NODE, let content = c.pointee.content {
          value += String(cString: content)
        } else if c.pointee.type == XML_ENTITY_REF_NODE,
          let desc = htmlEntityLookup(c.pointee.name),
          let scalar = Unicode.Scalar(desc.pointee.value)
        {
          value.unicodeScalars.append(scalar)
        }
        child = c.pointee.next
      }
      out.append((name, value))
      if out.count >= 256 { break }
      attr = a.pointee.next
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
