// Last-resort line breaks (CSS `overflow-wrap: anywhere`, as a browser does when nothing
// else fits): material the breaker could not put on any line — a word wider than the
// measure, or several pieces with no break opportunity between them that together are —
// gets extra break points, so no line ever exceeds the measure.
//
// Two steps, both in the shape stage, both only for material that does not fit:
//
// 1. A piece (or hyphenation part) wider than the measure is cut into one box per grapheme
//    cluster, joined by `emergencyPenalty`s. The cut is made in the shaped glyphs, not by
//    shaping each cluster again: glyphs are grouped by their HarfBuzz cluster (the first
//    scalar of the cluster, monotone in glyph order under
//    HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS), so kerning, contextual forms and joining
//    stay as shaped; a cut is made only where a grapheme boundary is also a cluster start
//    (a ligature across graphemes stays whole). Widths add up to the word's.
// 2. After the paragraph is shaped, a run of boxes between two legal breaks whose width
//    (plus the break's own width, e.g. a hyphen) exceeds the measure gets an
//    `emergencyPenalty` before each of its boxes but the first.
//
// The penalty is legal but costly (`emergencyCost`): Knuth–Plass uses as few as it can,
// greedy fills lines up to them. Lines broken there show no hyphen. The measure used is the
// narrowest line of the paragraph (a text indent shortens the first), so every piece fits
// on any line. The one thing still allowed past the measure is what is designed to be:
// CJK punctuation hanging in the margin (JLREQ, see Kinsoku).
//
// Rejected: shaping each cluster alone (loses joining and kerning, and one HarfBuzz call
// per character), and breaking in compose (the breaker must know the line's real width).

extension BreakItem {
  /// The cost of an emergency break point: discouraged, but legal, far from forced.
  static let emergencyCost: Double = 1_000
  /// A last-resort break point inside material wider than the measure.
  static let emergencyPenalty = BreakItem.penalty(width: 0, cost: emergencyCost, flagged: false)
}

enum EmergencyBreaks {
  /// `part` (shaped from `text`, the part's own scalars) cut between grapheme clusters
  /// where its glyphs allow (inside one only if it alone is wider than `maxWidth`), into
  /// parts at least `minWidth` wide (font units) but the last; `start`/`end` stay relative
  /// to the same word as `part`'s.
  static func graphemeParts(
    _ part: WordPart, text: ArraySlice<UInt32>, minWidth: Double, maxWidth: Double
  ) -> [WordPart] {
    let count = text.count
    guard count > 1, !part.shaped.glyphs.isEmpty else { return [part] }
    // Where a glyph cluster starts (relative to the part).
    var clusterStart = [Bool](repeating: false, count: count + 1)
    for g in part.shaped.glyphs where Int(g.cluster) < count { clusterStart[Int(g.cluster)] = true }
    // Grapheme boundaries that are also cluster starts.
    var cuts: [Int] = [0]
    var scalars = String.UnicodeScalarView()
    scalars.reserveCapacity(count)
    for v in text { scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}") }
    var position = 0
    for character in String(scalars) {
      position += character.unicodeScalars.count
      if position < count && clusterStart[position] { cuts.append(position) }
    }
    cuts.append(count)
    var (glyphs, advances) = group(part.shaped.glyphs, cuts: cuts, count: count)
    if advances.contains(where: { $0 > maxWidth }) {
      // One grapheme wider than the line (marks with no base, which HarfBuzz draws as
      // dotted circles, 120 to a cluster): cut it between its glyph clusters instead.
      var finer: [Int] = [0]
      for k in 0..<(cuts.count - 1) {
        if advances[k] > maxWidth {
          for p in (cuts[k] + 1)..<cuts[k + 1] where clusterStart[p] { finer.append(p) }
        }
        finer.append(cuts[k + 1])
      }
      cuts = finer
      (glyphs, advances) = group(part.shaped.glyphs, cuts: cuts, count: count)
    }
    guard cuts.count > 2 else { return [part] }
    // Clusters are gathered until a part is `minWidth` wide (font units): a line then
    // has at most `InlineCaps.emergencyBreaksPerLine` break points, not one per character.
    var result: [WordPart] = []
    var from = 0
    var gathered: [ShapedGlyph] = []
    var advance = 0.0
    for k in 0..<(cuts.count - 1) {
      let shift = UInt32(cuts[k] - cuts[from])
      gathered += glyphs[k].map {
        var g = $0
        g.cluster += shift
        return g
      }
      advance += advances[k]
      if advance >= minWidth || k == cuts.count - 2 {
        result.append(
          WordPart(
            start: part.start + cuts[from], end: part.start + cuts[k + 1],
            shaped: ShapedText(glyphs: gathered, advance: advance)))
        from = k + 1
        gathered = []
        advance = 0
      }
    }
    return result
  }

  /// `glyphs` sorted into the chunks between `cuts` (scalar positions, 0 first and `count`
  /// last), their clusters made relative to their chunk, and each chunk's advance.
  private static func group(_ glyphs: [ShapedGlyph], cuts: [Int], count: Int) -> (
    [[ShapedGlyph]], [Double]
  ) {
    var chunkOf = [Int](repeating: 0, count: count)
    for k in 0..<(cuts.count - 1) {
      for p in cuts[k]..<cuts[k + 1] { chunkOf[p] = k }
    }
    var chunks = [[ShapedGlyph]](repeating: [], count: cuts.count - 1)
    var advances = [Double](repeating: 0, count: cuts.count - 1)
    for g in glyphs {
      let k = chunkOf[min(Int(g.cluster), count - 1)]
      var local = g
      local.cluster = UInt32(Int(g.cluster) - cuts[k])
      chunks[k].append(local)
      advances[k] += Double(g.advance)
    }
    return (chunks, advances)
  }

  /// Step 2: an `emergencyPenalty` before every box but the first of each run of boxes
  /// (between two legal breaks) wider than `measure`. Returns how many runs were cut.
  /// Without `flaggedBreaks` the breaker skips flagged penalties, so they do not end a run.
  static func splitWideRuns(
    _ out: inout ShapedParagraph, measure: Double, flaggedBreaks: Bool = true
  ) -> Int {
    // Almost no paragraph has a wide run: one tight walk proves it (the walk below cost
    // ~30 instructions an item, 26 M per book; Benchmarks/paginate-cost.md, session 17).
    guard hasWideRun(out.items, measure: measure, flaggedBreaks: flaggedBreaks) else {
      return 0
    }
    let items = out.items
    let n = items.count
    var inserts: [Int] = []
    var runs = 0
    var runStart = 0
    var width = 0.0
    for i in 0..<n {
      var legal = ParagraphMeasure.isLegalBreak(i, in: items)
      if legal, !flaggedBreaks, case .penalty(_, _, true) = items[i] { legal = false }
      if legal {
        var total = width
        if case .penalty(let w, _, _) = items[i] { total += w }
        if total > measure + 1e-6 {
          let before = inserts.count
          defer { if inserts.count > before { runs += 1 } }
          var seenBox = false
          for j in runStart..<i where items[j].isBox {
            if seenBox, !Self.holdsToPrevious(j, out) {
              // Before the word's letter-spacing glue, so the glue starts the next line.
              let letter =
                j > 0 && { if case .letter = out.sources[j - 1] { true } else { false } }()
              inserts.append(letter ? j - 1 : j)
            }
            seenBox = true
          }
        }
        width = 0
        runStart = i + 1
      } else {
        width += items[i].naturalWidth
      }
    }
    guard !inserts.isEmpty else { return 0 }
    var items2: [BreakItem] = []
    var sources2: [ItemSource] = []
    items2.reserveCapacity(n + inserts.count)
    sources2.reserveCapacity(n + inserts.count)
    var next = 0
    for i in 0..<n {
      while next < inserts.count && inserts[next] == i {
        items2.append(BreakItem.emergencyPenalty)
        sources2.append(.plain(position(of: out.sources[i], out)))
        next += 1
      }
      items2.append(items[i])
      sources2.append(out.sources[i])
    }
    out.items = items2
    out.sources = sources2
    return runs
  }

  /// Whether some run between two legal breaks is wider than `measure`, as `splitWideRuns`
  /// measures runs (the same legal breaks, the same sums in the same order), so when it is
  /// false `splitWideRuns` would change nothing.
  static func hasWideRun(_ items: [BreakItem], measure: Double, flaggedBreaks: Bool) -> Bool {
    let limit = measure + 1e-6
    return items.withUnsafeBufferPointer { items in
      guard let last = items.indices.last else { return false }
      var width = 0.0
      var previousIsBox = false
      for i in 0..<last {
        // `ParagraphMeasure.isLegalBreak`, with the item before read from `previousIsBox`.
        switch items[i] {
        case .box(let w):
          width += w
          previousIsBox = true
        case .glue(let w, _, _):
          if previousIsBox {
            if width > limit { return true }
            width = 0
          } else {
            width += w
          }
          previousIsBox = false
        case .penalty(let w, let cost, let flagged):
          if cost > -BreakItem.forcedBreak && (flaggedBreaks || !flagged) {
            if width + w > limit { return true }
            width = 0
          } else {
            width += 0
          }
          previousIsBox = false
        }
      }
      // The last item is always a legal break (a flagged one only with `flaggedBreaks`).
      switch items[last] {
      case .box, .glue: return width > limit
      case .penalty(let w, _, let flagged): return (flaggedBreaks || !flagged) && width + w > limit
      }
    }
  }

  /// Whether box `j` must stay with the item before it: an inline box's end side, or the
  /// first box after a start side (InlineBoxEdges.swift).
  private static func holdsToPrevious(_ j: Int, _ out: ShapedParagraph) -> Bool {
    if case .edge(let e) = out.sources[j], !out.edges[e].isStart { return true }
    if j > 0, case .edge(let e) = out.sources[j - 1], out.edges[e].isStart { return true }
    return false
  }

  /// The text position an item stands at (for a penalty's source).
  private static func position(of source: ItemSource, _ out: ShapedParagraph) -> Int {
    switch source {
    case .piece(let p), .letter(let p): return out.pieces[p].start
    case .space(let t, _), .soft(let t, _), .plain(let t), .cloneSide(let t): return t
    case .edge(let e): return out.edges[e].scalar
    case .end: return 0
    }
  }
}
