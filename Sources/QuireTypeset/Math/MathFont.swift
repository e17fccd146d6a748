// A font with an OpenType MATH table, read through HarfBuzz's `hb_ot_math_*` API: layout
// constants, italic corrections, top-accent attachments, glyph variants and glyph
// assemblies, all converted to pixels at the size asked for.
//
// Stretching (OpenType MATH, MathML Core §"Stretchy operators"): the first size variant at
// least as large as the target wins; else the glyph assembly is built with the fewest
// repetitions of its extenders that reach the target, every joint overlapping by the same
// amount, at least the font's minimum connector overlap and at most what the connectors of
// the two parts allow. Part glyphs have their origin at the start of their advance (bottom
// for vertical parts, left for horizontal ones), which is how the assembly places them.
// Repetitions are capped (`maxRepeats`) so a huge target costs bounded work.

import CHarfBuzz
import Foundation
import QuireCore

/// One glyph of a math box: id, pen position (x right, y down from the box's baseline) and
/// size in pixels per em.
struct MathGlyph: Hashable, Sendable {
  var glyph: UInt32
  var x: Double
  var y: Double
  var size: Double
  /// nil: the formula's colour.
  var color: RGBA? = nil
}

struct MathFont {
  let face: Face
  /// The face's index in the FontSet (the glyph runs' `FontID`).
  let index: Int
  let upem: Double
  /// Extender repetitions at most in one assembly.
  static let maxRepeats = 500

  init(face: Face, index: Int) {
    self.face = face
    self.index = index
    self.upem = face.upem
  }

  /// Whether a face has a MATH table.
  static func hasMath(_ face: Face) -> Bool { hb_ot_math_has_data(face.hbFace) != 0 }

  /// A MATH constant in pixels at `size` px per em.
  func constant(_ c: hb_ot_math_constant_t, _ size: Double) -> Double {
    Double(hb_ot_math_get_constant(face.hbFont, c)) * size / upem
  }

  /// A percentage constant (ScriptPercentScaleDown…), as a fraction.
  func percent(_ c: hb_ot_math_constant_t) -> Double {
    Double(hb_ot_math_get_constant(face.hbFont, c)) / 100
  }

  func glyph(_ scalar: UInt32) -> UInt32? {
    var g: hb_codepoint_t = 0
    return hb_font_get_nominal_glyph(face.hbFont, scalar, &g) != 0 ? g : nil
  }

  func advance(_ g: UInt32, _ size: Double) -> Double {
    Double(hb_font_get_glyph_h_advance(face.hbFont, g)) * size / upem
  }

  /// Ink above and below the baseline (either may be negative).
  func ink(_ g: UInt32, _ size: Double) -> (ascent: Double, descent: Double) {
    var e = hb_glyph_extents_t()
    guard hb_font_get_glyph_extents(face.hbFont, g, &e) != 0 else { return (0, 0) }
    let k = size / upem
    return (Double(e.y_bearing) * k, -Double(e.y_bearing + e.height) * k)
  }

  func italic(_ g: UInt32, _ size: Double) -> Double {
    Double(hb_ot_math_get_glyph_italics_correction(face.hbFont, g)) * size / upem
  }

  /// The top accent attachment, nil when the font gives none.
  func topAccent(_ g: UInt32, _ size: Double) -> Double? {
    // HarfBuzz answers half the advance when the table has no entry.
    Double(hb_ot_math_get_glyph_top_accent_attachment(face.hbFont, g)) * size / upem
  }

  /// The size variants of `g` in one direction, smallest first.
  func variants(_ g: UInt32, horizontal: Bool) -> [(glyph: UInt32, advance: Double)] {
    let dir = horizontal ? HB_DIRECTION_LTR : HB_DIRECTION_BTT
    var count: UInt32 = 16
    var records = [hb_ot_math_glyph_variant_t](repeating: .init(), count: 16)
    _ = hb_ot_math_get_glyph_variants(face.hbFont, g, dir, 0, &count, &records)
    return records.prefix(Int(count)).map { ($0.glyph, Double($0.advance)) }
  }

  /// The assembly parts of `g`, in font units, start to end (bottom to top, left to right).
  func parts(_ g: UInt32, horizontal: Bool) -> [hb_ot_math_glyph_part_t] {
    let dir = horizontal ? HB_DIRECTION_LTR : HB_DIRECTION_BTT
    var count: UInt32 = 16
    var parts = [hb_ot_math_glyph_part_t](repeating: .init(), count: 16)
    var italics: hb_position_t = 0
    _ = hb_ot_math_get_glyph_assembly(face.hbFont, g, dir, 0, &count, &parts, &italics)
    return Array(parts.prefix(Int(count)))
  }

  /// Glyphs of `g` stretched to at least `target` px (height or width), positioned from the
  /// start of the stretch axis (pen offsets in px: y upwards from the bottom, or x); the
  /// second value is the length reached. Nil when the glyph has neither variants nor parts.
  func stretch(_ g: UInt32, to target: Double, size: Double, horizontal: Bool)
    -> (glyphs: [(UInt32, Double)], length: Double)?
  {
    let k = size / upem
    let vs = variants(g, horizontal: horizontal)
    if let v = vs.first(where: { $0.advance * k >= target }) {
      return ([(v.glyph, 0)], v.advance * k)
    }
    let ps = parts(g, horizontal: horizontal)
    guard !ps.isEmpty else {
      if let last = vs.last { return ([(last.glyph, 0)], last.advance * k) }
      return nil
    }
    return assemble(ps, target: target / k, horizontal: horizontal).map {
      ($0.glyphs.map { ($0.0, $0.1 * k) }, $0.length * k)
    }
  }

  /// The assembly of `ps` reaching `target` font units.
  private func assemble(_ ps: [hb_ot_math_glyph_part_t], target: Double, horizontal: Bool)
    -> (glyphs: [(UInt32, Double)], length: Double)?
  {
    let minOverlap = Double(
      hb_ot_math_get_min_connector_overlap(
        face.hbFont, horizontal ? HB_DIRECTION_LTR : HB_DIRECTION_BTT))
    let isExtender = { (p: hb_ot_math_glyph_part_t) in
      p.flags.rawValue & HB_OT_MATH_GLYPH_PART_FLAG_EXTENDER.rawValue != 0
    }
    var repeats = 0
    var sequence: [hb_ot_math_glyph_part_t] = []
    func build(_ r: Int) -> [hb_ot_math_glyph_part_t] {
      ps.flatMap { isExtender($0) ? Array(repeating: $0, count: r) : [$0] }
    }
    func longest(_ s: [hb_ot_math_glyph_part_t]) -> Double {
      s.reduce(0) { $0 + Double($1.full_advance) } - Double(max(0, s.count - 1)) * minOverlap
    }
    repeat {
      repeats += 1
      sequence = build(repeats)
    } while longest(sequence) < target && repeats < Self.maxRepeats
      && ps.contains(where: isExtender)
    guard !sequence.isEmpty else { return nil }
    let joints = Double(max(1, sequence.count - 1))
    var maxOverlap = Double.infinity
    for i in sequence.indices.dropFirst() {
      let allowed = Double(
        min(sequence[i - 1].end_connector_length, sequence[i].start_connector_length))
      maxOverlap = min(maxOverlap, allowed)
    }
    if maxOverlap < minOverlap { maxOverlap = minOverlap }
    let total = sequence.reduce(0) { $0 + Double($1.full_advance) }
    let overlap =
      sequence.count > 1 ? min(maxOverlap, max(minOverlap, (total - target) / joints)) : 0
    var pen = 0.0
    var out: [(UInt32, Double)] = []
    for p in sequence {
      out.append((p.glyph, pen))
      pen += Double(p.full_advance) - overlap
    }
    return (out, pen + overlap)
  }
}
