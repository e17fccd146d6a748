// CSS floats in the block flow (CSS 2.1 §9.5, §9.5.1, §9.5.2): a floated image block is
// taken out of the flow and put against the left or right content edge at the flow's
// current bottom; the line boxes beside it are shortened, block boxes are not. Floats that
// hold text (blocks, tables, inline elements, drop caps) are laid out in FloatBlocks.swift
// and placed and wrapped by the same rules; inline floats at their own line
// (InlineFloats.swift). §9.5: a line box too short beside the floats for any content is
// shifted down. A paragraph whose first line would have less than 3 em beside the floats
// starts below them before it is shaped (3 em stands for its first word); once broken, any
// of its lines whose room is narrower than its first word moves below the floats
// (`narrowLine`, InlineFloats.swift), the rest of the paragraph broken again from there.
//
// Coordinates. A float is placed in the chapter's *flow* coordinates: x in page px, y the
// running height of the chapter's entries (`BoxFlow.flowY`, the same running sum the box
// layout uses). Its margin box is kept in a `FloatArea` until the flow passes its bottom.
//
// Entries. The float becomes a zero-height `FlowEntry` whose items hang below its top (the
// image drawn at its margin offset), inserted without flushing the collapsed margins (the
// margins of floats never collapse with anything, and the in-flow blocks around it collapse
// as if it were not there). Every entry that starts beside the float joins one keep-together
// group with it (the group's id is the float entry's index, as in BlockBreaks.swift), so the
// page splitter moves the float and the text wrapped round it as one: a float that does not
// fit in the remaining page space starts the next page together with its lines, and floats
// never cross the page bottom. A group taller than a page is cut by the splitter as before.
// When the chapter (or a `clear`) ends before a float does, a spacer entry takes the rest of
// the float's height, so floats end at the chapter end.
//
// Line widths. The breaker already asks for each line's measure by line number; a paragraph
// that starts beside a float gets `LineBand`s, one per line while the lines are beside it:
// the estimated line top is the paragraph's first line top plus the line number times the
// block's strut height, and the band is the room the floats leave there (the first line's
// indent still applies inside it). Lines past the floats get the full measure again. Lines
// taller than the strut (a large inline image) are estimated high, which only makes a band
// narrower than needed, never one that overlaps a float.
//
// Placement (rules 1–9, reduced). A left float goes right of earlier left floats that
// overlap it vertically, a right float left of earlier right floats; its top is never above
// an earlier float's top (rule 5) nor the flow's bottom (rule 4); when the room left between
// the floats is narrower than it, it moves down to the next float bottom (rule 8), at most
// once per float in the area, so placement is linear in the floats kept. At most
// `FloatArea.maxFloats` floats are beside the flow at once; further ones are set in the flow.
//
// Cost. A chapter without floats pays one `isEmpty` test per paragraph and per block.
//
// Rejected: placing floats in the page splitter (after pagination, where the page is known)
// would need the paragraph to be re-broken per page, breaking the streaming splitter's
// one-pass design; laying out floats in the flow with a keep-together group keeps pagination
// unchanged.

import QuireIngest

/// A float's margin box in flow coordinates (x in page px, y from the chapter's top).
struct PlacedFloat: Sendable, Equatable {
  var side: FloatSide
  var left: Double
  var right: Double
  var top: Double
  var bottom: Double
}

/// The room one line has beside the floats: its left edge moves right by `inset` and its
/// measure shrinks by `cut`, px.
struct LineBand: Sendable, Equatable {
  var inset: Double
  var cut: Double
}

extension LineBand {
  /// Line `k`'s measure: `full` less the floats' cut (never below one px).
  static func measure(_ full: Double, _ bands: [LineBand], _ k: Int) -> Double {
    k < bands.count ? max(1, full - bands[k].cut) : full
  }
}

/// The floats of a chapter that are still beside the flow.
struct FloatArea: Sendable {
  /// Floats kept beside the flow at once (hostile books float thousands of images).
  static let maxFloats = 32
  /// Lines of a paragraph given their own band (the rest get the full measure).
  static let maxBands = 2_000

  private(set) var floats: [PlacedFloat] = []
  /// The keep-together group of the entries beside the floats (the first float's entry).
  var group: Int? = nil

  var isEmpty: Bool { floats.isEmpty }
  var count: Int { floats.count }
  var isFull: Bool { floats.count >= FloatArea.maxFloats }

  /// The lowest float bottom (nil without floats).
  var bottom: Double? { floats.map(\.bottom).max() }

  /// The left and right edges a band `top..<top + height` may use inside `left...right`.
  func edges(top: Double, height: Double, left: Double, right: Double) -> (Double, Double) {
    var lo = left
    var hi = right
    for f in floats where f.top < top + max(height, 0.01) && f.bottom > top {
      if f.side == .left { lo = max(lo, f.right) } else { hi = min(hi, f.left) }
    }
    return (lo, hi)
  }

  /// Where a float of margin box `width` × `height` goes on `side`, at or below `top`,
  /// inside `left...right` (see the file comment).
  func place(
    side: FloatSide, width: Double, height: Double, top: Double, left: Double, right: Double
  ) -> PlacedFloat {
    var y = max(top, floats.last?.top ?? top)
    for _ in 0...floats.count {
      let (lo, hi) = edges(top: y, height: height, left: left, right: right)
      let fits = hi - lo >= width - 0.01
      let next = floats.map(\.bottom).filter { $0 > y }.min()
      if fits || next == nil {
        let x = side == .left ? lo : hi - width
        return PlacedFloat(side: side, left: x, right: x + width, top: y, bottom: y + height)
      }
      y = next ?? y
    }
    let x = side == .left ? left : right - width
    return PlacedFloat(side: side, left: x, right: x + width, top: y, bottom: y + height)
  }

  /// The nearest float bottom below `y` (nil: none).
  func nextBottom(below y: Double) -> Double? {
    floats.map(\.bottom).filter { $0 > y + 0.01 }.min()
  }

  /// The bottom a block with `clear` must start at or below (nil: nothing to clear).
  func clearance(_ clear: ClearSide) -> Double? {
    let sides: [PlacedFloat] =
      switch clear {
      case .none: []
      case .left: floats.filter { $0.side == .left }
      case .right: floats.filter { $0.side == .right }
      case .both: floats
      }
    return sides.map(\.bottom).max()
  }

  mutating func add(_ f: PlacedFloat, group entry: Int) {
    if floats.isEmpty { group = entry }
    floats.append(f)
  }

  /// Forgets the floats whose bottom the flow has passed.
  mutating func prune(above y: Double) {
    floats.removeAll { $0.bottom <= y + 0.01 }
    if floats.isEmpty { group = nil }
  }

  /// The bands of a paragraph's lines from `top`, each `lineHeight` high, inside
  /// `left...right`; empty when no line is beside a float.
  func bands(top: Double, lineHeight: Double, left: Double, right: Double) -> [LineBand] {
    bands(
      lineTop: { top + Double($0) * lineHeight }, lineHeight: lineHeight, left: left, right: right)
  }

  /// The bands of a paragraph's lines, line `k` at `lineTop(k)` (ascending) and
  /// `lineHeight` high, inside `left...right`, up to the first line below every float.
  func bands(lineTop: (Int) -> Double, lineHeight: Double, left: Double, right: Double)
    -> [LineBand]
  {
    guard let end = bottom, lineHeight > 0.01 else { return [] }
    var out: [LineBand] = []
    for k in 0..<FloatArea.maxBands {
      let y = lineTop(k)
      guard y < end - 0.01 else { break }
      out.append(band(top: y, height: lineHeight, left: left, right: right))
    }
    return out
  }

  /// The room a line `top..<top + height` has beside the floats inside `left...right`.
  func band(top: Double, height: Double, left: Double, right: Double) -> LineBand {
    let (lo, hi) = edges(top: top, height: height, left: left, right: right)
    return LineBand(inset: max(0, lo - left), cut: max(0, lo - left) + max(0, right - hi))
  }
}

extension ChapterFlow {
  /// Where the next in-flow entry would start: the flow's bottom plus the collapsed margins
  /// waiting to go before it.
  var nextFlowTop: Double {
    boxFlow.flowY + max(0, pendingSpace + marginPos + marginNeg)
  }

  /// Lays out an image block that floats (true), or leaves it to the flow (false: it does
  /// not float, or the float area is full).
  mutating func floatedImage(_ block: Block, _ ref: ImageRef, left: Double, right: Double)
    -> Bool
  {
    let side = block.box.float != .none ? block.box.float : ref.box.float
    guard side != .none else { return false }
    return floatImage(ref, block: block, side: side, left: left, right: right)
  }

  /// Lays out a floated image block (see the file comment); false when the float area is
  /// full and the image goes in the flow instead.
  mutating func floatImage(
    _ ref: ImageRef, block: Block, side: FloatSide, left: Double, right: Double
  ) -> Bool {
    guard !floatArea.isFull, side != .none else { return false }
    placeFloat(
      imageFloat(ref, block: block, left: left, right: right), side: side,
      start: block.location, end: Location(spine: spine, offset: block.location.offset + 1),
      left: left, right: right)
    return true
  }

  /// A floated image's margin box (its CSS margins around the image's size) and what it
  /// draws, from the margin box's top-left.
  mutating func imageFloat(_ ref: ImageRef, block: Block, left: Double, right: Double)
    -> FloatPiece
  {
    let avail = max(1, right - left)
    let st = block.style
    let (mt, mr, mb, ml) = (
      px(st.margin.top, of: avail), px(st.margin.right, of: avail),
      px(st.margin.bottom, of: avail), px(st.margin.left, of: avail)
    )
    let size = imageSizing(available: max(1, avail - max(0, ml) - max(0, mr)))
      .resolve(ref, natural: naturalSize(ref))
    let width = min(avail, max(0, size.width + ml + mr))
    let height = max(0, size.height + mt + mb)
    let box = Rect(x: ml, y: mt, width: size.width, height: size.height)
    let content = Rect(
      x: box.x + size.content.x, y: box.y + size.content.y, width: size.content.width,
      height: size.content.height)
    var drawn = ImagePlacement(href: ref.href, rect: content)
    if size.clipped { drawn.clip = box }
    var holds = FloatContent(items: [.image(drawn)], lines: [], blockBoxes: [])
    holds.images = [ImagePlacement(href: ref.href, rect: box)]
    return FloatPiece(width: width, height: height, content: holds)
  }

  /// An inline that floats: an image, or an element blockified into a floating inline block.
  static func isFloated(_ inline: Inline) -> Bool {
    switch inline {
    case .image(let img): return img.image.box.float != .none
    case .inlineBlock(let ib): return ib.block.box.float != .none
    default: return false
    }
  }

  /// Inline-level floats: each floated image or element of a paragraph is laid out as a
  /// float and taken out of its inlines, in order, to be placed at its line
  /// (InlineFloats.swift). Floats past the room of the float area stay in the line.
  mutating func liftFloats(_ block: inout Block, left: Double, right: Double) -> [PendingFloat] {
    var lifted: [PendingFloat] = []
    var kept: [Inline] = []
    kept.reserveCapacity(block.inlines.count)
    let room = FloatArea.maxFloats - floatArea.count
    for inline in block.inlines {
      switch inline {
      case .image(let img) where img.image.box.float != .none && lifted.count < room:
        let floated = Block(
          kind: .image(img.image), style: img.style, location: img.location, element: "img")
        lifted.append(
          PendingFloat(
            piece: imageFloat(img.image, block: floated, left: left, right: right),
            side: img.image.box.float, start: img.location,
            end: Location(spine: spine, offset: img.location.offset + 1)))
      case .inlineBlock(let ib) where ib.block.box.float != .none && lifted.count < room:
        if let piece = floatInlineBox(ib, in: block, left: left, right: right) {
          lifted.append(
            PendingFloat(
              piece: piece, side: ib.block.box.float, start: ib.location,
              end: Location(spine: spine, offset: ib.end)))
        } else {
          kept.append(inline)
        }
      default:
        kept.append(inline)
      }
    }
    block.inlines = kept
    return lifted
  }

  /// Called for each entry the flow appends: entries that start beside a float join its
  /// keep-together group; floats the flow has passed are forgotten.
  mutating func floatsBeside(_ entry: inout FlowEntry) {
    let top = boxFlow.flowY + entry.spaceBefore
    if entry.forcedBreakBefore {
      floatArea = FloatArea()
      return
    }
    floatArea.prune(above: top)
    if let g = floatArea.group { entry.group = g }
  }

  /// `clear`: the space that moves a block's top below the floats it clears.
  mutating func clearFloats(_ clear: ClearSide) {
    guard !floatArea.isEmpty, let below = floatArea.clearance(clear) else { return }
    let gap = below - nextFlowTop
    if gap > 0.01 {
      // A spacer in the floats' group, so the page splitter keeps them above it.
      append(FlowEntry(spaceBefore: 0, height: gap, start: lastLocation, end: lastLocation))
    }
  }

  /// The chapter's end: a spacer takes the height of floats that reach past the last entry.
  mutating func endFloats() {
    guard !floatArea.isEmpty, let below = floatArea.bottom else { return }
    let gap = below - boxFlow.flowY
    if gap > 0.01 {
      append(FlowEntry(spaceBefore: 0, height: gap, start: lastLocation, end: lastLocation))
    }
    floatArea = FloatArea()
  }

  /// CSS 2.1 §9.5: a line box too narrow beside the floats to hold content moves down past
  /// them. Before a paragraph whose first line would have less than `minimum` px beside the
  /// floats, the flow moves down to the next float bottom (a spacer, in the floats' group),
  /// as often as needed. `minimum` stands for the first word's width, unknown before shaping.
  mutating func skipNarrowRoom(minimum: Double, lineHeight: Double, left: Double, right: Double) {
    for _ in 0...FloatArea.maxFloats {
      guard !floatArea.isEmpty else { return }
      let top = nextFlowTop
      let (lo, hi) = floatArea.edges(top: top, height: lineHeight, left: left, right: right)
      guard hi - lo < minimum, let next = floatArea.nextBottom(below: top) else { return }
      append(FlowEntry(spaceBefore: 0, height: next - top, start: lastLocation, end: lastLocation))
    }
  }

  /// The bands of a paragraph's lines beside the floats (empty without floats).
  func paragraphBands(lineHeight: Double, left: Double, right: Double) -> [LineBand] {
    guard !floatArea.isEmpty else { return [] }
    return floatArea.bands(top: nextFlowTop, lineHeight: lineHeight, left: left, right: right)
  }
}
