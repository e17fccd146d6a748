// Addresses in running text — URLs, e-mail addresses, file paths — are not hyphenated: a
// hyphen inserted into `http://example.com/pack-age` or `/usr/share/hy-phen` changes what
// the reader would type. A browser knows nothing of this; typesetters that set technical
// books (TeX's `url` package, InDesign's GREP styles) do it by pattern, and so does this.
//
// A *word* here is a maximal run of scalars without a space or line break. It is an
// address when it contains "://", starts with "www." (after leading punctuation), holds an
// "@" with a "." after it and letters or digits on both sides, has two or more "/" or a
// "\\" between name characters, or starts with "/", "~/" or "./".
// Everything inside such a word is marked; the shape stage skips hyphenation for pieces
// that start in a marked word.
//
// Lazily, word by word: the shape stage asks only about pieces that could be hyphenated (a
// few in ten), in text order, so `contains` reads the word around the piece when it is
// asked and keeps the answer for the next pieces of that word. Linear in the text still
// (each word is read once, for the first piece asking in it). Marking the whole paragraph
// up front read every scalar of the book once more: ~29 M instructions on moby-dick, ~11 M
// read lazily (Benchmarks/paginate-cost.md, session 16).

/// Which scalars of a paragraph belong to an address-like word.
struct AddressSpans {
  private let text: [UInt32]
  private let enabled: Bool
  /// The word last read by `contains`, and whether it is an address.
  private var word = 0..<0
  private var wordIsAddress = false

  /// The address-like words of `text`; none when `enabled` is false (hyphenation off:
  /// nobody asks).
  init(_ text: [UInt32], enabled: Bool) {
    self.text = text
    self.enabled = enabled
  }

  /// Whether scalar `i` is in an address (each call reads `i`'s word).
  subscript(_ i: Int) -> Bool {
    var probe = self
    return probe.contains(i)
  }

  /// Whether scalar `i` is in an address; the word read is kept for the next call.
  mutating func contains(_ i: Int) -> Bool {
    guard enabled, i >= 0, i < text.count else { return false }
    if word.contains(i) { return wordIsAddress }
    if Self.isBreak(text[i]) { return false }
    let (found, address) = text.withUnsafeBufferPointer { t -> (Range<Int>, Bool) in
      var start = i
      while start > 0 && !Self.isBreak(t[start - 1]) { start -= 1 }
      var end = start
      // Most words hold none of the characters an address needs (":/\\@" or a "." after
      // "www"): the scan that finds the word's end also rules those out.
      var candidate = false
      while end < t.count && !Self.isBreak(t[end]) {
        candidate = candidate || Self.mayMarkAddress(t[end])
        end += 1
      }
      return (start..<end, candidate && Self.isAddress(t[start..<end]))
    }
    word = found
    wordIsAddress = address
    return address
  }

  /// ASCII first: a letter of a Latin book costs two comparisons here, not seven.
  @inline(__always) private static func isBreak(_ v: UInt32) -> Bool {
    if v < 0x80 { return v == 0x20 || v == 0x09 }
    return v == 0x2028 || v == 0xA0 || v == 0xFFFC || (0x2000...0x200B).contains(v)
  }

  /// Whether `v` is one of the characters every address form needs: ":" (a scheme), "/" or
  /// "\\" (a path), "@" (an e-mail address) or "." (after "www"). Lowercase letters (past
  /// U+005C) are out at the first comparison.
  @inline(__always) private static func mayMarkAddress(_ v: UInt32) -> Bool {
    v <= 0x5C && (v == 0x2F || v == 0x2E || v == 0x3A || v == 0x40 || v == 0x5C)
  }

  private static func isName(_ v: UInt32) -> Bool {
    (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v)
      || v == 0x5F || v == 0x2D || v >= 0xC0
  }

  /// Whether one word looks like a URL, an e-mail address or a path.
  static func isAddress<Word: RandomAccessCollection<UInt32>>(_ word: Word) -> Bool
  where Word.Index == Int {
    guard
      let from = word.firstIndex(where: { isName($0) || $0 == 0x2F || $0 == 0x2E || $0 == 0x7E })
    else { return false }
    let count = word.endIndex - from
    guard count >= 4 else { return false }
    @inline(__always) func w(_ k: Int) -> UInt32 { word[from + k] }
    var slashes = 0
    var at = -1
    var dotAfterAt = false
    for k in 0..<count {
      switch w(k) {
      case 0x3A:  // "://"
        if k + 2 < count && w(k + 1) == 0x2F && w(k + 2) == 0x2F && k > 0 { return true }
      case 0x2F: slashes += 1
      case 0x5C:  // a backslash between name characters: a Windows path
        if k > 0 && k + 1 < count && (isName(w(k - 1)) || w(k - 1) == 0x3A) && isName(w(k + 1)) {
          return true
        }
      case 0x40: if k > 0 && k + 1 < count && isName(w(k - 1)) && isName(w(k + 1)) { at = k }
      case 0x2E:
        if at >= 0 && k > at + 1 && k + 1 < count && isName(w(k + 1)) { dotAfterAt = true }
      default: break
      }
    }
    if dotAfterAt || slashes >= 2 { return true }
    if (0..<3).allSatisfy({ w($0) | 0x20 == 0x77 }) && w(3) == 0x2E { return true }
    return w(0) == 0x2F || (w(0) == 0x7E || w(0) == 0x2E) && w(1) == 0x2F
  }
}
