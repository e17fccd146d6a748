// The vertical cut of an overflow-clipping box (CSS Overflow 3 §3, CSS 2.1 §11.1.1): a box
// with `overflow` other than `visible` and a definite `height` or `max-height` does not grow
// with its content; what lies below its padding box is not drawn.
//
// The box's content is already in the flow as entries when the box closes, so the cut walks
// those entries once (linear in them). The cut is the content box bottom (where layout
// ends); what is drawn reaches the padding box bottom. An entry that starts at or below the
// padding box bottom is emptied (no lines, glyphs, images or formulas; no height, no
// space); an entry that crosses the cut is shortened to end on it, and one that starts
// between the cut and the padding box bottom to no height — their items stay, and the
// painter clips them to the padding box (`BoxPaint.clippedItems`), so a line crossing the
// padding box bottom shows its upper part. Box markers
// (`opens`/`closes`) stay on emptied entries, so nested boxes still open and close in pairs
// (with no height, at the cut, where the clip hides them).
//
// Manifest: a line that starts at or below the padding box bottom is not listed (it is not
// drawn); a line above it is listed (it is at least partly drawn). A block whose first line is hidden has no
// `blocks` entry. Rejected: keeping the hidden lines with a "hidden" flag — the manifest
// lists what a reader sees, and `lines` consumers (OCR ground truth) would have to filter.

extension ChapterFlow {
  /// Cuts the content of the box `frame` opened at `frame.clipContentHeight` below its
  /// content top, and moves the flow's end up to the cut.
  mutating func cutOverflow(_ frame: OpenBoxFrame) {
    let box = boxFlow.boxes[frame.id]
    guard box.opened, frame.firstEntry < entries.count else { return }
    let cut = box.flowTop + box.insetTop + frame.clipContentHeight
    guard boxFlow.flowY > cut + 0.01 || boxFlow.flowY + pendingSpace + marginPos > cut + 0.01
    else { return }
    // What hangs below the last child (its bottom margin) is below the cut too.
    pendingSpace = 0
    marginPos = 0
    marginNeg = 0
    let drawn = cut + frame.clipPadding
    var y = box.flowTop
    for i in frame.firstEntry..<entries.count {
      if i > frame.firstEntry { y += entries[i].spaceBefore }
      let top = y
      y += entries[i].height
      if top >= drawn - 0.01 {
        Self.hide(&entries[i])
      } else if y > cut {
        if top > cut { entries[i].spaceBefore = max(0, entries[i].spaceBefore - (top - cut)) }
        let visible = drawn - top
        entries[i].height = max(0, cut - top)
        entries[i].lines.removeAll { $0.rect.y >= visible - 0.01 }
        entries[i].blockBoxes.removeAll { $0.rect.y >= visible - 0.01 }
      }
    }
    boxFlow.flowY = min(boxFlow.flowY, cut)
  }

  /// Empties an entry that lies wholly below a cut, keeping its box markers and locations.
  private static func hide(_ e: inout FlowEntry) {
    e.spaceBefore = 0
    e.height = 0
    e.items = []
    e.lines = []
    e.images = []
    e.maths = []
    e.inlineBoxes = []
    e.blockBoxes = []
    e.baseline = nil
    e.repeatHeader = nil
  }
}
