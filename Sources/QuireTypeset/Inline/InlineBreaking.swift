// Stage 4 of inline layout, **break**: the shape stage's items → line breaks, through the
// `ParagraphBreaker` the options name (Knuth–Plass or greedy), or greedy without hyphens for
// text that must not wrap (its items carry no stretch and no breaks but forced ones). The
// first line may be shorter (a text indent); every other line has the full measure.
//
// Bounded windows. Knuth–Plass keeps every node it ever made (to trace the best path back)
// and compares each break with every active node, so one enormous paragraph costs memory
// and time far beyond its size. A paragraph of more than `InlineCaps.breakWindow` items is
// therefore broken window by window: the breaker sees the next `breakWindow` items (cut at
// a legal break, ended like a paragraph), all its lines but the last
// `InlineCaps.windowOverlap` are kept, and the next window starts where the first line not
// kept starts. Lines far from a window's end are the ones a whole-paragraph run would
// choose (total-fit rarely looks more than a few lines ahead), and memory is O(window).
// Such a paragraph's active list is also held to `InlineCaps.windowActiveNodes`, so a
// storm of break points (a soft hyphen after every letter) costs a bounded amount per
// break: time is linear in the paragraph.
// Paragraphs under the threshold — every paragraph of every book in the corpus — are
// broken in one call, exactly as before.
//
// Resuming. `lines(_:from:firstLine:first:)` breaks the paragraph from the first item of a
// given line on, asking for the widths of the paragraph's own line numbers (the bands of
// floats beside it): how a paragraph goes on below an inline float placed at one of its
// lines (Blocks/InlineFloats.swift).

/// Chooses the breaks of one paragraph.
struct InlineBreaking {
  var breaker: any ParagraphBreaker
  /// The first line's measure and every other line's, px.
  var firstWidth: Double
  var width: Double
  /// Items above which the paragraph is broken in windows.
  var window = InlineCaps.breakWindow
  /// `text-indent: each-line`: a line after a forced break has the first line's measure,
  /// so the paragraph is broken segment by segment (a forced break separates the breaker's
  /// choices anyway).
  var eachLine = false
  /// The room lines have beside floats, by line number (Blocks/FloatLayout.swift); lines
  /// past the end have the full measure.
  var bands: [LineBand] = []

  /// `breaker`, or a greedy one for text that does not wrap.
  init(breaker: any ParagraphBreaker, noWrap: Bool, firstWidth: Double, width: Double) {
    self.breaker = noWrap ? GreedyBreaker(hyphenate: false) : breaker
    self.firstWidth = firstWidth
    self.width = width
  }

  func lines(_ items: [BreakItem]) -> [LineBreak] {
    guard eachLine else { return segmentLines(items, firstLine: 0, first: true) }
    return lines(items, from: 0, firstLine: 0, first: true)
  }

  /// The lines of the paragraph's items from `start` (the first item of line `firstLine`,
  /// which has the first line's measure when `first`), as indices into `items`: how a
  /// paragraph is broken again below a float placed beside one of its lines
  /// (Blocks/InlineFloats.swift).
  func lines(_ items: [BreakItem], from start: Int, firstLine: Int, first: Bool) -> [LineBreak] {
    var out: [LineBreak] = []
    var (segment, line, isFirst) = (start, firstLine, first)
    func add(_ end: Int) {
      let found = segmentLines(Array(items[segment..<end]), firstLine: line, first: isFirst)
      out += found.map {
        LineBreak(index: segment + $0.index, ratio: $0.ratio, hyphenated: $0.hyphenated)
      }
      line += found.count
    }
    if eachLine {
      for k in start..<items.count {
        guard case .penalty(_, let cost, _) = items[k], cost >= BreakItem.forcedBreak,
          k < items.count - 1
        else { continue }
        // The segment ends with the fil glue and forced break of a paragraph's end.
        add(k + 1)
        (segment, isFirst) = (k + 1, true)
      }
    }
    if segment < items.count { add(items.count) }
    return out
  }

  /// The lines of a paragraph, or of one segment between forced breaks, whose first line is
  /// line `firstLine` of the paragraph (the bands' index), with the first line's measure
  /// when `first`.
  private func segmentLines(_ items: [BreakItem], firstLine: Int, first: Bool) -> [LineBreak] {
    let firstWidth = first ? firstWidth : width
    let width = width
    guard items.count > window else {
      guard !bands.isEmpty else {
        return breaker.breakLines(items, firstWidth: firstWidth, width: width)
      }
      let bands = bands
      return breaker.breakLines(items) { k in
        LineBand.measure(k == 0 ? firstWidth : width, bands, firstLine + k)
      }
    }
    return windowed(items, firstLine: firstLine, firstWidth: firstWidth)
  }

  /// The paragraph in windows of at most `window` items (see the file comment).
  private func windowed(_ items: [BreakItem], firstLine: Int, firstWidth: Double) -> [LineBreak] {
    let n = items.count
    var breaker = breaker
    if var kp = breaker as? KnuthPlassBreaker {
      kp.maxActive = InlineCaps.windowActiveNodes
      breaker = kp
    }
    var breaks: [LineBreak] = []
    var start = 0
    while start < n {
      // The window ends at the last legal break within reach (or runs to the end).
      let cut = InlineBreaking.windowEnd(items, from: start, reach: window)
      let last = cut >= n
      var slice = Array(items[start..<cut])
      if !last { slice += BreakItem.paragraphEnd }
      let done = breaks.count
      let width = width
      let bands = bands
      let found = breaker.breakLines(slice) { k in
        LineBand.measure(done + k == 0 ? firstWidth : width, bands, firstLine + done + k)
      }
      guard !found.isEmpty else { break }
      // Keep all but the window's last lines (all of them in the last window; at least one).
      let keep = last ? found.count : max(1, found.count - InlineCaps.windowOverlap)
      for b in found.prefix(keep) {
        // A break on the window's own ending is the cut itself (a legal break of the
        // paragraph, or its end).
        if b.index >= cut - start {
          let index = last ? n - 1 : cut
          let flagged = { if case .penalty(_, _, true) = items[index] { true } else { false } }()
          breaks.append(LineBreak(index: index, ratio: b.ratio, hyphenated: flagged))
        } else {
          breaks.append(
            LineBreak(index: start + b.index, ratio: b.ratio, hyphenated: b.hyphenated))
        }
      }
      guard let end = breaks.last?.index, !last else { break }
      let next = ParagraphMeasure.lineStart(afterBreak: end, in: items)
      guard next > start else { break }
      start = next
    }
    // Whatever the windows did not reach (only if a breaker returned nothing) ends the
    // paragraph on one more line, so no text is lost.
    if let end = breaks.last?.index, end < n - 1,
      ParagraphMeasure.lineStart(afterBreak: end, in: items) < n
    {
      breaks.append(LineBreak(index: n - 1, ratio: 0, hyphenated: false))
    }
    return breaks
  }

  /// Where the window from `start` ends: the last legal break before `start + reach`, else
  /// the first after it (a run without any: linear, as the next window starts past it),
  /// else the paragraph's end (`items.count`).
  static func windowEnd(_ items: [BreakItem], from start: Int, reach: Int) -> Int {
    let n = items.count
    let limit = start + reach
    if limit >= n - 1 { return n }
    var c = limit - 1
    while c > start && !ParagraphMeasure.isLegalBreak(c, in: items) { c -= 1 }
    if c > start { return c }
    c = limit
    while c < n - 1 && !ParagraphMeasure.isLegalBreak(c, in: items) { c += 1 }
    return c >= n - 1 ? n : c
  }
}
