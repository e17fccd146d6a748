// Page splitting with widows, orphans and keeps, after crengine's page splitter: every laid
// out line says whether a page break before it is allowed (auto), unwanted (avoid) or
// required (always). Pages are filled greedily; when a line does not fit, the page ends at
// the last auto break on it. When there is none, the page ends at the last of its cheapest
// breaks: each unwanted break has a cost — 1 for widows, orphans and `break-before: avoid`,
// 2 for keep-with-next (a heading with the first `orphans` lines of the block after it,
// `break-after: avoid`, a heading followed by another heading), 3 right after a
// keep-with-next line followed by text (the heading would end the page alone), 4 inside a
// keep-together group (a heading's own lines, a figure with its caption, `break-inside:
// avoid`) — so a heading moves to the next page with its text rather than being split or
// left at the foot, and only a group taller than a page is cut (at the last line that
// fits). Each page takes at least one line, so the loop always advances; a line
// taller than the page gets a page of its own and overflows it. Widows and orphans are the
// line's block's own CSS values when the line carries them, else the splitter's (2).
//
// `break-before/after: left|right|recto|verso` force a page break but never insert a blank
// page: chapters are laid out independently (Typeset.swift), so a chapter does not know
// whether its pages will fall on the left or the right.
// A page should not end with a hyphenated word (the reader turns the page mid-word): when
// the page's last line is hyphenated, the page ends one line earlier if that break is
// allowed (auto) and that line is not hyphenated itself — at most `hyphenSlack` lines
// short, so pages stay nearly full.
// Rejected alternative: optimal (Knuth–Plass-like) page breaking — for reflowable books
// with short pages the greedy rule with keeps gives the same pages almost always, costs
// O(n), and is what readers expect from e-reading software.
//
// Units: pixels. A line's `height` is what must fit on the page; `advance` is the distance
// from its top to the next line's top (height + leading + paragraph spacing), so space
// after the last line of a page is dropped, and a page starts at its first line's top.

/// One laid-out line (or unbreakable block such as an image) as the splitter sees it.
package struct SplitLine: Sendable, Hashable {
  package enum BreakBefore: Sendable, Hashable { case auto, avoid, always }

  /// Height that must fit on the page, px.
  package var height: Double
  /// Distance from this line's top to the next line's top, px.
  package var advance: Double
  /// The page break before this line (CSS break-before; `.always` for chapter starts).
  package var breakBefore: BreakBefore
  /// Keep this line with the next (headings: with the next two lines of the next block).
  package var keepWithNext: Bool
  /// The paragraph (block) this line belongs to; lines of one block are consecutive.
  /// Widows and orphans apply within a block; nil = a standalone line.
  package var block: Int?
  /// Keep-together group (a figure and its caption): no break between lines sharing it.
  package var group: Int?
  /// The line ends with an inserted hyphen (its word goes on on the next line).
  package var hyphenated: Bool

  /// CSS `orphans`/`widows` of the line's block (nil: the splitter's). `orphans` also says
  /// how many of the block's first lines stay with a keep-with-next line before it.
  package var orphans: Int? = nil
  package var widows: Int? = nil

  package init(
    height: Double, advance: Double? = nil, breakBefore: BreakBefore = .auto,
    keepWithNext: Bool = false, block: Int? = nil, group: Int? = nil, hyphenated: Bool = false
  ) {
    self.hyphenated = hyphenated
    self.height = height
    self.advance = advance ?? height
    self.breakBefore = breakBefore
    self.keepWithNext = keepWithNext
    self.block = block
    self.group = group
  }
}

/// Splits a sequence of lines into pages (see the file comment for the rules).
package struct PageSplitter: Sendable, Hashable {
  /// Minimum lines of a paragraph left at the bottom of a page (CSS orphans).
  package var orphans: Int
  /// Minimum lines of a paragraph carried to the top of a page (CSS widows).
  package var widows: Int
  /// Lines of the following block kept with a keep-with-next line (a heading).
  package var keepWithNextLines: Int
  /// Most lines a page may give up so that it does not end with a hyphenated line
  /// (0 turns the rule off).
  package var hyphenSlack: Int

  package init(orphans: Int = 2, widows: Int = 2, keepWithNextLines: Int = 2, hyphenSlack: Int = 1)
  {
    self.hyphenSlack = max(0, min(hyphenSlack, 8))
    self.orphans = max(1, orphans)
    self.widows = max(1, widows)
    self.keepWithNextLines = max(1, keepWithNextLines)
  }

  /// What breaking before a line costs (see the file comment): `auto` 0, widows, orphans
  /// and a line's own avoid 1, keep-with-next 2 (3 right before text), inside a
  /// keep-together group 4, forced `always`.
  package enum Cost {
    package static let auto = 0
    package static let widowsOrphans = 1
    package static let keep = 2
    package static let keepAlone = 3
    package static let together = 4
    package static let always = Int.max
  }

  /// The effective break before each line: `result[i]` is the break between line i−1 and
  /// line i (`result[0]` is the first line's own `breakBefore`).
  package func gaps(_ lines: [SplitLine]) -> [SplitLine.BreakBefore] {
    costs(lines).map { $0 == Cost.auto ? .auto : $0 == Cost.always ? .always : .avoid }
  }

  /// The cost of a break before each line: the line's own flag, the orphans (first
  /// orphans−1 gaps of a block) and widows (last widows−1 gaps) rules, keep-with-next (the
  /// gap after the line and the first orphans−1 gaps of the block that follows) and shared
  /// groups; the highest applies. O(n).
  package func costs(_ lines: [SplitLine]) -> [Int] {
    let n = lines.count
    var costs = lines.map {
      switch $0.breakBefore {
      case .auto: return Cost.auto
      case .avoid: return Cost.widowsOrphans
      case .always: return Cost.always
      }
    }
    guard n > 1 else { return costs }
    func raise(_ i: Int, _ c: Int) {
      if i > 0 && i < n && costs[i] != Cost.always { costs[i] = max(costs[i], c) }
    }
    // Blocks: widows and orphans.
    var s = 0
    while s < n {
      var e = s + 1
      if let b = lines[s].block {
        while e < n && lines[e].block == b { e += 1 }
        let count = e - s
        let o = max(1, min(lines[s].orphans ?? orphans, 100))
        let w = max(1, min(lines[s].widows ?? widows, 100))
        for k in 1..<max(1, count) where k <= o - 1 || k >= count - (w - 1) {
          raise(s + k, Cost.widowsOrphans)
        }
      }
      s = e
    }
    for i in 0..<n {
      if lines[i].keepWithNext {
        // Breaking right after it leaves the line alone at the foot: dearer than breaking
        // between two keep-with-next lines (two headings) or just after the next block's
        // first line.
        let next = i + 1 < n && lines[i + 1].keepWithNext
        raise(i + 1, next ? Cost.keep : Cost.keepAlone)
        // The first lines of the following block stay with it too.
        if i + 1 < n, !lines[i + 1].keepWithNext, let b = lines[i + 1].block {
          let keep = max(1, min(lines[i + 1].orphans ?? keepWithNextLines, 100))
          var k = 1
          while k < keep && i + 1 + k < n && lines[i + 1 + k].block == b {
            raise(i + 1 + k, Cost.keep)
            k += 1
          }
        }
      }
      if i > 0, let g = lines[i].group, lines[i - 1].group == g { raise(i, Cost.together) }
    }
    return costs
  }

  /// Pages as ranges of line indices, in order, covering every line exactly once. A page
  /// overflows `pageHeight(k)` only when its single line is taller than the page.
  package func split(_ lines: [SplitLine], pageHeight: (Int) -> Double) -> [Range<Int>] {
    split(lines, pageHeightFrom: { page, _ in pageHeight(page) })
  }

  /// As `split(_:pageHeight:)`, with the height of page k depending on its first line too
  /// (a table's repeated header takes the top of a page its rows continue on).
  /// With `start`, the pages cover the lines from `start` on (a layout resumed at a page
  /// break, Pagination/FlowCheckpoint.swift); the costs still see every line.
  package func split(
    _ lines: [SplitLine], from start: Int = 0,
    pageHeightFrom: (_ page: Int, _ firstLine: Int) -> Double
  )
    -> [Range<Int>]
  {
    let n = lines.count
    guard n > 0, start >= 0 else { return [] }
    let costs = costs(lines)
    var pages: [Range<Int>] = []
    var s = start
    while s < n {
      let limit = pageHeightFrom(pages.count, s) + 1e-9
      // Largest e such that lines s..<e fit (at least one line), stopping at forced breaks.
      // `y` is line e's top from the page's: summed per page, so a page's fit does not
      // depend on the lines before it (a resumed layout sums the same numbers).
      var e = s + 1
      var y = max(0, lines[s].advance)
      while e < n && costs[e] != Cost.always && y + max(0, lines[e].height) <= limit {
        y += max(0, lines[e].advance)
        e += 1
      }
      let end = e < n && costs[e] != Cost.always ? pageEnd(s, e, lines, costs) : e
      pages.append(s..<end)
      s = end
    }
    return pages
  }

  /// Where a page from line `s` ends when line `e` does not fit: the last of the cheapest
  /// breaks in s+1...e, then a line earlier if that keeps a hyphen off the page's foot.
  func pageEnd(_ s: Int, _ e: Int, _ lines: [SplitLine], _ costs: [Int]) -> Int {
    var end = e
    var best = costs[e]
    var b = e - 1
    while b > s && best > Cost.auto {
      if costs[b] < best {
        best = costs[b]
        end = b
      }
      b -= 1
    }
    // Avoid a hyphen at the foot of the page: end a little earlier if allowed.
    if lines[end - 1].hyphenated {
      var c = end - 1
      while c > s && end - c <= hyphenSlack {
        if costs[c] == Cost.auto && !lines[c - 1].hyphenated { return c }
        c -= 1
      }
    }
    return end
  }

  package func split(_ lines: [SplitLine], pageHeight: Double) -> [Range<Int>] {
    split(lines, pageHeight: { _ in pageHeight })
  }
}
