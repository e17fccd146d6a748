// What the typesetter reports about content it worked around, as typed diagnostics
// (QuireCore's `Diagnostic`): characters no font has, fonts that could not be used, a chapter
// asked for that the book lacks. Aggregation (one entry per kind and file, with a count) is
// `DiagnosticLog`'s job; the typesetter already reports missing glyphs once per chapter,
// script and font rather than once per character.

import CHarfBuzz
import QuireCore

extension Diagnostic.Kind {
  /// Characters no font has (drawn as the primary face's .notdef): one diagnostic per
  /// chapter, script and face, with the count in the message.
  package static let missingGlyph = Diagnostic.Kind("missingGlyph")
  /// An embedded font that could not be loaded, or a `--font` family that was not found.
  package static let fontUnavailable = Diagnostic.Kind("fontUnavailable")
  /// A chapter index outside the book's spine.
  package static let noSuchChapter = Diagnostic.Kind("noSuchChapter")
}

/// Characters of one script that no font has, drawn with one face, in one chapter.
struct MissingGlyphTally {
  /// Distinct characters, in first-seen order (at most `sampleLimit`).
  var samples: [UInt32] = []
  var distinct: Set<UInt32> = []
  /// All occurrences.
  var count = 0
  /// Source offset of the first occurrence.
  var firstOffset: Int

  static let sampleLimit = 8

  init(firstOffset: Int) { self.firstOffset = firstOffset }

  mutating func add(_ scalar: UInt32) {
    count += 1
    if distinct.count < 200, distinct.insert(scalar).inserted,
      samples.count < MissingGlyphTally.sampleLimit
    {
      samples.append(scalar)
    }
  }

  /// "no font has U+10FFFD (…)" for a single occurrence; with more, the characters seen,
  /// the script and face, and the count.
  func message(script: UInt32, face: String) -> String {
    func name(_ v: UInt32) -> String {
      let ch = Unicode.Scalar(v).map { " (\(Character($0)))" } ?? ""
      let hex = String(v, radix: 16, uppercase: true)
      return "U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)\(ch)"
    }
    let list = samples.map(name).joined(separator: ", ")
    if count == 1 { return "no font has \(list)" }
    let tag = Scripts.tag(hb_script_t(rawValue: script))
    let more = distinct.count > samples.count ? ", …" : ""
    return
      "no font has \(list)\(more) (\(count) occurrences of \(distinct.count) characters, script \(tag), drawn with \(face))"
  }
}

/// Missing glyphs of one chapter, by script and face.
struct MissingGlyphs {
  struct Key: Hashable {
    var script: UInt32
    var face: Int
  }
  private(set) var tallies: [Key: MissingGlyphTally] = [:]
  /// Keys in first-seen order.
  private(set) var order: [Key] = []

  var isEmpty: Bool { order.isEmpty }

  mutating func add(_ scalar: UInt32, script: hb_script_t, face: Int, offset: Int) {
    let key = Key(script: script.rawValue, face: face)
    if tallies[key] == nil {
      tallies[key] = MissingGlyphTally(firstOffset: offset)
      order.append(key)
    }
    tallies[key]?.add(scalar)
  }

  /// One diagnostic per script and face.
  func diagnostics(file: String, spine: Int, faceName: (Int) -> String) -> [Diagnostic] {
    order.compactMap { key in
      guard let t = tallies[key] else { return nil }
      return Diagnostic(
        .missingGlyph, file: file, spine: spine, offset: t.firstOffset,
        message: t.message(script: key.script, face: faceName(key.face)))
    }
  }
}
