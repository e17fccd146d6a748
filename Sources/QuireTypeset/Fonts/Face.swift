// One opened font face: the bytes, and the HarfBuzz blob/face/font made from them.
//
// Metrics (units per em, ascender, descender, glyph coverage) come from HarfBuzz's OpenType
// tables rather than FreeType: HarfBuzz objects are thread-safe once made immutable, so one
// `Face` serves every chapter laid out in parallel without a lock, whereas an `FT_Face` would
// need one per thread. The rasterizer opens the same bytes (`FontFace.data`) with FreeType.

import CHarfBuzz
import Foundation
import QuireCore
import QuireIngest

/// Why a font could not be used.
package enum FontError: Error, Sendable, CustomStringConvertible, Equatable {
  /// The fonts/ folder was not found (QUIRE_FONTS, next to the executable, or the source tree).
  case fontsFolderMissing(searched: [String])
  /// A font file could not be read.
  case unreadable(path: String, reason: String)
  /// HarfBuzz found no glyphs in the file (`hb_face_create` gave an empty face).
  case notAFont(path: String)
  /// The file is not a font Quire can open, for the reason given (too large, a damaged WOFF
  /// or collection header, a face index past the collection's end).
  case damaged(path: String, reason: String)

  package var description: String {
    switch self {
    case .fontsFolderMissing(let s):
      return "fonts folder not found (set QUIRE_FONTS); looked in: \(s.joined(separator: ", "))"
    case .unreadable(let p, let r): return "\(p): cannot read font: \(r)"
    case .notAFont(let p): return "\(p): hb_face_create: not a usable font"
    case .damaged(let p, let r): return "\(p): not a usable font: \(r)"
    }
  }
}

/// Owns the HarfBuzz objects of one face. Immutable after `init`, hence safe to share.
final class Face: @unchecked Sendable {
  let record: FontFace
  let family: String
  let weight: Int
  let italic: Bool
  let upem: Double
  /// Ascender and descender (positive, below the baseline) in em.
  let ascent: Double
  let descent: Double
  /// Decoration metrics in em (post and OS/2 tables, HarfBuzz's fallbacks when absent):
  /// the underline's top below the baseline and its thickness, the strike-out's top above
  /// the baseline and its thickness, and the x-height.
  let decoration: DecorationMetrics
  let hbFont: OpaquePointer
  let hbFace: OpaquePointer
  private let hbBlob: OpaquePointer
  private let bytes: UnsafeMutableRawBufferPointer
  /// Advance of U+0020 in font units (0 when the face has no space).
  let spaceAdvance: Double
  /// What CSS font matching reads: the @font-face descriptors, or the weight and italic
  /// given for a vendored or user face.
  let descriptors: FontFaceDescriptors
  /// One of the fonts Quire ships (fonts/): well-formed tables whose nested lookups never
  /// come near HarfBuzz's per-call limits, so their plans may be cached (Shaping/Shaper.swift
  /// `ShapeBuffer`) whatever lookups they hold. A book's or a user's font is not.
  let vendored: Bool

  /// `file`: when the bytes come from a font file, HarfBuzz maps that file itself (no copy;
  /// only the tables it reads are paged in). Otherwise the bytes are copied once.
  init(
    data: Data, origin: String, family: String, weight: Int, italic: Bool, faceIndex: Int = 0,
    file: String? = nil, descriptors: FontFaceDescriptors? = nil, vendored: Bool = false
  ) throws(FontError) {
    guard data.count > 12, data.count < (1 << 30) else { throw .notAFont(path: origin) }
    if let file, let mapped = hb_blob_create_from_file_or_fail(file),
      hb_blob_get_length(mapped) == UInt32(data.count)
    {
      bytes = UnsafeMutableRawBufferPointer(start: nil, count: 0)
      hbBlob = mapped
    } else {
      bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
      data.copyBytes(to: bytes)
      hbBlob = hb_blob_create(
        bytes.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(data.count),
        HB_MEMORY_MODE_READONLY, nil, nil)
    }
    hbFace = hb_face_create(hbBlob, UInt32(faceIndex))
    hb_face_make_immutable(hbFace)
    hbFont = hb_font_create(hbFace)
    let units = hb_face_get_upem(hbFace)
    hb_font_set_scale(hbFont, Int32(units), Int32(units))
    hb_font_make_immutable(hbFont)
    upem = Double(max(units, 1))
    var ext = hb_font_extents_t()
    hb_font_get_h_extents(hbFont, &ext)
    let glyphCount = hb_face_get_glyph_count(hbFace)
    if glyphCount == 0 || ext.ascender == 0 {
      hb_font_destroy(hbFont)
      hb_face_destroy(hbFace)
      hb_blob_destroy(hbBlob)
      if bytes.baseAddress != nil { bytes.deallocate() }
      throw .notAFont(path: origin)
    }
    ascent = Double(ext.ascender) / upem
    descent = Double(-ext.descender) / upem
    decoration = DecorationMetrics(hbFont, upem: upem)
    var space: hb_codepoint_t = 0
    if hb_font_get_nominal_glyph(hbFont, 0x20, &space) != 0 {
      spaceAdvance = Double(hb_font_get_glyph_h_advance(hbFont, space))
    } else {
      spaceAdvance = upem / 4
    }
    latin = Self.latinCoverage(hbFont)
    record = FontFace(name: family, origin: origin, data: data, faceIndex: faceIndex)
    self.family = family
    self.vendored = vendored
    self.weight = weight
    self.italic = italic
    self.descriptors =
      descriptors
      ?? FontFaceDescriptors(
        weight: Double(weight)...Double(weight), slant: italic ? .italic : .normal)
  }

  deinit {
    hb_font_destroy(hbFont)
    hb_face_destroy(hbFace)
    hb_blob_destroy(hbBlob)
    if bytes.baseAddress != nil { bytes.deallocate() }
  }

  /// Whether the face's GSUB has the `smcp` feature. Read on first use: only small-caps
  /// styles ask, and listing the features makes HarfBuzz check the whole GSUB table (~250,000
  /// instructions a face on average, for each of the 50-odd faces a typesetter opens).
  var hasSmallCaps: Bool {
    smallCaps.withLock { known in
      if let known { return known }
      var tags = [hb_tag_t](repeating: 0, count: 512)
      var count = UInt32(tags.count)
      hb_ot_layout_table_get_feature_tags(hbFace, Face.tag("GSUB"), 0, &count, &tags)
      let found = tags.prefix(Int(count)).contains(Face.tag("smcp"))
      known = found
      return found
    }
  }
  private let smallCaps = Mutex<Bool?>(nil)

  /// Whether HarfBuzz's per-call limits on a buffer's growth and operations can never bind
  /// for this face, whatever its origin, so a cached shape plan may run without `hb_shape`
  /// setting them (Shaping/Shaper.swift, `ShapeBuffer`). `hb_shape` sets them from the
  /// buffer's length before it runs the plan; they only count nested lookups (contextual
  /// and chaining GSUB and GPOS, lookup types 5–8 and 7–8), AAT state machines (`morx`,
  /// `mort`, `kerx`, a `kern` table with a state-table subtable) and buffer growth, which
  /// only a multiple substitution (GSUB type 2) makes beyond normalization's few scalars.
  /// A face without any of those shapes identically either way and is as bounded; any
  /// other face that is not `vendored`, or whose tables do not read as expected, keeps
  /// `hb_shape`. Read on first use.
  var boundedLayout: Bool {
    bounded.withLock { known in
      if let known { return known }
      let found = FaceTables.boundedLayout(hbFace)
      known = found
      return found
    }
  }
  private let bounded = Mutex<Bool?>(nil)

  /// Coverage of U+0000…U+024F, precomputed: most text never asks HarfBuzz.
  private let latin: [Bool]

  /// Which of U+0000…U+024F `font` maps to a glyph, asked in runs: HarfBuzz's batch lookup
  /// stops at the first code point without a glyph, so each call covers the run up to the
  /// next gap (the same cmap answers as one `hb_font_get_nominal_glyph` per code point, in
  /// ~50–150 calls instead of 592 — 5.3 M instructions for a book's 57 faces).
  static func latinCoverage(_ font: OpaquePointer) -> [Bool] {
    let count = 0x250
    var covered = [Bool](repeating: false, count: count)
    let codepoints = (0..<UInt32(count)).map { hb_codepoint_t($0) }
    var glyphs = [hb_codepoint_t](repeating: 0, count: count)
    let stride = UInt32(MemoryLayout<hb_codepoint_t>.stride)
    codepoints.withUnsafeBufferPointer { cps in
      glyphs.withUnsafeMutableBufferPointer { gs in
        var at = 0
        while at < count {
          let found = Int(
            hb_font_get_nominal_glyphs(
              font, UInt32(count - at), cps.baseAddress! + at, stride, gs.baseAddress! + at,
              stride))
          for k in at..<min(count, at + found) { covered[k] = true }
          at += found + 1  // the code point after the run has no glyph
        }
      }
    }
    return covered
  }

  func hasGlyph(_ scalar: UInt32) -> Bool {
    if scalar < 0x250 { return latin[Int(scalar)] }
    var g: hb_codepoint_t = 0
    return hb_font_get_nominal_glyph(hbFont, scalar, &g) != 0
  }

  /// The family name the font declares (name ID 1), if any.
  var declaredFamily: String? {
    var len: UInt32 = 128
    var buf = [CChar](repeating: 0, count: 129)
    let got = hb_ot_name_get_utf8(
      hbFace, hb_ot_name_id_t(HB_OT_NAME_ID_FONT_FAMILY), hb_language_get_default(), &len, &buf)
    if got == 0 { return nil }
    return String(decoding: buf.prefix(Int(len)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  static func tag(_ s: String) -> hb_tag_t {
    var t: UInt32 = 0
    for b in s.utf8.prefix(4) { t = (t << 8) | UInt32(b) }
    return t
  }
}

/// A face's decoration metrics, em (see `Face.decoration`).
struct DecorationMetrics: Sendable {
  var underlineOffset = 0.1
  var underlineThickness = 0.05
  var strikeoutOffset = 0.3
  var strikeoutThickness = 0.05
  var xHeight = 0.5
  /// Height of capital letters (OS/2 sCapHeight), em.
  var capHeight = 0.7

  init(_ font: OpaquePointer, upem: Double) {
    func metric(_ tag: hb_ot_metrics_tag_t) -> Double? {
      var v: hb_position_t = 0
      guard hb_ot_metrics_get_position(font, tag, &v) != 0 else { return nil }
      let em = Double(v) / upem
      return em.isFinite && abs(em) < 2 ? em : nil
    }
    // HarfBuzz gives the underline offset as the line's top, negative below the baseline.
    if let u = metric(HB_OT_METRICS_TAG_UNDERLINE_OFFSET) { underlineOffset = max(0, -u) }
    if let t = metric(HB_OT_METRICS_TAG_UNDERLINE_SIZE), t > 0 { underlineThickness = t }
    if let s = metric(HB_OT_METRICS_TAG_STRIKEOUT_OFFSET), s > 0 { strikeoutOffset = s }
    if let t = metric(HB_OT_METRICS_TAG_STRIKEOUT_SIZE), t > 0 { strikeoutThickness = t }
    if let x = metric(HB_OT_METRICS_TAG_X_HEIGHT), x > 0 { xHeight = x }
    if let c = metric(HB_OT_METRICS_TAG_CAP_HEIGHT), c > 0 { capHeight = c }
  }
}

/// Reads the lookup types of a face's layout tables (`Face.boundedLayout`).
enum FaceTables {
  /// GSUB lookup types without nesting or growth: single, alternate, ligature.
  static let plainSubstitutions: Set<UInt16> = [1, 3, 4]
  /// GPOS lookup types without nesting: single, pair, cursive and the three mark types.
  static let plainPositionings: Set<UInt16> = [1, 2, 3, 4, 5, 6]

  /// Whether `face` has only plain GSUB and GPOS lookups, no AAT state machine and no
  /// state-table `kern` subtable (see `Face.boundedLayout`).
  static func boundedLayout(_ face: OpaquePointer) -> Bool {
    for tag in ["morx", "mort", "kerx"] where has(face, tag) { return false }
    guard let gsub = table(face, "GSUB", { lookupTypes($0, extension: 7) }),
      let gpos = table(face, "GPOS", { lookupTypes($0, extension: 9) }),
      let kern = table(face, "kern", { kernHasStateTable($0) })
    else { return false }
    return gsub.allSatisfy(plainSubstitutions.contains)
      && gpos.allSatisfy(plainPositionings.contains) && kern.allSatisfy { !$0 }
  }

  /// `read` over the bytes of `face`'s table `tag`: `[]` when the face has no such table,
  /// nil when `read` finds it malformed.
  static func table<T>(
    _ face: OpaquePointer, _ tag: String, _ read: (UnsafeRawBufferPointer) -> [T]?
  ) -> [T]? {
    guard let blob = hb_face_reference_table(face, Face.tag(tag)) else { return [] }
    defer { hb_blob_destroy(blob) }
    var length: UInt32 = 0
    guard let data = hb_blob_get_data(blob, &length), length > 0 else { return [] }
    return read(UnsafeRawBufferPointer(start: data, count: Int(length)))
  }

  /// Whether `face` has a non-empty table `tag`.
  static func has(_ face: OpaquePointer, _ tag: String) -> Bool {
    guard let blob = hb_face_reference_table(face, Face.tag(tag)) else { return false }
    defer { hb_blob_destroy(blob) }
    return hb_blob_get_length(blob) > 0
  }

  /// The big-endian 16-bit value at `at`, nil past the end.
  static func u16(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt16? {
    guard at >= 0, at + 2 <= b.count else { return nil }
    return UInt16(b[at]) << 8 | UInt16(b[at + 1])
  }

  /// The big-endian 32-bit value at `at`, nil past the end.
  static func u32(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt32? {
    guard let hi = u16(b, at), let lo = u16(b, at + 2) else { return nil }
    return UInt32(hi) << 16 | UInt32(lo)
  }

  /// The types of a GSUB or GPOS table's lookups, an extension lookup (type `extension`)
  /// as the types its subtables name; nil when an offset points outside the table. At most
  /// 65,535 lookups of 65,535 subtables, each read once.
  static func lookupTypes(_ b: UnsafeRawBufferPointer, extension: UInt16) -> [UInt16]? {
    guard let listOffset = u16(b, 8), let count = u16(b, Int(listOffset)) else { return nil }
    let list = Int(listOffset)
    var types: [UInt16] = []
    for i in 0..<Int(count) {
      guard let offset = u16(b, list + 2 + 2 * i), let type = u16(b, list + Int(offset)),
        let subtables = u16(b, list + Int(offset) + 4)
      else { return nil }
      let lookup = list + Int(offset)
      guard type == `extension` else {
        types.append(type)
        continue
      }
      for k in 0..<Int(subtables) {
        guard let sub = u16(b, lookup + 6 + 2 * k), let inner = u16(b, lookup + Int(sub) + 2)
        else { return nil }
        types.append(inner)
      }
    }
    return types
  }

  /// For each subtable of a `kern` table (OpenType version 0 or Apple version 1), whether
  /// it is a state table (format 1); nil when the table does not read as either.
  static func kernHasStateTable(_ b: UnsafeRawBufferPointer) -> [Bool]? {
    guard let version = u16(b, 0) else { return nil }
    var formats: [Bool] = []
    if version == 0 {
      guard let count = u16(b, 2) else { return nil }
      var at = 4
      for _ in 0..<Int(count) {
        guard let length = u16(b, at + 2), let coverage = u16(b, at + 4), length >= 6 else {
          return nil
        }
        formats.append(coverage >> 8 == 1)
        at += Int(length)
      }
      return formats
    }
    guard version == 1, let count = u32(b, 4), count <= 0xFFFF else { return nil }
    var at = 8
    for _ in 0..<Int(count) {
      guard let length = u32(b, at), let coverage = u16(b, at + 4), length >= 8,
        length <= UInt32(b.count)
      else { return nil }
      formats.append(coverage & 0xFF == 1)
      at += Int(length)
    }
    return formats
  }
}
