// The size and place of an absolutely positioned box (CSS 2.1 §10.3.7 across, §10.6.4 down)
// in its containing block, for the fixed-layout flow (PositionedBoxes.swift).
//
// Across: with `left`, `right` and `width` all set the box is laid out between the offsets
// and its own margins solve the rest (`margin: auto` centres it; over-constrained, the right
// margin gives way, as in the flow). With `width: auto` and both offsets set it fills the
// space between them. Otherwise an auto width shrinks to fit — min(max(min-content,
// available), max-content) of its margin box, from the same intrinsic widths tables use
// (Blocks/TableMeasure.swift), the available width being the containing block's less the
// offsets that are set — and the box sits at `left`, against `right`, or at its static
// position (the containing block's start edge) when both are `auto`; auto margins count 0.
//
// Down: `top` wins, then `bottom` (the box's margin box ends `bottom` above the containing
// block's bottom), then the static position. With both set and `height: auto` the border box
// stretches between them; with `height` set too, `margin-top`/`margin-bottom: auto` split
// (or one takes) the free space, and otherwise `bottom` is ignored.

import QuireIngest

extension ChapterFlow {
  /// Where an absolute box's margin box is laid out across, page px.
  mutating func absoluteSpan(_ block: Block, left: Double, right: Double) -> (Double, Double) {
    let box = block.box
    let cbWidth = max(1, right - left)
    let l = offset(box.left, cbWidth)
    let r = offset(box.right, cbWidth)
    if let l, let r { return (left + l, right - r) }
    let width = marginBoxWidth(block, cbWidth, available: cbWidth - (l ?? 0) - (r ?? 0))
    if let l { return (left + l, left + l + width) }
    if let r { return (right - r - width, right - r) }
    return (left, left + width)
  }

  /// The margin-box width of an absolute box whose left or right is `auto`: from `width`
  /// (auto margins 0), else shrink-to-fit within `available`.
  private mutating func marginBoxWidth(_ block: Block, _ cbWidth: Double, available: Double)
    -> Double
  {
    if block.box.width != nil {
      // The used margins of the flow's solution are over-constrained ones; these are the
      // specified ones.
      let h = horizontal(block, containing: cbWidth)
      let margin = block.style.margin
      let ml = block.box.marginLeftAuto ? 0 : px(margin.left, of: cbWidth)
      let mr = block.box.marginRightAuto ? 0 : px(margin.right, of: cbWidth)
      return max(0, ml + h.borderBoxWidth + mr)
    }
    let preferred = intrinsicWidths(block, depth: 0)
    // A hair over max-content, so the line that measured it is not broken by rounding.
    return min(max(preferred.min, available), preferred.max + 0.01)
  }

  /// The border-box height the vertical equation gives an absolute box when its own height
  /// does not: `height`, or the space between `top` and `bottom`; nil to keep the content's.
  func absoluteHeight(
    _ block: Block, lead: Double, trail: Double, cbWidth: Double
  ) -> Double? {
    let box = block.box
    guard block.kind != .table else { return nil }
    if box.height != nil { return specifiedHeight(block, cbWidth) }
    let cbHeight = positioned.containingHeight
    guard let t = offset(box.top, cbHeight), let b = offset(box.bottom, cbHeight) else {
      return nil
    }
    return max(0, cbHeight - t - b - lead - trail)
  }

  /// Where an absolute box's margin box starts down the page (its layer's y offset).
  func absoluteTop(
    _ block: Block, height: Double, lead: Double, trail: Double, staticY: Double
  ) -> Double {
    let box = block.box
    let cbHeight = positioned.containingHeight
    let t = offset(box.top, cbHeight)
    let b = offset(box.bottom, cbHeight)
    switch (t, b) {
    case (let t?, let b?) where box.height != nil:
      let free = cbHeight - t - b - height - lead - trail
      if box.marginTopAuto && box.marginBottomAuto { return t + free / 2 }
      return box.marginTopAuto ? t + free : t
    case (let t?, _): return t
    case (nil, let b?): return cbHeight - b - trail - lead - height
    default: return staticY
    }
  }
}
