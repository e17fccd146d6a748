// Quoting input in messages. A book controls the strings a diagnostic or an error repeats
// (hrefs, `data:` URIs, entry names, selectors): a 1 MB `data:` URI quoted whole in each of
// 21 warnings made 3.8 MB of stderr. Every quote goes through `QuotedInput.elided`, which
// keeps a head and a tail, says how long the original was, and makes control characters
// visible so a message stays one line. `Diagnostic` applies it to its file and message as a
// last line of defence; stages apply it to each quoted piece so the message around it
// survives whole.

/// Bounds on the input a message repeats.
package enum QuotedInput {
  /// Characters of one quoted input a message keeps (issue #9: at most ~200).
  package static let maxQuotedCharacters = 200

  /// `s` when it is short; otherwise its first and last characters around
  /// "…[N characters]…", about `limit` characters in all. Control characters (a newline in
  /// an href) become U+FFFD so a message stays on one line.
  package static func elided(_ s: some StringProtocol, limit: Int = maxQuotedCharacters)
    -> String
  {
    let limit = max(16, limit)
    var count = 0
    var needsCleaning = false
    for c in s.unicodeScalars {
      count += 1
      if c.value < 0x20 || c.value == 0x7F { needsCleaning = true }
      if count > limit && needsCleaning { break }
    }
    if count <= limit && !needsCleaning { return String(s) }
    let scalars = s.unicodeScalars
    let total = count > limit ? scalars.count : count
    func clean(_ part: some Sequence<Unicode.Scalar>) -> String {
      var out = String.UnicodeScalarView()
      for c in part { out.append(c.value < 0x20 || c.value == 0x7F ? "\u{FFFD}" : c) }
      return String(out)
    }
    if total <= limit { return clean(scalars) }
    let head = limit * 2 / 3
    let tail = limit - head - 24
    return clean(scalars.prefix(head)) + "…[\(total) characters]…"
      + clean(scalars.suffix(max(0, tail)))
  }
}
