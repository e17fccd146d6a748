// Positioned boxes on fixed-layout pages (CSS 2.1 §9.3, §9.6, §9.9): `position: absolute`
// and `fixed` boxes leave the flow and are placed by their offsets in their containing
// block; `relative` (and `sticky`, which is relative on a page that never scrolls) boxes
// keep their place in the flow and are drawn shifted by their offsets. `z-index` orders the
// layers: negative ones under the flow, the rest over it in (z-index, document) order. The
// width, height and place of an absolute box follow CSS 2.1's constraint equations
// (AbsoluteBoxes.swift); a `transform` moves the layer or draws it through a matrix
// (BoxMatrix.swift).
//
// Each positioned box is laid out on its own: a sub-flow (a copy of the chapter's flow with
// empty entries and boxes, sharing the shaper and hyphenation caches, which move back after)
// lays the box out as a static block between its containing block's edges, then one tall
// page of it is placed. The containing block is the ICB for a top-level box, and the
// padding box's horizontal extent of the nearest positioned ancestor otherwise (its layer
// moves with the ancestor's).
//
// Bounds: positioned boxes nest at most `maxDepth` deep (deeper ones are laid out in flow)
// and a page holds at most `maxLayers` of them (the rest are laid out in flow); each box is
// laid out once, so the cost stays linear in the chapter.

import QuireCore
import QuireIngest

/// The positioned boxes met by a fixed-layout flow.
struct PositionedBoxes: Sendable {
  static let maxDepth = 8
  static let maxLayers = 2_000

  /// One positioned box laid out: its items in page coordinates (already offset).
  struct Layer: Sendable {
    var z: Int
    var order: Int
    var items: [DisplayItem]
    var lines: [LineBox]
    var images: [ImagePlacement]
    var blocks: [BlockBox]
    var boxes: [BlockFragment]
  }

  /// True in a fixed-layout flow (reflowable chapters keep every box in the flow).
  var enabled = false
  /// How many positioned ancestors the flow is inside.
  var depth = 0
  /// The containing block's height for percentages and `bottom`, px.
  var containingHeight = 0.0
  var layers: [Layer] = []
  /// Layers placed so far in the whole page (shared count through nesting).
  var count = 0
  /// A `transform` with 3-D functions was met (reported once).
  var droppedTransform = false
  /// The next block is the one a sub-flow lays out itself (it is not taken again).
  var bypassNext = false
}

extension ChapterFlow {
  /// Lays out a positioned `block` as a layer; false when it stays in the flow.
  mutating func takePositioned(_ block: Block, left: Double, right: Double) -> Bool {
    let box = block.box
    if positioned.bypassNext {
      positioned.bypassNext = false
      return false
    }
    // A box with an explicit height keeps that height on a fixed page (its content may
    // overflow it, and `overflow: hidden` cuts there): laid out as an in-flow layer.
    let sized = box.height != nil && block.kind != .table && block.inlines.isEmpty
    guard positioned.enabled, box.position != .static || box.transform != nil || sized,
      positioned.depth < PositionedBoxes.maxDepth, positioned.count < PositionedBoxes.maxLayers
    else { return false }
    positioned.droppedTransform = positioned.droppedTransform || box.transformDropped
    let out = box.position.isOutOfFlow
    let cbWidth = max(1, right - left)
    let cbHeight = positioned.containingHeight
    let span = out ? absoluteSpan(block, left: left, right: right) : (left, right)
    var layer = sublayout(block, left: span.0, right: max(span.0 + 1, span.1))
    if out,
      let height = absoluteHeight(
        block, lead: layer.lead, trail: layer.trail, cbWidth: cbWidth)
    {
      layer.height = layer.lead + cut(&layer.page, borderHeight: height, top: layer.lead)
    } else if sized {
      let height = specifiedHeight(block, cbWidth)
      layer.height = layer.lead + cut(&layer.page, borderHeight: height, top: layer.lead)
    }
    if !out { collapse(layer.lead) }  // an in-flow box's top margin collapses with the flow's
    flushMargins()
    let staticY = boxFlow.flowY + pendingSpace
    var dx = 0.0
    var dy = 0.0
    if out {
      dy = absoluteTop(
        block, height: layer.height - layer.lead, lead: layer.lead, trail: layer.trail,
        staticY: staticY)
    } else {
      dx =
        box.position == .static
        ? 0 : (offset(box.left, cbWidth) ?? -(offset(box.right, cbWidth) ?? 0))
      dy = staticY - layer.lead
      if box.position != .static {
        dy += offset(box.top, cbHeight) ?? -(offset(box.bottom, cbHeight) ?? 0)
      }
      // The box keeps its place in the flow.
      var spacer = FlowEntry(
        spaceBefore: 0, height: max(0, layer.height - layer.lead), start: block.location,
        end: lastLocation)
      if box.position == .static && box.transform == nil {
        // A sized static box paints in flow order (inside its ancestors' clips): its items
        // ride on the entry that holds its place.
        layer.page.shift(dx: 0, dy: -layer.lead)
        spacer.items = layer.page.items
        spacer.lines = layer.page.lines
        spacer.images = layer.page.images
        append(spacer)
        collapse(layer.trail)
        positioned.count += 1 + layer.nested.count
        addNested(layer.nested, dx: 0, dy: staticY - layer.lead)
        return true
      }
      append(spacer)
      collapse(layer.trail)
    }
    layer.page.shift(dx: dx, dy: dy)
    positioned.count += 1 + layer.nested.count
    place(layer.page, block, nested: layer.nested, dx: dx, dy: dy, top: dy + layer.lead)
    return true
  }

  /// An offset (`top`, `left`…) in px of `base`; nil for `auto`.
  func offset(_ l: Length?, _ base: Double) -> Double? { l.map { px($0, of: base) } }

  /// Adds a laid-out box's layer (already moved by dx, dy) and its descendants' layers:
  /// through its `transform` when it has one (BoxMatrix.swift).
  private mutating func place(
    _ page: Page, _ block: Block, nested: [PositionedBoxes.Layer], dx: Double, dy: Double,
    top: Double
  ) {
    var layer = PositionedBoxes.Layer(
      z: block.box.zIndex ?? 0, order: positioned.layers.count, items: page.items,
      lines: page.lines, images: page.images, blocks: page.blocks, boxes: page.boxes)
    guard let transform = block.box.transform, !transform.functions.isEmpty else {
      positioned.layers.append(layer)
      addNested(nested, dx: dx, dy: dy)
      return
    }
    let border =
      page.boxes.first?.border
      ?? PositionedBoxes.Layer.extent([], lines: page.lines, images: page.images, boxes: [])
    let m = matrix(
      transform, origin: (block.box.transformOriginX, block.box.transformOriginY),
      border: border)
    var moved = nested
    for i in moved.indices { moved[i].shift(dx: dx, dy: dy) }
    if m.isTranslation {
      layer.shift(dx: m.e, dy: m.f)
      positioned.layers.append(layer)
      addNested(moved, dx: m.e, dy: m.f)
    } else {
      layer.transform(by: m, nested: moved)
      positioned.layers.append(layer)
    }
  }

  /// The layers of a laid-out box's positioned descendants, moved with it.
  private mutating func addNested(_ nested: [PositionedBoxes.Layer], dx: Double, dy: Double) {
    for var layer in nested {
      layer.order = positioned.layers.count
      layer.shift(dx: dx, dy: dy)
      positioned.layers.append(layer)
    }
  }

  /// `block` laid out alone (as a static box) between `left` and `right` on one tall page.
  private mutating func sublayout(_ block: Block, left: Double, right: Double) -> (
    page: Page, height: Double, lead: Double, trail: Double, nested: [PositionedBoxes.Layer]
  ) {
    var sub = self
    sub.shaper = shaper.take()
    sub.entries = []
    sub.boxFlow = BoxFlow()
    sub.floatArea = FloatArea()
    sub.pendingSpace = 0
    sub.marginPos = 0
    sub.marginNeg = 0
    sub.pendingBreak = false
    sub.pendingMarker = nil
    sub.positioned = PositionedBoxes(
      enabled: true, depth: positioned.depth + 1, containingHeight: positioned.containingHeight,
      count: positioned.count + 1, bypassNext: true)
    var inner = block
    inner.box.position = .static
    inner.box.transform = nil
    sub.layout(blocks: [inner], left: left, right: right)
    sub.endFloats()
    shaper = sub.shaper.take()
    hyphenation = sub.hyphenation
    missing = sub.missing
    notes = sub.notes
    nextBlock = sub.nextBlock
    positioned.droppedTransform = positioned.droppedTransform || sub.positioned.droppedTransform
    let height = sub.entries.reduce(0) { $0 + $1.spaceBefore + $1.height }
    var tall = options
    tall.height = 10_000_000
    tall.margins = LayoutOptions.Margins(top: 0, right: 0, bottom: 0, left: 0)
    let pages = Paginator(options: tall).pages(
      sub.entries, spine: spine, href: "", fallback: block.location, boxes: sub.boxFlow.boxes)
    let page =
      pages.first
      ?? Page(number: 1, spine: spine, href: "", start: block.location, end: block.location)
    let lead = sub.entries.first?.spaceBefore ?? 0
    return (page, height, lead, sub.marginPos + sub.marginNeg, sub.positioned.layers)
  }

  /// The block's explicit `height` as a border-box height, px.
  func specifiedHeight(_ block: Block, _ cbWidth: Double) -> Double {
    let specified = block.box.height.map { px($0, of: positioned.containingHeight) } ?? 0
    var height = max(0, specified)
    if block.box.boxSizing == .contentBox { height += verticalEdges(block, cbWidth) }
    return height
  }

  /// Border and padding above and below the block's content, px.
  private func verticalEdges(_ block: Block, _ cbWidth: Double) -> Double {
    let border = block.box.border
    return max(0, px(block.style.padding.top, of: cbWidth))
      + max(0, px(block.style.padding.bottom, of: cbWidth))
      + (border.top.style.isVisible ? max(0, px(border.top.usedWidth, of: cbWidth)) : 0)
      + (border.bottom.style.isVisible ? max(0, px(border.bottom.usedWidth, of: cbWidth)) : 0)
  }

  /// Gives the layer's own box (its first box item, at `top`) the border-box height
  /// `height`; returns that height.
  private func cut(_ page: inout Page, borderHeight height: Double, top: Double) -> Double {
    if let k = page.items.firstIndex(where: { if case .box = $0 { true } else { false } }),
      case .box(var paint) = page.items[k], abs(paint.rect.y - top) < 0.5
    {
      paint.rect.height = height
      page.items[k] = .box(paint)
    }
    if !page.boxes.isEmpty { page.boxes[0].border.height = height }
    return height
  }
}

extension PositionedBoxes.Layer {
  mutating func shift(dx: Double, dy: Double) {
    shiftContent(&items, &lines, &images, &blocks, &boxes, dx: dx, dy: dy)
  }
}

/// Moves display items and the boxes the manifest reports by (dx, dy): a page and a
/// positioned layer hold the same five lists.
private func shiftContent(
  _ items: inout [DisplayItem], _ lines: inout [LineBox], _ images: inout [ImagePlacement],
  _ blocks: inout [BlockBox], _ boxes: inout [BlockFragment], dx: Double, dy: Double
) {
  for i in items.indices { items[i].shift(dx: dx, dy: dy) }
  for i in lines.indices {
    lines[i].rect.x += dx
    lines[i].rect.y += dy
  }
  for i in images.indices {
    images[i].rect.x += dx
    images[i].rect.y += dy
  }
  for i in blocks.indices {
    blocks[i].rect.x += dx
    blocks[i].rect.y += dy
  }
  for i in boxes.indices { boxes[i].shift(dx: dx, dy: dy) }
}

extension Page {
  /// Moves everything on the page by (dx, dy).
  mutating func shift(dx: Double, dy: Double) {
    shiftContent(&items, &lines, &images, &blocks, &boxes, dx: dx, dy: dy)
  }

  /// Puts the layers on the page: negative z-index under the flow, the others over it, each
  /// group in (z-index, document order).
  mutating func add(_ layers: [PositionedBoxes.Layer]) {
    let sorted = layers.sorted { ($0.z, $0.order) < ($1.z, $1.order) }
    let under = sorted.filter { $0.z < 0 }.flatMap(\.items)
    items = under + items + sorted.filter { $0.z >= 0 }.flatMap(\.items)
    for layer in sorted {
      lines += layer.lines
      images += layer.images
      blocks += layer.blocks
      boxes += layer.boxes
    }
  }
}

extension BlockFragment {
  mutating func shift(dx: Double, dy: Double) {
    border.x += dx
    border.y += dy
    content.x += dx
    content.y += dy
  }
}

extension DisplayItem {
  /// Moves the item by (dx, dy) in place.
  package mutating func shift(dx: Double, dy: Double) {
    if dx == 0 {
      shift(dy: dy)
      return
    }
    switch self {
    case .glyphs(var run):
      self = .fill(Rect(x: 0, y: 0, width: 0, height: 0), .black)
      let (fx, fy) = (Float(dx), Float(dy))
      for i in run.x.indices { run.x[i] += fx }
      for i in run.y.indices { run.y[i] += fy }
      self = .glyphs(run)
    case .image(var p):
      p.rect.x += dx
      p.rect.y += dy
      p.clip?.x += dx
      p.clip?.y += dy
      self = .image(p)
    case .fill(var r, let c):
      r.x += dx
      r.y += dy
      self = .fill(r, c)
    case .box(var b):
      b.rect.x += dx
      b.rect.y += dy
      self = .box(b)
    case .path(let p):
      self = .path(p.mapped { ($0 + dx, $1 + dy) })
    case .transformed(var g):
      g.matrix.e += dx
      g.matrix.f += dy
      self = .transformed(g)
    }
  }
}

extension PositionedBoxes {
  /// One warning when a `transform` had 3-D functions that were not drawn.
  func diagnostics(file: String, spine: Int) -> [Diagnostic] {
    guard droppedTransform else { return [] }
    return [
      Diagnostic(
        .rendition, file: file, spine: spine,
        message: "transform: 3-D transform functions are not drawn on fixed-layout pages")
    ]
  }
}
