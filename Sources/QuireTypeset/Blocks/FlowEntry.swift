// The vertical list a chapter becomes before pagination: one entry per line box, image, rule
// or table row, each with the space above it and its split flags. Positions inside an entry
// are relative to the entry's top; the paginator only moves entries down.

import QuireIngest

struct FlowEntry: Sendable {
  /// Collapsed margins and padding between the previous entry and this one.
  var spaceBefore: Double
  var height: Double
  var items: [DisplayItem] = []
  var lines: [LineBox] = []
  var images: [ImagePlacement] = []
  /// `break-before: page` (or a break-after of what came before).
  var forcedBreakBefore = false
  /// Split flags for the page splitter (widows/orphans, keep-with-next).
  var avoidBreakBefore = false
  var avoidBreakAfter = false
  /// The text block a line belongs to (widows and orphans apply within it); nil otherwise.
  var block: Int? = nil
  var start: Location
  var end: Location
  /// Keep-together group (BlockBreaks.swift): no page break between entries sharing it.
  var group: Int? = nil
  /// CSS orphans and widows of the line's block (the page splitter's rules).
  var orphans: Int? = nil
  var widows: Int? = nil
  /// Content boxes of the text blocks whose first line is in this entry (`BlockBox`).
  var blockBoxes: [BlockBox] = []
  /// Boxes (`BoxFlow.boxes` indices, outermost first) whose border box starts at this
  /// entry's top.
  var opens: [Int] = []
  /// How many open boxes end at this entry's bottom (innermost first).
  var closes = 0
  /// The top and bottom insets of the `box-decoration-break: clone` boxes around this entry:
  /// a page starting with it begins that much lower, one ending after it keeps that much
  /// free at its foot (Pagination/BoxFragments.swift).
  var cloneTop = 0.0
  var cloneBottom = 0.0
  /// A table's header rows, drawn at the top of a page this entry starts (Blocks/TableLayout).
  var repeatHeader: TableHeaderRepeat? = nil
  /// Formulas in the entry (Math/MathPlacement.swift).
  var maths: [MathPlacement] = []
  /// Fragments of decorated inline boxes (Inline/InlineBoxEdges.swift).
  var inlineBoxes: [InlineBoxFragment] = []
  /// The baseline of the entry's line from its top (a paragraph's line), for inline blocks.
  var baseline: Double? = nil
  /// The column set the entry belongs to (`ChapterFlow.columnSets`), nil outside columns.
  var columnSet: Int? = nil
}

extension DisplayItem {
  /// Moves the item down in place (its arrays stay uniquely owned, so nothing is copied).
  mutating func shift(dy: Double) {
    switch self {
    case .glyphs(var run):
      self = .fill(Rect(x: 0, y: 0, width: 0, height: 0), .black)
      let d = Float(dy)
      run.y.withUnsafeMutableBufferPointer { ys in
        for i in ys.indices { ys[i] += d }
      }
      self = .glyphs(run)
    case .image(var p):
      p.rect.y += dy
      p.clip?.y += dy
      self = .image(p)
    case .fill(var r, let c):
      r.y += dy
      self = .fill(r, c)
    case .box(var b):
      b.rect.y += dy
      self = .box(b)
    case .path(let p):
      self = .path(p.mapped { ($0, $1 + dy) })
    case .transformed(var g):
      g.matrix.f += dy
      self = .transformed(g)
    }
  }

  func offset(dy: Double) -> DisplayItem {
    switch self {
    case .glyphs(var run):
      let d = Float(dy)
      for i in run.y.indices { run.y[i] += d }
      return .glyphs(run)
    case .image(var p):
      p.rect.y += dy
      p.clip?.y += dy
      return .image(p)
    case .fill(var r, let c):
      r.y += dy
      return .fill(r, c)
    case .box(var b):
      b.rect.y += dy
      return .box(b)
    case .path(let p):
      return .path(p.mapped { ($0, $1 + dy) })
    case .transformed(var g):
      g.matrix.f += dy
      return .transformed(g)
    }
  }
}
