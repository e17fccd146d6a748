// Line breaking: design notes for Sources/QuireTypeset/Breaking/.
//
// Units: every width is in pixels (Double), exactly what the shaper measured; the breakers
// never round. A paragraph arrives as `BreakItem`s (boxes, glue, penalties — Knuth & Plass
// 1981) and leaves as `LineBreak`s: the index of the item each line ends at and the glue
// adjustment ratio r of that line (glue width w + r·stretch when r > 0, w + r·shrink when
// r < 0). Line k's width comes from a closure so first-line indents, hanging indents and
// floats work without another model.
//
// Two breakers share one contract (`ParagraphBreaker`): `GreedyBreaker`, first-fit in
// O(n), the crengine baseline (hyphenate only when the line would otherwise be more than
// 5 % short), and `KnuthPlassBreaker`, total-fit with demerits. Rejected alternative:
// running Knuth–Plass only and deriving greedy by tolerance=∞ — greedy must be a cheap,
// predictable fallback that never fails, and KP's own last resort calls it.

/// First-fit line breaking. Each line takes as much material as fits when its glue is
/// shrunk fully; the break is the last legal break that fits. When that break leaves the
/// line more than `hyphenationThreshold` (5 %) short of its width at natural spacing, a
/// fitting flagged penalty (hyphen point) in the next word is taken instead. A box wider
/// than the line gets a line of its own (overfull, ratio −1 or 0 if it cannot shrink).
/// Forced penalties always end a line; an empty paragraph yields no breaks.
///
/// Ratios: justified lines report (L − w)/stretch (or /shrink), never below −1; the last
/// line and lines ending at a forced break report ≤ 0 (natural unless they must shrink).
/// Lines with nothing to stretch report 0.
package struct GreedyBreaker: ParagraphBreaker {
  /// Fraction of the line width a line may be short before a hyphen is tried (0.05).
  package var hyphenationThreshold: Double
  /// Whether flagged penalties are used at all.
  package var hyphenate: Bool

  package init(hyphenationThreshold: Double = 0.05, hyphenate: Bool = true) {
    self.hyphenationThreshold = hyphenationThreshold
    self.hyphenate = hyphenate
  }

  package func breakLines(_ items: [BreakItem], lineWidth: (Int) -> Double) -> [LineBreak] {
    GreedyBreaker.run(
      ParagraphSums(items), lineWidth: lineWidth, threshold: hyphenationThreshold,
      hyphenate: hyphenate)
  }

  static func run(
    _ sums: ParagraphSums, lineWidth: (Int) -> Double, threshold: Double, hyphenate: Bool,
    firstLine: Int = 0, from firstStart: Int = 0
  ) -> [LineBreak] {
    let n = sums.count
    var breaks: [LineBreak] = []
    var start = firstStart
    while start < n {
      let target = ParagraphSums.size(lineWidth(firstLine + breaks.count))
      var lastFit: Int? = nil
      var lastFitWidth = 0.0
      var flaggedFit: Int? = nil
      var chosen = n - 1
      var i = start
      while i < n {
        defer { i += 1 }
        guard sums.isLegalBreak(i) else { continue }
        let flagged = sums.isFlagged(i)
        if flagged && !hyphenate && !sums.endsParagraphOrForced(i) { continue }
        let m = sums.line(from: start, to: i)
        let fits = m.width - m.shrink <= target + 1e-9
        if fits && sums.endsParagraphOrForced(i) {
          chosen = i
          break
        }
        if fits {
          if flagged {
            flaggedFit = i
          } else {
            lastFit = i
            lastFitWidth = m.width
            flaggedFit = nil
          }
          continue
        }
        // Overflow at i: choose among what fitted.
        if let g = lastFit {
          if let h = flaggedFit, lastFitWidth < target * (1 - threshold) {
            chosen = h
          } else {
            chosen = g
          }
        } else if let h = flaggedFit {
          chosen = h
        } else {
          chosen = i  // overfull: nothing fits, the material up to here gets its own line
        }
        break
      }
      let m = sums.line(from: start, to: chosen)
      breaks.append(
        LineBreak(
          index: chosen,
          ratio: m.reportedRatio(target, natural: sums.endsParagraphOrForced(chosen)),
          hyphenated: sums.isFlagged(chosen)))
      start = sums.nextStart(chosen)
    }
    return breaks
  }
}
