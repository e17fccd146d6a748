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

/// Missing glyphs of one chapter, by script and face. Each diagnostic carries its tally
/// (`occurrences`) and a group per script and face, so a book's log holds one entry per
/// script and font with the count of every occurrence, not one per chapter.
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
      let face = faceName(key.face)
      var d = Diagnostic(
        .missingGlyph, file: file, spine: spine, offset: t.firstOffset,
        message: t.message(script: key.script, face: face))
      // One entry per script and font for the whole book, counting every occurrence.
      d.group = "\(Scripts.tag(hb_script_t(rawValue: key.script)))/\(face)"
      d.occurrences = t.count
      return d
    }
  }
}

extension Diagnostic.Kind {
  /// Words (or unbreakable runs) wider than the measure, broken between grapheme clusters
  /// so no line runs off the page: one diagnostic per chapter, with the count.
  package static let emergencyBreak = Diagnostic.Kind("emergencyBreak")
  /// Combining-mark sequences longer than the Stream-Safe Text Format allows (UAX #15,
  /// 30 non-starters): a U+034F COMBINING GRAPHEME JOINER was inserted before shaping;
  /// marks past `InlineCaps.maxClusterMarks` on one base were dropped.
  package static let longCluster = Diagnostic.Kind("longCluster")
  /// A paragraph cut short, or a storm of break points thinned (see `InlineCaps`).
  package static let paragraphLimit = Diagnostic.Kind("paragraphLimit")
  /// Lines of text that may not wrap (`white-space: pre`, `nowrap`) wider than the measure,
  /// cut at its edge: one diagnostic per chapter, with the count.
  package static let clippedLine = Diagnostic.Kind("clippedLine")
  /// An inline formula wider than the line was scaled down to fit.
  package static let mathTooWide = Diagnostic.Kind("mathTooWide")
}

/// What inline layout worked around in one chapter, counted so each kind is reported once
/// per chapter however often it happened.
struct InlineNotes {
  struct Tally {
    var count = 0
    /// Source offset of the first occurrence.
    var firstOffset = 0
    /// What the first occurrence was (for `paragraphLimit`, which has several causes).
    var what = ""

    mutating func add(_ n: Int, offset: Int, what: String = "") {
      if count == 0 {
        firstOffset = offset
        self.what = what
      }
      count += n
    }
  }
  var emergency = Tally()
  /// Inline formulas wider than the measure, scaled down (Math/MathPlacement.swift).
  var mathScaled = Tally()
  var streamSafe = Tally()
  var marksDropped = 0
  var limits = Tally()
  var clipped = Tally()

  mutating func emergencyBreak(_ n: Int, offset: Int) { emergency.add(n, offset: offset) }

  /// One diagnostic per kind that occurred.
  func diagnostics(file: String, spine: Int) -> [Diagnostic] {
    var out: [Diagnostic] = []
    if emergency.count > 0 {
      let words = emergency.count == 1 ? "1 word" : "\(emergency.count) words"
      out.append(
        Diagnostic(
          .emergencyBreak, file: file, spine: spine, offset: emergency.firstOffset,
          message: "\(words) wider than the line broken between characters"))
    }
    if streamSafe.count > 0 || marksDropped > 0 {
      var message =
        "combining-mark sequences longer than \(InlineCaps.maxNonStarters) marks split before shaping (\(streamSafe.count) U+034F inserted)"
      if marksDropped > 0 {
        message += "; \(marksDropped) marks past \(InlineCaps.maxClusterMarks) on one base dropped"
      }
      out.append(
        Diagnostic(
          .longCluster, file: file, spine: spine, offset: streamSafe.firstOffset,
          message: message))
    }
    if clipped.count > 0 {
      let lines = clipped.count == 1 ? "1 line" : "\(clipped.count) lines"
      out.append(
        Diagnostic(
          .clippedLine, file: file, spine: spine, offset: clipped.firstOffset,
          message:
            "\(lines) of unwrappable text (white-space: pre or nowrap) clipped at the page's text edge"
        ))
    }
    if mathScaled.count > 0 {
      out.append(
        Diagnostic(
          .mathTooWide, file: file, spine: spine, offset: mathScaled.firstOffset,
          message: "\(mathScaled.count) formula(s) wider than the line scaled down to fit"))
    }
    if limits.count > 0 {
      out.append(
        Diagnostic(
          .paragraphLimit, file: file, spine: spine, offset: limits.firstOffset,
          message: limits.count == 1 ? limits.what : "\(limits.what) (and \(limits.count - 1) more)"
        ))
    }
    return out
  }
}
