// Pagination (MuPDF's model): the chapter's flow is laid on an infinitely tall strip; an
// entry of height h at y moves to the next page when it would cross the bottom; forced
// breaks jump to the next page. Space above an entry is dropped at the top of a page (except
// the chapter's first), so pages never start with a gap left by a margin.
//
// Split flags: an entry that must move may pull the entries before it along when the gap
// between them is marked avoid (widows/orphans, keep-with-next after a heading), up to a
// bound; when nothing else fits, avoid is ignored (crengine's splitter rule).

import QuireIngest

struct Paginator {
  let options: LayoutOptions
  var pageHeight: Double {
    max(1, Double(options.height) - options.margins.top - options.margins.bottom)
  }

  /// Assigns each entry a page (0-based within the chapter) and a y on it.
  func place(_ entries: [FlowEntry]) -> [(page: Int, y: Double)] {
    var out: [(page: Int, y: Double)] = []
    out.reserveCapacity(entries.count)
    var page = 0
    var y = 0.0
    var pageHasContent = false
    var k = 0
    while k < entries.count {
      let e = entries[k]
      if e.forcedBreakBefore && pageHasContent {
        page += 1
        y = 0
        pageHasContent = false
      }
      var gap = pageHasContent || page == 0 ? e.spaceBefore : 0
      if !pageHasContent { gap = max(0, min(gap, pageHeight - e.height)) }
      if pageHasContent && y + gap + e.height > pageHeight + 0.001 {
        // Move to the next page, pulling along the entries glued to this one by avoid flags.
        var first = k
        var pulled = 0
        while first > 0, pulled < 8, out[first - 1].page == page,
          entries[first].avoidBreakBefore || entries[first - 1].avoidBreakAfter
        {
          first -= 1
          pulled += 1
        }
        // Only pull when something stays on this page.
        if first > 0, out[first - 1].page == page, first < k {
          out.removeLast(k - first)
          k = first
        }
        page += 1
        y = 0
        pageHasContent = false
        continue
      }
      y += gap
      out.append((page, y))
      y += e.height
      pageHasContent = true
      k += 1
    }
    return out
  }

  /// Builds the chapter's pages (numbered from 1) from the entries and their placements.
  func pages(_ entries: consuming [FlowEntry], spine: Int, href: String, fallback: Location)
    -> [Page]
  {
    let spots = place(entries)
    guard let lastPage = spots.last?.page else { return [] }
    var pages: [Page] = (0...lastPage).map {
      Page(number: $0 + 1, spine: spine, href: href, start: fallback, end: fallback)
    }
    var seen = [Bool](repeating: false, count: lastPage + 1)
    let top = options.margins.top
    var entries = entries
    for k in entries.indices {
      let spot = spots[k]
      let dy = top + spot.y
      let (start, end) = (entries[k].start, entries[k].end)
      if !seen[spot.page] {
        seen[spot.page] = true
        pages[spot.page].start = start
        pages[spot.page].end = end
      }
      pages[spot.page].start = min(pages[spot.page].start, start)
      pages[spot.page].end = max(pages[spot.page].end, end)
      var items = entries[k].items
      entries[k].items = []
      for i in items.indices { items[i].shift(dy: dy) }
      pages[spot.page].items += items
      for var l in entries[k].lines {
        l.rect.y += dy
        pages[spot.page].lines.append(l)
      }
      for var i in entries[k].images {
        i.rect.y += dy
        pages[spot.page].images.append(i)
      }
    }
    // Pages that only a forced break produced carry the previous page's end.
    for i in pages.indices where !seen[i] && i > 0 {
      pages[i].start = pages[i - 1].end
      pages[i].end = pages[i - 1].end
    }
    return pages
  }
}
