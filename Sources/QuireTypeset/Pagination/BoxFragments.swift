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
    /// Opened inside a column set: moves with its column and is cut where a column ends.
    var inColumn = false
    /// Its column's offset, px.
    var shift = 0.0
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
  /// The column the last entry went into (set, offset), and that entry's bottom.
  private var column: (set: Int, shift: Double)? = nil
  private var lastBottom = 0.0

  init(boxes: [FlowBox], pageTop: Double, pageBottom: Double) {
    self.boxes = boxes
    self.pageTop = pageTop
    self.pageBottom = pageBottom
  }

  /// Before an entry's items go on `page` at `top`, moved right by `shift` (its column's
  /// offset); `itemCount` is the page's item count.
  mutating func willPlace(
    _ entry: FlowEntry, page p: Int, top: Double, itemCount: Int, shift: Double = 0
  ) {
    if let set = entry.columnSet {
      nextColumn(set: set, shift: shift, page: p, top: top, itemCount: itemCount)
    }
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
        if stack[i].inColumn, let c = column { stack[i].shift = c.shift }
        stack[i].top = pageTop + tops[i]
        stack[i].item = itemCount
        stack[i].first = false
      }
    }
    for id in entry.opens where boxes.indices.contains(id) {
      stack.append(
        Open(
          id: id, top: top, item: itemCount, first: true, inColumn: entry.columnSet != nil,
          shift: shift))
    }
  }

  /// A column set's entry: when it starts another column on the same page, the boxes open
  /// in the previous column end at its last entry and go on at this entry's top, moved.
  private mutating func nextColumn(
    set: Int, shift: Double, page p: Int, top: Double, itemCount: Int
  ) {
    defer { column = (set, shift) }
    guard p == page, let c = column, c.set == set, c.shift != shift else { return }
    self.itemCount = itemCount
    for i in stack.indices.reversed() where stack[i].inColumn {
      cut(stack[i], bottom: lastBottom, last: false)
      stack[i].top = top
      stack[i].item = itemCount
      stack[i].first = false
      stack[i].shift = shift
    }
  }

  /// After an entry placed with its bottom at `bottom`; `itemCount` is the page's count.
  mutating func didPlace(_ entry: FlowEntry, bottom: Double, itemCount: Int) {
    lastBottom = bottom
    if entry.columnSet == nil { column = nil }
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
    let x = box.x + open.shift
    let border = Rect(x: x, y: open.top, width: box.width, height: max(0, bottom - open.top))
    let first = open.first || box.clone
    let last = last || box.clone
    let top = first ? box.insetTop : 0
    let below = last ? box.insetBottom : 0
    let content = Rect(
      x: x + box.insetLeft, y: open.top + top,
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
