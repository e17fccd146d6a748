// Bidirectional text (UAX #9) for one paragraph. FriBidi resolves the embedding levels
// (rules P2–I2, with bracket pairs, N0); reordering a line (L1 trailing-whitespace reset and
// L2 run reversal) is done here on those levels, because the breaker and shaper want
// *runs* — contiguous logical ranges in visual order — not a per-character visual string,
// and doing L1/L2 over runs is twenty lines. Indices are Unicode-scalar offsets into the
// paragraph's text, the same indices the shaper's clusters and the line breaks use.
//
// Fast path: text with no right-to-left characters and no bidi controls in a paragraph
// whose direction is LTR or unspecified is all level 0; FriBidi is not called (most books
// have no RTL text at all, and the scan is a cheap range test per scalar).

import CFriBidi
import QuireIngest

/// The resolved bidi levels of one paragraph, and its lines' visual runs.
package struct BidiParagraph: Sendable, Hashable {
  /// Number of Unicode scalars in the paragraph.
  package let count: Int
  /// The paragraph direction: given, or resolved from the first strong character (LTR
  /// when there is none).
  package let baseDirection: TextDirection
  /// Embedding level of each scalar (even = LTR, odd = RTL); empty when every level is 0
  /// (the LTR fast path).
  package let levels: [UInt8]
  /// L1 class of each scalar: 0 other, 1 whitespace/isolate/control (reset at line end),
  /// 2 segment or paragraph separator (always reset); empty on the fast path.
  private let resetClass: [UInt8]

  /// True when no reordering can happen (every level is 0).
  package var isPureLTR: Bool { levels.isEmpty }

  package init(_ text: String, baseDirection: TextDirection?) {
    self.init(text: Array(text.unicodeScalars), baseDirection: baseDirection)
  }

  /// Same as `init(text:baseDirection:)` over the string's Unicode scalars.
  package init(text: String, baseDirection: TextDirection?) {
    self.init(text: Array(text.unicodeScalars), baseDirection: baseDirection)
  }

  /// Resolves `text` with the paragraph direction `baseDirection`, or automatically from
  /// the first strong character when nil (rules P2–P3).
  package init(text: [Unicode.Scalar], baseDirection: TextDirection?) {
    count = text.count
    if baseDirection != .rtl && !text.contains(where: BidiParagraph.mayNeedBidi) {
      self.baseDirection = .ltr
      levels = []
      resetClass = []
      return
    }
    let n = text.count
    var chars = text.map { FriBidiChar($0.value) }
    var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
    var brackets = [FriBidiBracketType](repeating: 0, count: n)
    var lv = [FriBidiLevel](repeating: 0, count: n)
    var par: FriBidiParType
    switch baseDirection {
    case .ltr: par = FRIBIDI_PAR_LTR
    case .rtl: par = FRIBIDI_PAR_RTL
    case nil: par = FRIBIDI_PAR_ON
    }
    var ok = n == 0
    if n > 0 && n < Int(Int32.max) {
      let len = FriBidiStrIndex(n)
      fribidi_get_bidi_types(&chars, len, &types)
      fribidi_get_bracket_types(&chars, len, &types, &brackets)
      ok = fribidi_get_par_embedding_levels_ex(&types, &brackets, len, &par, &lv) > 0
    }
    let rtl = (par.rawValue & FRIBIDI_PAR_RTL.rawValue & 1) == 1
    self.baseDirection = rtl ? .rtl : .ltr
    if !ok {
      // FriBidi failed (allocation): fall back to the paragraph level everywhere.
      levels = [UInt8](repeating: rtl ? 1 : 0, count: n)
      resetClass = [UInt8](repeating: 0, count: n)
      return
    }
    levels = lv.map { UInt8(clamping: Int($0)) }
    let spaceMask: UInt32 = 0x0000_0800 | 0x0000_8000 | 0x0000_1000  // SPACE|ISOLATE|EXPLICIT
    let separatorMask: UInt32 = 0x0020_0000 | 0x0040_0000  // BS | SS
    resetClass = types.map { t in
      if t.rawValue & separatorMask != 0 { return 2 }
      if t.rawValue & spaceMask != 0 { return 1 }
      return 0
    }
  }

  /// Whether a scalar could make the paragraph non-LTR: right-to-left scripts (Hebrew,
  /// Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic and their presentation forms, RTL
  /// historic scripts) and the bidi control characters.
  static func mayNeedBidi(_ s: Unicode.Scalar) -> Bool {
    let v = s.value
    if v < 0x0590 { return false }
    switch v {
    case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF,
      0x1E800...0x1EFFF:
      return true
    case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069:
      return true
    default:
      return false
    }
  }

  /// Embedding level of scalar `index` before line-level rule L1.
  package func level(at index: Int) -> UInt8 { levels.isEmpty ? 0 : levels[index] }

  /// The runs of the line made of scalars `lineRange`, in visual order (left to right).
  /// Each run is a contiguous logical range with one direction; `rtl` runs are displayed
  /// in reverse. Applies L1 (trailing whitespace and separators take the paragraph level)
  /// and L2 (reverse runs from the highest level down to the lowest odd level). Adjacent
  /// runs that stay contiguous and same-directional are merged. An empty range gives [].
  package func visualRuns(lineRange: Range<Int>) -> [(range: Range<Int>, rtl: Bool)] {
    let lo = max(0, min(lineRange.lowerBound, count))
    let hi = max(lo, min(lineRange.upperBound, count))
    guard lo < hi else { return [] }
    if levels.isEmpty { return [(lo..<hi, false)] }
    let base: UInt8 = baseDirection == .rtl ? 1 : 0
    var lineLevels = Array(levels[lo..<hi])
    // L1: separators, and whitespace before them or at the end of the line.
    var trailing = true
    for k in stride(from: lineLevels.count - 1, through: 0, by: -1) {
      let c = resetClass[lo + k]
      if c == 2 {
        lineLevels[k] = base
        trailing = true
      } else if c == 1 && trailing {
        lineLevels[k] = base
      } else {
        trailing = false
      }
    }
    // Level runs.
    var runs: [(range: Range<Int>, level: UInt8)] = []
    var start = 0
    for k in 1...lineLevels.count
    where k == lineLevels.count || lineLevels[k] != lineLevels[start] {
      runs.append((lo + start..<lo + k, lineLevels[start]))
      start = k
    }
    // L2 over runs.
    let maxLevel = runs.map(\.level).max() ?? 0
    let minOdd = runs.map(\.level).filter { $0 & 1 == 1 }.min() ?? (maxLevel + 1)
    if maxLevel >= minOdd {
      var level = maxLevel
      while level >= minOdd {
        var i = 0
        while i < runs.count {
          guard runs[i].level >= level else {
            i += 1
            continue
          }
          var j = i
          while j < runs.count && runs[j].level >= level { j += 1 }
          runs[i..<j].reverse()
          i = j
        }
        level -= 1
      }
    }
    // Merge visually adjacent runs that continue each other.
    var out: [(range: Range<Int>, rtl: Bool)] = []
    for r in runs {
      let rtl = r.level & 1 == 1
      if let last = out.last, last.rtl == rtl {
        if !rtl && last.range.upperBound == r.range.lowerBound {
          out[out.count - 1].range = last.range.lowerBound..<r.range.upperBound
          continue
        }
        if rtl && r.range.upperBound == last.range.lowerBound {
          out[out.count - 1].range = r.range.lowerBound..<last.range.upperBound
          continue
        }
      }
      out.append((r.range, rtl))
    }
    return out
  }

  /// Logical indices of `lineRange` in visual order (left to right); convenient for tests
  /// and for mapping carets.
  package func visualOrder(lineRange: Range<Int>) -> [Int] {
    visualRuns(lineRange: lineRange).flatMap { run in
      run.rtl ? Array(run.range.reversed()) : Array(run.range)
    }
  }
}
