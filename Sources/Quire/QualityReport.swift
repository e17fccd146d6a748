import Foundation
import QuireTypeset

/// Typographic quality of a laid-out book, from its line boxes (`quire paginate --stats`).
///
/// Word-space widths are the typesetter's `LineBox.spaceFactor` (the space as set over its
/// natural width). Without it they follow from the adjustment ratio: the typesetter gives each inter-word
/// glue a stretch of 1/2 and a shrink of 1/3 of the natural space (TeX's proportions; see
/// QuireTypeset/Paragraph/Paragraph.swift), so a line with ratio r > 0 has spaces
/// (1 + r/2) × natural and one with r < 0 has (1 + r/3) × natural.
/// "Justified lines" are text lines with word spaces that are not a paragraph's last line
/// (those are set ragged by design); CJK lines justify between characters and are left out.
public struct QualityReport: Codable, Sendable {
  public var pages: Int
  public var lines: Int
  public var justifiedLines: Int
  public var hyphenatedLines: Int
  public var hyphenatedShare: Double
  /// Most consecutive hyphenated lines anywhere.
  public var longestHyphenRun: Int
  /// Justified lines whose word spaces exceed 1.5× / 2× the natural space.
  public var spacesOver150: Double
  public var spacesOver200: Double
  /// Ratio histogram over justified lines: bucket lower bound → count.
  public var ratioHistogram: [String: Int]
  public var widows: Int
  public var orphans: Int
  public var kinsokuViolations: Int
  /// Pages (not the last) whose last text line ends with an inserted hyphen.
  public var hyphenatedPageEnds: Int = 0

  public init(layout: BookLayout, options: LayoutOptions) {
    let all = layout.pages.flatMap { p in p.lines.filter { $0.role == .text } }
    pages = layout.pages.count
    lines = all.count
    var justified = 0
    var over150 = 0
    var over200 = 0
    var hist: [String: Int] = [:]
    let stretch = 0.5
    let shrink = 1.0 / 3
    for (i, line) in all.enumerated() {
      let lastOfBlock = i + 1 == all.count || all[i + 1].block != line.block
      // Word spaces only: CJK lines justify between characters, with their own glue.
      guard !lastOfBlock, line.ratio != 0 || options.align == .justify, line.text.contains(" ")
      else {
        continue
      }
      justified += 1
      let factor =
        line.spaceFactor ?? (line.ratio > 0 ? 1 + line.ratio * stretch : 1 + line.ratio * shrink)
      if factor > 1.5 { over150 += 1 }
      if factor > 2 { over200 += 1 }
      let bucket = max(-1, min(3, (line.ratio * 4).rounded(.down) / 4))
      hist[String(format: "%+.2f", bucket), default: 0] += 1
    }
    justifiedLines = justified
    spacesOver150 = justified > 0 ? Double(over150) / Double(justified) : 0
    spacesOver200 = justified > 0 ? Double(over200) / Double(justified) : 0
    ratioHistogram = hist
    let hyph = all.filter(\.hyphenated).count
    hyphenatedLines = hyph
    hyphenatedShare = all.isEmpty ? 0 : Double(hyph) / Double(all.count)
    var run = 0
    var best = 0
    for l in all {
      run = l.hyphenated ? run + 1 : 0
      best = max(best, run)
    }
    longestHyphenRun = best

    // Widows: a page opens with the last line of a paragraph begun on an earlier page.
    // Orphans: a page ends with the first line of a paragraph that goes on to the next page.
    var w = 0
    var o = 0
    let pageLines = layout.pages.map { $0.lines.filter { $0.role == .text } }
    for k in 1..<max(1, pageLines.count) {
      let prev = pageLines[k - 1]
      let cur = pageLines[k]
      guard let last = prev.last, let first = cur.first, last.block == first.block else { continue }
      if cur.count == 1 || cur[1].block != first.block { w += 1 }
      if prev.count == 1 || prev[prev.count - 2].block != last.block { o += 1 }
    }
    widows = w
    orphans = o
    hyphenatedPageEnds = pageLines.dropLast().filter { $0.last?.hyphenated == true }.count

    // Kinsoku judges line breaks inside a paragraph: a line that continues its block may not
    // start with a forbidden character, and one that its block continues may not end with
    // one, where the character or its neighbour across the break is CJK (Latin text may
    // start a line with a quote). A block's own first or last character is not a break.
    var k = 0
    for i in all.indices {
      let l = all[i].text.unicodeScalars
      if i > 0, all[i - 1].block == all[i].block, let f = l.first, !Kinsoku.mayStartLine(f),
        Kinsoku.isCJK(f) || all[i - 1].text.unicodeScalars.last.map(Kinsoku.isCJK) == true
      {
        k += 1
      }
      if i + 1 < all.count, all[i + 1].block == all[i].block, let e = l.last,
        !Kinsoku.mayEndLine(e),
        Kinsoku.isCJK(e) || all[i + 1].text.unicodeScalars.first.map(Kinsoku.isCJK) == true
      {
        k += 1
      }
    }
    kinsokuViolations = k
  }

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
    for key in ratioHistogram.keys.sorted(by: { Double($0)! < Double($1)! }) {
      s += "  \(key)  \(ratioHistogram[key]!)\n"
    }
    return s
  }
}
