// Shaping: a run of text in one face, script and direction → glyphs with advances.
//
// Runs are shaped at the face's own units per em and scaled to pixels afterwards, so a shaped
// word is reusable at every size: the cache key is (text, face, features, direction, script,
// language), not the size. Novels repeat their words endlessly; the cache turns most shaping
// calls into a dictionary hit. Each worker keeps its words' shaped parts in a table of its
// own (WordTable.swift) in front of one cache of shaped runs shared behind a mutex: only a
// word the worker has not seen touches the lock. (A second, per-worker dictionary of runs
// in front of the shared one cost more in hashing and growth than the lock it saved:
// Benchmarks/paginate-cost.md, session 11.) A miss runs HarfBuzz with the shape plan the
// shaper keeps for its style (`ShapeBuffer`), not looked up in the face for every word.

import CHarfBuzz
import Foundation
import QuireCore

struct ShapedGlyph: Sendable, Hashable {
  var glyph: UInt32
  /// Index of the first scalar of the glyph's cluster within the shaped text.
  var cluster: UInt32
  /// Advance and offsets in font units.
  var advance: Float
  var dx: Float
  var dy: Float
}

/// Everything a shaping key holds but the text: plain values, no reference, so the word
/// cache probes with it (and copies it) for free.
struct ShapeStyle: Hashable, Sendable {
  var face: Int
  var smallCaps: Bool
  var rtl: Bool
  var script: UInt32
  var language: ShapeLanguage
  /// OpenType features beyond kern, liga and smcp (FeatureList.swift); `.none` for almost
  /// every word.
  var features = FeatureList.none
  /// Vertical text: upright glyphs (HarfBuzz top to bottom) or tate-chu-yoko
  /// (Vertical/VerticalShaping.swift); `.none` for horizontal and rotated runs.
  var vertical = VerticalForm.none

  /// The fields mixed into one word (the hashes fold it in once).
  @inline(__always) var packed: UInt64 {
    UInt64(truncatingIfNeeded: face) &* 0x9E37_79B9_7F4A_7C15
      ^ UInt64(script) &* 0xC2B2_AE3D_27D4_EB4F
      ^ UInt64(bitPattern: Int64(language.bits)) &* 0x1656_67B1_9E37_79F9
      ^ UInt64(UInt32(bitPattern: features.id)) &* 0x27D4_EB2F_1656_67C5
      ^ (smallCaps ? 1 : 0) ^ (rtl ? 2 : 0) ^ UInt64(vertical.rawValue) << 3
  }
}

struct ShapeKey: Hashable, Sendable {
  var text: [UInt32] { didSet { textFold = ShapeKey.fold(text) } }
  var style: ShapeStyle
  /// FNV-1a over the scalars, kept up to date with `text`. A dictionary probe compares keys
  /// at every occupied bucket it passes; comparing this word first means a probe that lands
  /// on another word never reads that word's scalar array (a pointer chase and a cache miss).
  private(set) var textFold: UInt64

  init(text: [UInt32], style: ShapeStyle) {
    self.text = text
    self.style = style
    self.textFold = ShapeKey.fold(text)
  }

  init(
    text: [UInt32], face: Int, smallCaps: Bool, rtl: Bool, script: UInt32,
    language: ShapeLanguage, features: [UInt64] = []
  ) {
    self.init(
      text: text,
      style: ShapeStyle(
        face: face, smallCaps: smallCaps, rtl: rtl, script: script, language: language,
        features: FeatureList(features)))
  }

  static func fold<C: Collection<UInt32>>(_ text: C) -> UInt64 {
    var x: UInt64 = 0xcbf2_9ce4_8422_2325
    for v in text { x = (x ^ UInt64(v)) &* 0x100_0000_01b3 }
    return x
  }

  static func == (a: ShapeKey, b: ShapeKey) -> Bool {
    a.textFold == b.textFold && a.style == b.style && a.text == b.text
  }

  /// This key is looked up once per word of the book, so the text is folded into one 64-bit
  /// word once, when the key is made, and only that word and the packed fields are hashed.
  /// Equality still compares the whole text, after the cheap fields.
  func hash(into h: inout Hasher) {
    h.combine(textFold)
    h.combine(style.packed)
  }

  /// What a `Dictionary` asks (the shared cache's stripes): the two words and the
  /// dictionary's seed through Murmur3's finalizer, without the Hasher. A SipHash per probe
  /// and per rehash when a stripe grows cost moby-dick ~28 M instructions (session 16);
  /// the fold already decides which keys collide, SipHash over it hid nothing.
  func _rawHashValue(seed: Int) -> Int {
    ShapeKey.mixed(textFold ^ style.packed ^ UInt64(bitPattern: Int64(seed)))
  }

  /// Murmur3's 64-bit finalizer: every input bit reaches the low bits a table's index uses.
  @inline(__always) static func mixed(_ x: UInt64) -> Int {
    var h = x
    h ^= h >> 33
    h &*= 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    h &*= 0xC4CE_B9FE_1A85_EC53
    h ^= h >> 33
    return Int(truncatingIfNeeded: h)
  }
}

/// A language as HarfBuzz's interned tag pointer: hashing it costs one integer.
struct ShapeLanguage: Hashable, Sendable, ExpressibleByStringLiteral {
  let bits: Int
  init(_ tag: String) {
    bits = tag.isEmpty ? 0 : Int(bitPattern: UnsafeRawPointer(hb_language_from_string(tag, -1)))
  }
  init(stringLiteral tag: String) { self.init(tag) }
  var hb: hb_language_t? { bits == 0 ? nil : hb_language_t(bitPattern: bits) }
}

/// A word as the paragraph builder uses it: shaped whole, or split at hyphenation points.
struct WordPart: Sendable {
  /// Scalar range within the word.
  var start: Int
  var end: Int
  var shaped: ShapedText
}

struct ShapedText: Sendable {
  var glyphs: [ShapedGlyph]
  /// Total advance in font units.
  var advance: Double
}

typealias ShapeCache = SharedCache<ShapeKey, ShapedText>

struct HyphenKey: Hashable, Sendable {
  var word: [UInt32]
  var dictionary: ObjectIdentifier
  /// The word's FNV fold (`ShapeKey.fold`), made with the key or handed over from the word's
  /// shaping key: the hash, the stripe and a first comparison read it instead of the word.
  let fold: UInt64

  init(word: [UInt32], dictionary: ObjectIdentifier, fold: UInt64? = nil) {
    self.word = word
    self.dictionary = dictionary
    self.fold = fold ?? ShapeKey.fold(word)
  }

  static func == (a: HyphenKey, b: HyphenKey) -> Bool {
    a.fold == b.fold && a.dictionary == b.dictionary && a.word == b.word
  }
  func hash(into h: inout Hasher) {
    h.combine(fold)
    h.combine(dictionary)
  }
  /// As `ShapeKey`'s: the fold and the dictionary mixed with the seed, no SipHash over the
  /// word's bytes (with the fold handed over: ~27 M instructions on moby-dick, session 16).
  func _rawHashValue(seed: Int) -> Int {
    ShapeKey.mixed(
      fold ^ UInt64(UInt(bitPattern: dictionary)) &* 0x9E37_79B9_7F4A_7C15
        ^ UInt64(bitPattern: Int64(seed)))
  }
}

/// Shapes for one chapter: a private cache in front of the shared one.
struct Shaper {
  let fonts: FontSet
  let shared: ShapeCache
  private var words = WordTable()

  /// The parts of `word` shaped under `style`, if this shaper has them.
  func word(_ word: ArraySlice<UInt32>, fold: UInt64, style: ShapeStyle, hyphenated: Bool)
    -> [WordPart]?
  {
    words.find(word, fold: fold, style: style, hyphenated: hyphenated)
  }
  mutating func storeWord(_ key: ShapeKey, hyphenated: Bool, _ parts: [WordPart]) {
    words.insert(key, hyphenated: hyphenated, parts: parts)
  }

  /// One HarfBuzz buffer per shaper, reused by every miss (a shaper is one thread's).
  private let scratch = ShapeBuffer()

  init(fonts: FontSet, shared: ShapeCache) {
    self.fonts = fonts
    self.shared = shared
  }

  /// Hands over this shaper (with its cache) and leaves an empty cache behind, so the cache
  /// moves between owners without a copy-on-write of the whole dictionary.
  mutating func take() -> Shaper {
    let taken = self
    words = WordTable()
    return taken
  }

  /// `key`'s text shaped with the feature list `features` that the process-wide table had
  /// no room for (`key.style.features` is `.unshared`): never cached, as that number names
  /// no one list.
  func shapeUnshared(_ key: ShapeKey, features: [UInt64]) -> ShapedText {
    Shaper.run(key, face: fonts.faces[key.style.face], buffer: scratch.buffer, unshared: features)
  }

  mutating func shape(_ key: ShapeKey) -> ShapedText {
    if let hit = shared.get(key) { return hit }
    let face = fonts.faces[key.style.face]
    let result: ShapedText
    if key.style.vertical != .combined, let buffer = scratch.buffer(charging: key.text.count) {
      result = Shaper.run(
        key, face: face, buffer: buffer, features: features(for: key.style),
        plans: (scratch, Shaper.featureSlot(key.style)))
    } else {
      result = Shaper.run(key, face: face, buffer: scratch.buffer)
    }
    shared.put(key, result)
    return result
  }

  /// HarfBuzz's feature arrays by feature-list number and small caps (slot `2 × id + 1` for
  /// small caps), made at the first miss in such a style: building one per miss (the list
  /// read back under the table's lock, an array grown and freed) cost moby-dick ~10 M
  /// instructions with the glyph array below, as its styles name a list. At most
  /// `2 × FeatureList.limit + 2` slots.
  private var featureArrays: [[hb_feature_t]?] = []

  /// The slot of `style`'s feature array: one number per distinct array of a process.
  static func featureSlot(_ style: ShapeStyle) -> Int {
    Int(style.features.id) * 2 + (style.smallCaps ? 1 : 0)
  }

  private mutating func features(for style: ShapeStyle) -> [hb_feature_t] {
    let slot = Shaper.featureSlot(style)
    if slot < featureArrays.count, let known = featureArrays[slot] { return known }
    let made = Shaper.features(style, unshared: nil)
    if slot >= featureArrays.count {
      featureArrays += repeatElement(nil, count: slot + 1 - featureArrays.count)
    }
    featureArrays[slot] = made
    return made
  }

  static func run(_ key: ShapeKey, face: Face) -> ShapedText {
    guard let buf = hb_buffer_create() else { return ShapedText(glyphs: [], advance: 0) }
    defer { hb_buffer_destroy(buf) }
    return run(key, face: face, buffer: buf)
  }

  /// The features every run is shaped with (kern, liga), made once: building them per call
  /// (tags parsed from strings, an array grown) cost ~1 K instructions a word-cache miss.
  static let plainFeatures = [
    hb_feature_t(tag: Face.tag("kern"), value: 1, start: 0, end: UInt32.max),
    hb_feature_t(tag: Face.tag("liga"), value: 1, start: 0, end: UInt32.max),
  ]
  /// `plainFeatures` and smcp: small capitals from the face.
  static let smallCapsFeatures =
    plainFeatures + [hb_feature_t(tag: Face.tag("smcp"), value: 1, start: 0, end: UInt32.max)]

  /// The features `style` shapes with: kern and liga, smcp for small caps, and the list
  /// `style.features` names, or `unshared` (a list the table had no room for).
  static func features(_ style: ShapeStyle, unshared: [UInt64]?) -> [hb_feature_t] {
    var features = style.smallCaps ? Shaper.smallCapsFeatures : Shaper.plainFeatures
    if unshared != nil || style.features != .none {
      for f in unshared ?? style.features.features {
        features.append(
          hb_feature_t(
            tag: UInt32(truncatingIfNeeded: f >> 32), value: UInt32(truncatingIfNeeded: f),
            start: 0, end: UInt32.max))
      }
    }
    return features
  }

  /// Shapes into `buf` (cleared first), a buffer the caller reuses across calls, with the
  /// features `key.style.features` names, or `unshared` (a list the table had no room for).
  static func run(
    _ key: ShapeKey, face: Face, buffer buf: OpaquePointer?, unshared: [UInt64]? = nil
  ) -> ShapedText {
    guard let buf else { return ShapedText(glyphs: [], advance: 0) }
    if key.style.vertical == .combined {
      return VerticalShaping.combined(key, face: face, buffer: buf, unshared: unshared)
    }
    return run(key, face: face, buffer: buf, features: features(key.style, unshared: unshared))
  }

  /// Shapes `key` (not tate-chu-yoko) into `buf` with `features`, its style's
  /// (`features(_:unshared:)`); with the plan `plans` keeps for them and the feature slot
  /// (`featureSlot`) when given, else through `hb_shape`.
  static func run(
    _ key: ShapeKey, face: Face, buffer buf: OpaquePointer, features: [hb_feature_t],
    plans: (ShapeBuffer, slot: Int)? = nil
  ) -> ShapedText {
    hb_buffer_clear_contents(buf)
    key.text.withUnsafeBufferPointer { p in
      hb_buffer_add_utf32(buf, p.baseAddress, Int32(p.count), 0, Int32(p.count))
    }
    let direction =
      key.style.vertical == .upright
      ? HB_DIRECTION_TTB : key.style.rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR
    hb_buffer_set_direction(buf, direction)
    hb_buffer_set_script(buf, hb_script_t(rawValue: key.style.script))
    if let l = key.style.language.hb {
      hb_buffer_set_language(buf, l)
    }
    hb_buffer_set_cluster_level(buf, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS)
    if let plans, !key.text.isEmpty,
      let plan = plans.0.plan(
        face: face, slot: plans.slot,
        segment: (direction.rawValue, key.style.script, key.style.language.bits),
        features: features)
    {
      hb_shape_plan_execute(plan, face.hbFont, buf, features, UInt32(features.count))
    } else {
      hb_shape(face.hbFont, buf, features, UInt32(features.count))
    }
    var n: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(buf, &n),
      let pos = hb_buffer_get_glyph_positions(buf, &n)
    else {
      return ShapedText(glyphs: [], advance: 0)
    }
    if key.style.vertical == .upright {
      return VerticalShaping.upright(infos, pos, count: Int(n), face: face)
    }
    var total = 0.0
    // Written in place into an array of exactly `n` (an empty array reserved and appended to
    // went through the growth path once more per miss).
    let glyphs = [ShapedGlyph](unsafeUninitializedCapacity: Int(n)) { out, count in
      for i in 0..<Int(n) {
        (out.baseAddress! + i).initialize(
          to: ShapedGlyph(
            glyph: infos[i].codepoint, cluster: infos[i].cluster,
            advance: Float(pos[i].x_advance), dx: Float(pos[i].x_offset),
            dy: Float(pos[i].y_offset)))
        total += Double(pos[i].x_advance)
      }
      count = Int(n)
    }
    return ShapedText(glyphs: glyphs, advance: total)
  }
}

enum Scripts {
  static let funcs = UncheckedFuncs(hb_unicode_funcs_get_default())
  struct UncheckedFuncs: @unchecked Sendable {
    let p: OpaquePointer?
    init(_ p: OpaquePointer?) { self.p = p }
  }
  static func script(_ scalar: UInt32) -> hb_script_t {
    if scalar < 0x80 {
      let letter = (0x41...0x5A).contains(scalar) || (0x61...0x7A).contains(scalar)
      return letter ? HB_SCRIPT_LATIN : HB_SCRIPT_COMMON
    }
    return hb_unicode_script(funcs.p, scalar)
  }
  /// The script's ISO 15924 tag ("Latn", "Hebr").
  static func tag(_ script: hb_script_t) -> String {
    withUnsafeBytes(of: hb_script_to_iso15924_tag(script).bigEndian) {
      String(decoding: $0, as: UTF8.self)
    }
  }
  static func isWide(_ s: UInt32) -> Bool {
    (0x1100...0x115F).contains(s) || (0x2E80...0xA4CF).contains(s) || (0xAC00...0xD7A3).contains(s)
      || (0xF900...0xFAFF).contains(s) || (0xFE30...0xFE4F).contains(s)
      || (0xFF00...0xFF60).contains(s)
      || (0xFFE0...0xFFE6).contains(s) || (0x20000...0x3FFFD).contains(s)
  }
}

/// Owns a HarfBuzz buffer reused across shaping calls of one shaper, and the shape plans
/// those calls ran.
///
/// `hb_shape` looks its plan up in the face's list for every call: it builds a key (the
/// features copied and sorted, an allocation) and compares it with the face's plans, ~900
/// instructions a call, 24 M of moby-dick's 26,637 calls (session 17). A shaper's calls
/// use a handful of plans (a face, direction, script, language and feature array each), so
/// it keeps them here, found by comparing five words, and runs them with
/// `hb_shape_plan_execute` and the same features: the same glyphs.
///
/// What that skips is `hb_shape` setting the buffer's limits for the call from its length
/// (growth, and nested lookups and state-machine steps, to a multiple of its scalars) and
/// restoring HarfBuzz's defaults after it (2^30 − 1 and 2^29 − 1); without it the
/// operations count down from the default across calls. So plans run only where those
/// limits never bind: faces with no nested lookup, multiple substitution or AAT state
/// machine (`Face.boundedLayout`, any origin), and the fonts Quire ships
/// (`Face.vendored`: well-formed tables that stay far within them); a book's or a user's
/// face with such lookups keeps `hb_shape`, its limits and its cost. And the buffer is
/// made anew before the calls since it was made could, each within its own limit, have
/// used up the default (`buffer(charging:)`, every ~8,000 words).
///
/// Bounds: at most `planLimit` plans; the next one empties the list (each plan released).
final class ShapeBuffer {
  /// HarfBuzz's buffer (nil if it could not be made).
  @exclusivity(unchecked) private(set) var buffer: OpaquePointer?

  /// HarfBuzz's default operation count of a buffer (`HB_BUFFER_MAX_OPS_DEFAULT`).
  static let operations = 0x1FFF_FFFF
  /// What is left of `operations` when every call since `buffer` was made spent all that
  /// `hb_shape` lets a call in any HarfBuzz release (4,096 × its scalars, at least 65,536;
  /// the most of the releases read for session 17).
  /// (This and the plan list are touched by one thread at a time, the shaper's: unchecked,
  /// the dynamic exclusivity checks of a class's stored properties cost ~70 instructions a
  /// call.)
  @exclusivity(unchecked) private var allowance = ShapeBuffer.operations

  /// `buffer` for a call that shapes `scalars` scalars, made anew first when that call
  /// could find the operations used up (see above).
  func buffer(charging scalars: Int) -> OpaquePointer? {
    let cost = max(4_096 * min(max(scalars, 0), 1 << 20), 65_536)
    if cost > allowance {
      hb_buffer_destroy(buffer)
      buffer = hb_buffer_create()
      allowance = ShapeBuffer.operations
    }
    allowance -= cost
    return buffer
  }

  /// A plan and what it was made for; `plan` nil for a face that keeps `hb_shape`. Holds
  /// the face so that it outlives the plan.
  private struct Plan {
    let face: Face
    let slot: Int
    let segment: Segment
    let plan: OpaquePointer?

    func matches(_ face: Face, _ slot: Int, _ segment: Segment) -> Bool {
      self.face === face && self.slot == slot && self.segment == segment
    }
  }

  /// The buffer's direction, script and language (`ShapeLanguage.bits`) as set for a call:
  /// what `hb_shape` reads from the buffer to choose a plan, as three words.
  typealias Segment = (direction: UInt32, script: UInt32, language: Int)

  /// Plans kept at most (a book's shaper uses a few dozen at most).
  static let planLimit = 64
  @exclusivity(unchecked) private var plans: [Plan] = []
  /// The plan found last: consecutive words mostly share their style.
  @exclusivity(unchecked) private var last = 0

  init() { buffer = hb_buffer_create() }
  deinit {
    releasePlans()
    hb_buffer_destroy(buffer)
  }

  /// The plan for the text now in `buffer` (had from `buffer(charging:)`) in `face` with
  /// `features`, whose feature slot is `slot` (`Shaper.featureSlot`); `segment` is the
  /// buffer's direction, script and language as just set. Kept from an earlier call or made
  /// now from the buffer's properties; nil when the face keeps `hb_shape`.
  func plan(face: Face, slot: Int, segment: Segment, features: [hb_feature_t])
    -> OpaquePointer?
  {
    if last < plans.count, plans[last].matches(face, slot, segment) { return plans[last].plan }
    if let i = plans.firstIndex(where: { $0.matches(face, slot, segment) }) {
      last = i
      return plans[i].plan
    }
    if plans.count >= ShapeBuffer.planLimit { releasePlans() }
    var props = hb_segment_properties_t()
    hb_buffer_get_segment_properties(buffer, &props)
    let plan =
      face.vendored || face.boundedLayout
      ? features.withUnsafeBufferPointer {
        hb_shape_plan_create_cached2(
          face.hbFace, &props, $0.baseAddress, UInt32($0.count), nil, 0, nil)
      } : nil
    plans.append(Plan(face: face, slot: slot, segment: segment, plan: plan))
    last = plans.count - 1
    return plan
  }

  private func releasePlans() {
    for p in plans where p.plan != nil { hb_shape_plan_destroy(p.plan) }
    plans.removeAll()
    last = 0
  }
}
