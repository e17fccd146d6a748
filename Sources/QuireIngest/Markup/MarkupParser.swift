// The one libxml2 front end of Ingest. Every byte of XML or HTML a book holds — container.xml,
// the OPF, encryption.xml, the nav document, the NCX and every chapter — goes through
// `MarkupParser`, so the settings that keep a hostile book harmless live in one place
// (`MarkupParser.Policy`), and so does the only code that touches a libxml2 tree: the C
// document exists inside `withDocument` alone, is converted once (iteratively, following
// parent/child/next pointers, so no stack frame per nesting level) into `MarkupTree`
// values and freed before the call returns. Nothing downstream sees a C pointer.
//
// Policy for untrusted books:
// - `XML_PARSE_NONET`; never `XML_PARSE_NOENT` (substitutes entities and, with it, reads
//   external ones from disk), `XML_PARSE_DTDLOAD`/`DTDATTR`/`DTDVALID` (read the DTD),
//   `XML_PARSE_XINCLUDE` or `XML_PARSE_HUGE` (lifts libxml2's own depth, size and entity
//   amplification limits). An external-entity loader that refuses everything is installed
//   once, in case a future option or libxml2 default would load anyway.
// - Silence: NOERROR/NOWARNING, a structured error handler on every parser context that
//   collects the first messages for our diagnostics, and a no-op handler for the errors
//   libxml2 raises outside any context (encoding conversion). The library never prints.
// - Entity references that survive (declared in an internal subset, or HTML names such as
//   `&nbsp;` in an XHTML file with a DOCTYPE) are never expanded through their declaration
//   (that is how billion laughs explodes): an HTML entity name yields its character,
//   anything else is dropped, in text and in attribute values alike.
// - Depth: libxml2 refuses XML nested deeper than 256 without HUGE; the conversion keeps
//   `IngestLimits.maxDepth` levels and flattens below (text and empty elements such as <br/>
//   are kept, element boxes are not). Nodes and attributes per element are capped too, and
//   chapters are bounded on their bytes first (elements, text, attributes per start tag:
//   MarkupBounds.swift), so libxml2 never builds a tree past `IngestLimits`.
// - Package files must be well-formed XML (`parseWellFormed` throws `badData` naming the
//   file and libxml2's first error). Chapters never fail (`parse`): on a well-formedness
//   error they are read again with libxml2's forgiving HTML parser (HTML_PARSE_RECOVER), and
//   documents nested past libxml2's depth limit are flattened by a small tag scanner
//   (`flattenDeepNesting`) and parsed again, so deep content is kept, not cut.
// - Speed, not policy: a chapter's non-ASCII character data reaches the XML parse as
//   character references (TextReferences.swift), the same characters to libxml2 on its
//   fast path; the parses after a failure read the bytes as they came.
//
// Names: chapters get lower-cased element and attribute names (HTML's case-insensitivity,
// what the cascade matches); package files keep case ("navPoint", "playOrder") and each
// element's namespace URI.

import CLibXML2
import Foundation

/// Parses XML and HTML bytes into `MarkupTree` values with one hardened libxml2 setup.
enum MarkupParser {
  /// Every libxml2 setting Ingest parses with; nothing else in the module names one.
  enum Policy {
    /// XML: no network, nothing printed. See the essay for the options deliberately absent.
    static let xmlOptions = Int32(
      XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
    /// HTML: the same, plus recovery from anything.
    static let htmlOptions = Int32(
      HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
        | HTML_PARSE_RECOVER.rawValue)
    /// libxml2's nesting limit without XML_PARSE_HUGE; the tag scanner flattens below it.
    static let libxml2MaxDepth = 256
    /// Text and nodes are bounded by the input size; this guards against an expansion we did
    /// not foresee.
    static let maxNodes = 4_000_000
    /// Parser error messages kept per document.
    static let maxMessages = 5
  }

  /// How names come out of the parser.
  enum Names: Sendable {
    /// Element and attribute names lower-cased (chapters: HTML is case-insensitive).
    case lowercased
    /// Names as written (package files: "navPoint", "playOrder").
    case preserved
  }

  /// libxml2 wants `xmlInitParser` once before parsing on several threads.
  private static let initialized: Bool = {
    xmlInitParser()
    // Defence in depth: whatever options are passed, no entity or DTD is ever read from the
    // disk or the network.
    xmlSetExternalEntityLoader { _, _, _ in nil }
    return true
  }()

  // MARK: - Entry points

  /// Parses a chapter as XHTML, falling back to the HTML parser. Never throws: the worst case
  /// is an empty tree with warnings. `isHTML`: the document is declared text/html, so falling
  /// back to the HTML parser is expected and not worth a warning. `escapesText`: libxml2
  /// reads non-ASCII text as character references (TextReferences.swift); off only in tests
  /// that compare the two.
  static func parse(
    _ data: Data, limits: IngestLimits, isHTML: Bool = false, escapesText: Bool = true
  ) -> MarkupTree {
    if data.count > limits.maxEntryBytes {
      return MarkupTree(
        nodes: [emptyRoot()],
        warnings: ["document larger than \(limits.maxEntryBytes) bytes ignored"],
        recoveredAsHTML: false)
    }
    if data.isEmpty {
      return MarkupTree(nodes: [emptyRoot()], warnings: ["empty document"], recoveredAsHTML: false)
    }
    let bounds = MarkupBounds.apply(data, limits: limits)
    var tree = parseBounded(bounds.data, limits: limits, isHTML: isHTML, escapesText: escapesText)
    tree.warnings = bounds.warnings(limits) + tree.warnings
    tree.elementCount = bounds.elements
    tree.textBytes = bounds.textBytes
    return tree
  }

  /// `parse` once the chapter caps are applied to the bytes.
  private static func parseBounded(
    _ data: Data, limits: IngestLimits, isHTML: Bool, escapesText: Bool
  ) -> MarkupTree {
    // The same document to libxml2, on its fast path; what follows a failure reads `data`.
    let escaped = escapesText ? TextReferences.escapingText(data) : nil
    let xml = read(escaped ?? data, html: false, names: .lowercased, limits: limits)
    if let nodes = xml.nodes {
      return MarkupTree(nodes: nodes, warnings: [], recoveredAsHTML: false)
    }
    var warnings =
      isHTML
      ? []
      : [
        "xmlCtxtReadMemory: not well-formed (\(xml.error ?? "unknown error")); recovered with the HTML parser"
      ]
    // Flatten what libxml2 refuses for depth and try XML again, so deep content is kept.
    var input = data
    let cap = min(max(1, limits.maxDepth), Policy.libxml2MaxDepth - 6)
    if let flat = flattenDeepNesting(data, cap: cap) {
      input = flat
      if let nodes = read(flat, html: false, names: .lowercased, limits: limits).nodes {
        return MarkupTree(
          nodes: nodes, warnings: ["elements nested deeper than \(cap) were flattened"],
          recoveredAsHTML: false)
      }
    }
    let html = read(withoutInternalSubset(input), html: true, names: .lowercased, limits: limits)
    if html.nodes == nil { warnings.append("htmlCtxtReadMemory: no document could be recovered") }
    return MarkupTree(
      nodes: html.nodes ?? [emptyRoot()], warnings: warnings, recoveredAsHTML: true)
  }

  /// Parses a package file (container.xml, OPF, NCX, nav, encryption.xml), which must be
  /// well-formed XML with a root element; names keep their case.
  static func parseWellFormed(_ data: Data, file: String, limits: IngestLimits)
    throws(IngestError) -> MarkupTree
  {
    guard !data.isEmpty else { throw .badData(file: file, reason: "empty XML document") }
    guard data.count <= limits.maxEntryBytes else {
      throw .limitExceeded(
        file: file, limit: .entryBytes,
        reason: "XML document is \(data.count) bytes, over maxEntryBytes=\(limits.maxEntryBytes)")
    }
    // Package files are never truncated; only the attribute cap applies.
    var attributesOnly = limits
    attributesOnly.maxChapterElements = .max
    attributesOnly.maxChapterTextBytes = .max
    let parsed = read(
      MarkupBounds.apply(data, limits: attributesOnly).data, html: false, names: .preserved,
      limits: limits)
    guard let nodes = parsed.nodes else {
      throw .badData(
        file: file, reason: "malformed XML (\(parsed.error ?? "xmlCtxtReadMemory failed"))")
    }
    let tree = MarkupTree(nodes: nodes, warnings: [], recoveredAsHTML: false)
    guard tree.nodes[tree.root].children.contains(where: { tree.nodes[$0].kind == .element })
    else {
      throw .badData(file: file, reason: "XML document has no root element")
    }
    return tree
  }

  /// Errors raised without a parser context (encoding conversion, I/O) go to libxml2's
  /// thread-local handlers, which print to stderr by default. The library never prints: a
  /// no-op structured handler is installed on the calling thread (cheap; threads vary, so
  /// on every parse). Per-context handlers still take precedence, and `xmlGetLastError`
  /// still records the error.
  static func silenceThreadErrors() {
    xmlSetStructuredErrorFunc(nil) { _, _ in }
  }

  // MARK: - libxml2

  /// Parses with libxml2 and converts: the nodes, or nil with libxml2's first error.
  private static func read(_ data: Data, html: Bool, names: Names, limits: IngestLimits)
    -> (nodes: [MarkupNode]?, error: String?)
  {
    withDocument(data, html: html) { doc in
      var conversion = TreeConversion(names: names, maxDepth: max(1, limits.maxDepth))
      conversion.maxAttributes = max(1, limits.maxAttributesPerElement)
      return conversion.convert(doc)
    }
  }

  /// Parses `data` and hands the C document to `body`, then frees it: the only place a
  /// libxml2 tree exists. XML that is not well-formed gives nil and the first error.
  private static func withDocument<T>(
    _ data: Data, html: Bool, _ body: (xmlDocPtr) -> T
  ) -> (nodes: T?, error: String?) {
    _ = initialized
    silenceThreadErrors()
    guard data.count <= Int(Int32.max),
      let ctxt = html ? htmlNewParserCtxt() : xmlNewParserCtxt()
    else { return (nil, "no parser context") }
    defer { html ? htmlFreeParserCtxt(ctxt) : xmlFreeParserCtxt(ctxt) }
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
        Unmanaged<ErrorSink>.fromOpaque(priv).takeUnretainedValue().record(error.pointee)
      }
    }
    // Without a declared charset the HTML parser assumes Latin-1; books are UTF-8 unless
    // they say otherwise, so name it when the bytes are valid UTF-8.
    let encoding = html && String(validatingUTF8Data: data) != nil ? "UTF-8" : nil
    let doc: xmlDocPtr? = data.withUnsafeBytes { raw -> xmlDocPtr? in
      guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
      return html
        ? htmlCtxtReadMemory(ctxt, base, Int32(raw.count), nil, encoding, Policy.htmlOptions)
        : xmlCtxtReadMemory(ctxt, base, Int32(raw.count), nil, nil, Policy.xmlOptions)
    }
    guard let doc else { return (nil, sink.messages.first ?? "unknown error") }
    defer { xmlFreeDoc(doc) }
    if !html && ctxt.pointee.wellFormed == 0 {
      return (nil, sink.messages.first ?? "unknown error")
    }
    return (body(doc), nil)
  }

  private static func emptyRoot() -> MarkupNode {
    MarkupNode(kind: .element, name: "#root", attributes: [], text: "", parent: -1, children: [])
  }

  /// Drops start and end tags nested deeper than `cap` (their text stays), or nil when the
  /// document is not that deep. A byte-level scan that knows comments, CDATA, processing
  /// instructions, the DOCTYPE and quoted attribute values; it only runs after libxml2 has
  /// already failed, and its output goes back through libxml2.
  static func flattenDeepNesting(_ data: Data, cap: Int) -> Data? {
    let bytes = [UInt8](data)
    return bytes.withUnsafeBufferPointer { b in
      flattenDeepNesting(ByteScanner(b: b), cap: cap).map { Data($0) }
    }
  }

  private static func flattenDeepNesting(_ scan: ByteScanner, cap: Int) -> [UInt8]? {
    let b = scan.b
    let n = b.count
    let lt = UInt8(ascii: "<")
    let slash = UInt8(ascii: "/")
    let bang = UInt8(ascii: "!")
    let question = UInt8(ascii: "?")
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
        if scan.starts(i, "<!--") {
          end = scan.skip(past: "-->", from: i + 4)
        } else if scan.starts(i, "<![CDATA[") {
          end = scan.skip(past: "]]>", from: i + 9)
        } else if i + 1 < n, b[i + 1] == question {
          end = scan.skip(past: "?>", from: i + 2)
        } else if i + 1 < n, b[i + 1] == bang {
          end = scan.declarationEnd(from: i + 2)
        } else {
          let j = scan.closingBracket(from: i + 1, declaration: false)
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
    return dropped ? out : nil
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

}

/// Collects parser errors without printing them (libxml2 would print to stderr by default).
private final class ErrorSink {
  var messages: [String] = []
  var count = 0

  func record(_ error: xmlError) {
    count += 1
    guard messages.count < MarkupParser.Policy.maxMessages,
      error.level.rawValue >= XML_ERR_ERROR.rawValue
    else { return }
    let message = error.message.map { String(cString: $0) } ?? "error"
    messages.append(
      "line \(error.line): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
  }
}

/// One walk of a libxml2 document into `MarkupNode`s.
private struct TreeConversion {
  let names: MarkupParser.Names
  let maxDepth: Int
  /// Attributes kept per element (`IngestLimits.maxAttributesPerElement`); the byte scan
  /// already dropped the rest, this holds for inputs that bypass it.
  var maxAttributes = 256
  var nodes: [MarkupNode] = [
    MarkupNode(kind: .element, name: "#root", attributes: [], text: "", parent: -1, children: [])
  ]
  /// Namespace URIs by the address of their libxml2 declaration: one String per namespace.
  var namespaces: [UnsafeMutableRawPointer: String] = [:]
  /// Element nodes inside an `<svg>` (by Swift index), so only outermost ones are serialized.
  var insideSVG: Set<Int> = []

  init(names: MarkupParser.Names, maxDepth: Int) {
    self.names = names
    self.maxDepth = maxDepth
  }

  /// Walks the C tree once, iteratively. Elements deeper than `maxDepth` are flattened: their
  /// text goes to the deepest kept element, and only leaves (<br/>, <img/>) keep their element.
  mutating func convert(_ doc: xmlDocPtr) -> [MarkupNode] {
    // `parents[d]` is the Swift node that receives children of C nodes at depth d.
    var parents = [0]
    var current = doc.pointee.children
    var depth = 0  // depth of `current` below the document
    let docAddress = UnsafeMutableRawPointer(doc)
    while let node = current {
      let parent = parents[min(depth, parents.count - 1)]
      var descend = false
      if nodes.count < MarkupParser.Policy.maxNodes {
        switch node.pointee.type {
        case XML_ELEMENT_NODE:
          let hasChildren = node.pointee.children != nil
          let kept = depth < maxDepth || !hasChildren ? appendElement(node, to: parent) : parent
          if parents.count > depth + 1 { parents[depth + 1] = kept } else { parents.append(kept) }
          descend = hasChildren
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
          if let content = node.pointee.content { appendText(String(cString: content), to: parent) }
        case XML_ENTITY_REF_NODE:
          // Never follow the entity's children (billion laughs); see the essay above.
          if let c = Self.character(entity: node.pointee.name) { appendText(c, to: parent) }
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
      current = nil
      var climbing: xmlNodePtr? = node
      while let m = climbing {
        if let next = m.pointee.next {
          current = next
          break
        }
        depth -= 1
        guard depth >= 0, let up = m.pointee.parent, UnsafeMutableRawPointer(up) != docAddress
        else { break }
        climbing = up
      }
    }
    return nodes
  }

  private func name(_ p: UnsafePointer<xmlChar>?) -> String {
    guard let p else { return "" }
    let s = String(cString: p)
    return names == .lowercased ? s.lowercased() : s
  }

  private mutating func appendElement(_ node: xmlNodePtr, to parent: Int) -> Int {
    var namespace = ""
    if let ns = node.pointee.ns {
      let key = UnsafeMutableRawPointer(ns)
      if let known = namespaces[key] {
        namespace = known
      } else {
        namespace = ns.pointee.href.map { String(cString: $0) } ?? ""
        namespaces[key] = namespace
      }
    }
    nodes.append(
      MarkupNode(
        kind: .element, name: name(node.pointee.name), namespace: namespace,
        attributes: attributes(of: node), text: "", parent: parent, children: []))
    nodes[parent].children.append(nodes.count - 1)
    if namespace == InlineSVG.namespace || insideSVG.contains(parent) {
      if !insideSVG.contains(parent), nodes[nodes.count - 1].name.lowercased() == "svg" {
        nodes[nodes.count - 1].markup = InlineSVG.serialize(node)
      }
      insideSVG.insert(nodes.count - 1)
    }
    return nodes.count - 1
  }

  private mutating func appendText(_ s: String, to parent: Int) {
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

  /// Attribute values hold text and, rarely, entity references: an HTML character name gives
  /// its character, anything else is dropped (never expanded).
  private func attributes(of node: xmlNodePtr) -> [(name: String, value: String)] {
    var out: [(name: String, value: String)] = []
    var attr = node.pointee.properties
    while let a = attr, out.count < maxAttributes {
      var attributeName = name(a.pointee.name)
      if let ns = a.pointee.ns, let prefix = ns.pointee.prefix {
        attributeName = name(prefix) + ":" + attributeName
      }
      var value = ""
      var child = a.pointee.children
      while let c = child {
        if c.pointee.type == XML_TEXT_NODE, let content = c.pointee.content {
          value += String(cString: content)
        } else if c.pointee.type == XML_ENTITY_REF_NODE,
          let ch = Self.character(entity: c.pointee.name)
        {
          value += ch
        }
        child = c.pointee.next
      }
      out.append((attributeName, value))
      attr = a.pointee.next
    }
    return out
  }

  /// The character an HTML entity name stands for (`nbsp` → U+00A0), nil for other names.
  private static func character(entity name: UnsafePointer<xmlChar>?) -> String? {
    guard let name, let entity = htmlEntityLookup(name),
      let scalar = Unicode.Scalar(entity.pointee.value)
    else { return nil }
    return String(Character(scalar))
  }
}
