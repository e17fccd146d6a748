// Block boxes: where each text block (paragraph, heading, list item, cell, anonymous
// paragraph) sits on a page, for the manifest's `blocks` and the browser oracle that compares
// them with a browser's (scripts/browser-oracle.py).
//
// A box is the block's content box: x and width are the left and right edges its lines are
// set between (after its margins, borders, padding and list indent; text-indent and
// alignment move lines, not the box), so they are the same on every page. y and height are
// the fragment on one page: from the top of its first line there to the bottom of its last.
// Units: page pixels, like `LineBox`.
//
// Recording: the inline stage knows the edges and hangs one box on the block's first flow
// entry (`FlowEntry.blockBoxes`, moved along when a table row merges its cells' entries);
// after pagination `BlockBoxes.place` gives every page a box per block among its lines.
// Rejected: edges on every `LineBox` (the manifest would repeat them per line, and a line
// knows nothing of its block's element), and recording fragments during page splitting
// (the splitter works on heights only and should stay that way).

import QuireIngest

/// One text block's content box on one page (see the file comment).
package struct BlockBox: Sendable, Hashable {
  /// The block's number in reading order, as in `LineBox.block`.
  package var index: Int
  /// Element name ("p", "h2", "li", "td"), "" for an anonymous paragraph.
  package var tag: String
  /// `Block.source`: the element's preorder ordinal in its chapter document (an anonymous
  /// paragraph has its parent's), −1 when unknown.
  package var source: Int
  /// Content box: x and width for the block, y and height for this page's fragment.
  package var rect: Rect
  /// The block's computed font size, px.
  package var fontSize: Double
  /// The list marker set before the block's first line, if any.
  package var marker: String?
  /// A note moved out of the running text (`--footnotes foot` or `end`): set smaller, at the
  /// foot of the page or the chapter's end, so only its horizontal edges compare with where
  /// the book put it.
  package var note = false
  /// For a block inside an inline block: its x from the left edge of the innermost inline
  /// block's content box (an inline table's border box), which the line put somewhere the
  /// browser oracle does not compare; nil elsewhere.
  package var inlineX: Double? = nil

  package init(
    index: Int, tag: String, source: Int, rect: Rect, fontSize: Double, marker: String? = nil
  ) {
    self.index = index
    self.tag = tag
    self.source = source
    self.rect = rect
    self.fontSize = fontSize
    self.marker = marker
  }
}

/// Turns the boxes recorded on flow entries into per-page fragments.
enum BlockBoxes {
  /// Gives each page a box for every block with lines on it, in the order of its lines:
  /// x and width from `boxes` (by block index), y and height spanning the block's lines there.
  /// Linear in the number of lines.
  /// `lineShifts[p][i]`, when given, is how far line i of page p moved into its column: a
  /// block gets a box per column it has lines in, moved as far.
  static func place(
    _ boxes: [Int: BlockBox], on pages: inout [Page], lineShifts: [[Double]] = []
  ) {
    guard !boxes.isEmpty else { return }
    for p in pages.indices {
      var out: [BlockBox] = []
      var at: [Int: Int] = [:]
      // The block of the last line given a box and `at`'s entry for it.
      var last = (block: Int.min, k: -1)
      let shifts = p < lineShifts.count ? lineShifts[p] : []
      // Lines read in place (`for line in` copied each); a line of the same block as the
      // line before it, outside columns, grows that box without two hash lookups and a
      // box copy (nearly every line; this function was 18 M instructions on moby-dick).
      for n in pages[p].lines.indices {
        let role = pages[p].lines[n].role
        guard role == .text || role == .note else { continue }
        let (block, rect) = (pages[p].lines[n].block, pages[p].lines[n].rect)
        if block == last.block && n >= shifts.count {
          grow(&out[last.k].rect, to: rect)
          continue
        }
        guard var box = boxes[block] else { continue }
        if n < shifts.count {
          box.rect.x += shifts[n]
          if let k = at[block], abs(out[k].rect.x - box.rect.x) > 0.01 { at[block] = nil }
        }
        if let k = at[block] {
          grow(&out[k].rect, to: rect)
          last = (block, k)
        } else {
          at[block] = out.count
          last = (block, out.count)
          box.rect.y = rect.y
          box.rect.height = rect.height
          out.append(box)
        }
      }
      pages[p].blocks = out
    }
  }

  /// Widens a box's fragment down and up to cover `line`.
  private static func grow(_ r: inout Rect, to line: Rect) {
    let top = min(r.y, line.y)
    let bottom = max(r.maxY, line.maxY)
    r.y = top
    r.height = bottom - top
  }
}

extension ChapterFlow {
  /// Hangs the content box of the block whose lines start at `entries[first]` on that entry.
  mutating func recordBlockBox(
    _ block: Block, number: Int, from first: Int, left: Double, right: Double, marker: String?
  ) {
    guard entries.indices.contains(first) else { return }
    entries[first].blockBoxes.append(
      BlockBox(
        index: number, tag: block.element, source: block.source,
        rect: Rect(x: left, y: 0, width: max(0, right - left), height: 0),
        fontSize: options.fontSize * block.style.fontSize, marker: marker))
  }
}
