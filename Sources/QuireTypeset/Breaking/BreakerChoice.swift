// Which breaker the reader's options ask for, in one place, so the typesetter does not
// hard-code parameters.

extension LayoutOptions {
  /// The paragraph breaker for body text under these options:
  /// - `.optimal` + `.justify`: Knuth–Plass, tolerance 2, emergency stretch 1.5 em;
  /// - `.optimal` + `.start`: Knuth–Plass ragged (lines at natural width, ratio ≤ 0);
  /// - `.greedy`: first-fit with the 5 % hyphenation threshold (for `.start` the caller
  ///   sets lines at natural width and ignores positive ratios).
  /// Hyphenation is decided by the items (flagged penalties only when `hyphenate == .auto`
  /// and a dictionary exists); the breakers use whatever hyphen points they are given.
  public var paragraphBreaker: any ParagraphBreaker {
    switch (lineBreaking, align) {
    case (.optimal, .justify):
      return KnuthPlassBreaker(emergencyStretch: 1.5 * fontSize)
    case (.optimal, .start):
      return KnuthPlassBreaker.ragged()
    case (.greedy, _):
      return GreedyBreaker()
    }
  }
}
