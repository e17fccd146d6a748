// Inline floats at their own line (CSS 2.1 §9.5.1 rule 6, §9.5): a floated element inside a
// paragraph (a floated `span`, a note, a line number, a floated inline image, a drop cap) is
// placed at the top of the line box that holds its source — no higher than the line holding
// any content before it — or, when it does not fit beside the content of that line before
// it, at the top of the next line; the lines from that one on wrap around it, so the
// paragraph's measure changes in the middle of the paragraph.
//
// Breaking. The floats are laid out first (FloatBlocks.swift: their margin boxes are known
// before the paragraph is broken) and taken out of the paragraph's inlines; each keeps its
// source offset, and the shaped paragraph's items give it an *anchor*: the first item at or
// after that offset. Then, float by float in source order:
//
//   1. break the paragraph from the first line not yet kept, with the line bands (the room
//      each line has beside the floats placed so far, FloatLayout.swift) — Knuth–Plass is
//      asked for each line's width by line number, so it sees the changing measure;
//   2. find the line j holding the float's anchor, and the natural width of that line's
//      content before the anchor;
//   3. place the float at line j's estimated top (the paragraph's top plus j strut heights,
//      the estimate the bands use); if the placement moves it down, or the room left on
//      line j is narrower than the content before the anchor, place it at line j + 1's top;
//   4. keep the lines above the float's line (the float cannot change them: it is below
//      them) and go on from its line with the float in the bands.
//
// Lines too narrow (§9.5: "if a shortened line box is too small to contain any content,
// then the line box is shifted downward … until either it fits or there are no more floats
// present"). Each pass checks the lines it keeps: a line beside a float whose room is
// narrower than the least it can hold (its items up to its first break opportunity — the
// next word) is not kept; it moves down to the next float bottom (a *drop*: its estimated
// top, and the lines after it one strut apart) and the paragraph is broken again from it.
// A paragraph beside block floats without inline floats takes the same passes. When set, a
// dropped line is preceded by a spacer down to where the floats actually placed leave it
// the room it was broken for (`dropLine`).
//
// The last pass keeps every line. A float whose line is past the paragraph's end (it did not
// fit beside the last line) goes below the paragraph, with the floats after it.
//
// Setting. While the composed lines become flow entries, each float's zero-height entry goes
// in just before its line's (so the lines beside it join its keep-together group, not the
// lines above), at the line's real top when the lines above were taller than the estimate
// (lines below are then at least as much lower, so none overlaps the float); its line boxes
// then move after the line its source sits in (`moveFloatLines`, reading order).
//
// Cost. A paragraph without floats takes none of this (one `isEmpty` test). With floats, at
// most `FloatArea.maxFloats` floats are lifted (the rest stay in the line as inline blocks),
// and each float breaks the rest of the paragraph once more: at most 33 breaks of one
// paragraph part, bounded by `InlineCaps.maxParagraphScalars`; each drop passes a float
// bottom, at most 2 × `FloatArea.maxFloats` drops a paragraph.
//
// Rejected: placing every inline float at the paragraph's top (what this replaced; a float
// further down a paragraph of many lines stood higher than its source, and the paragraph was
// set again with the float in the line when its text fell out of order) and breaking line by
// line greedily beside the floats (what browsers do; it gives up total-fit for the whole
// paragraph when only the lines from the float's on need another measure).

import QuireIngest

/// A floated element of a paragraph, laid out and waiting for its line.
struct PendingFloat {
  var piece: FloatPiece
  var side: FloatSide
  var start: Location
  var end: Location
}

/// A paragraph's line breaks with its inline floats placed beside its lines.
struct FloatedLines {
  var breaks: [LineBreak] = []
  /// The room each line was broken with (the composer's bands).
  var bands: [LineBand] = []
  /// The floats in source order: the line each is set before (`breaks.count`: after the
  /// last) and its margin box at the estimated line top.
  var placed: [(float: PendingFloat, line: Int, box: PlacedFloat)] = []
  /// The floats set so far (their entries, for `moveFloatLines`).
  var lifted: [LiftedFloat] = []
  /// Lines moved down past the floats, too narrow beside them for their first word
  /// (CSS 2.1 §9.5): line `line` starts at `top`, the lines after it one strut apart.
  var drops: [(line: Int, top: Double)] = []

  /// Line `k`'s estimated top: `top` plus `k` strut heights, or its last drop's top plus
  /// the lines since.
  func lineTop(_ k: Int, top: Double, lineHeight h: Double) -> Double {
    guard let d = drops.last(where: { $0.line <= k }) else { return top + Double(k) * h }
    return d.top + Double(k - d.line) * h
  }

  /// Whether line `k` was moved down past the floats.
  func dropsLine(_ k: Int) -> Bool { drops.contains { $0.line == k } }

  /// Keeps `found` (lines from line `breaks.count` on) up to `count` lines, with the bands
  /// they were broken with.
  mutating func keep(_ found: [LineBreak], count: Int, bands all: [LineBand]) {
    for b in found.prefix(count) {
      let k = breaks.count
      breaks.append(b)
      bands.append(k < all.count ? all[k] : LineBand(inset: 0, cut: 0))
    }
  }
}

extension ChapterFlow {
  /// The anchor of each float (source offsets ascending): the first item of `shaped` whose
  /// text stands at or after the float's source offset (the last item when none does).
  static func floatAnchors(_ offsets: [Int], shaped: ShapedParagraph, sources: [Int]) -> [Int] {
    let items = shaped.sources
    func offset(_ k: Int) -> Int {
      let t: Int
      switch items[k] {
      case .piece(let p), .letter(let p): t = shaped.pieces[p].start
      case .space(let s, _), .soft(let s, _), .plain(let s), .cloneSide(let s): t = s
      case .edge(let e): t = shaped.edges[e].scalar
      case .end: return Int.max
      }
      return t < sources.count ? sources[t] : Int.max
    }
    var out: [Int] = []
    var k = 0
    for o in offsets {
      while k < items.count && offset(k) < o { k += 1 }
      out.append(min(k, max(0, items.count - 1)))
    }
    return out
  }

  /// The natural width of `items[range]` (boxes and glue), px.
  static func naturalWidth(_ items: [BreakItem], _ range: Range<Int>) -> Double {
    var w = 0.0
    for k in range {
      switch items[k] {
      case .box(let v), .glue(let v, _, _): w += v
      case .penalty: break
      }
    }
    return w
  }

  /// Stage 4 for a paragraph beside floats or with inline floats (see the file comment):
  /// the breaks, the bands, the lines moved below the floats and where each float goes.
  /// `top` is the paragraph's top in flow coordinates, `lineHeight` its strut height.
  func breakBesideFloats(
    _ floats: [PendingFloat], shaped: ShapedParagraph, sources: [Int], breaking: InlineBreaking,
    top: Double, lineHeight h: Double, left: Double, right: Double
  ) -> FloatedLines {
    let items = shaped.items
    let anchors = ChapterFlow.floatAnchors(
      floats.map(\.start.offset), shaped: shaped, sources: sources)
    var area = floatArea
    var out = FloatedLines()
    var breaking = breaking
    var (start, next) = (0, 0)
    while start < items.count {
      breaking.bands = area.bands(
        lineTop: { out.lineTop($0, top: top, lineHeight: h) }, lineHeight: h, left: left,
        right: right)
      let line0 = out.breaks.count
      let first = line0 == 0 || (breaking.eachLine && Self.endsForced(out.breaks.last, items))
      let found = breaking.lines(items, from: start, firstLine: line0, first: first)
      // Where the next float goes (past the lines found when none is left).
      let float =
        next < floats.count && !found.isEmpty
        ? placeInlineFloat(
          floats[next], anchor: anchors[next], items: items, found: found, start: start,
          first: first,
          area: area, lines: out, breaking: breaking, top: top, lineHeight: h, left: left,
          right: right) : nil
      let kept = float.map { $0.line - line0 } ?? found.count
      // A kept line too narrow beside the floats for its first word moves below them; the
      // paragraph is broken again from it.
      if let m = Self.narrowLine(
        found.prefix(kept), start: start, line0: line0, first: first, items: items,
        breaking: breaking),
        out.drops.count < 2 * FloatArea.maxFloats,
        let below = area.nextBottom(below: out.lineTop(line0 + m, top: top, lineHeight: h))
      {
        out.keep(found, count: m, bands: breaking.bands)
        if m > 0 { start = ParagraphMeasure.lineStart(afterBreak: found[m - 1].index, in: items) }
        out.drops.append((line0 + m, below))
        continue
      }
      guard let float else {
        out.keep(found, count: found.count, bands: breaking.bands)
        break
      }
      out.keep(found, count: kept, bands: breaking.bands)
      if kept < found.count, kept > 0 {
        start = ParagraphMeasure.lineStart(afterBreak: found[kept - 1].index, in: items)
      } else if kept >= found.count {
        start = items.count  // below the paragraph: the floats after it go there too
      }
      area.add(float.box, group: 0)
      out.placed.append((floats[next], float.line, float.box))
      next += 1
    }
    // Floats left when the paragraph ended: below its last line, in order.
    while next < floats.count {
      let f = floats[next]
      let box = area.place(
        side: f.side, width: f.piece.width, height: f.piece.height,
        top: out.lineTop(out.breaks.count, top: top, lineHeight: h), left: left, right: right)
      area.add(box, group: 0)
      out.placed.append((f, out.breaks.count, box))
      next += 1
    }
    return out
  }

  /// Where an inline float goes among the lines `found` from line `lines.breaks.count` on:
  /// the line holding its anchor, or the next one when it does not fit beside that line's
  /// content before the anchor (§9.5.1 rule 6), and its margin box there.
  func placeInlineFloat(
    _ f: PendingFloat, anchor: Int, items: [BreakItem], found: [LineBreak], start: Int,
    first: Bool, area: FloatArea, lines: FloatedLines, breaking: InlineBreaking, top: Double,
    lineHeight h: Double, left: Double, right: Double
  ) -> (line: Int, box: PlacedFloat) {
    // The line holding the anchor, and where it starts.
    var (j, lineStart) = (0, start)
    while j < found.count - 1 && found[j].index < anchor {
      lineStart = ParagraphMeasure.lineStart(afterBreak: found[j].index, in: items)
      j += 1
    }
    let before = Self.naturalWidth(items, lineStart..<max(lineStart, anchor))
    let measure = j == 0 && first ? breaking.firstWidth : breaking.width
    var line = lines.breaks.count + j
    func place(_ line: Int) -> PlacedFloat {
      area.place(
        side: f.side, width: f.piece.width, height: f.piece.height,
        top: lines.lineTop(line, top: top, lineHeight: h), left: left, right: right)
    }
    var box = place(line)
    var trial = area
    trial.add(box, group: 0)
    let y = lines.lineTop(line, top: top, lineHeight: h)
    let band = trial.band(top: y, height: h, left: left, right: right)
    if box.top > y + 0.01 || LineBand.measure(measure, [band], 0) < before - 0.01 {
      line += 1
      box = place(line)
    }
    return (line, box)
  }

  /// The first of `lines` (line `line0` of the paragraph on, the first starting at item
  /// `start`) whose room beside the floats is narrower than the least it can hold: its
  /// content up to its first break opportunity (CSS 2.1 §9.5); nil when every line fits.
  static func narrowLine(
    _ lines: ArraySlice<LineBreak>, start: Int, line0: Int, first: Bool, items: [BreakItem],
    breaking: InlineBreaking
  ) -> Int? {
    var lineStart = start
    for (m, b) in lines.enumerated() {
      let k = line0 + m
      if k < breaking.bands.count, breaking.bands[k].cut > 0.01 {
        let full = m == 0 && first ? breaking.firstWidth : breaking.width
        let room = LineBand.measure(full, breaking.bands, k)
        if leadingWidth(items, from: lineStart) > room + 0.01 { return m }
      }
      lineStart = ParagraphMeasure.lineStart(afterBreak: b.index, in: items)
    }
    return nil
  }

  /// The natural width of the least a line starting at item `start` holds: its items up to
  /// its first legal break (a hyphen's width included), px. Linear in that line's items.
  static func leadingWidth(_ items: [BreakItem], from start: Int) -> Double {
    var w = 0.0
    for k in start..<items.count {
      switch items[k] {
      case .box(let v): w += v
      case .glue(let v, _, _):
        if k > start && items[k - 1].isBox { return w }
        w += v
      case .penalty(let v, let cost, _):
        if cost > -BreakItem.forcedBreak { return w + v }
      }
    }
    return w
  }

  /// Whether a break is a forced one (a line after it is a first line under `each-line`).
  static func endsForced(_ b: LineBreak?, _ items: [BreakItem]) -> Bool {
    guard let b, items.indices.contains(b.index),
      case .penalty(_, let cost, _) = items[b.index]
    else { return false }
    return cost >= BreakItem.forcedBreak
  }

  /// Sets the floats whose line is `line` or earlier (see the file comment) before that
  /// line's entry; `top` is the paragraph's estimated top, `lineHeight` its strut height.
  mutating func setLineFloats(
    _ lines: inout FloatedLines, before line: Int, top: Double, lineHeight h: Double
  ) {
    while lines.lifted.count < lines.placed.count, lines.placed[lines.lifted.count].line <= line {
      let p = lines.placed[lines.lifted.count]
      var box = p.box
      let late = max(0, nextFlowTop - lines.lineTop(p.line, top: top, lineHeight: h))
      box.top += late
      box.bottom += late
      lines.lifted.append(
        LiftedFloat(entry: entries.count, top: boxFlow.flowY, offset: p.float.start.offset))
      insertFloat(p.float.piece, at: box, start: p.float.start, end: p.float.end)
    }
  }
}

extension ChapterFlow {
  /// Before line `line` of a paragraph beside floats is set: the floats placed at it, then
  /// the spacer that moves it below the floats when the break stage dropped it.
  mutating func setBeside(
    _ lines: inout FloatedLines, line: Int, top: Double, lineHeight h: Double, left: Double,
    right: Double
  ) {
    setLineFloats(&lines, before: line, top: top, lineHeight: h)
    if lines.dropsLine(line) {
      dropLine(band: lines.bands[line], lineHeight: h, left: left, right: right)
    }
  }

  /// Sets a line the break stage moved below the floats (CSS 2.1 §9.5: a line box too
  /// narrow for its content is shifted down): the flow moves down from its bottom to the
  /// next float bottom, as often as the floats actually placed leave the line less room
  /// than `band`, the room it was broken for (a spacer in the floats' group).
  mutating func dropLine(band: LineBand, lineHeight h: Double, left: Double, right: Double) {
    let top = nextFlowTop
    var y = top
    for _ in 0...floatArea.count {
      let real = floatArea.band(top: y, height: h, left: left, right: right)
      if real.inset <= band.inset + 0.01, real.cut - real.inset <= band.cut - band.inset + 0.01 {
        break
      }
      guard let next = floatArea.nextBottom(below: y) else { break }
      y = next
    }
    if y - top > 0.01 {
      append(FlowEntry(spaceBefore: 0, height: y - top, start: lastLocation, end: lastLocation))
    }
  }
}
