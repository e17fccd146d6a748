// Which legacy encoding a BOM-less, non-UTF-8 text is in.
//
// The detector is uchardet (Mozilla's universal charset detector): statistical models of
// byte pairs and letter frequencies per language, good on a paragraph or more, wild on a
// word ("München" alone comes back as ISO-8859-3, "你好" as ISO-8859-16). Debian's 0.0.7
// gives one name and no confidence, so the answer is weighed here:
//
// - Evidence is the number of non-ASCII bytes in the sample. With at least
//   `minimumEvidence` of them the detector's answer leads the candidates. A guess is
//   reported (a `guessedEncoding` diagnostic) when it rests on fewer than `reportedEvidence`
//   bytes or is not the detector's answer.
// - With less, the *shape* of the bytes decides between the two families a short text can
//   be in. Western single-byte text has short runs of high bytes inside Latin words (an
//   accented letter or two between ASCII letters); legacy CJK encodings write every
//   character as two high bytes, and Cyrillic, Greek or Hebrew single-byte text writes
//   whole words in high bytes, so their runs are longer or stand apart from Latin letters.
//   Western → windows-1252 first; else the detector's answer when it is not a Latin code
//   page (which is what it says when it knows nothing), else GB18030.
// - Detector names become iconv names, preferring the superset WHATWG decodes a label as:
//   ISO-8859-1 → windows-1252, EUC-KR → UHC (windows-949), Shift_JIS → CP932 (glibc's
//   SHIFT_JIS turns `\` into `¥` and `~` into `‾`), TIS-620 → windows-874, ISO-8859-9 →
//   windows-1254. The strict name follows as a fallback.
// - Every candidate is tried on the sample; the first that decodes it with (almost) no
//   invalid sequences wins, else the one with the fewest. windows-1252 decodes nearly any
//   byte string, which is why it is a fallback and never ahead of a confident answer.
//
// Bounds: the detector and the trial decodes see at most `sampleBytes` (64 KiB) starting
// just before the first non-ASCII byte, cut back to a line end so no character is split;
// the whole text is decoded once, with the winner.
//
// Rejected alternative: our own frequency tables per language (what uchardet already is,
// maintained); and trusting the detector on any input length (the "M黱chen" bug, with
// windows-1252 in place of GB18030).

import CUchardet
import Foundation

/// How a legacy-encoded text's encoding was chosen.
struct EncodingGuess: Sendable, Hashable {
  /// iconv names to try, best first.
  var candidates: [String]
  /// What uchardet said, if anything.
  var detectorAnswer: String?
  /// Non-ASCII bytes in the sample: what any guess rests on.
  var evidence: Int
}

enum EncodingDetection {
  /// At most this many bytes go to the detector and to each trial decode.
  static let sampleBytes = 64 * 1024
  /// Below this many non-ASCII bytes the detector's answer alone is not trusted: the shape
  /// of the bytes picks the family first.
  static let minimumEvidence = 64
  /// Below this many non-ASCII bytes (a word or two) any guess is reported as uncertain.
  static let reportedEvidence = 8

  /// The bytes the guess looks at: from a little before the first non-ASCII byte (that is
  /// where the evidence starts), at most `sampleBytes`, ending at a line feed when cut (a
  /// line feed is never part of a multi-byte character in an ASCII-compatible encoding).
  static func sample(_ data: Data) -> Data {
    let firstHigh = data.firstIndex { $0 >= 0x80 } ?? data.startIndex
    // An even distance from the start keeps the parity of UTF-16 code units.
    let start = data.startIndex + max(0, firstHigh - data.startIndex - 1024) / 2 * 2
    let end = min(data.endIndex, start + sampleBytes)
    guard end < data.endIndex else { return data[start..<end] }
    let tail = data[(start + (end - start) / 2)..<end]
    if let lf = tail.lastIndex(of: 0x0A) { return data[start...lf] }
    return data[start..<end]
  }

  /// Ordered iconv candidates for `sample`.
  static func guess(_ sample: Data) -> EncodingGuess {
    let evidence = sample.reduce(0) { $0 + ($1 >= 0x80 ? 1 : 0) }
    let answer = detect(sample)
    let named = answer.map(iconvNames(forDetectorName:)) ?? []
    let knowsNothing = answer.map { latinFamily.contains($0.uppercased()) } ?? true
    var candidates: [String]
    if let utf16 = utf16ByZeroBytes(sample) {
      candidates = utf16
    } else if evidence >= minimumEvidence {
      candidates = named + (looksWestern(sample) ? ["WINDOWS-1252"] : ["GB18030"])
    } else if looksWestern(sample) {
      candidates = ["WINDOWS-1252"] + named
    } else {
      candidates = (knowsNothing ? [] : named) + ["GB18030"]
    }
    candidates += ["GB18030", "WINDOWS-1252"]
    var seen: Set<String> = []
    candidates = candidates.filter { seen.insert($0).inserted }
    return EncodingGuess(candidates: candidates, detectorAnswer: answer, evidence: evidence)
  }

  /// uchardet's answer for `bytes`, or nil when it has none.
  static func detect(_ bytes: Data) -> String? {
    guard let detector = uchardet_new() else { return nil }
    defer { uchardet_delete(detector) }
    let status = bytes.withUnsafeBytes { raw -> Int32 in
      guard let base = raw.baseAddress else { return -1 }
      return uchardet_handle_data(detector, base.assumingMemoryBound(to: CChar.self), raw.count)
    }
    guard status == 0 else { return nil }
    uchardet_data_end(detector)
    guard let name = uchardet_get_charset(detector) else { return nil }
    let answer = String(cString: name)
    return answer.isEmpty || answer == "ASCII" ? nil : answer
  }

  /// What uchardet answers when a short text gives it no real evidence: Latin code pages.
  static let latinFamily: Set<String> = [
    "ISO-8859-1", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-9", "ISO-8859-10",
    "ISO-8859-13", "ISO-8859-15", "ISO-8859-16", "WINDOWS-1250", "WINDOWS-1252",
    "WINDOWS-1257", "WINDOWS-1258", "IBM852", "MAC-CENTRALEUROPE",
  ]

  /// iconv names for a detector's charset name: the superset a browser would decode the
  /// label as, then the name itself.
  static func iconvNames(forDetectorName name: String) -> [String] {
    switch name.uppercased() {
    case "ISO-8859-1", "WINDOWS-1252": return ["WINDOWS-1252", "ISO-8859-1"]
    case "ISO-8859-9", "WINDOWS-1254": return ["WINDOWS-1254", "ISO-8859-9"]
    case "TIS-620", "ISO-8859-11", "WINDOWS-874": return ["WINDOWS-874", "TIS-620"]
    case "EUC-KR", "UHC", "CP949": return ["UHC", "EUC-KR"]
    case "SHIFT_JIS", "CP932", "WINDOWS-31J": return ["CP932", "SHIFT_JIS"]
    case "GB2312", "GBK", "GB18030": return ["GB18030"]
    case "BIG5": return ["BIG5", "BIG5-HKSCS"]
    case "UTF-16", "UTF-32": return []  // without a BOM: settled by `utf16ByZeroBytes`
    case let other where other.hasPrefix("X-ISO-10646"): return []
    case let other: return [other]
    }
  }

  /// Whether the runs of non-ASCII bytes look like Western single-byte text: more runs of
  /// one or two bytes that touch an ASCII letter ("M|ü|nchen", "Gr|öß|e") than runs that
  /// are longer or stand apart from letters (a CJK character is two high bytes, a Cyrillic
  /// word is all high bytes, and neither sits inside a Latin word).
  static func looksWestern(_ bytes: Data) -> Bool {
    func isLetter(_ b: UInt8?) -> Bool {
      guard let b else { return false }
      return (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
    }
    var western = 0
    var other = 0
    var runStart: Int? = nil
    var previous: UInt8? = nil
    var beforeRun: UInt8? = nil
    for (i, b) in bytes.enumerated() {
      if b >= 0x80 {
        if runStart == nil {
          runStart = i
          beforeRun = previous
        }
      } else if let start = runStart {
        let touchesLetter = isLetter(beforeRun) || isLetter(b)
        if i - start <= 2 && touchesLetter { western += 1 } else { other += 1 }
        runStart = nil
      }
      previous = b
    }
    if let start = runStart {
      if bytes.count - start <= 2 && isLetter(beforeRun) { western += 1 } else { other += 1 }
    }
    return western > other
  }

  /// UTF-16 without a BOM: NUL bytes in one parity only (the zero halves of Latin code
  /// units), in at least one pair in eight. Little-endian puts them at odd offsets.
  static func utf16ByZeroBytes(_ bytes: Data) -> [String]? {
    var even = 0
    var odd = 0
    for (i, b) in bytes.enumerated() where b == 0 {
      if i % 2 == 0 { even += 1 } else { odd += 1 }
    }
    let pairs = bytes.count / 2
    guard pairs > 0, (even + odd) * 8 >= pairs else { return nil }
    if odd > even * 8 { return ["UTF-16LE", "UTF-16BE"] }
    if even > odd * 8 { return ["UTF-16BE", "UTF-16LE"] }
    return nil
  }
}
