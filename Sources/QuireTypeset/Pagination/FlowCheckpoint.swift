// Checkpoints: where a chapter's layout can resume at a page break and produce exactly the
// pages a layout from the chapter's start produces after it.
//
// What the flow carries across a page is mostly a handful of numbers: the collapsed margins
// and pending space, a forced break and a list marker waiting for the next entry, the next
// text block's number and the last Location. When the break also sits outside anything
// with a state of its own — no float beside or pending, no table, inline block, column set,
// positioned box or `::first-line` being laid out, and a chapter without notes or column
// sets — the flow at the start of a block is (those numbers, the block's path in the
// chapter's block tree, its containing block's edges), and a page that starts inside that
// block's entries is (that, the number of entries the block laid out before it). That is a
// `FlowCheckpoint`. Knuth–Plass breaks a paragraph as a whole, so a page starting at its
// line k resumes from the paragraph's start: the paragraph is broken again and its first
// k lines are skipped.
//
// Recording (`ChapterFlow.recordMarks`): a layout that keeps checkpoints notes such a mark
// each time it enters a block in a plain state (a few numbers and the path, no copy of any
// entry); after pagination each page's first entry takes the last mark at or before it.
// A mark is refused for a page when the entry just before its block keeps with the next
// (a heading's keep reaches the block's first lines, which the resumed split would not see)
// unless the page starts far enough into the block.
//
// Resuming (`Typesetter.resumeChapter`): the chapter is converted and the typesetter built
// as for a whole layout; the walk goes down the path, entering each ancestor as a layout
// does (its box opened, its edges computed; an ancestor is only on a path when entering it
// again changes nothing that reaches later pages: no `height`/`min-height`, no clipped
// overflow, no keep-together), restores the numbers and lays out the block and everything
// after it. The entries before the page (the block's skipped lines, top edges of the boxes
// entered again) are placed on a throw-away page 0, so box fragments that continue onto the
// page begin at its top as they do in a whole layout, then the page splitter runs from the
// page's first entry. Pages are greedy (Pagination/PageSplitter.swift): a page's end depends
// only on the lines from its start on, and on costs that see the paragraph whole. The walk
// stops at the first plain block boundary past the pages wanted (their heights and a few
// lines from the page's top), when the last page asked for is followed by another, so only
// those pages are laid out; a run that stops too early is run again to the chapter's end.
//
// Not checkpointed (the render resumes from an earlier page, the chapter's start at worst):
// pages starting inside tables, floats, inline blocks, column sets, `::first-line`
// paragraphs, after a pending float, and every page of chapters with notes, column sets or a
// fixed layout. The cache checks resumed pages against its map like any laid-out page.
//
// Rejected: keeping the flow entries or the display lists of every page (megabytes per
// book; the display lists of chapters a render asked for are kept, DisplayListFile.swift),
// and checkpoints mid-table or beside floats (their state is the whole float area or the
// table grid: no compact form).

import QuireIngest

/// A page break a chapter's layout can resume from (see the file comment).
package struct FlowCheckpoint: Sendable, Hashable {
  /// The block's child index at each level of the chapter's block tree, root first.
  package var path: [Int]
  /// Entries the block laid out before the page's first one.
  package var skip: Int
  /// The block's containing block edges, px.
  package var left: Double
  package var right: Double
  /// Space and collapsed margins waiting before the next entry, px.
  package var pendingSpace: Double
  package var marginPos: Double
  package var marginNeg: Double
  /// A forced break waiting for the next entry.
  package var pendingBreak: Bool
  /// The list marker waiting for the next line.
  package var pendingMarker: String?
  /// The block's boxes that open on the next entry (the innermost ancestors).
  package var pendingOpens: Int
  /// Book-global number of the next text block.
  package var nextBlock: Int
  /// Offset of the last Location laid out.
  package var lastOffset: Int

  /// Longest path kept (deeper blocks are laid out flat, ChapterFlow.maxNesting).
  package static let maxDepth = ChapterFlow.maxNesting

  package init(
    path: [Int], skip: Int, left: Double, right: Double, pendingSpace: Double,
    marginPos: Double, marginNeg: Double, pendingBreak: Bool, pendingMarker: String?,
    pendingOpens: Int, nextBlock: Int, lastOffset: Int
  ) {
    self.path = path
    self.skip = skip
    self.left = left
    self.right = right
    self.pendingSpace = pendingSpace
    self.marginPos = marginPos
    self.marginNeg = marginNeg
    self.pendingBreak = pendingBreak
    self.pendingMarker = pendingMarker
    self.pendingOpens = pendingOpens
    self.nextBlock = nextBlock
    self.lastOffset = lastOffset
  }

  /// Whether the numbers are ones a layout could have produced (a decoded checkpoint is
  /// checked before a resume trusts it).
  package var isPlausible: Bool {
    !path.isEmpty && path.count <= Self.maxDepth && path.allSatisfy { $0 >= 0 } && skip >= 0
      && pendingOpens >= 0 && pendingOpens <= path.count && nextBlock >= 0 && lastOffset >= 0
      && [left, right, pendingSpace, marginPos, marginNeg].allSatisfy(\.isFinite)
      && (pendingMarker?.utf8.count ?? 0) <= 1024
  }
}

/// A place in a chapter's flow where a checkpoint could start (ChapterFlow.recordMarks).
struct FlowMark {
  /// Entries laid out before the block.
  var entry: Int
  var checkpoint: FlowCheckpoint
  /// The entry before the block keeps with the next one.
  var keptFromBefore = false
}

/// A resumed layout's pages and how much it laid out (for tests that prove it skipped).
package struct ResumedChapter: Sendable {
  /// The chapter's pages from the checkpoint's page on, numbered in the chapter from 1.
  package var pages: [Page]
  /// Paragraphs laid out (a whole chapter's layout lays out every one).
  package var paragraphs: Int
  /// Whether the walk stopped before the chapter's end.
  package var stoppedEarly: Bool
}

/// Where a resumed walk stops: past `height` px of flow after entry `fromEntry`.
struct FlowStop {
  var fromEntry: Int
  var height: Double
  /// Flow y above entry `fromEntry`, once it is laid out (`ChapterFlow.append`).
  var base: Double? = nil
}

extension ChapterFlow {
  /// Whether the flow is in a state a checkpoint can restore (see the file comment).
  var isPlain: Bool {
    resumeBlocked == 0 && floatArea.isEmpty && tableNesting == 0 && inlineBoxNesting == 0
      && floatNesting == 0 && columnSet == nil && !positioned.enabled && !measuringWidths
      && firstLineBreak == nil && firstLineExpected == nil
  }

  /// At the start of `layout(_:…)`: notes a mark when recording, and stops a resumed walk
  /// that has laid out enough. Returns false when the walk stops here.
  mutating func markBlock(_ block: Block, left: Double, right: Double, depth: Int) -> Bool {
    guard marks != nil || stop != nil, depth < Self.maxNesting, walk.count == depth + 1, isPlain
    else { return true }
    if let s = stop, let base = s.base, boxFlow.flowY - base >= s.height {
      stopped = true
      return false
    }
    // A paragraph with floats in it leaves them beside what follows: not restorable.
    guard marks != nil, !block.inlines.contains(where: Self.isFloated) else { return true }
    let checkpoint = FlowCheckpoint(
      path: walk, skip: 0, left: left, right: right, pendingSpace: pendingSpace,
      marginPos: marginPos, marginNeg: marginNeg, pendingBreak: pendingBreak,
      pendingMarker: pendingMarker, pendingOpens: boxFlow.pendingOpens.count,
      nextBlock: nextBlock, lastOffset: lastLocation.offset)
    marks?.append(FlowMark(entry: entries.count, checkpoint: checkpoint))
    return true
  }

  /// Whether entering `block` again (on a resumed path) changes nothing later pages see.
  static func reenterable(_ block: Block, _ frame: OpenBoxFrame) -> Bool {
    guard frame.minContentHeight == 0, !frame.clipContentHeight.isFinite,
      block.style.breakInside != .avoid, block.style.breakInside != .avoidColumn
    else { return false }
    switch block.kind {
    case .heading, .figure, .tableRow, .table, .image, .rule: return false
    default: return true
    }
  }

  /// Puts back the numbers of `checkpoint` (the walk is at its block).
  mutating func restore(_ c: FlowCheckpoint) {
    pendingSpace = c.pendingSpace
    marginPos = c.marginPos
    marginNeg = c.marginNeg
    pendingBreak = c.pendingBreak
    pendingMarker = c.pendingMarker
    nextBlock = c.nextBlock
    lastLocation = Location(spine: spine, offset: c.lastOffset)
  }

  /// Lays out from `checkpoint`'s block to the chapter's end (or the stop): enters the
  /// ancestors on its path, restores the numbers and walks on. Returns the index of the
  /// page's first entry, nil when the path does not fit the chapter.
  mutating func resume(_ blocks: [Block], at c: FlowCheckpoint, left: Double, right: Double)
    -> Int?
  {
    resume(blocks, c, level: 0, left: left, right: right)
  }

  private mutating func resume(
    _ blocks: [Block], _ c: FlowCheckpoint, level: Int, left: Double, right: Double
  ) -> Int? {
    let i = c.path[level]
    guard blocks.indices.contains(i) else { return nil }
    walk.append(i)
    var first: Int?
    if level == c.path.count - 1 {
      guard left == c.left, right == c.right, let start = settleOpens(c) else { return nil }
      restore(c)
      first = start + c.skip
      stop?.fromEntry = start + c.skip
      layout(blocks[i], left: left, right: right, depth: level)
    } else {
      let block = blocks[i]
      let entered = enterBlock(block, left: left, right: right)
      guard Self.reenterable(block, entered.frame) else { return nil }
      first = resume(block.children, c, level: level + 1, left: entered.left, right: entered.right)
      guard first != nil else { return nil }
      if case .listItem = block.kind { pendingMarker = nil }
      if !stopped { leaveBlock(block, entered, left: left, right: right) }
    }
    walk.removeLast()
    for k in (i + 1)..<blocks.count where !stopped {
      walk.append(k)
      layout(blocks[k], left: left, right: right, depth: level)
      walk.removeLast()
    }
    return first
  }

  /// Opens the boxes of the ancestors entered again that a whole layout had opened before
  /// the block, on an empty entry of page 0, and clears the keeps of what page 0 holds;
  /// returns the entry count after it, nil when the checkpoint expects more boxes waiting
  /// than were entered.
  private mutating func settleOpens(_ c: FlowCheckpoint) -> Int? {
    let carried = boxFlow.pendingOpens.count - c.pendingOpens
    guard carried >= 0 else { return nil }
    if carried > 0 {
      var e = FlowEntry(spaceBefore: 0, height: 0, start: lastLocation, end: lastLocation)
      e.opens = Array(boxFlow.pendingOpens.prefix(carried))
      for id in e.opens { boxFlow.boxes[id].opened = true }
      boxFlow.pendingOpens.removeFirst(carried)
      entries.append(e)
    }
    // The top edges entered again keep with the next entry, which in a whole layout is
    // not the block's first line: the keep that reaches it is the mark's `keptFromBefore`.
    for i in entries.indices { entries[i].avoidBreakAfter = false }
    return entries.count
  }
}

extension Paginator {
  /// The placement of a resumed chapter's entries: those before `start` on a page 0 that is
  /// thrown away, then pages split from `start` (pages of the chapter after its first).
  func place(_ entries: [FlowEntry], resumingAt start: Int) -> [(page: Int, y: Double)] {
    let height = pageHeight
    let lines = splitLines(entries)
    let splitter = PageSplitter(orphans: 2, widows: 2, keepWithNextLines: 2)
    let ranges = splitter.split(lines, from: start) { _, first in
      height - (entries[first].repeatHeader?.height ?? 0) - entries[first].cloneTop
    }
    var out: [(page: Int, y: Double)] = Array(repeating: (0, 0), count: start)
    out.reserveCapacity(entries.count)
    for (page, range) in ranges.enumerated() {
      let first = entries[range.lowerBound]
      var y = (first.repeatHeader?.height ?? 0) + first.cloneTop
      for i in range {
        out.append((page + 1, y))
        y += lines[i].advance
      }
    }
    return out
  }
}

extension ChapterFlow {
  /// The marks recorded, each refused (dropped) when the entry before its block keeps with
  /// the next one (the keep reaches the block's first lines, `keepReach` at most).
  func settledMarks() -> [FlowMark] {
    guard let marks else { return [] }
    return marks.filter { $0.entry < entries.count }.map { mark in
      var m = mark
      if m.entry > 0, entries[m.entry - 1].avoidBreakAfter { m.keptFromBefore = true }
      return m
    }
  }
}

extension Typesetter {
  /// Lines a keep-with-next reaches into the block after it (PageSplitter clamps to 100).
  static let keepReach = 101

  /// Each page's checkpoint: the last usable mark at or before its first entry.
  static func checkpoints(_ marks: [FlowMark], starts: [Int]) -> [FlowCheckpoint?] {
    var out: [FlowCheckpoint?] = Array(repeating: nil, count: starts.count)
    guard !marks.isEmpty else { return out }
    var m = 0
    for page in starts.indices.dropFirst() where starts[page] >= 0 {
      let s = starts[page]
      while m + 1 < marks.count && marks[m + 1].entry <= s { m += 1 }
      var k = m
      while k >= 0 && marks[k].entry <= s && marks[k].keptFromBefore
        && s - marks[k].entry < keepReach
      {
        k -= 1
      }
      guard k >= 0, marks[k].entry <= s else { continue }
      var c = marks[k].checkpoint
      c.skip = s - marks[k].entry
      out[page] = c
    }
    return out
  }

  /// Lays out chapter `spineIndex` from `checkpoint`, which starts its page `page` (0-based
  /// in the chapter), up to at least `count` pages (the walk stops past them, or at the
  /// chapter's end); nil when the checkpoint does not fit the chapter.
  package func resumeChapter(
    _ spineIndex: Int, from checkpoint: FlowCheckpoint, page: Int, count: Int,
    worker: Worker? = nil
  ) -> ResumedChapter? {
    guard document.chapters.indices.contains(spineIndex), checkpoint.isPlausible, page >= 1,
      count >= 1
    else { return nil }
    let worker = worker ?? makeWorker()
    if let early = resume(spineIndex, checkpoint, page: page, count: count, worker: worker),
      early.pages.count > count || !early.stoppedEarly
    {
      return early
    }
    return resume(spineIndex, checkpoint, page: page, count: nil, worker: worker)
  }

  /// One resumed walk, stopping after `count` pages' worth of flow (nil: to the end).
  private func resume(
    _ spineIndex: Int, _ checkpoint: FlowCheckpoint, page: Int, count: Int?, worker: Worker
  ) -> ResumedChapter? {
    let chapter = document.chapters[spineIndex]
    var flow = makeFlow(spineIndex, caches: &worker.caches)
    defer { worker.caches.keep(&flow) }
    guard !flow.positioned.enabled, flow.footnotes.references.isEmpty else { return nil }
    if let count {
      // Page `page + count - 1` ends within `count` page heights of the page's top; a few
      // lines more give the line that did not fit on it and the next page's start.
      flow.stop = FlowStop(
        fromEntry: 0, height: Double(count) * flow.pageHeight + 4 * flow.options.fontSize)
    }
    guard
      let first = flow.resume(
        chapter.blocks, at: checkpoint, left: flow.options.margins.left,
        right: Double(flow.options.width) - flow.options.margins.right)
    else { return nil }
    flow.stop = nil
    flow.endFloats()
    guard first < flow.entries.count, flow.columnSets.isEmpty else { return nil }
    var starts: [Int] = []
    var pages = paginate(&flow, notes: FootNotes(), resumingAt: first, starts: &starts)
    guard !pages.isEmpty else { return nil }
    pages.removeFirst()
    for i in pages.indices { pages[i].number = page + 1 + i }
    finish(&pages, flow: flow)
    return ResumedChapter(
      pages: pages, paragraphs: flow.paragraphCount, stoppedEarly: flow.stopped)
  }
}

extension Typesetter.WorkerCaches {
  /// Moves a finished flow's shaper and hyphenation memo back (`Typesetter.makeFlow`).
  mutating func keep(_ flow: inout ChapterFlow) {
    shaper = flow.shaper.take()
    hyphenRuns = flow.hyphenation.runs
    hyphenDictionary = flow.hyphenation.runsDictionary
    flow.hyphenation.runs = HyphenRunMemo()
  }
}
