// Cached shape plans (Shaping/Shaper.swift `ShapeBuffer`) against `hb_shape`, and the layout
// tables that decide which faces may use them (Fonts/Face.swift `FaceTables`).

import CHarfBuzz
import Foundation
import Testing

@testable import QuireTypeset

@Suite struct ShapePlanTests {
  func key(
    _ s: String, face: Int, smallCaps: Bool = false, script: hb_script_t = HB_SCRIPT_LATIN,
    rtl: Bool = false, language: ShapeLanguage = "en", features: [UInt64] = []
  ) -> ShapeKey {
    ShapeKey(
      text: s.unicodeScalars.map(\.value), face: face, smallCaps: smallCaps, rtl: rtl,
      script: script.rawValue, language: language, features: features)
  }

  /// `key` shaped through `hb_shape` (a fresh buffer) and through `buffer`'s cached plans.
  func both(_ key: ShapeKey, face: Face, buffer: ShapeBuffer) -> (ShapedText, ShapedText) {
    let features = Shaper.features(key.style, unshared: nil)
    let plain = Shaper.run(key, face: face)
    let planned = Shaper.run(
      key, face: face, buffer: buffer.buffer(charging: key.text.count)!, features: features,
      plans: (buffer, Shaper.featureSlot(key.style)))
    return (plain, planned)
  }

  @Test func facesWithNestedLookupsKeepHbShape() {
    let set = FontTests.set
    let armenian = set.families["noto serif armenian"]![0]
    let symbols = set.families["noto sans symbols"]![0]
    let serif = set.families["noto serif"]![0]
    let dejavu = set.families["dejavu sans"]![0]
    let naskh = set.families["noto naskh arabic"]![0]
    // Ligatures, pairs and marks only.
    #expect(set.faces[armenian].boundedLayout)
    #expect(set.faces[symbols].boundedLayout)
    // Chaining contextual substitutions (and Naskh's multiple substitutions): cached
    // plans only because Quire ships them.
    #expect(!set.faces[serif].boundedLayout)
    #expect(set.faces[serif].vendored && set.faces[naskh].vendored)
    #expect(!set.faces[dejavu].boundedLayout)
    #expect(!set.faces[naskh].boundedLayout)
  }

  @Test func cachedPlansShapeAsHbShape() {
    let set = FontTests.set
    let buffer = ShapeBuffer()
    let faces = ["noto serif armenian", "noto sans symbols", "noto serif", "dejavu sans"].map {
      set.families[$0]![0]
    }
    let texts = ["Բարև", "fi", "AVA", "office", "x", "", "a\u{301}e\u{300}", "12345", "→⇒"]
    for face in faces {
      for text in texts {
        for (smallCaps, rtl) in [(false, false), (true, false), (false, true)] {
          for features in [
            [], [UInt64(Face.tag("onum")) << 32 | 1], [UInt64(Face.tag("liga")) << 32],
          ] {
            let k = key(text, face: face, smallCaps: smallCaps, rtl: rtl, features: features)
            let (plain, planned) = both(k, face: set.faces[face], buffer: buffer)
            #expect(plain.glyphs == planned.glyphs, "\(text) in face \(face)")
            #expect(plain.advance == planned.advance)
          }
        }
      }
    }
  }

  @Test func scriptAndLanguageNameTheirOwnPlans() {
    let set = FontTests.set
    let buffer = ShapeBuffer()
    let armenian = set.families["noto serif armenian"]![0]
    for (script, language) in [
      (HB_SCRIPT_ARMENIAN, "hy"), (HB_SCRIPT_LATIN, "en"), (HB_SCRIPT_ARMENIAN, ""),
      (HB_SCRIPT_COMMON, "tr"), (HB_SCRIPT_ARMENIAN, "hy"),
    ] as [(hb_script_t, ShapeLanguage)] {
      let k = key("Բարև fi", face: armenian, script: script, language: language)
      let (plain, planned) = both(k, face: set.faces[armenian], buffer: buffer)
      #expect(plain.glyphs == planned.glyphs)
    }
  }

  @Test func planListIsBounded() {
    let set = FontTests.set
    let buffer = ShapeBuffer()
    let armenian = set.families["noto serif armenian"]![0]
    // More feature arrays than the list keeps: it empties and starts again.
    for i in 0..<(ShapeBuffer.planLimit * 2 + 3) {
      let k = key(
        "Բարև", face: armenian, script: HB_SCRIPT_ARMENIAN,
        features: [UInt64(Face.tag("ss01")) << 32 | UInt64(i % 3), UInt64(i)])
      let (plain, planned) = both(k, face: set.faces[armenian], buffer: buffer)
      #expect(plain.glyphs == planned.glyphs)
    }
  }

  @Test func renewedBuffersShapeAlike() {
    let set = FontTests.set
    let buffer = ShapeBuffer()
    let serif = set.families["noto serif"]![0]
    for text in ["office", "Æsop’s fiﬁ", "AVA", "x"] {
      // Charged as a million scalars: the buffer is made anew for every call.
      _ = buffer.buffer(charging: 1 << 20)
      let (plain, planned) = both(key(text, face: serif), face: set.faces[serif], buffer: buffer)
      #expect(plain.glyphs == planned.glyphs)
    }
  }

  func bytes(_ words: [UInt16]) -> [UInt8] { words.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

  @Test func lookupTypesReadExtensionsAndRejectBadOffsets() {
    // Header (version 1.0, script and feature lists unused, lookup list at 10), two lookups:
    // a ligature lookup and an extension lookup whose one subtable names type 6.
    let table = bytes([
      1, 0, 0, 0, 10,
      2, 6, 14,  // lookup list: count, offsets from the list
      4, 0, 1, 0,  // lookup 1: type 4, flag, one subtable (offset unused)
      7, 0, 1, 8,  // lookup 2: type 7, flag, one subtable at 8 from the lookup
      1, 6, 0, 0,  // extension subtable: format 1, type 6
    ])
    table.withUnsafeBytes { b in
      #expect(FaceTables.lookupTypes(b, extension: 7) == [4, 6])
    }
    var broken = table
    broken[13] = 200  // the first lookup's offset past the end
    broken.withUnsafeBytes { b in #expect(FaceTables.lookupTypes(b, extension: 7) == nil) }
    Array(table.prefix(9)).withUnsafeBytes { b in
      #expect(FaceTables.lookupTypes(b, extension: 7) == nil)
    }
  }

  @Test func kernStateTablesAreFound() {
    // OpenType kern version 0: a format 0 subtable, then a format 1 (coverage high byte).
    let ot = bytes([0, 2, 0, 6, 0x0001, 0, 6, 0x0101])
    ot.withUnsafeBytes { #expect(FaceTables.kernHasStateTable($0) == [false, true]) }
    // Apple kern version 1.0: one format 1 subtable (coverage low byte).
    let apple = bytes([1, 0, 0, 1, 0, 8, 0x8001, 0])
    apple.withUnsafeBytes { #expect(FaceTables.kernHasStateTable($0) == [true]) }
    // A subtable past the table's end, and a zero length: not read.
    bytes([0, 1]).withUnsafeBytes { #expect(FaceTables.kernHasStateTable($0) == nil) }
    bytes([0, 1, 0, 0, 0, 0]).withUnsafeBytes {
      #expect(FaceTables.kernHasStateTable($0) == nil)
    }
    bytes([2, 0]).withUnsafeBytes { #expect(FaceTables.kernHasStateTable($0) == nil) }
  }

  @Test func commonTailMatchesAScalarByScalarComparison() {
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let n = Int.random(in: 0..<40, using: &rng)
      let a = (0..<n).map { _ in UInt8.random(in: 0..<3, using: &rng) }
      var b = a
      for _ in 0..<Int.random(in: 0..<3, using: &rng) where n > 0 {
        b[Int.random(in: 0..<n, using: &rng)] = UInt8.random(in: 0..<3, using: &rng)
      }
      let floor = Int.random(in: 0...n, using: &rng)
      var expected = n
      while expected > floor, a[expected - 1] == b[expected - 1] { expected -= 1 }
      #expect(FirstLine.commonTail(a, b, n, floor: floor) == expected)
    }
    #expect(FirstLine.commonTail([1, 2], [1, 2, 3], 3, floor: 0) == 3)  // too short: none
  }
}
