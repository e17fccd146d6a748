// Ruby spacing (JLREQ §3.3, CSS Ruby 1 §4): a ruby base whose annotation is longer than the
// base is widened before the line is broken, so the annotation never runs over the text on
// either side beyond what JLREQ allows.
//
// The annotation (half the base size, as LineAnnotations sets it) may overhang each
// neighbouring character by up to one annotation character (JLREQ §3.3.8: ruby may rest on
// adjacent kana, and on the blank half of a closing bracket or stop after the base or of an
// opening bracket before it) — but not on kanji, Latin or another ruby's base, which it
// would hide or touch; a base of the same ruby (jukugo ruby, one reading per character,
// JLREQ §3.3.7) as far as its own shorter reading leaves free. The same holds for a group
// ruby's base of several characters. The overhang is shared evenly when both sides allow
// it; when only one does, the annotation leans onto that side (it is then not centred:
// `Piece.rubyShift` says by how much).
// Whatever the annotation still needs is added to the base as space split 1:2:1 (JLREQ
// §3.3.6: half a share before the first base character, a whole share between characters,
// half a share after the last): each base character's advance grows by one share and its
// glyph moves half a share along the line. Works in both writing modes (logical frame: the
// shift is along the line). A base is never broken across lines (ShapedParagraph's
// `breakAfter`); at a line's start or end the annotation is kept inside the line
// (LineAnnotations), so it never protrudes past the line's edge.
//
// Costs: nothing for paragraphs without ruby; otherwise one annotation shaping (cached) per
// ruby base and one pass over the items.

import QuireIngest

enum RubySpacing {
  /// Widens every ruby base of `paragraph` whose annotation needs more room than the base
  /// and its allowed overhang give.
  static func widen(
    _ paragraph: inout ShapedParagraph, text: [UInt32], styles: [ResolvedStyle], fonts: FontSet,
    shaper: inout Shaper
  ) {
    var itemOfPiece = [Int](repeating: -1, count: paragraph.pieces.count)
    for (k, source) in paragraph.sources.enumerated() {
      if case .piece(let p) = source { itemOfPiece[p] = k }
    }
    var p = 0
    while p < paragraph.pieces.count {
      let style = paragraph.pieces[p].style
      let writing = styles[style].style.text.writing
      let annotations = [writing.rubyText, writing.rubyOtherText].compactMap { $0 }
      guard !annotations.isEmpty, paragraph.pieces[p].image == nil, paragraph.pieces[p].math == nil
      else {
        p += 1
        continue
      }
      var end = p + 1
      while end < paragraph.pieces.count, paragraph.pieces[end].style == style,
        paragraph.pieces[end].start == paragraph.pieces[end - 1].end
      {
        end += 1
      }
      let group = writing.ruby
      let sides = (
        before: p > 0
          ? neighbour(paragraph.pieces[p - 1], of: group, styles, fonts, &shaper) : nil,
        after: end < paragraph.pieces.count
          ? neighbour(paragraph.pieces[end], of: group, styles, fonts, &shaper) : nil
      )
      var fit = Fit(widen: 0, shift: 0)
      for annotation in annotations {
        let f = self.fit(
          paragraph.pieces[p..<end], annotation: annotation, rs: styles[style], text: text,
          rubyBeside: sides, fonts: fonts, shaper: &shaper)
        if f.widen > fit.widen || (f.widen == fit.widen && abs(f.shift) > abs(fit.shift)) {
          fit = f
        }
      }
      if fit.widen > 0 {
        spread(fit.widen, over: p..<end, in: &paragraph, items: itemOfPiece, fonts: fonts)
      }
      paragraph.pieces[p].rubyShift = Float(fit.shift)
      p = end
    }
  }

  /// How a base takes its annotation: `widen` px of space added to the base (0 when the
  /// annotation fits over it and its overhangs), and how far the annotation then moves from
  /// centred along the line (`shift` px, positive towards the line's end).
  struct Fit: Equatable {
    var widen: Double
    var shift: Double
  }

  /// How far an annotation of the ruby `group` may overhang the neighbouring `piece` when
  /// that piece is a ruby base itself (nil when it is not): not at all for another ruby's
  /// base; for a base of the same ruby (jukugo: one reading per character, JLREQ §3.3.7) as
  /// far as that base's own, shorter, centred annotation leaves free, up to one ruby
  /// character.
  static func neighbour(
    _ piece: Piece, of group: RubyPart, _ styles: [ResolvedStyle], _ fonts: FontSet,
    _ shaper: inout Shaper
  ) -> Double? {
    let rs = styles[piece.style]
    let w = rs.style.text.writing
    guard let reading = w.rubyText ?? w.rubyOtherText else { return nil }
    guard case .base(let g, _) = w.ruby, case .base(let mine, _) = group, g == mine,
      w.rubyOtherText == nil, let first = reading.unicodeScalars.first?.value
    else { return 0 }
    let mark = Annotation(rs: rs, fonts: fonts, baseline: 0, first: first, side: .over)
    let width = shaper.shape(mark.key(reading.unicodeScalars.map(\.value))).advance * mark.scale
    return min(mark.size, max(0, (piece.width - width) / 2))
  }

  /// The fit of `annotation` over the base `pieces`; `rubyBeside` gives, for a neighbouring
  /// piece that is a ruby base, how far it may be overhung (`neighbour`).
  static func fit(
    _ pieces: ArraySlice<Piece>, annotation: String, rs: ResolvedStyle, text: [UInt32],
    rubyBeside: (before: Double?, after: Double?), fonts: FontSet, shaper: inout Shaper
  ) -> Fit {
    let scalars = annotation.unicodeScalars.map(\.value)
    guard let first = scalars.first, let head = pieces.first, let tail = pieces.last else {
      return Fit(widen: 0, shift: 0)
    }
    let mark = Annotation(rs: rs, fonts: fonts, baseline: 0, first: first, side: .over)
    let width = shaper.shape(mark.key(scalars)).advance * mark.scale
    let base = pieces.reduce(0) { $0 + $1.width }
    let before = head.start > 0 ? text[head.start - 1] : nil
    let after = tail.end < text.count ? text[tail.end] : nil
    return split(
      excess: width - base,
      allowance: (
        before: rubyBeside.before ?? (mayOverhang(before, after: false) ? mark.size : 0),
        after: rubyBeside.after ?? (mayOverhang(after, after: true) ? mark.size : 0)
      ))
  }

  /// Splits an annotation's `excess` over its base between the two overhangs (each within
  /// its allowance, evenly when both allow) and the base's widening.
  static func split(excess: Double, allowance: (before: Double, after: Double)) -> Fit {
    guard excess > 0 else { return Fit(widen: 0, shift: 0) }
    var lead = min(allowance.before, excess / 2)
    let trail = min(allowance.after, excess - lead)
    lead = min(allowance.before, excess - trail)
    // Centred over the widened base the annotation would overhang (lead + trail) / 2 on
    // each side; it moves towards the end by half the difference.
    return Fit(widen: excess - lead - trail, shift: (trail - lead) / 2)
  }

  /// Whether an annotation may rest on character `v` beside its base (`after`: the
  /// character follows the base).
  static func mayOverhang(_ v: UInt32?, after: Bool) -> Bool {
    guard let v, let c = Unicode.Scalar(v) else { return false }
    switch v {
    case 0x3041...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF: return true  // kana, ー
    default:
      if after { return Kinsoku.closingBrackets.contains(c) || Kinsoku.stopsAndCommas.contains(c) }
      return Kinsoku.openingBrackets.contains(c)
    }
  }

  /// Adds `extra` px to the base pieces `range`, 1:2:1 around its characters.
  static func spread(
    _ extra: Double, over range: Range<Int>, in paragraph: inout ShapedParagraph, items: [Int],
    fonts: FontSet
  ) {
    var count = 0
    for p in range {
      count += paragraph.pieces[p].shaped.glyphs.reduce(0) { $0 + ($1.advance != 0 ? 1 : 0) }
    }
    guard count > 0 else { return }
    let share = extra / Double(count)
    for p in range {
      var piece = paragraph.pieces[p]
      let units = Float(share / piece.size * fonts.faces[piece.face].upem)
      var widened = 0
      for g in piece.shaped.glyphs.indices {
        if piece.shaped.glyphs[g].advance != 0 {
          piece.shaped.glyphs[g].advance += units
          piece.shaped.glyphs[g].dx += units / 2
          widened += 1
        } else {
          piece.shaped.glyphs[g].dx -= units / 2  // a mark stays on its (moved) base
        }
      }
      let added = share * Double(widened)
      piece.shaped.advance += Double(units) * Double(widened)
      piece.width += added
      paragraph.pieces[p] = piece
      let k = items[p]
      if k >= 0, case .box(let w) = paragraph.items[k] {
        paragraph.items[k] = .box(width: w + added)
      }
    }
  }
}
