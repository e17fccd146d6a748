// Stage 4 of inline layout, **break**: the shape stage's items → line breaks, through the
// `ParagraphBreaker` the options name (Knuth–Plass or greedy), or greedy without hyphens for
// text that must not wrap (its items carry no stretch and no breaks but forced ones). The
// first line may be shorter (a text indent); every other line has the full measure.

/// Chooses the breaks of one paragraph.
struct InlineBreaking {
  var breaker: any ParagraphBreaker
  /// The first line's measure and every other line's, px.
  var firstWidth: Double
  var width: Double

  /// `breaker`, or a greedy one for text that does not wrap.
  init(breaker: any ParagraphBreaker, noWrap: Bool, firstWidth: Double, width: Double) {
    self.breaker = noWrap ? GreedyBreaker(hyphenate: false) : breaker
    self.firstWidth = firstWidth
    self.width = width
  }

  func lines(_ items: [BreakItem]) -> [LineBreak] {
    let firstWidth = firstWidth
    let width = width
    return breaker.breakLines(items) { k in k == 0 ? firstWidth : width }
  }
}
