// Pagination: the chapter's flow entries (lines, images, rules, table rows) are cut into
// pages by the typography stage's `PageSplitter` (crengine's rules: widows, orphans,
// keep-with-next, forced breaks; when nothing else fits, avoid is ignored). Positions follow
// MuPDF's model: within a page, entries stack at their natural spacing from the top; the
// space above the first entry of a page is dropped, except at the chapter's start.
// A table's body rows carry its header (`FlowEntry.repeatHeader`): a page that starts with
// one is shorter by the header's height (the splitter asks for each page's height knowing
// its first line), and the header's items are drawn at its top.

import QuireIngest

struct Paginator {
  let options: LayoutOptions
  /// Whether pages get their text blocks' boxes (`BlockBoxes.place`); everything else is
  /// the same without them.
  var placesBlocks = true
  var pageHeight: Double {
    max(1, Double(options.height) - options.margins.top - options.margins.bottom)
  }

  /// The split lines of the chapter's entries (forced breaks, keeps, widows and orphans).
  func splitLines(_ entries: [FlowEntry]) -> [SplitLine] {
    var lines: [SplitLine] = []
    lines.reserveCapacity(entries.count)
    // Fields read through `entries[k]` in place: `for e in entries` copied each entry (a
    // dozen references retained and released; 10 M instructions on moby-dick).
    for k in entries.indices {
      let next = k + 1 < entries.count ? entries[k + 1].spaceBefore : 0
      let height = entries[k].height
      var line = SplitLine(
        height: height + entries[k].cloneBottom, advance: height + next,
        breakBefore: k > 0 && entries[k].forcedBreakBefore
          ? .always : (entries[k].avoidBreakBefore ? .avoid : .auto),
        keepWithNext: entries[k].avoidBreakAfter, block: entries[k].block,
        group: entries[k].group, hyphenated: entries[k].lines.last?.hyphenated ?? false)
      line.orphans = entries[k].orphans
      line.widows = entries[k].widows
      lines.append(line)
    }
    return lines
  }

  /// The space above the chapter's first entry (kept on the first page only).
  func lead(_ entries: [FlowEntry]) -> Double {
    guard let first = entries.first else { return 0 }
    return max(0, min(first.spaceBefore, pageHeight - first.height))
  }

  /// Assigns each entry a page (0-based within the chapter) and a y on it.
  func place(_ entries: [FlowEntry]) -> [(page: Int, y: Double)] {
    guard !entries.isEmpty else { return [] }
    let height = pageHeight
    let lead = lead(entries)
    let lines = splitLines(entries)
    let splitter = PageSplitter(orphans: 2, widows: 2, keepWithNextLines: 2)
    let ranges = splitter.split(lines) { k, first in
      (k == 0 ? height - lead : height) - (entries[first].repeatHeader?.height ?? 0)
        - entries[first].cloneTop
    }
    var out: [(page: Int, y: Double)] = []
    out.reserveCapacity(entries.count)
    for (page, range) in ranges.enumerated() {
      let first = range.lowerBound
      var y =
        (page == 0 ? lead : 0) + (entries[first].repeatHeader?.height ?? 0)
        + entries[first].cloneTop
      for i in range {
        out.append((page, y))
        y += lines[i].advance
      }
    }
    return out
  }

  /// Builds the chapter's pages (numbered from 1) from the entries and their placements.
  func pages(
    _ entries: consuming [FlowEntry], notes: consuming FootNotes = FootNotes(), spine: Int,
    href: String, fallback: Location, boxes: [FlowBox] = [], columns: [ColumnSet] = []
  ) -> [Page] {
    var starts: [Int] = []
    return pages(
      entries, notes: notes, spine: spine, href: href, fallback: fallback, boxes: boxes,
      columns: columns, resumingAt: nil, starts: &starts)
  }

  /// As `pages(_:notes:spine:href:fallback:boxes:columns:)`; `starts` gets each page's first
  /// entry (−1 for a page without one). With `resumingAt` (no notes, no column sets), the
  /// entries before it go on a page 0 for the caller to drop (FlowCheckpoint.swift).
  func pages(
    _ entries: consuming [FlowEntry], notes: consuming FootNotes, spine: Int,
    href: String, fallback: Location, boxes: [FlowBox], columns: [ColumnSet],
    resumingAt: Int?, starts: inout [Int]
  ) -> [Page] {
    var spots: [(page: Int, y: Double)]
    var foot = FootPlacement()
    // Column offsets per entry (empty without column sets; with notes at the page feet
    // the sets are set in one column).
    var shifts: [Double] = []
    var pieces: [ColumnPiece] = []
    if let resumingAt {
      spots = place(entries, resumingAt: resumingAt)
    } else if notes.isEmpty {
      if columns.isEmpty {
        spots = place(entries)
      } else {
        let c = place(entries, sets: columns)
        (spots, shifts, pieces) = (c.spots, c.shifts, c.pieces)
      }
    } else {
      (spots, foot) = place(entries, notes: notes)
    }
    let lastPage = max(spots.last?.page ?? -1, foot.spots.last?.page ?? -1)
    guard lastPage >= 0 else { return [] }
    var pages: [Page] = (0...lastPage).map {
      Page(number: $0 + 1, spine: spine, href: href, start: fallback, end: fallback)
    }
    var seen = [Bool](repeating: false, count: lastPage + 1)
    starts = [Int](repeating: -1, count: lastPage + 1)
    for (k, spot) in spots.enumerated() where starts[spot.page] < 0 { starts[spot.page] = k }
    var lineShifts = [[Double]](repeating: [], count: shifts.isEmpty ? 0 : lastPage + 1)
    let top = options.margins.top
    var fragments = BoxFragmenter(boxes: boxes, pageTop: top, pageBottom: top + pageHeight)
    var entries = entries
    var blockBoxes: [Int: BlockBox] = [:]
    for note in notes.entries where placesBlocks {
      for e in note { for b in e.blockBoxes { blockBoxes[b.index] = b } }
    }
    // Each entry is swapped out in turn (an empty one left in its place, made afresh: a copy
    // of one retained its dozen empty arrays) and used as a local: read through
    // `entries[k]`, it was copied (a dozen references retained and released) to be passed to
    // the box fragmenter.
    for k in entries.indices {
      var entry = FlowEntry(spaceBefore: 0, height: 0, start: fallback, end: fallback)
      swap(&entry, &entries[k])
      if placesBlocks { for b in entry.blockBoxes { blockBoxes[b.index] = b } }
      let spot = spots[k]
      let dy = top + spot.y
      let (start, end) = (entry.start, entry.end)
      // Notes gathered at the chapter's end (`--footnotes end`) keep their Locations but do
      // not widen the page's range, which covers the running text.
      if entry.lines.isEmpty || entry.lines[0].role != .note {
        if !seen[spot.page] {
          seen[spot.page] = true
          if let header = entry.repeatHeader {
            pages[spot.page].items += header.items.map { $0.offset(dy: dy - header.height) }
          }
          pages[spot.page].start = start
          pages[spot.page].end = end
        }
        pages[spot.page].start = min(pages[spot.page].start, start)
        pages[spot.page].end = max(pages[spot.page].end, end)
      }
      let dx = shifts.isEmpty ? 0 : shifts[k]
      var items = entry.items
      entry.items = []
      for i in items.indices { items[i].shift(dx: dx, dy: dy) }
      fragments.willPlace(
        entry, page: spot.page, top: dy, itemCount: pages[spot.page].items.count, shift: dx)
      pages[spot.page].items += items
      fragments.didPlace(
        entry, bottom: dy + entry.height, itemCount: pages[spot.page].items.count)
      for var l in entry.lines {
        l.rect.x += dx
        l.rect.y += dy
        pages[spot.page].lines.append(l)
        if !shifts.isEmpty { lineShifts[spot.page].append(dx) }
      }
      for var i in entry.images {
        i.rect.x += dx
        i.rect.y += dy
        pages[spot.page].images.append(i)
      }
      for var m in entry.maths {
        m.rect.x += dx
        m.rect.y += dy
        pages[spot.page].math.append(m)
      }
      for var f in entry.inlineBoxes {
        f.rect.x += dx
        f.rect.y += dy
        pages[spot.page].inlineBoxes.append(f)
      }
    }
    fragments.finish(&pages)
    drawRules(pieces, sets: columns, on: &pages)
    addFeet(&pages, foot: foot, notes: notes.entries)
    // Pages that only a forced break (or notes) produced carry the previous page's end.
    for i in pages.indices where !seen[i] && i > 0 {
      pages[i].start = pages[i - 1].end
      pages[i].end = pages[i - 1].end
    }
    BlockBoxes.place(blockBoxes, on: &pages, lineShifts: lineShifts)
    return pages
  }
}
