import Foundation
import QuireTypeset

/// Typographic quality of a laid-out book (`quire paginate --stats`): a Codable view of
/// QuireTypeset's `LineQualityStats`, which owns the counting (see `addLaidOut` there for
/// what each number means). The JSON field names are read by the Benchmarks scripts.
public struct QualityReport: Codable, Sendable {
  /// Pages laid out.
  public var pages: Int
  /// Text lines (folios excluded).
  public var lines: Int
  /// Lines justified with word spaces: not a paragraph's last line, not CJK.
  public var justifiedLines: Int
  /// Lines ending with an inserted hyphen.
  public var hyphenatedLines: Int
  /// Hyphenated lines as a share of all lines.
  public var hyphenatedShare: Double
  /// Most consecutive hyphenated lines anywhere.
  public var longestHyphenRun: Int
  /// Justified lines whose word spaces exceed 1.5× / 2× the natural space.
  public var spacesOver150: Double
  /// Justified lines whose word spaces exceed 2× the natural space, as a share.
  public var spacesOver200: Double
  /// Ratio histogram over justified lines: bucket lower bound → count.
  public var ratioHistogram: [String: Int]
  /// A paragraph's last line alone at the top of a page.
  public var widows: Int
  /// A paragraph's first line alone at the bottom of a page.
  public var orphans: Int
  /// Lines that start or end with a character JLREQ/clreq forbid there.
  public var kinsokuViolations: Int
  /// Pages (not the last) whose last text line ends with an inserted hyphen.
  public var hyphenatedPageEnds: Int = 0

  init(layout: BookLayout, options: LayoutOptions) {
    var stats = LineQualityStats()
    stats.addLaidOut(layout.pages, justify: options.align == .justify)
    self.init(stats)
  }

  init(_ s: LineQualityStats) {
    func share(_ n: Int) -> Double {
      s.justifiedLines > 0 ? Double(n) / Double(s.justifiedLines) : 0
    }
    pages = s.pages
    lines = s.lines
    justifiedLines = s.justifiedLines
    hyphenatedLines = s.hyphenatedLines
    hyphenatedShare = s.hyphenatedShare
    longestHyphenRun = s.longestHyphenRun
    spacesOver150 = share(s.linesWithSpacesOver150)
    spacesOver200 = share(s.linesWithSpacesOver200)
    var hist: [String: Int] = [:]
    for (k, n) in s.ratioQuarters { hist[String(format: "%+.2f", Double(k) / 4)] = n }
    ratioHistogram = hist
    widows = s.widows
    orphans = s.orphans
    kinsokuViolations = s.kinsokuViolations
    hyphenatedPageEnds = s.hyphenatedPageEnds
  }

  /// The report as aligned text lines, for a terminal.
  public func text() -> String {
    func pct(_ x: Double) -> String { String(format: "%.2f%%", x * 100) }
    var s = """
      lines:               \(lines) (\(justifiedLines) justified with word spaces, not last of paragraph)
      hyphenated:          \(hyphenatedLines) (\(pct(hyphenatedShare))), longest run \(longestHyphenRun)
      spaces > 1.5×:       \(pct(spacesOver150))
      spaces > 2×:         \(pct(spacesOver200))
      widows / orphans:    \(widows) / \(orphans)
      hyphen at page end:  \(hyphenatedPageEnds)
      kinsoku violations:  \(kinsokuViolations)
      ratio histogram:

      """
    for (key, count) in ratioHistogram.sorted(by: { (Double($0.key) ?? 0) < (Double($1.key) ?? 0) })
    {
      s += "  \(key)  \(count)\n"
    }
    return s
  }
}
