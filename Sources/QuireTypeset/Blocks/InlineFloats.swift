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
// paragraph part, bounded by `InlineCaps.maxParagraphScalars`.
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

  /// Stage 4 for a paragraph with inline floats (see the file comment): the breaks, the
  /// bands and where each float goes. `top` is the paragraph's top in flow coordinates,
  /// `lineHeight` its strut height.
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
      breaking.bands = area.bands(top: top, lineHeight: h, left: left, right: right)
      let line0 = out.breaks.count
      let first = line0 == 0 || (breaking.eachLine && Self.endsForced(out.breaks.last, items))
      let found = breaking.lines(items, from: start, firstLine: line0, first: first)
      guard next < floats.count, !found.isEmpty else {
        out.keep(found, count: found.count, bands: breaking.bands)
        break
      }
      // The line holding the anchor, and where it starts.
      var (j, lineStart) = (0, start)
      while j < found.count - 1 && found[j].index < anchors[next] {
        lineStart = ParagraphMeasure.lineStart(afterBreak: found[j].index, in: items)
        j += 1
      }
      let before = Self.naturalWidth(items, lineStart..<max(lineStart, anchors[next]))
      let measure = j == 0 && first ? breaking.firstWidth : breaking.width
      let f = floats[next]
      var line = line0 + j
      var box = area.place(
        side: f.side, width: f.piece.width, height: f.piece.height, top: top + Double(line) * h,
        left: left, right: right)
      var trial = area
      trial.add(box, group: 0)
      let band = trial.band(top: top + Double(line) * h, height: h, left: left, right: right)
      if box.top > top + Double(line) * h + 0.01
        || LineBand.measure(measure, [band], 0) < before - 0.01
      {
        line += 1
        box = area.place(
          side: f.side, width: f.piece.width, height: f.piece.height,
          top: top + Double(line) * h, left: left, right: right)
      }
      out.keep(found, count: line - line0, bands: breaking.bands)
      if line - line0 < found.count, line > line0 {
        start = ParagraphMeasure.lineStart(afterBreak: found[line - line0 - 1].index, in: items)
      } else if line - line0 >= found.count {
        start = items.count  // below the paragraph: the floats after it go there too
      }
      area.add(box, group: 0)
      out.placed.append((f, line, box))
      next += 1
    }
    // Floats left when the paragraph ended: below its last line, in order.
    while next < floats.count {
      let f = floats[next]
      let box = area.place(
        side: f.side, width: f.piece.width, height: f.piece.height,
        top: top + Double(out.breaks.count) * h, left: left, right: right)
      area.add(box, group: 0)
      out.placed.append((f, out.breaks.count, box))
      next += 1
    }
    return out
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
      let late = max(0, nextFlowTop - (top + Double(p.line) * h))
      box.top += late
      box.bottom += late
      lines.lifted.append(
        LiftedFloat(entry: entries.count, top: boxFlow.flowY, offset: p.float.start.offset))
      insertFloat(p.float.piece, at: box, start: p.float.start, end: p.float.end)
    }
  }
}
