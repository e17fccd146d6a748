// Vertical shaping: upright glyphs and tate-chu-yoko, expressed in the logical (horizontal)
// frame the line breaker and composer already speak.
//
// A vertical chapter is laid out as if it were horizontal on a page turned a quarter turn
// anticlockwise (Vertical/VerticalPage.swift turns it back): the logical x runs down the
// column, the logical y runs from the right edge of the page to the left. A run set
// sideways (Latin in `text-orientation: mixed`) is ordinary horizontal text there and is
// drawn rotated. An upright run is shaped by HarfBuzz top to bottom (`vert`/`vrt2`
// alternates, vertical advances from `vmtx`, origins from `VORG`), and its glyphs are
// stored as offsets in the logical frame, so that after the quarter turn back each glyph,
// drawn unrotated, has its em box centred on the column:
//
//   logical advance = −y_advance          (down the column)
//   logical dx      = −y_offset           (from the pen to the glyph's horizontal origin)
//   logical dy      = x_offset + centre   (centre: the ideographic em box's centre above
//                                          the alphabetic baseline, from `BASE`, else
//                                          HarfBuzz's fallback)
//
// Units are font units, like every `ShapedText`, so the shape cache serves all sizes.
//
// Tate-chu-yoko (`text-combine-upright`): the run is shaped horizontally, squeezed to one
// em by scaling its pen positions when wider (the glyphs keep their size: a uniform scale
// would shrink them, a real horizontal scale needs a transform the display list does not
// carry), and placed upright in a one-em cell with its baseline at the em box's baseline.
//
// Rejected: laying vertical lines out natively (a second line composer with y pens). It
// would duplicate the breaker, kinsoku, justification and the composer for one mapping.

import CHarfBuzz
import QuireIngest

/// How a shaped run stands in vertical text.
enum VerticalForm: UInt8, Hashable, Sendable {
  /// Horizontal text, or a run set sideways in a vertical line.
  case none
  /// Shaped top to bottom, drawn upright.
  case upright
  /// Tate-chu-yoko: shaped horizontally inside one upright em.
  case combined
}

enum VerticalShaping {
  /// The ideographic em box of `face` above the alphabetic baseline: its centre and its top,
  /// font units.
  static func emBox(_ face: Face) -> (centre: Double, top: Double) {
    var centre: hb_position_t = 0
    var top: hb_position_t = 0
    let han = Face.tag("hani")
    hb_ot_layout_get_baseline_with_fallback(
      face.hbFont, HB_OT_LAYOUT_BASELINE_TAG_IDEO_EMBOX_CENTRAL, HB_DIRECTION_LTR, han, 0,
      &centre)
    hb_ot_layout_get_baseline_with_fallback(
      face.hbFont, HB_OT_LAYOUT_BASELINE_TAG_IDEO_EMBOX_TOP_OR_RIGHT, HB_DIRECTION_LTR, han, 0,
      &top)
    let c = Double(centre)
    let t = Double(top)
    // A face without usable metrics: centre the em on the middle of ascent and descent.
    guard abs(c) < face.upem * 2, t > c else {
      let middle = (face.ascent - face.descent) / 2 * face.upem
      return (middle, middle + face.upem / 2)
    }
    return (c, t)
  }

  /// HarfBuzz's top-to-bottom positions as logical offsets (see the essay).
  static func upright(
    _ infos: UnsafeMutablePointer<hb_glyph_info_t>,
    _ pos: UnsafeMutablePointer<hb_glyph_position_t>,
    count n: Int, face: Face
  ) -> ShapedText {
    let centre = Float(emBox(face).centre)
    var glyphs: [ShapedGlyph] = []
    glyphs.reserveCapacity(n)
    var total = 0.0
    for i in 0..<n {
      glyphs.append(
        ShapedGlyph(
          glyph: infos[i].codepoint, cluster: infos[i].cluster, advance: Float(-pos[i].y_advance),
          dx: Float(-pos[i].y_offset), dy: Float(pos[i].x_offset) + centre))
      total -= Double(pos[i].y_advance)
    }
    return ShapedText(glyphs: glyphs, advance: total)
  }

  /// Tate-chu-yoko: `key`'s text shaped horizontally, then set upright in one em.
  static func combined(
    _ key: ShapeKey, face: Face, buffer: OpaquePointer, unshared: [UInt64]? = nil
  ) -> ShapedText {
    var flat = key
    flat.style.vertical = .none
    flat.style.rtl = false
    let shaped = Shaper.run(flat, face: face, buffer: buffer, unshared: unshared)
    let box = emBox(face)
    let em = face.upem
    let width = shaped.advance
    // The cell: one em at the base size. A run wider than an em is set at a size smaller
    // by `em / width` (`combinedSize`), where the same cell measures `width` units.
    let cell = max(em, width)
    let factor = em / cell
    var pen = 0.0
    var glyphs: [ShapedGlyph] = []
    glyphs.reserveCapacity(shaped.glyphs.count)
    for g in shaped.glyphs {
      // Logical dx: from the cell's top down to the em box's baseline (the em box centred
      // in the cell); logical dy: across the column, from its centre to the glyph's origin.
      let across = pen + Double(g.dx) - width / 2
      glyphs.append(
        ShapedGlyph(
          glyph: g.glyph, cluster: g.cluster, advance: 0,
          dx: Float((cell - em) / 2 + box.top - Double(g.dy)),
          dy: Float(box.centre / factor + across)))
      pen += Double(g.advance)
    }
    if !glyphs.isEmpty { glyphs[glyphs.count - 1].advance = Float(cell) }
    return ShapedText(glyphs: glyphs, advance: cell)
  }

  /// The size a tate-chu-yoko piece is set at: `size`, scaled down so that its shaped cell
  /// (`combined`) is one em of `size`.
  static func combinedSize(_ size: Double, _ parts: [WordPart], upem: Double) -> Double {
    let advance = parts.reduce(0) { $0 + $1.shaped.advance }
    return advance > upem ? size * upem / advance : size
  }
}

extension VerticalShaping {
  /// How character `i` of `text` stands in a vertical line styled `style`: tate-chu-yoko
  /// (`text-combine-upright`), else by `text-orientation` (UAX #50 for `mixed`).
  static func form(at i: Int, _ text: [UInt32], _ style: ComputedStyle) -> VerticalForm {
    let writing = style.text.writing
    let c = text[i]
    switch writing.combine {
    case .all: return .combined
    case .digits(let n) where isDigit(c):
      // The digit run around `i`, looked at no further than one past the limit.
      var lo = i
      var hi = i + 1
      while lo > 0, i - lo <= n, isDigit(text[lo - 1]) { lo -= 1 }
      while hi < text.count, hi - i <= n, isDigit(text[hi]) { hi += 1 }
      if hi - lo <= n { return .combined }
    default: break
    }
    switch writing.orientation {
    case .upright: return .upright
    case .sideways: return .none
    case .mixed: return VerticalOrientation.isUpright(c) ? .upright : .none
    }
  }

  @inline(__always) static func isDigit(_ c: UInt32) -> Bool { (0x30...0x39).contains(c) }
}
