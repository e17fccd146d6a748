// Bounds on a chapter's markup, enforced on the raw bytes before libxml2 sees them.
//
// libxml2 builds its whole tree before we convert it, at a few hundred bytes per node, and
// checks duplicate attributes pairwise (quadratic in the attributes of one start tag). So
// the caps cannot wait for the converted tree: `MarkupBounds.apply` is one linear pass over
// the bytes that counts start tags, text bytes and the attributes of each start tag, and
// rewrites the document only when a cap is hit:
// - attributes past `IngestLimits.maxAttributesPerElement` in one start tag are cut out of
//   the bytes (one warning per chapter), so libxml2's check stays bounded;
// - at the start tag that would exceed `maxChapterElements`, or the text byte that would
//   exceed `maxChapterTextBytes`, the chapter is truncated and closed (an end tag for every
//   element still open, so well-formed XML stays well-formed), with one warning.
// A chapter is truncated, not refused: a reader gets its first part. The per-book caps
// (`maxBookElements`, `maxBookTextBytes`) are a data error instead (`BookBudget`): a book
// that large is hostile or far beyond any real one.
//
// The scanner knows comments, CDATA sections (their bytes count as text), processing
// instructions, declarations with an internal subset, quoted attribute values and
// self-closing tags. It never moves back (text is searched for `<` a word at a time, then
// in the word that holds one), so documents of any shape cost time linear in their size;
// documents under the caps are handed on unchanged (the same `Data`).

import Foundation

/// What `MarkupBounds.apply` found and did.
struct MarkupBounds {
  /// The bytes to parse: the input itself when no cap was hit.
  var data: Data
  /// Start tags (elements) and text bytes kept.
  var elements = 0
  var textBytes = 0
  /// Attributes cut out of start tags past the per-element cap.
  var droppedAttributes = 0
  /// Which chapter cap truncated the document, if one did.
  var truncatedBy: IngestLimit? = nil

  /// One line per cap hit, for the chapter's diagnostics.
  func warnings(_ limits: IngestLimits) -> [String] {
    var out: [String] = []
    if droppedAttributes > 0 {
      out.append(
        "\(droppedAttributes) attributes past \(IngestLimit.attributesPerElement)="
          + "\(limits.maxAttributesPerElement) on one element were ignored")
    }
    switch truncatedBy {
    case .chapterElements?:
      out.append(
        "chapter truncated after \(elements) elements (\(IngestLimit.chapterElements)="
          + "\(limits.maxChapterElements))")
    case .chapterTextBytes?:
      out.append(
        "chapter truncated after \(textBytes) bytes of text (\(IngestLimit.chapterTextBytes)="
          + "\(limits.maxChapterTextBytes))")
    default: break
    }
    return out
  }

  /// HTML elements that never have an end tag; not tracked as open.
  private static let voidElements: Set<String> = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr",
  ]
  /// Open elements tracked for closing a truncated document; deeper ones are not (libxml2
  /// refuses such depth anyway and the flattening path takes over).
  private static let maxTrackedDepth = 4_096
  /// How far down the open-element stack an end tag looks for its start tag; a mismatched
  /// end tag is ignored past it (keeps end tags O(1) on hostile nesting).
  private static let endTagSearch = 16

  /// Scans `input` once and applies the chapter caps of `limits`.
  static func apply(_ input: Data, limits: IngestLimits) -> MarkupBounds {
    var result = MarkupBounds(data: input)
    let maxAttributes = max(1, limits.maxAttributesPerElement)
    // Bytes are copied to `out` only once a change is needed; `copied` is how far `b` is in.
    var out: [UInt8]? = nil
    var copied = 0
    var open: [Range<Int>] = []
    var truncateAt: Int? = nil
    input.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      let b = raw.bindMemory(to: UInt8.self)
      let n = b.count
      let scanner = ByteScanner(b: b)

      func cut(_ from: Int, _ to: Int) {
        if out == nil { out = [] }
        out!.append(contentsOf: b[copied..<from])
        copied = to
      }

      var i = 0
      while i < n {
        if b[i] != UInt8(ascii: "<") || !scanner.isMarkup(i) {
          // Text up to the next markup.
          var j = scanner.nextOpenBracket(from: i + 1)
          while j < n, !scanner.isMarkup(j) { j = scanner.nextOpenBracket(from: j + 1) }
          if result.textBytes + (j - i) > limits.maxChapterTextBytes {
            let keep = scanner.safeTextCut(
              from: i, upTo: i + limits.maxChapterTextBytes - result.textBytes)
            result.textBytes += keep - i
            result.truncatedBy = .chapterTextBytes
            truncateAt = keep
            return
          }
          result.textBytes += j - i
          i = j
          continue
        }
        let next = b[i + 1]
        if scanner.starts(i, "<!--") {
          i = scanner.skip(past: "-->", from: i + 4)
        } else if scanner.starts(i, "<![CDATA[") {
          let end = scanner.skip(past: "]]>", from: i + 9)
          result.textBytes += end - i
          if result.textBytes > limits.maxChapterTextBytes {
            result.textBytes -= end - i
            result.truncatedBy = .chapterTextBytes
            truncateAt = i
            return
          }
          i = end
        } else if next == UInt8(ascii: "?") {
          i = scanner.skip(past: "?>", from: i + 2)
        } else if next == UInt8(ascii: "!") {
          i = scanner.declarationEnd(from: i + 2)
        } else if next == UInt8(ascii: "/") {
          let name = scanner.name(from: i + 2)
          let lowest = max(0, open.count - endTagSearch)
          if let k = open[lowest...].lastIndex(where: { b[$0].elementsEqual(name) }) {
            open.removeSubrange(k...)
          }
          i = scanner.tagEnd(from: i + 2)
        } else {
          if result.elements >= limits.maxChapterElements {
            result.truncatedBy = .chapterElements
            truncateAt = i
            return
          }
          result.elements += 1
          let tag = scanner.startTag(from: i + 1, keep: maxAttributes)
          if let drop = tag.dropped {
            cut(drop.lowerBound, drop.upperBound)
            result.droppedAttributes += tag.droppedCount
          }
          let name = (i + 1)..<tag.nameEnd
          if !tag.selfClosing, open.count < maxTrackedDepth,
            name.count > 6
              || !voidElements.contains(String(decoding: b[name], as: UTF8.self).lowercased())
          {
            open.append(name)
          }
          i = tag.end
        }
      }
    }
    guard out != nil || truncateAt != nil else { return result }
    var bytes = out ?? []
    input.withUnsafeBytes { raw in
      let b = raw.bindMemory(to: UInt8.self)
      bytes.append(contentsOf: b[copied..<(truncateAt ?? b.count)])
      if truncateAt != nil {
        for name in open.reversed() {
          bytes.append(contentsOf: Array("</".utf8))
          bytes.append(contentsOf: b[name])
          bytes.append(UInt8(ascii: ">"))
        }
      }
    }
    result.data = Data(bytes)
    return result
  }
}

/// Byte-level helpers of the markup scans (the caps here, the nesting flattener in
/// MarkupParser); every one moves forward only.
struct ByteScanner {
  let b: UnsafeBufferPointer<UInt8>
  var n: Int { b.count }

  func starts(_ i: Int, _ s: StaticString) -> Bool {
    let count = s.utf8CodeUnitCount
    guard i + count <= n else { return false }
    let p = s.utf8Start
    for k in 0..<count where b[i + k] != p[k] { return false }
    return true
  }

  /// A `<` that opens markup: a name, `/`, `!` or `?` follows (HTML treats `a < b` as text).
  func isMarkup(_ i: Int) -> Bool {
    guard i + 1 < n else { return false }
    let c = b[i + 1]
    return c == UInt8(ascii: "/") || c == UInt8(ascii: "!") || c == UInt8(ascii: "?")
      || Self.isNameStart(c)
  }

  /// The first `<` at or after `i`, else `n`. Eight bytes a step: text is most of a
  /// chapter's bytes, and a scan byte by byte cost ~8 instructions a byte. A word holds a
  /// `<` exactly when its XOR with `<<<<<<<<` has a zero byte (the has-zero-byte test is
  /// exact about whether there is one); the byte loop then finds which.
  func nextOpenBracket(from i: Int) -> Int {
    var j = i
    if let base = b.baseAddress {
      let raw = UnsafeRawPointer(base)
      while j + 8 <= n {
        let w = raw.loadUnaligned(fromByteOffset: j, as: UInt64.self) ^ 0x3C3C_3C3C_3C3C_3C3C
        if (w &- 0x0101_0101_0101_0101) & ~w & 0x8080_8080_8080_8080 != 0 { break }
        j += 8
      }
    }
    while j < n, b[j] != UInt8(ascii: "<") { j += 1 }
    return j
  }

  static func isNameStart(_ c: UInt8) -> Bool {
    (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z")) || c == UInt8(ascii: "_")
      || c == UInt8(ascii: ":") || c >= 0x80
  }

  static func isSpace(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C
  }

  /// The index just past the first `terminator` at or after `from` (or `n`).
  func skip(past terminator: StaticString, from: Int) -> Int {
    let first = terminator.utf8Start[0]
    var j = from
    while j < n {
      if b[j] == first && starts(j, terminator) { return j + terminator.utf8CodeUnitCount }
      j += 1
    }
    return n
  }

  /// Just past the `>` closing a declaration (`<!DOCTYPE … [ … ]>`), quotes respected.
  func declarationEnd(from: Int) -> Int {
    min(n, closingBracket(from: from, declaration: true) + 1)
  }

  /// Index of the `>` that closes a tag or declaration (`n` when none), skipping quoted
  /// values and, in a declaration, a bracketed internal subset.
  func closingBracket(from: Int, declaration: Bool) -> Int {
    var j = from
    var bracket = 0
    var quote: UInt8? = nil
    while j < n {
      let c = b[j]
      if let q = quote {
        if c == q { quote = nil }
      } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
        quote = c
      } else if declaration && c == UInt8(ascii: "[") {
        bracket += 1
      } else if declaration && c == UInt8(ascii: "]") {
        bracket -= 1
      } else if c == UInt8(ascii: ">") && bracket <= 0 {
        return j
      }
      j += 1
    }
    return n
  }

  /// The name starting at `from`: up to white space, `/`, `>` or `=`.
  func name(from: Int) -> Slice<UnsafeBufferPointer<UInt8>> {
    var j = from
    while j < n, !Self.isSpace(b[j]), b[j] != UInt8(ascii: ">"), b[j] != UInt8(ascii: "/"),
      b[j] != UInt8(ascii: "=")
    {
      j += 1
    }
    return b[from..<j]
  }

  /// Just past the `>` of an end tag (quotes respected, as libxml2 would not need).
  func tagEnd(from: Int) -> Int {
    var j = from
    while j < n, b[j] != UInt8(ascii: ">") { j += 1 }
    return min(n, j + 1)
  }

  struct StartTag {
    var nameEnd: Int
    /// Just past the closing `>` (or `n`).
    var end: Int
    var selfClosing: Bool
    /// The byte range holding the attributes past the cap, if any.
    var dropped: Range<Int>?
    var droppedCount: Int
  }

  /// Reads a start tag whose name starts at `from`, counting its attributes; those past
  /// `keep` form one byte range to cut.
  func startTag(from: Int, keep: Int) -> StartTag {
    let nameEnd = from + name(from: from).count
    var j = nameEnd
    var count = 0
    var dropStart: Int? = nil
    var tag = StartTag(nameEnd: nameEnd, end: n, selfClosing: false, dropped: nil, droppedCount: 0)
    while j < n {
      let c = b[j]
      if Self.isSpace(c) {
        j += 1
        continue
      }
      if c == UInt8(ascii: ">") {
        tag.end = j + 1
        tag.selfClosing = j > nameEnd && b[j - 1] == UInt8(ascii: "/")
        break
      }
      if c == UInt8(ascii: "/") {
        j += 1
        continue
      }
      // An attribute: name [= value].
      let attributeStart = j
      count += 1
      if count == keep + 1 { dropStart = attributeStart }
      j += max(1, name(from: j).count)
      var k = j
      while k < n, Self.isSpace(b[k]) { k += 1 }
      if k < n, b[k] == UInt8(ascii: "=") {
        k += 1
        while k < n, Self.isSpace(b[k]) { k += 1 }
        if k < n, b[k] == UInt8(ascii: "\"") || b[k] == UInt8(ascii: "'") {
          let q = b[k]
          k += 1
          while k < n, b[k] != q { k += 1 }
          j = min(n, k + 1)
        } else {
          while k < n, !Self.isSpace(b[k]), b[k] != UInt8(ascii: ">") { k += 1 }
          j = k
        }
      }
    }
    if let s = dropStart {
      // Cut up to the `/>` or `>` (or the end), keeping the tag's close.
      var e = tag.end == n ? n : tag.end - 1
      if tag.selfClosing { e -= 1 }
      tag.dropped = s..<max(s, e)
      tag.droppedCount = count - keep
    }
    return tag
  }

  /// Where to cut text at or before `limit` so that no UTF-8 sequence or entity reference
  /// (`&amp;`) is split.
  func safeTextCut(from: Int, upTo limit: Int) -> Int {
    var j = max(from, min(limit, n))
    while j > from, j < n, b[j] & 0xC0 == 0x80 { j -= 1 }
    // An `&` in the last 32 bytes without its `;` starts a reference that would be cut.
    var k = j - 1
    while k >= max(from, j - 32) {
      if b[k] == UInt8(ascii: ";") { break }
      if b[k] == UInt8(ascii: "&") { return k }
      k -= 1
    }
    return j
  }
}
