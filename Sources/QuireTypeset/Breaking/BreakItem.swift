// The paragraph model shared by every line breaker (Knuth & Plass 1981): a paragraph is a
// sequence of boxes (unbreakable material), glue (stretchable space, a break point when it
// follows a box) and penalties (optional break points with a cost; "flagged" ones are
// hyphens, whose consecutive use costs extra). Widths in pixels.

public enum BreakItem: Sendable, Hashable {
  case box(width: Double)
  case glue(width: Double, stretch: Double, shrink: Double)
  /// `cost` ≥ `BreakItem.forcedBreak` forces a break; ≤ −forcedBreak forbids one.
  case penalty(width: Double, cost: Double, flagged: Bool)

  public static let forcedBreak: Double = 10_000
}

/// A chosen break: the line ends at item `index` (a glue or a penalty, or the last item).
public struct LineBreak: Sendable, Hashable {
  public var index: Int
  /// Adjustment ratio of the line that ends here: 0 natural, + stretched, − shrunk.
  public var ratio: Double
  /// The line ends at a flagged penalty (a hyphen is shown).
  public var hyphenated: Bool
  public init(index: Int, ratio: Double, hyphenated: Bool) {
    self.index = index
    self.ratio = ratio
    self.hyphenated = hyphenated
  }
}

/// Chooses line breaks for a paragraph. `lineWidth(k)` gives the width available to line k
/// (0-based), so first-line indents and shaped paragraphs are allowed.
public protocol ParagraphBreaker: Sendable {
  func breakLines(_ items: [BreakItem], lineWidth: (Int) -> Double) -> [LineBreak]
}
