// The CSS box model in the block flow (CSS 2.1 §8 and §10, CSS Sizing 3): every block
// becomes a `FlowBox` — its border box across, its border and padding widths, what to paint
// — and its vertical extent is written into the flow as markers on `FlowEntry`s, so the page
// splitter keeps moving plain entries and page assembly cuts each box into page fragments
// (Pagination/BoxFragments.swift).
//
// Horizontal: the used width and margins follow CSS 2.1 §10.3.3 (`width`, `min-width`,
// `max-width` with `box-sizing`; `margin: auto` centres, one auto side takes the rest; an
// over-constrained box drops its right margin). Vertical: a box's top border and padding
// are an entry of their own (a spacer, kept with what follows), its bottom border and
// padding another (kept with what precedes); with neither, the box opens on its first
// content entry and closes on its last, so margins collapse through it (CSS 2.1 §8.3.1):
// parent and child margins collapse exactly when no border or padding separates them.
// `height` and `min-height` reserve their space with a spacer before the bottom edge; a box
// whose content is taller grows (nothing overflows below it) unless it clips its overflow
// (`overflow` hidden/clip/scroll/auto) and has a definite `height` or `max-height`: then its
// content is cut at its padding box bottom (OverflowCut.swift). Clipping boxes also clip
// what sticks out sideways (wide images, lines that cannot wrap) to the padding box.
//
// Rejected: a separate box tree laid out beside the flow. The flow already is the vertical
// list the splitter moves; a marker per box edge costs one array per block that opens a
// box, and a box's geometry on each page falls out of where its edge entries land.
//
// Units: page pixels; flow y is the running sum of spaces and heights, before pagination.

import QuireCore
import QuireIngest

/// One block box of the chapter: horizontal geometry (final) and what to paint.
struct FlowBox: Sendable {
  /// Element name ("p", "div"); empty for anonymous blocks.
  var tag: String
  /// Position of the block in the chapter's block tree, pre-order from 0.
  var index: Int
  /// The block's number in `LineBox.block` when it holds text.
  var textBlock: Int?
  /// Border box left edge and width, page px.
  var x: Double
  var width: Double
  /// Border plus padding on each side, px.
  var insetTop: Double, insetRight: Double, insetBottom: Double, insetLeft: Double
  /// The box's borders and background when it paints any (rect filled in per fragment).
  var paint: BoxPaint?
  /// Flow y of the border box top, set when the box opens on an entry.
  var flowTop = 0.0
  /// Whether an entry carries this box's open marker.
  var opened = false
  /// `box-decoration-break: clone`: every page fragment has its top and bottom edges.
  var clone = false
}

/// The box-model state of a chapter flow: the boxes so far and the markers waiting for the
/// next entry.
struct BoxFlow: Sendable {
  var boxes: [FlowBox] = []
  /// Boxes that open at the next appended entry, outermost first.
  var pendingOpens: [Int] = []
  /// Sum of the spaces and heights of the entries so far, px.
  var flowY = 0.0
  /// The body's background goes to the page (the root element has none), not to its box.
  var bodyPaintsPage = false
  /// Top and bottom insets of the open boxes with `box-decoration-break: clone` (a page
  /// that starts or ends inside them repeats those edges: `FlowEntry.cloneTop`).
  var cloneTop = 0.0
  var cloneBottom = 0.0
}

/// The used horizontal metrics of a block box (CSS 2.1 §10.3.3), px.
struct HorizontalBox: Equatable {
  var marginLeft: Double, borderLeft: Double, paddingLeft: Double
  var contentWidth: Double
  var paddingRight: Double, borderRight: Double, marginRight: Double
  var borderBoxWidth: Double {
    borderLeft + paddingLeft + contentWidth + paddingRight + borderRight
  }
}

/// What `openBox` decided for a block, handed back to `closeBox`.
struct OpenBoxFrame {
  var id: Int
  /// Content box left and right, px.
  var left: Double
  var right: Double
  /// Content height to reserve (`height`, `min-height`), px.
  var minContentHeight: Double
  /// Content height past which an `overflow`-clipping box cuts its content (`height` or
  /// `max-height`), px; infinite when the box grows with its content.
  var clipContentHeight = Double.infinity
  /// The bottom padding of a clipping box: content is drawn down to it.
  var clipPadding = 0.0
  /// The first entry appended after the box opened (its top edge or first content).
  var firstEntry = 0
}

extension ChapterFlow {
  /// Whether the box model applies to a block: tables, rows, cells, images and rules lay
  /// themselves out.
  static func hasBoxModel(_ kind: BlockKind) -> Bool {
    switch kind {
    case .table, .tableRow, .tableCell, .image, .rule: return false
    default: return true
    }
  }

  /// Used widths and margins of `block` in a containing block `width` px wide.
  func horizontal(_ block: Block, containing width: Double) -> HorizontalBox {
    let st = block.style
    let box = block.box
    // No closures here: one capturing `self` copied the whole flow (a hundred fields) each
    // call, 7,000 times on moby-dick (16 M instructions with the copies' release).
    var h = HorizontalBox(
      marginLeft: box.marginLeftAuto ? 0 : px(st.margin.left, of: width),
      borderLeft: max(0, px(box.border.left.usedWidth, of: width)),
      paddingLeft: max(0, px(st.padding.left, of: width)),
      contentWidth: 0, paddingRight: max(0, px(st.padding.right, of: width)),
      borderRight: max(0, px(box.border.right.usedWidth, of: width)),
      marginRight: box.marginRightAuto ? 0 : px(st.margin.right, of: width))
    guard Self.hasBoxModel(block.kind) else {
      h.contentWidth = width - h.marginLeft - h.marginRight - h.paddingLeft - h.paddingRight
      h.borderLeft = 0
      h.borderRight = 0
      return h
    }
    let edges = h.borderLeft + h.paddingLeft + h.paddingRight + h.borderRight
    let borderBox = box.boxSizing == .borderBox
    h = solve(
      h, content: usedContentWidth(box.width, of: width, edges: edges, borderBox: borderBox),
      box: box, containing: width)
    if let maxW = usedContentWidth(box.maxWidth, of: width, edges: edges, borderBox: borderBox),
      h.contentWidth > maxW
    {
      h = solve(h, content: maxW, box: box, containing: width)
    }
    if let minW = usedContentWidth(box.minWidth, of: width, edges: edges, borderBox: borderBox),
      h.contentWidth < minW
    {
      h = solve(h, content: minW, box: box, containing: width)
    }
    return h
  }

  /// A `width`, `min-width` or `max-width` as a content width, px (nil: none or `auto`);
  /// `edges` are the padding and borders a border-box length includes.
  private func usedContentWidth(_ l: Length?, of width: Double, edges: Double, borderBox: Bool)
    -> Double?
  {
    guard let l else { return nil }
    let v = px(l, of: width)
    return max(0, borderBox ? v - edges : v)
  }

  /// CSS 2.1 §10.3.3 for one tentative content width (nil: `auto`).
  private func solve(_ h: HorizontalBox, content: Double?, box: BoxStyle, containing width: Double)
    -> HorizontalBox
  {
    var h = h
    let autoLeft = box.marginLeftAuto
    let autoRight = box.marginRightAuto
    guard let content else {
      if autoLeft { h.marginLeft = 0 }
      if autoRight { h.marginRight = 0 }
      h.contentWidth = width - h.marginLeft - h.marginRight - h.borderBoxWidth
      return h
    }
    h.contentWidth = content
    let rest = width - h.borderBoxWidth
    switch (autoLeft, autoRight) {
    case (true, true):
      h.marginLeft = max(0, rest / 2)
      h.marginRight = rest - h.marginLeft
    case (true, false): h.marginLeft = rest - h.marginRight
    default: h.marginRight = rest - h.marginLeft
    }
    return h
  }

  /// Opens `block`'s box: collapses its top margin, writes its top border and padding into
  /// the flow, and returns its content edges. `left`/`right` are the containing block's.
  mutating func openBox(_ block: Block, left: Double, right: Double) -> OpenBoxFrame {
    let st = block.style
    let width = max(1, right - left)
    let h = horizontal(block, containing: width)
    collapse(px(st.margin.top, of: width))
    let painted = Self.hasBoxModel(block.kind)
    let top =
      max(0, px(st.padding.top, of: width))
      + (painted ? usedBorder(block.box.border.top, width) : 0)
    let bottom =
      max(0, px(st.padding.bottom, of: width))
      + (painted ? usedBorder(block.box.border.bottom, width) : 0)
    let x = left + h.marginLeft
    let id = boxFlow.boxes.count
    let firstEntry = entries.count
    boxFlow.boxes.append(
      FlowBox(
        tag: block.element, index: id, textBlock: block.inlines.isEmpty ? nil : nextBlock, x: x,
        width: h.borderBoxWidth, insetTop: top, insetRight: h.paddingRight + h.borderRight,
        insetBottom: bottom, insetLeft: h.borderLeft + h.paddingLeft,
        paint: painted ? boxPaint(block, containing: width) : nil))
    boxFlow.pendingOpens.append(id)
    if top > 0 {
      flushMargins()
      var edge = FlowEntry(spaceBefore: 0, height: top, start: block.location, end: block.location)
      edge.avoidBreakAfter = true
      append(edge)
    }
    if painted, block.box.decorationClone {
      boxFlow.boxes[id].clone = true
      boxFlow.cloneTop += top
      boxFlow.cloneBottom += bottom
    }
    let contentLeft = x + h.borderLeft + h.paddingLeft
    var frame = OpenBoxFrame(
      id: id, left: contentLeft, right: contentLeft + h.contentWidth,
      minContentHeight: painted
        ? minContentHeight(block, containing: width, edges: top + bottom) : 0)
    frame.firstEntry = firstEntry
    if painted, block.box.clipsOverflow {
      frame.clipContentHeight = clipContentHeight(block, containing: width, edges: top + bottom)
      frame.clipPadding = max(0, px(st.padding.bottom, of: width))
    }
    return frame
  }

  /// Closes the box `frame` opened: reserves its `height`/`min-height`, writes its bottom
  /// padding and border into the flow, and marks where it ends.
  mutating func closeBox(_ frame: OpenBoxFrame, _ block: Block) {
    if frame.clipContentHeight.isFinite { cutOverflow(frame) }
    let box = boxFlow.boxes[frame.id]
    let empty = !box.opened
    if frame.minContentHeight > 0 {
      flushMargins()
      let used = empty ? 0 : boxFlow.flowY + pendingSpace - box.flowTop - box.insetTop
      if frame.minContentHeight > used + 0.01 {
        append(
          FlowEntry(
            spaceBefore: 0, height: frame.minContentHeight - used, start: lastLocation,
            end: lastLocation))
      }
    }
    if box.clone {
      boxFlow.cloneTop -= box.insetTop
      boxFlow.cloneBottom -= box.insetBottom
    }
    if box.insetBottom > 0 {
      flushMargins()
      var edge = FlowEntry(
        spaceBefore: 0, height: box.insetBottom, start: lastLocation, end: lastLocation)
      edge.avoidBreakBefore = true
      append(edge)
    }
    if boxFlow.boxes[frame.id].opened, !entries.isEmpty {
      entries[entries.count - 1].closes += 1
    } else if let k = boxFlow.pendingOpens.lastIndex(of: frame.id) {
      boxFlow.pendingOpens.remove(at: k)  // nothing inside: no fragment
    }
  }

  /// Hands the waiting open markers to `entry` and advances the flow y (from `append`).
  mutating func attachBoxes(_ entry: inout FlowEntry) {
    let top = boxFlow.flowY + entry.spaceBefore
    entry.cloneTop = boxFlow.cloneTop
    entry.cloneBottom = boxFlow.cloneBottom
    if !boxFlow.pendingOpens.isEmpty {
      for id in boxFlow.pendingOpens {
        boxFlow.boxes[id].flowTop = top
        boxFlow.boxes[id].opened = true
      }
      entry.opens = boxFlow.pendingOpens
      boxFlow.pendingOpens = []
    }
    boxFlow.flowY = top + entry.height
  }

  private func usedBorder(_ side: BorderSide, _ width: Double) -> Double {
    min(1000, max(0, px(side.usedWidth, of: width)))
  }

  /// `height` (lengths only: a percentage of an auto-height page is auto) and `min-height`
  /// as a content height, px; 0 when neither is set.
  private func minContentHeight(_ block: Block, containing width: Double, edges: Double)
    -> Double
  {
    let box = block.box
    func content(_ l: Length?) -> Double {
      guard case .rem = l, let l else { return 0 }
      let v = px(l, of: width)
      return max(0, box.boxSizing == .borderBox ? v - edges : v)
    }
    return min(content(box.height), content(box.maxHeight) > 0 ? content(box.maxHeight) : .infinity)
      .clamped(atLeast: content(box.minHeight))
  }

  /// The content height an overflow-clipping box cannot exceed: its `height`, else its
  /// `max-height` (lengths only), never below `min-height`; infinite when neither is set.
  private func clipContentHeight(_ block: Block, containing width: Double, edges: Double)
    -> Double
  {
    let box = block.box
    func content(_ l: Length?) -> Double? {
      guard case .rem = l, let l else { return nil }
      let v = px(l, of: width)
      return max(0, box.boxSizing == .borderBox ? v - edges : v)
    }
    guard let limit = content(box.height) ?? content(box.maxHeight) else { return .infinity }
    return min(limit, content(box.maxHeight) ?? .infinity).clamped(
      atLeast: content(box.minHeight) ?? 0)
  }

  /// The block's borders, radii and background in pixels, or nil when it paints nothing.
  /// The body's background is not painted here: it fills the page (`pageBackground`).
  func boxPaint(_ block: Block, containing width: Double) -> BoxPaint? {
    var box = block.box
    if block.element == "body" && boxFlow.bodyPaintsPage { box.background = BoxBackground() }
    guard box.isPainted || box.clipsOverflow else { return nil }
    let color = block.style.color
    func side(_ s: BorderSide) -> PaintedBorderSide {
      PaintedBorderSide(width: usedBorder(s, width), style: s.style, color: s.color ?? color)
    }
    let r = box.radius
    var paint = BoxPaint(
      rect: Rect(x: 0, y: 0, width: 0, height: 0), top: side(box.border.top),
      right: side(box.border.right), bottom: side(box.border.bottom), left: side(box.border.left),
      radii: [r.topLeft, r.topRight, r.bottomRight, r.bottomLeft].map {
        min(10_000, max(0, px($0, of: width)))
      },
      backgroundColor: box.background.color, backgroundLayers: box.background.layers)
    // A flag here; page assembly counts the items of each fragment.
    paint.clippedItems = box.clipsOverflow ? 1 : 0
    return paint
  }
}

extension Double {
  /// `max(self, floor)`, with NaN treated as the floor.
  fileprivate func clamped(atLeast floor: Double) -> Double {
    self.isNaN || self < floor ? floor : self
  }
}
