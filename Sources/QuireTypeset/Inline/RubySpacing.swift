// Ruby spacing (JLREQ §3.3, CSS Ruby 1 §4): a ruby base whose annotation is longer than the
// base is widened before the line is broken, so the annotation never runs over the text on
// either side beyond what JLREQ allows.
//
// The annotation (half the base size, as LineAnnotations sets it) stays centred on its base.
// It may overhang the neighbouring character by up to one annotation character (JLREQ
// §3.3.8: ruby may rest on adjacent kana, and on the blank half of a closing bracket or
// stop after the base or of an opening bracket before it) — but not on kanji, Latin or
// another ruby, which it would hide or touch. Since it stays centred, the overhang used is
// the same on both sides: the smaller of the two allowances. Whatever the annotation still
// needs is added to the base as space split 1:2:1 (JLREQ §3.3.6: half a share before the
// first base character, a whole share between characters, half a share after the last):
// each base character's advance grows by one share and its glyph moves half a share along
// the line. Works in both writing modes (logical frame: the shift is along the line).
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
      var need = 0.0
      for annotation in annotations {
        need = max(
          need,
          extraWidth(
            paragraph.pieces[p..<end], annotation: annotation, rs: styles[style], text: text,
            fonts: fonts, shaper: &shaper))
      }
      if need > 0 { spread(need, over: p..<end, in: &paragraph, items: itemOfPiece, fonts: fonts) }
      p = end
    }
  }

  /// The width the base `pieces` lack under `annotation`, px (0 when it fits).
  static func extraWidth(
    _ pieces: ArraySlice<Piece>, annotation: String, rs: ResolvedStyle, text: [UInt32],
    fonts: FontSet, shaper: inout Shaper
  ) -> Double {
    let scalars = annotation.unicodeScalars.map(\.value)
    guard let first = scalars.first, let head = pieces.first, let tail = pieces.last else {
      return 0
    }
    let mark = Annotation(rs: rs, fonts: fonts, baseline: 0, first: first, side: .over)
    let width = shaper.shape(mark.key(scalars)).advance * mark.scale
    let base = pieces.reduce(0) { $0 + $1.width }
    guard width > base else { return 0 }
    let before = head.start > 0 ? text[head.start - 1] : nil
    let after = tail.end < text.count ? text[tail.end] : nil
    let overhang =
      min(
        mayOverhang(before, after: false) ? mark.size : 0,
        mayOverhang(after, after: true) ? mark.size : 0)
    return max(0, width - base - 2 * overhang)
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
