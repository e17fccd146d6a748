// Which breaker the reader's options ask for, in one place, so the typesetter does not
// hard-code parameters.

extension LayoutOptions {
  /// The paragraph breaker for body text under these options:
  /// - `.optimal` + `.justify`: Knuth–Plass, tolerance 2, emergency stretch 1.5 em;
  /// - `.optimal` + `.start`: Knuth–Plass ragged (lines at natural width, ratio ≤ 0);
  /// - `.greedy`: first-fit with the 5 % hyphenation threshold (for `.start` the caller
  ///   sets lines at natural width and ignores positive ratios).
  /// With `hyphenate == .off` the breakers ignore flagged penalties (hyphen points, and
  /// soft hyphens if the items mark them flagged).
  package var paragraphBreaker: any ParagraphBreaker {
    let hyphens = hyphenate == .auto
    switch (lineBreaking, align) {
    case (.optimal, .justify):
      var kp = KnuthPlassBreaker(emergencyStretch: 1.5 * fontSize)
      kp.hyphenate = hyphens
      return kp
    case (.optimal, .start):
      var kp = KnuthPlassBreaker.ragged()
      kp.hyphenate = hyphens
      return kp
    case (.greedy, _):
      return GreedyBreaker(hyphenate: hyphens)
    }
  }
}
