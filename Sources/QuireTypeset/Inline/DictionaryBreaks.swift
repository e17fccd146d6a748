// Line breaks inside Thai, Lao, Khmer, Myanmar and the other scripts that write words
// without spaces (UAX #14 class SA, "complex context").
//
// UAX #14 leaves SA to "a dictionary or other means"; libunibreak, which finds every other
// break, treats SA as letters and never breaks inside a run of them, so a Thai sentence
// becomes one unbreakable word. Word boundaries in these scripts need a lexicon: ICU's line
// break iterator carries one per script (Thai, Lao, Khmer, Burmese dictionaries in
// libicudata) and is the reference every browser uses, so no hand-written segmenter here.
//
// Only the SA runs are handed to ICU, each on its own: libunibreak's result at the edges
// of a run (spaces, punctuation, other scripts) stands, and inside a run an ICU boundary
// becomes an allowed break. The iterator is opened per paragraph that needs it; books
// without these scripts never reach this file (`ItemizedText` sets a flag while it
// assigns faces, on script changes only).

import CHarfBuzz
import CICU
import CUnibreak

enum DictionaryBreaks {
  /// Scripts whose words are found with a dictionary (UAX #14 class SA).
  static func needsDictionary(_ script: hb_script_t) -> Bool {
    switch script {
    case HB_SCRIPT_THAI, HB_SCRIPT_LAO, HB_SCRIPT_KHMER, HB_SCRIPT_MYANMAR, HB_SCRIPT_TAI_THAM,
      HB_SCRIPT_TAI_VIET, HB_SCRIPT_NEW_TAI_LUE, HB_SCRIPT_TAI_LE:
      return true
    default:
      return false
    }
  }

  /// Longest run handed to ICU at once; a longer run is cut (a break is then missed only
  /// at the cut, never invented).
  static let maxRun = 100_000

  /// Adds ICU's word boundaries inside every dictionary-script run of `scalars` to
  /// `breaks` (libunibreak's per-scalar result: the status after each scalar).
  static func apply(_ scalars: [UInt32], scripts: [hb_script_t], breaks: inout [CChar]) {
    var i = 0
    let n = scalars.count
    while i < n {
      guard needsDictionary(scripts[i]) else {
        i += 1
        continue
      }
      var end = i + 1
      while end < n, end - i < maxRun, scalars[end] <= 0xFFFF,
        needsDictionary(scripts[end]) || scripts[end] == HB_SCRIPT_INHERITED
      {
        end += 1
      }
      if end - i > 1 { breakRun(scalars[i..<end], breaks: &breaks) }
      i = end
    }
  }

  /// One run of BMP scalars (so UTF-16 offsets are scalar offsets): a boundary at offset
  /// k allows a break after scalar k − 1, unless libunibreak already forces one there.
  private static func breakRun(_ run: ArraySlice<UInt32>, breaks: inout [CChar]) {
    let units = run.map { UInt16(truncatingIfNeeded: $0) }
    var found = [Int32](repeating: 0, count: units.count)
    let count = units.withUnsafeBufferPointer { text in
      found.withUnsafeMutableBufferPointer { out in
        quire_icu_line_boundaries(
          text.baseAddress, Int32(text.count), out.baseAddress, Int32(out.count))
      }
    }
    guard count > 0 else { return }
    let start = run.startIndex
    for b in found.prefix(Int(count)) where b > 0 {
      let k = start + Int(b) - 1
      if breaks[k] != CChar(LINEBREAK_MUSTBREAK) { breaks[k] = CChar(LINEBREAK_ALLOWBREAK) }
    }
  }
}
