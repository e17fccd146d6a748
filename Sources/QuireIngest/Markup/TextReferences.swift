// Non-ASCII text handed to libxml2 as character references, so that its parser stays on its
// fast path (session 17, issue #16).
//
// libxml2 2.9's `xmlParseCharData` copies character data in bulk only while the bytes are
// ASCII; at the first other byte it hands the rest of the text, up to the next `<` or `&`,
// to its general loop, which decodes every character (`xmlCurrentChar`): ~80 instructions a
// character instead of a few. One curly quote early in a paragraph sends the whole paragraph
// that way: in moby-dick 729 K of 1.3 M characters went through it for 7.5 K non-ASCII ones.
// A character reference (`&#x2019;`) is the same character to the parser (it hands the
// scalar's UTF-8 to the same text node, and `TreeConversion` joins adjacent text anyway),
// and the text after it is back on the fast path.
//
// Only where that is certainly so is anything rewritten:
// - character data after the first start tag; never markup, comments, CDATA sections,
//   processing instructions or declarations (the scan knows them as `MarkupBounds`' does,
//   quoted attribute values respected), nor a byte-order mark or the prolog;
// - documents that are UTF-8: no NUL or UTF-16 byte-order mark in the first bytes, no XML
//   declaration naming another encoding, and every rewritten sequence valid UTF-8 (the
//   document is left as it is at an invalid one: libxml2 reports it as it would have);
// - scalars that are XML characters (not U+FFFE or U+FFFF), so that no error moves;
// - while references stay sparse: each costs libxml2 a few hundred instructions, so past
//   one per `maxDensity` bytes (CJK text) the document is left as it is.
// Line breaks are untouched, so line numbers in libxml2's messages stay. The parses that
// follow a failure (flattening, HTML recovery) read the original bytes.

import Foundation

/// Rewrites the non-ASCII characters of a chapter's character data as character references.
enum TextReferences {
  /// At most one reference per this many bytes of the document, else no rewrite.
  static let maxDensity = 8
  /// No rewrite past this many bytes (a reference adds at most 6 to a scalar's UTF-8):
  /// libxml2 2.9 without `XML_PARSE_HUGE` refuses some inputs past 10,000,000 bytes, and a
  /// document under that must not be pushed over it.
  static let maxRewrittenBytes = 9_000_000

  /// The document with its non-ASCII text as references, or nil to parse it as it is (no
  /// such text, not known to be UTF-8, or too much of it).
  static func escapingText(_ data: Data) -> Data? {
    data.withUnsafeBytes { raw -> Data? in
      let b = raw.bindMemory(to: UInt8.self)
      guard isUTF8(b) else { return nil }
      var rewriter = Rewriter(scanner: ByteScanner(b: b))
      return rewriter.run() ? Data(rewriter.out) : nil
    }
  }

  /// Whether the bytes are UTF-8 as far as their start tells: no NUL (UTF-16, UTF-32) or
  /// UTF-16 byte-order mark, and an XML declaration, if any, naming UTF-8 or nothing.
  static func isUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
    if b.prefix(4).contains(0) { return false }
    if b.count >= 2, (b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE) {
      return false
    }
    let scanner = ByteScanner(b: b)
    let bom = b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF
    let start = bom ? 3 : 0
    guard scanner.starts(start, "<?xml") else { return true }
    let end = scanner.skip(past: "?>", from: start + 5)
    let declaration = Array(String(decoding: b[start..<end], as: UTF8.self).lowercased().utf8)
    guard let e = declaration.firstRange(of: Array("encoding".utf8)) else { return true }
    var k = e.upperBound
    func skipSpace() { while k < declaration.count, ByteScanner.isSpace(declaration[k]) { k += 1 } }
    skipSpace()
    guard k < declaration.count, declaration[k] == UInt8(ascii: "=") else { return false }
    k += 1
    skipSpace()
    guard k < declaration.count else { return false }
    let quote = declaration[k]
    let value = declaration[(k + 1)...].prefix { $0 != quote }
    return (quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"))
      && value.elementsEqual("utf-8".utf8)
  }

  /// One pass over the bytes: text is copied in runs, its non-ASCII scalars as references.
  private struct Rewriter {
    let scanner: ByteScanner
    var out: [UInt8] = []
    /// How far the input is copied to `out`.
    var copied = 0
    var references = 0

    init(scanner: ByteScanner) {
      self.scanner = scanner
      out.reserveCapacity(scanner.n + scanner.n / 8)
    }

    /// Rewrites the document into `out`; false when it is to be parsed as it is.
    mutating func run() -> Bool {
      let b = scanner.b
      let n = b.count
      let budget = n / TextReferences.maxDensity
      var inText = false
      var i = 0
      while i < n {
        let c = b[i]
        if c >= 0x80 {
          guard inText else {
            i += 1
            continue
          }
          guard let length = reference(at: i), references <= budget else { return false }
          i += length
        } else if c == UInt8(ascii: "<") {
          let end = markupEnd(i)
          if end.isStartTag { inText = true }
          i = end.index
        } else {
          i = nextSpecial(from: i + 1)
        }
      }
      guard references > 0, n + 6 * references <= TextReferences.maxRewrittenBytes else {
        return false
      }
      out.append(contentsOf: b[copied..<n])
      return true
    }

    /// Writes the reference for the scalar at `i` (copying the text before it); its UTF-8
    /// length, or nil when the bytes there are not valid UTF-8.
    private mutating func reference(at i: Int) -> Int? {
      guard let (scalar, length) = Self.decode(scanner.b, at: i) else { return nil }
      // U+FFFE and U+FFFF are no XML characters: libxml2 rejects them either way, but its
      // message would name a reference.
      if scalar == 0xFFFE || scalar == 0xFFFF { return length }
      out.append(contentsOf: scanner.b[copied..<i])
      copied = i + length
      references += 1
      out.append(UInt8(ascii: "&"))
      out.append(UInt8(ascii: "#"))
      out.append(UInt8(ascii: "x"))
      var shift = 20
      while shift > 0, scalar >> UInt32(shift) == 0 { shift -= 4 }
      while shift >= 0 {
        let digit = UInt8((scalar >> UInt32(shift)) & 0xF)
        out.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10)
        shift -= 4
      }
      out.append(UInt8(ascii: ";"))
      return length
    }

    /// The scalar of the UTF-8 sequence at `i` and its length; nil when the sequence is
    /// not valid (overlong, surrogate, past U+10FFFF, cut short, stray continuation byte).
    static func decode(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
      let lead = b[i]
      let length: Int
      var scalar: UInt32
      switch lead {
      case 0xC2...0xDF: (length, scalar) = (2, UInt32(lead & 0x1F))
      case 0xE0...0xEF: (length, scalar) = (3, UInt32(lead & 0x0F))
      case 0xF0...0xF4: (length, scalar) = (4, UInt32(lead & 0x07))
      default: return nil
      }
      guard i + length <= b.count else { return nil }
      for k in 1..<length {
        let c = b[i + k]
        guard c & 0xC0 == 0x80 else { return nil }
        scalar = scalar << 6 | UInt32(c & 0x3F)
      }
      let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
      guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
        return nil
      }
      return (scalar, length)
    }

    /// Just past the markup that starts at the `<` at `i`, and whether it is a start tag.
    private func markupEnd(_ i: Int) -> (index: Int, isStartTag: Bool) {
      let s = scanner
      if s.starts(i, "<!--") { return (s.skip(past: "-->", from: i + 4), false) }
      if s.starts(i, "<![CDATA[") { return (s.skip(past: "]]>", from: i + 9), false) }
      if s.starts(i, "<?") { return (s.skip(past: "?>", from: i + 2), false) }
      if s.starts(i, "<!") { return (s.declarationEnd(from: i + 2), false) }
      if s.starts(i, "</") { return (s.tagEnd(from: i + 2), false) }
      return (min(s.n, s.closingBracket(from: i + 1, declaration: false) + 1), true)
    }

    /// The first `<` or non-ASCII byte at or after `i`, else the end. Eight bytes a step,
    /// as `ByteScanner.nextOpenBracket`: a word holds a non-ASCII byte when its high bits
    /// are not all clear, a `<` when its XOR with `<<<<<<<<` has a zero byte.
    private func nextSpecial(from i: Int) -> Int {
      let b = scanner.b
      let n = b.count
      var j = i
      if let base = b.baseAddress {
        let raw = UnsafeRawPointer(base)
        while j + 8 <= n {
          let w = raw.loadUnaligned(fromByteOffset: j, as: UInt64.self)
          let x = w ^ 0x3C3C_3C3C_3C3C_3C3C
          let bracket = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
          if (w & 0x8080_8080_8080_8080) | bracket != 0 { break }
          j += 8
        }
      }
      while j < n, b[j] < 0x80, b[j] != UInt8(ascii: "<") { j += 1 }
      return j
    }
  }
}
