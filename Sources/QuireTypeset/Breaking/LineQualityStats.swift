// Typographic quality counters: how loose the justified lines are, how often words are
// hyphenated and in runs, widows/orphans, and kinsoku violations. They accumulate from
// break items (`addParagraph`, the breakers' tests), from split pages (`addPages`), or from
// a laid-out book's line boxes (`addLaidOut`, what `quire paginate --stats` reports through
// the Quire module's `QualityReport`, a Codable view of these counters). Pure
// accumulation; merging two stats adds them.

/// Accumulated line-breaking quality over paragraphs, pages or a whole book.
package struct LineQualityStats: Sendable, Hashable, Codable {
  /// Upper edges of the ratio histogram buckets: bucket k counts ratios r with
  /// edge[k−1] < r ≤ edge[k] (bucket 0: r ≤ −0.5; the last: r > 3).
  package static let ratioBucketEdges: [Double] = [-0.5, 0, 0.5, 1, 1.5, 2, 3]

  /// All lines added.
  package private(set) var lines = 0
  /// Lines that end a paragraph or at a forced break (not justified).
  package private(set) var lastLines = 0
  package private(set) var paragraphs = 0
  package private(set) var hyphenatedLines = 0
  /// Ratio histogram of justified (non-last) lines; see `ratioBucketEdges`.
  package private(set) var ratioHistogram = [Int](repeating: 0, count: 8)
  /// Justified lines whose widest word space exceeds 1.5× / 2× its natural width.
  package private(set) var linesWithSpacesOver150 = 0
  package private(set) var linesWithSpacesOver200 = 0
  /// hyphenRuns[k] = number of maximal runs of k+1 consecutive hyphenated lines (the last
  /// bucket collects 10 or more).
  package private(set) var hyphenRuns = [Int](repeating: 0, count: 10)
  package private(set) var widows = 0
  package private(set) var orphans = 0
  package private(set) var kinsokuViolations = 0
  /// Lines whose word spacing is judged: not the last of a paragraph (from break items), or
  /// laid-out text lines with word spaces that are not the last of their block.
  package private(set) var justifiedLines = 0
  /// Ratio histogram of judged lines in quarter steps: key k counts ratios r with
  /// k/4 ≤ r < (k+1)/4, r clamped to −1…3 (keys −4…12).
  package private(set) var ratioQuarters: [Int: Int] = [:]
  /// Pages added by `addLaidOut`, and those (not the last) whose last text line ends with
  /// an inserted hyphen.
  package private(set) var pages = 0
  package private(set) var hyphenatedPageEnds = 0

  private var currentRun = 0
  private var longestRun = 0

  package init() {}

  /// Share of lines that end hyphenated (0 when empty).
  package var hyphenatedShare: Double { lines == 0 ? 0 : Double(hyphenatedLines) / Double(lines) }
  /// Longest run of consecutive hyphenated lines.
  package var longestHyphenRun: Int { longestRun }

  /// Adds one line. `spaceStretchFactor` is stretch/width of the line's widest-growing
  /// glue, so a word space is set at natural × (1 + ratio × factor) when ratio > 0.
  /// `isLast`: the line ends its paragraph or a forced break (excluded from spacing stats).
  package mutating func addLine(
    ratio: Double, hyphenated: Bool, spaceStretchFactor: Double, isLast: Bool
  ) {
    lines += 1
    if hyphenated {
      hyphenatedLines += 1
      currentRun += 1
    } else {
      endHyphenRun()
    }
    if isLast {
      lastLines += 1
      return
    }
    addSpacing(ratio: ratio, factor: ratio > 0 ? 1 + ratio * spaceStretchFactor : 1)
  }

  /// A judged line: its ratio and its word spaces' width over their natural width.
  private mutating func addSpacing(ratio: Double, factor: Double) {
    justifiedLines += 1
    let bucket =
      LineQualityStats.ratioBucketEdges.firstIndex { ratio <= $0 }
      ?? LineQualityStats.ratioBucketEdges.count
    ratioHistogram[bucket] += 1
    let quarter = Int(max(-4, min(12, (ratio * 4).rounded(.down))))
    ratioQuarters[quarter, default: 0] += 1
    if factor > 1.5 + 1e-12 { linesWithSpacesOver150 += 1 }
    if factor > 2 + 1e-12 { linesWithSpacesOver200 += 1 }
  }

  private mutating func endHyphenRun() {
    if currentRun > 0 { hyphenRuns[min(currentRun, hyphenRuns.count) - 1] += 1 }
    longestRun = max(longestRun, currentRun)
    currentRun = 0
  }

  /// Adds a broken paragraph: each line's ratio and hyphen flag, the spacing factor from
  /// the glue actually on the line, last lines as those ending at a forced break or the
  /// paragraph's end.
  package mutating func addParagraph(_ breaks: [LineBreak], items: [BreakItem]) {
    paragraphs += 1
    let ranges = LineBreak.lineRanges(breaks, in: items)
    for (range, b) in zip(ranges, breaks) {
      var factor = 0.0
      for i in range {
        if case .glue(let w, let y, _) = items[i], w > 0, y < BreakItem.fil {
          factor = max(factor, y / w)
        }
      }
      let last = b.index == items.count - 1 || items[b.index].isForcedBreak
      addLine(ratio: b.ratio, hyphenated: b.hyphenated, spaceStretchFactor: factor, isLast: last)
    }
    endHyphenRun()
  }

  /// Counts kinsoku violations at a line's edges: a first character that may not start a
  /// line, or a last character that may not end one.
  package mutating func addLineEdges(first: Unicode.Scalar?, last: Unicode.Scalar?) {
    if let first, !Kinsoku.mayStartLine(first) { kinsokuViolations += 1 }
    if let last, !Kinsoku.mayEndLine(last) { kinsokuViolations += 1 }
  }

  /// Counts widows (a page starting with the single last line of a multi-line block) and
  /// orphans (a page ending with the single first line of one) in split pages.
  package mutating func addPages(_ pages: [Range<Int>], lines: [SplitLine]) {
    func sameBlock(_ i: Int, _ j: Int) -> Bool {
      i >= 0 && j >= 0 && i < lines.count && j < lines.count && lines[i].block != nil
        && lines[i].block == lines[j].block
    }
    for page in pages where !page.isEmpty {
      let first = page.lowerBound
      if sameBlock(first - 1, first) && !sameBlock(first, first + 1) { widows += 1 }
      let last = page.upperBound - 1
      if sameBlock(last, last + 1) && !sameBlock(last - 1, last) { orphans += 1 }
    }
  }

  /// Adds another accumulation (e.g. per chapter into per book).
  package mutating func merge(_ other: LineQualityStats) {
    endHyphenRun()
    lines += other.lines
    lastLines += other.lastLines
    paragraphs += other.paragraphs
    hyphenatedLines += other.hyphenatedLines
    for k in ratioHistogram.indices { ratioHistogram[k] += other.ratioHistogram[k] }
    linesWithSpacesOver150 += other.linesWithSpacesOver150
    linesWithSpacesOver200 += other.linesWithSpacesOver200
    for k in hyphenRuns.indices { hyphenRuns[k] += other.hyphenRuns[k] }
    if other.currentRun > 0 { hyphenRuns[min(other.currentRun, hyphenRuns.count) - 1] += 1 }
    longestRun = max(longestRun, other.longestRun, other.currentRun)
    justifiedLines += other.justifiedLines
    for (k, v) in other.ratioQuarters { ratioQuarters[k, default: 0] += v }
    pages += other.pages
    hyphenatedPageEnds += other.hyphenatedPageEnds
    widows += other.widows
    orphans += other.orphans
    kinsokuViolations += other.kinsokuViolations
  }

  /// Adds a laid-out book's text lines (folios and other roles are left out). Word-space
  /// widths are the typesetter's `LineBox.spaceFactor`; without it they follow from the
  /// ratio and the word-space glue's proportions (stretch 1/2, shrink 1/3 of the space).
  /// Judged lines are text lines with word spaces that are not their block's last (those
  /// are set ragged by design), with a ratio or under justification (`justify`); CJK lines
  /// justify between characters and are left out. Hyphen runs count across paragraphs.
  package mutating func addLaidOut(_ book: [Page], justify: Bool) {
    let pageLines = book.map { $0.lines.filter { $0.role == .text } }
    let all = pageLines.flatMap { $0 }
    pages += book.count
    for (i, line) in all.enumerated() {
      lines += 1
      if line.hyphenated {
        hyphenatedLines += 1
        currentRun += 1
      } else {
        endHyphenRun()
      }
      let lastOfBlock = i + 1 == all.count || all[i + 1].block != line.block
      guard !lastOfBlock, line.ratio != 0 || justify, line.text.contains(" ") else { continue }
      let factor =
        line.spaceFactor ?? (line.ratio > 0 ? 1 + line.ratio * 0.5 : 1 + line.ratio * (1.0 / 3))
      addSpacing(ratio: line.ratio, factor: factor)
    }
    endHyphenRun()
    addPageEdges(pageLines)
    addKinsokuEdges(all)
  }

  /// Widows (a page opens with the last line of a paragraph begun on an earlier page),
  /// orphans (a page ends with the first line of a paragraph that goes on to the next) and
  /// pages ending with a hyphen, from each page's text lines.
  private mutating func addPageEdges(_ pageLines: [[LineBox]]) {
    for k in 1..<max(1, pageLines.count) {
      let prev = pageLines[k - 1]
      let cur = pageLines[k]
      guard let last = prev.last, let first = cur.first, last.block == first.block else { continue }
      if cur.count == 1 || cur[1].block != first.block { widows += 1 }
      if prev.count == 1 || prev[prev.count - 2].block != last.block { orphans += 1 }
    }
    hyphenatedPageEnds += pageLines.dropLast().filter { $0.last?.hyphenated == true }.count
  }

  /// Kinsoku judges line breaks inside a paragraph: a line that continues its block may not
  /// start with a forbidden character, and one that its block continues may not end with
  /// one, where the character or its neighbour across the break is CJK (Latin text may
  /// start a line with a quote). A block's own first or last character is not a break.
  private mutating func addKinsokuEdges(_ all: [LineBox]) {
    for i in all.indices {
      let l = all[i].text.unicodeScalars
      // The rules every `line-break` keeps (`normal`, the default, lets small kana start).
      if i > 0, all[i - 1].block == all[i].block, let f = l.first,
        !Kinsoku.mayStartLine(f, strict: false),
        Kinsoku.isCJK(f) || all[i - 1].text.unicodeScalars.last.map(Kinsoku.isCJK) == true
      {
        kinsokuViolations += 1
      }
      if i + 1 < all.count, all[i + 1].block == all[i].block, let e = l.last,
        !Kinsoku.mayEndLine(e),
        Kinsoku.isCJK(e) || all[i + 1].text.unicodeScalars.first.map(Kinsoku.isCJK) == true
      {
        kinsokuViolations += 1
      }
    }
  }

  /// A readable multi-line report.
  package var summary: String {
    let justified = lines - lastLines
    func pct(_ x: Int, _ of: Int) -> String {
      of == 0 ? "0.0%" : String(Double(Int((Double(x) / Double(of) * 1000).rounded())) / 10) + "%"
    }
    var labels: [String] = []
    var lower = "-1"
    for e in LineQualityStats.ratioBucketEdges {
      labels.append("(\(lower),\(e.formatted)]")
      lower = e.formatted
    }
    labels.append(">\(lower)")
    let histogram = zip(labels, ratioHistogram).map { "\($0) \($1)" }.joined(separator: "  ")
    return """
      lines \(lines) (justified \(justified)) in \(paragraphs) paragraphs
      hyphenated \(hyphenatedLines) (\(pct(hyphenatedLines, lines))), longest run \(longestHyphenRun), runs ≥3: \(hyphenRuns[2...].reduce(0, +))
      ratio histogram: \(histogram)
      spaces >1.5× natural: \(linesWithSpacesOver150) (\(pct(linesWithSpacesOver150, justified))), >2×: \(linesWithSpacesOver200) (\(pct(linesWithSpacesOver200, justified)))
      widows \(widows), orphans \(orphans), kinsoku violations \(kinsokuViolations)
      """
  }
}

extension Double {
  fileprivate var formatted: String {
    self == rounded() ? String(Int(self)) : String(self)
  }
}
