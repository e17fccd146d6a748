// Block layout of one chapter: walks the block tree, collapses vertical margins, indents,
// lays paragraphs into lines, and appends `FlowEntry`s. Coordinates: x in page pixels (the
// text area starts at the left margin), y relative to each entry's top.

import Foundation
import QuireIngest

struct ChapterFlow {
  let options: LayoutOptions
  let fonts: FontSet
  var shaper: Shaper
  let spine: Int
  let language: String?
  /// The language rule of the chapter (Inline/ContentLanguage.swift); nil: `language`, then
  /// `options.language`.
  var languages: ContentLanguage? = nil
  let direction: TextDirection
  let resources: any ResourceStore
  let breaker: any ParagraphBreaker
  /// Width and height of the text area, px.
  let textWidth: Double
  let pageHeight: Double

  var styles: [ResolvedStyle] = []
  /// The feature lists of the styles (by index) whose list found the process-wide table
  /// full (`FeatureList.unshared`); empty for every ordinary book.
  var unsharedFeatures: [Int: [UInt64]] = [:]
  var styleIndex: [ComputedStyle: Int] = [:]
  /// The last few styles `resolve` answered, tried before `styleIndex` (ResolvedStyle.swift).
  var recentStyles = RecentStyles()
  /// Styles the worker resolved in earlier chapters with these options (ResolvedStyle.swift);
  /// nil: none kept.
  var styleMemo: StyleMemo? = nil
  var entries: [FlowEntry] = []
  /// Characters no font has, by script and face (for the chapter's diagnostics).
  var missing = MissingGlyphs()
  /// Emergency breaks, long clusters and paragraph limits met (for the diagnostics).
  var notes = InlineNotes()
  /// Dictionaries and hyphenation points (moved in from the worker, back after).
  var hyphenation: WordHyphenation
  /// Book-global index of the next block with text.
  var nextBlock: Int
  /// Space (flushed margins, padding) waiting to go before the next entry.
  var pendingSpace = 0.0
  var marginPos = 0.0
  var marginNeg = 0.0
  var pendingBreak = false
  var pendingMarker: String? = nil
  var lastLocation: Location
  /// The notes this chapter moves out of the running text (Footnotes.swift).
  var footnotes = ChapterNotes()
  /// Boxes and their open markers (Blocks/BoxLayout.swift).
  var boxFlow = BoxFlow()
  /// Tables being laid out around the current block (Blocks/TableLayout.swift).
  var tableNesting = 0
  /// Inline blocks being laid out around the current paragraph (InlineBoxLayout.swift).
  var inlineBoxNesting = 0
  /// Set while a paragraph is shaped only to measure its intrinsic widths
  /// (TableMeasure.swift): its inline blocks are then sized, not laid out.
  var measuringWidths = false
  /// Floats still beside the flow (Blocks/FloatLayout.swift).
  var floatArea = FloatArea()
  /// Floats being laid out around the current block (Blocks/FloatBlocks.swift).
  var floatNesting = 0
  /// Whether text lines get every glyph (false: a pass whose pages are never drawn, such
  /// as `paginate`; see `LineComposer.drawsGlyphs`).
  var drawsGlyphs = true
  /// Whether the pages get their text blocks' boxes (`Page.blocks`, for a manifest's boxes);
  /// false when the caller drops them (`paginate` without `--stats`), which saves placing
  /// them (`BlockBoxes.place`: 18 M instructions on moby-dick).
  var placesBlocks = true
  /// Where the paragraph being laid out should end its first line (a `::first-line`
  /// settled on a cycle, Inline/FirstLine.swift); nil almost always.
  var firstLineBreak: Int? = nil
  /// Where the paragraph being laid out is expected to end its first line (its
  /// `::first-line` was settled on the paragraph's head, Inline/FirstLine.swift); nil
  /// almost always.
  var firstLineExpected: Int? = nil
  /// The stages of the `::first-line` search's last pass when they are the layout's own
  /// (Inline/FirstLine.swift); nil almost always.
  var firstLineSettled: FirstLinePass? = nil
  /// The chapter is laid out for vertical lines (Vertical/VerticalPage.swift).
  var vertical = false
  /// The chapter has a publisher style sheet (`Chapter.authorStyles`): block images follow
  /// its CSS, not the reader's centring (Blocks/BlockImage.swift).
  var authorStyles = false
  /// `vertical-rl`: the logical block axis runs right to left on the page.
  var verticalRL = false
  /// Positioned boxes of a fixed-layout page (Fixed/PositionedBoxes.swift).
  var positioned = PositionedBoxes()
  /// The chapter's column sets and the one being laid out (Blocks/MultiColumn.swift).
  var columnSets: [ColumnSet] = []
  var columnSet: Int? = nil
  /// Checkpoint marks, when the layout keeps them (Pagination/FlowCheckpoint.swift).
  var marks: [FlowMark]? = nil
  /// The current block's path in the block tree (child index per level).
  var walk: [Int] = []
  /// Blocks being laid out whose state a checkpoint cannot restore (tables, floats, notes,
  /// positioned and column blocks, ancestors that cannot be entered again).
  var resumeBlocked = 0
  /// Where a resumed walk stops, and whether it has.
  var stop: FlowStop? = nil
  var stopped = false
  /// Paragraphs laid out (for tests of resumed layouts).
  var paragraphCount = 0

  init(
    options: LayoutOptions, fonts: FontSet, shaper: Shaper, spine: Int, language: String?,
    direction: TextDirection, resources: any ResourceStore, breaker: any ParagraphBreaker,
    sharedHyphens: SharedCache<HyphenKey, [Int]> = SharedCache(),
    firstBlock: Int
  ) {
    self.options = options
    self.fonts = fonts
    self.shaper = shaper
    self.spine = spine
    self.language = language
    self.direction = direction
    self.resources = resources
    self.breaker = breaker
    self.hyphenation = WordHyphenation(shared: sharedHyphens)
    self.textWidth = max(1, Double(options.width) - options.margins.left - options.margins.right)
    self.pageHeight = max(1, Double(options.height) - options.margins.top - options.margins.bottom)
    self.nextBlock = firstBlock
    self.lastLocation = Location(spine: spine, offset: 0)
  }

  // MARK: vertical spacing

  mutating func collapse(_ margin: Double) {
    if margin >= 0 {
      marginPos = max(marginPos, margin)
    } else {
      marginNeg = min(marginNeg, margin)
    }
  }

  mutating func flushMargins() {
    pendingSpace += marginPos + marginNeg
    marginPos = 0
    marginNeg = 0
  }

  /// Adds `e` (taken, not copied: a flow entry holds a dozen references) after the
  /// pending margins and breaks.
  mutating func append(_ e: consuming FlowEntry) {
    flushMargins()
    e.spaceBefore = max(0, pendingSpace)
    e.forcedBreakBefore = e.forcedBreakBefore || pendingBreak
    e.columnSet = columnSet
    pendingSpace = 0
    pendingBreak = false
    lastLocation = e.end
    if stop != nil, entries.count == stop?.fromEntry { stop?.base = boxFlow.flowY }
    if !floatArea.isEmpty { floatsBeside(&e) }
    attachBoxes(&e)
    entries.append(e)
  }

  // MARK: blocks

  /// Nesting deeper than this is laid out flat (no further indents), without recursion, so
  /// hostile nesting cannot exhaust a worker thread's stack.
  static let maxNesting = 48

  mutating func layout(blocks: [Block], left: Double, right: Double, depth: Int = 0) {
    if depth >= ChapterFlow.maxNesting {
      // Depth-first, in document order, with an explicit stack.
      var stack: [(blocks: [Block], next: Int)] = [(blocks, 0)]
      while let top = stack.last {
        if top.next >= top.blocks.count {
          stack.removeLast()
          continue
        }
        stack[stack.count - 1].next += 1
        var b = top.blocks[top.next]
        let children = b.children
        b.children = []
        if case .table = b.kind { b.kind = .container }
        layout(b, left: left, right: right, depth: depth)
        if !children.isEmpty { stack.append((children, 0)) }
      }
      return
    }
    for (k, b) in blocks.enumerated() {
      if stopped { return }
      walk.append(k)
      layout(b, left: left, right: right, depth: depth)
      walk.removeLast()
    }
  }

  mutating func layout(_ block: Block, left: Double, right: Double, depth: Int) {
    guard markBlock(block, left: left, right: right, depth: depth) else { return }
    resumeBlocked += 1
    if laidOutApart(block, left: left, right: right, depth: depth) {
      resumeBlocked -= 1
      return
    }
    resumeBlocked -= 1
    let st = block.style
    let entered = enterBlock(block, left: left, right: right)
    let (l, r) = (entered.left, entered.right)
    let em = options.fontSize * st.fontSize
    switch block.kind {
    case .image(let ref):
      blockImage(ref, style: st, left: l, right: r, location: block.location)
    case .rule:
      let h = max(1, options.fontSize / 16)
      var e = FlowEntry(
        spaceBefore: 0, height: max(h, em * 0.5), start: block.location, end: block.location)
      e.items = [.fill(Rect(x: l, y: (e.height - h) / 2, width: r - l, height: h), st.color)]
      append(e)
    default:
      if case .listItem(let marker) = block.kind { pendingMarker = marker.isEmpty ? nil : marker }
      if !block.inlines.isEmpty {
        paragraph(block, left: l, right: r)
      }
      let blocked = !Self.reenterable(block, entered.frame)
      if blocked { resumeBlocked += 1 }
      layout(blocks: block.children, left: l, right: r, depth: depth + 1)
      if blocked { resumeBlocked -= 1 }
      if stopped { return }
      if case .listItem = block.kind { pendingMarker = nil }
    }
    leaveBlock(block, entered, left: left, right: right)
  }

  /// What `enterBlock` decided, for `leaveBlock`.
  struct EnteredBlock {
    var frame: OpenBoxFrame
    /// Content edges after list and quote indents, px.
    var left: Double
    var right: Double
    /// The first entry laid out after entering.
    var first: Int
  }

  /// Enters a block of the normal flow: a forced break before it, its box opened, its
  /// content edges with list and quote indents.
  mutating func enterBlock(_ block: Block, left: Double, right: Double) -> EnteredBlock {
    let first = entries.count
    let st = block.style
    if forcesBreak(st.breakBefore), !entries.isEmpty { pendingBreak = true }
    let frame = openBox(block, left: left, right: right)
    var l = frame.left
    var r = frame.right
    let em = options.fontSize * st.fontSize
    // A list its CSS gives no start indent still keeps its outside markers on the page (an
    // e-reader choice: a browser hangs them past the box's edge, into the page margin).
    if case .list = block.kind, l - left < 0.5, Self.hasOutsideMarkers(block) { l += 2 * em }
    if r - l < (block.box.width == nil ? em * 2 : 1) {  // hostile margins: keep a sliver
      l = left
      r = right
    }
    return EnteredBlock(frame: frame, left: l, right: r, first: first)
  }

  /// Leaves a block `enterBlock` entered: closes its box, collapses its bottom margin and
  /// marks its entries' breaks.
  mutating func leaveBlock(_ block: Block, _ entered: EnteredBlock, left: Double, right: Double) {
    let st = block.style
    closeBox(entered.frame, block)
    collapse(px(st.margin.bottom, of: max(1, right - left)))
    if forcesBreak(st.breakAfter) { pendingBreak = true }
    applyBreaks(block, from: entered.first)
  }

  /// Lays out a block that takes a path of its own (a note, a positioned box, a table, a
  /// float, a column set); false when it belongs to the normal flow.
  mutating func laidOutApart(_ block: Block, left: Double, right: Double, depth: Int) -> Bool {
    if block.note != nil, takeNote(block, left: left, right: right) { return true }
    if positioned.enabled, takePositioned(block, left: left, right: right) { return true }
    if block.box.clear != .none, !floatArea.isEmpty { clearFloats(block.box.clear) }
    if case .table = block.kind {
      if block.box.float != .none, floatedTable(block, left: left, right: right, depth: depth) {
        return true
      }
      tableBlock(block, left: left, right: right, depth: depth)
      return true
    }
    if case .image(let ref) = block.kind, floatedImage(block, ref, left: left, right: right) {
      return true
    }
    if Self.floatsAsTextBlock(block),
      floatedTextBlock(block, left: left, right: right, depth: depth)
    {
      return true
    }
    if startsColumns(block) {
      multiColumnBlock(block, left: left, right: right, depth: depth)
      return true
    }
    return false
  }

  /// Whether a `break-before/after` value forces a break here: `page` always, `column` in
  /// a column set (where the paginator ends the column).
  /// Whether a list has an item with a marker set outside its box (not `none`, not inside).
  static func hasOutsideMarkers(_ list: Block) -> Bool {
    list.children.contains {
      if case .listItem(let marker) = $0.kind { return !marker.isEmpty }
      return false
    }
  }

  func forcesBreak(_ rule: BreakRule) -> Bool {
    rule == .page || (rule == .column && columnSet != nil)
  }
}
