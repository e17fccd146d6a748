// Typographic quality counters for `quire paginate --stats`: how loose the justified lines
// are, how often words are hyphenated and in runs, widows/orphans left by the page
// splitter, and kinsoku violations. Pure accumulation; merging two stats adds them.

/// Accumulated line-breaking quality over paragraphs, pages or a whole book.
public struct LineQualityStats: Sendable, Hashable, Codable {
  /// Upper edges of the ratio histogram buckets: bucket k counts ratios r with
  /// edge[k−1] < r ≤ edge[k] (bucket 0: r ≤ −0.5; the last: r > 3).
  public static let ratioBucketEdges: [Double] = [-0.5, 0, 0.5, 1, 1.5, 2, 3]

  /// All lines added.
  public private(set) var lines = 0
  /// Lines that end a paragraph or at a forced break (not justified).
  public private(set) var lastLines = 0
  public private(set) var paragraphs = 0
  public private(set) var hyphenatedLines = 0
  /// Ratio histogram of justified (non-last) lines; see `ratioBucketEdges`.
  public private(set) var ratioHistogram = [Int](repeating: 0, count: 8)
  /// Justified lines whose widest word space exceeds 1.5× / 2× its natural width.
  public private(set) var linesWithSpacesOver150 = 0
  public private(set) var linesWithSpacesOver200 = 0
  /// hyphenRuns[k] = number of maximal runs of k+1 consecutive hyphenated lines (the last
  /// bucket collects 10 or more).
  public private(set) var hyphenRuns = [Int](repeating: 0, count: 10)
  public private(set) var widows = 0
  public private(set) var orphans = 0
  public private(set) var kinsokuViolations = 0

  private var currentRun = 0

  public init() {}

  /// Share of lines that end hyphenated (0 when empty).
  public var hyphenatedShare: Double { lines == 0 ? 0 : Double(hyphenatedLines) / Double(lines) }
  /// Longest run of consecutive hyphenated lines.
  public var longestHyphenRun: Int { (hyphenRuns.lastIndex { $0 > 0 }).map { $0 + 1 } ?? 0 }

  /// Adds one line. `spaceStretchFactor` is stretch/width of the line's widest-growing
  /// glue, so a word space is set at natural × (1 + ratio × factor) when ratio > 0.
  /// `isLast`: the line ends its paragraph or a forced break (excluded from spacing stats).
  public mutating func addLine(
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
    let bucket =
      LineQualityStats.ratioBucketEdges.firstIndex { ratio <= $0 }
      ?? LineQualityStats.ratioBucketEdges.count
    ratioHistogram[bucket] += 1
    let factor = ratio > 0 ? 1 + ratio * spaceStretchFactor : 1
    if factor > 1.5 + 1e-12 { linesWithSpacesOver150 += 1 }
    if factor > 2 + 1e-12 { linesWithSpacesOver200 += 1 }
  }

  private mutating func endHyphenRun() {
    if currentRun > 0 { hyphenRuns[min(currentRun, hyphenRuns.count) - 1] += 1 }
    currentRun = 0
  }

  /// Adds a broken paragraph: each line's ratio and hyphen flag, the spacing factor from
  /// the glue actually on the line, last lines as those ending at a forced break or the
  /// paragraph's end.
  public mutating func addParagraph(_ breaks: [LineBreak], items: [BreakItem]) {
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
  public mutating func addLineEdges(first: Unicode.Scalar?, last: Unicode.Scalar?) {
    if let first, !Kinsoku.mayStartLine(first) { kinsokuViolations += 1 }
    if let last, !Kinsoku.mayEndLine(last) { kinsokuViolations += 1 }
  }

  /// Counts widows (a page starting with the single last line of a multi-line block) and
  /// orphans (a page ending with the single first line of one) in split pages.
  public mutating func addPages(_ pages: [Range<Int>], lines: [SplitLine]) {
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
  public mutating func merge(_ other: LineQualityStats) {
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
    widows += other.widows
    orphans += other.orphans
    kinsokuViolations += other.kinsokuViolations
  }

  /// A readable multi-line report.
  public var summary: String {
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
