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
// that start in a marked word. One pass over the text, linear in its length.

/// Which scalars of a paragraph belong to an address-like word.
struct AddressSpans {
  private var marked: [Bool]

  /// Marks the address-like words of `text`; nothing when `enabled` is false (hyphenation
  /// off: nobody asks).
  init(_ text: [UInt32], enabled: Bool) {
    guard enabled else {
      marked = []
      return
    }
    marked = [Bool](repeating: false, count: text.count)
    var start = 0
    let n = text.count
    while start < n {
      while start < n && Self.isBreak(text[start]) { start += 1 }
      var end = start
      while end < n && !Self.isBreak(text[end]) { end += 1 }
      if end > start && Self.isAddress(text[start..<end]) {
        for k in start..<end { marked[k] = true }
      }
      start = end
    }
  }

  /// Whether scalar `i` is in an address.
  subscript(_ i: Int) -> Bool { i < marked.count && marked[i] }

  private static func isBreak(_ v: UInt32) -> Bool {
    v == 0x20 || v == 0x2028 || v == 0x09 || v == 0xA0 || v == 0xFFFC
      || (0x2000...0x200B).contains(v)
  }

  private static func isName(_ v: UInt32) -> Bool {
    (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v)
      || v == 0x5F || v == 0x2D || v >= 0xC0
  }

  /// Whether one word looks like a URL, an e-mail address or a path.
  static func isAddress(_ word: ArraySlice<UInt32>) -> Bool {
    let w = Array(word.drop { !isName($0) && $0 != 0x2F && $0 != 0x2E && $0 != 0x7E })
    guard w.count >= 4 else { return false }
    var slashes = 0
    var at = -1
    var dotAfterAt = false
    for (k, v) in w.enumerated() {
      switch v {
      case 0x3A:  // "://"
        if k + 2 < w.count && w[k + 1] == 0x2F && w[k + 2] == 0x2F && k > 0 { return true }
      case 0x2F: slashes += 1
      case 0x5C:  // a backslash between name characters: a Windows path
        if k > 0 && k + 1 < w.count && (isName(w[k - 1]) || w[k - 1] == 0x3A) && isName(w[k + 1]) {
          return true
        }
      case 0x40: if k > 0 && k + 1 < w.count && isName(w[k - 1]) && isName(w[k + 1]) { at = k }
      case 0x2E:
        if at >= 0 && k > at + 1 && k + 1 < w.count && isName(w[k + 1]) { dotAfterAt = true }
      default: break
      }
    }
    if dotAfterAt || slashes >= 2 { return true }
    if w.prefix(3).allSatisfy({ $0 | 0x20 == 0x77 }) && w[3] == 0x2E { return true }
    return w[0] == 0x2F || (w[0] == 0x7E || w[0] == 0x2E) && w[1] == 0x2F
  }
}
