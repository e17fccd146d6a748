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
      let gap = pageHasContent || page == 0 ? e.spaceBefore : 0
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
  func pages(_ entries: [FlowEntry], spine: Int, href: String, fallback: Location) -> [Page] {
    let spots = place(entries)
    guard let lastPage = spots.last?.page else { return [] }
    var pages: [Page] = (0...lastPage).map {
      Page(number: $0 + 1, spine: spine, href: href, start: fallback, end: fallback)
    }
    var seen = [Bool](repeating: false, count: lastPage + 1)
    let top = options.margins.top
    for (e, spot) in zip(entries, spots) {
      let dy = top + spot.y
      var p = pages[spot.page]
      if !seen[spot.page] {
        seen[spot.page] = true
        p.start = e.start
        p.end = e.end
      }
      p.start = min(p.start, e.start)
      p.end = max(p.end, e.end)
      p.items += e.items.map { $0.offset(dy: dy) }
      p.lines += e.lines.map {
        var l = $0
        l.rect.y += dy
        return l
      }
      p.images += e.images.map {
        var i = $0
        i.rect.y += dy
        return i
      }
      pages[spot.page] = p
    }
    // Pages that only a forced break produced carry the previous page's end.
    for i in pages.indices where !seen[i] && i > 0 {
      pages[i].start = pages[i - 1].end
      pages[i].end = pages[i - 1].end
    }
    return pages
  }
}
