// Page fragments of block boxes (CSS Fragmentation 3 §5.4, `box-decoration-break`):
// page assembly walks the placed entries in order and keeps a stack of the boxes open so
// far. A box's fragment on a page runs from the top of the entry that opens it (or from the
// page's content top, when it continues from the page before) to the bottom of the entry
// that closes it (or to the page's content bottom, when it goes on). With `slice` (the
// initial value) a cut side loses its border, padding and corner radii. With `clone` every
// fragment keeps them: the flow reserved the room (`FlowEntry.cloneTop`/`cloneBottom`: a
// page starting inside such boxes begins below their top insets, one ending inside them
// keeps their bottom insets free), and nested cloned boxes stack their edges inward from
// the page's content top and bottom. Chapters with foot notes do not reserve the top room
// (their splitter sizes pages by page number only), so there a cloned top edge overlaps
// the page's first line. Each painted fragment becomes a `.box` item inserted before
// the items of the first entry it covers on that page, outer boxes before inner ones, so
// backgrounds lie under their content.
//
// Cost: one stack push and pop per box and one fragment per box and page; the items of a
// page are merged with its fragments once, in one pass.

import QuireCore

struct BoxFragmenter {
  let boxes: [FlowBox]
  /// The page's content area, page px.
  let pageTop: Double
  let pageBottom: Double

  private struct Open {
    var id: Int
    var top: Double
    var item: Int
    var first: Bool
  }
  private struct Piece {
    var item: Int
    /// The page's item count when the fragment ended (its items are item..<end).
    var end: Int
    var id: Int
    var paint: BoxPaint?
    var block: BlockFragment
  }

  private var stack: [Open] = []
  private var page = -1
  /// Items on the current page so far.
  private var itemCount = 0
  private var pieces: [[Piece]] = []

  init(boxes: [FlowBox], pageTop: Double, pageBottom: Double) {
    self.boxes = boxes
    self.pageTop = pageTop
    self.pageBottom = pageBottom
  }

  /// Before an entry's items go on `page` at `top`; `itemCount` is the page's item count.
  mutating func willPlace(_ entry: FlowEntry, page p: Int, top: Double, itemCount: Int) {
    if p != page {
      if page >= 0 {
        let bottoms = cloneInsets(\.insetBottom)
        for i in stack.indices.reversed() {
          cut(stack[i], bottom: pageBottom - bottoms[i], last: false)
        }
      }
      while pieces.count <= p { pieces.append([]) }
      page = p
      self.itemCount = itemCount
      let tops = cloneInsets(\.insetTop)
      for i in stack.indices {
        stack[i].top = pageTop + tops[i]
        stack[i].item = itemCount
        stack[i].first = false
      }
    }
    for id in entry.opens where boxes.indices.contains(id) {
      stack.append(Open(id: id, top: top, item: itemCount, first: true))
    }
  }

  /// After an entry placed with its bottom at `bottom`; `itemCount` is the page's count.
  mutating func didPlace(_ entry: FlowEntry, bottom: Double, itemCount: Int) {
    self.itemCount = itemCount
    for _ in 0..<min(entry.closes, stack.count) {
      cut(stack.removeLast(), bottom: bottom, last: true)
    }
  }

  /// For each open box, the sum of `inset` over the cloned boxes outside it.
  private func cloneInsets(_ inset: KeyPath<FlowBox, Double>) -> [Double] {
    var sums: [Double] = []
    sums.reserveCapacity(stack.count)
    var sum = 0.0
    for o in stack {
      sums.append(sum)
      if boxes[o.id].clone { sum += boxes[o.id][keyPath: inset] }
    }
    return sums
  }

  private mutating func cut(_ open: Open, bottom: Double, last: Bool) {
    let box = boxes[open.id]
    let border = Rect(x: box.x, y: open.top, width: box.width, height: max(0, bottom - open.top))
    let first = open.first || box.clone
    let last = last || box.clone
    let top = first ? box.insetTop : 0
    let below = last ? box.insetBottom : 0
    let content = Rect(
      x: box.x + box.insetLeft, y: open.top + top,
      width: max(0, box.width - box.insetLeft - box.insetRight),
      height: max(0, border.height - top - below))
    var paint = box.paint
    if var p = paint {
      p.rect = border
      if !first {
        p.top = .none
        p.radii[0] = 0
        p.radii[1] = 0
      }
      if !last {
        p.bottom = .none
        p.radii[2] = 0
        p.radii[3] = 0
      }
      paint = p
    }
    let block = BlockFragment(
      index: box.index, tag: box.tag, textBlock: box.textBlock, border: border, content: content)
    pieces[page].append(
      Piece(item: open.item, end: itemCount, id: open.id, paint: paint, block: block))
  }

  /// Closes what is still open and merges the fragments into the pages' items and blocks.
  mutating func finish(_ pages: inout [Page]) {
    if page >= 0 {
      for i in stack.indices.reversed() { cut(stack[i], bottom: pageBottom, last: true) }
    }
    stack = []
    for p in pieces.indices where p < pages.count && !pieces[p].isEmpty {
      let sorted = pieces[p].sorted { ($0.item, $0.id) < ($1.item, $1.id) }
      pages[p].boxes = sorted.map(\.block)
      let painted = sorted.compactMap { piece in
        piece.paint.map { (item: piece.item, end: piece.end, paint: $0) }
      }
      guard !painted.isEmpty else { continue }
      pages[p].items = Self.merge(pages[p].items, painted)
    }
  }

  /// The page's items with the fragments' paints inserted before their first items; a
  /// clipping paint learns how many of the merged items after it are its content.
  private static func merge(
    _ items: [DisplayItem], _ painted: [(item: Int, end: Int, paint: BoxPaint)]
  ) -> [DisplayItem] {
    var merged: [DisplayItem] = []
    merged.reserveCapacity(items.count + painted.count)
    // Merged position of each original item (and of the end), for the clip counts.
    var position = [Int](repeating: 0, count: items.count + 1)
    var at: [Int] = []
    var k = 0
    for i in 0...items.count {
      position[i] = merged.count
      while k < painted.count && painted[k].item <= i {
        at.append(merged.count)
        merged.append(.box(painted[k].paint))
        k += 1
      }
      if i < items.count { merged.append(items[i]) }
    }
    for (j, piece) in painted.enumerated() where piece.paint.clippedItems > 0 {
      var paint = piece.paint
      paint.clippedItems = max(0, position[min(piece.end, items.count)] - at[j] - 1)
      merged[at[j]] = .box(paint)
    }
    return merged
  }
}
