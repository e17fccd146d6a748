// CJK line-breaking rules (kinsoku shori), after JLREQ (W3C "Requirements for Japanese
// Text Layout") and clreq ("Requirements for Chinese Text Layout"). UAX #14 (libunibreak)
// already finds break opportunities between ideographs; these tables are the tailoring it
// lacks: which characters may not start or end a line, which fullwidth punctuation can be
// set at half width when a line must shrink, which may hang past the line end, and where
// a quarter-em space separates CJK from Latin letters and digits. Written by hand because
// the rules are short character lists that no installed library exposes; they follow the
// JLREQ character classes (cl-02 closing brackets, cl-04 hyphens, cl-05 dividing
// punctuation, cl-06 middle dots, cl-07 full stops, cl-08 commas, cl-09 iteration marks,
// cl-10 prolonged sound mark, cl-11 small kana; cl-01 opening brackets).
// Two sets, as CSS `line-break` names them (CSS Text 3 §5.3): `strict` (JLREQ's: small kana,
// the prolonged sound mark and the hyphens ‐ – 〜 ゠ do not start lines) for
// `line-break: strict`, and `normal` (they may) for `auto` and `normal`, as browsers set
// Japanese by default (Chromium breaks "プロポー|ショナル"). UAX #14 resolves those
// characters (class CJ) as strict; `mayBreakBeforeConditional` gives the normal set its
// breaks back. Rejected: strict everywhere (table columns then came out narrower or wider
// than a browser's, by the width of the pairs it keeps together). libunibreak 1.1 predates
// Unicode 8's LB30, which keeps only narrow brackets to a letter or digit before them:
// `mayBreakBeforeWideOpening` gives back the break before a wide `（` ("集合2|（逆").

import QuireIngest

/// Japanese/Chinese line-breaking rules over Unicode scalars.
package enum Kinsoku {
  /// Closing brackets and quotation marks (JLREQ cl-02), fullwidth and ASCII.
  static let closingBrackets: Set<Unicode.Scalar> = scalars(
    "」』）〕】〉》〙〗〛｝］｠｣’”〞〟)]}»›﹚﹜﹞︶︸︺︼︾﹀﹂﹄")
  /// Opening brackets and quotation marks (JLREQ cl-01).
  static let openingBrackets: Set<Unicode.Scalar> = scalars(
    "「『（〔【〈《〘〖〚｛［｟｢‘“〝([{«‹﹙﹛﹝︵︷︹︻︽︿﹁﹃")
  /// Full stops and commas (cl-07, cl-08), incl. halfwidth/ASCII forms.
  static let stopsAndCommas: Set<Unicode.Scalar> = scalars("。．、，｡､,.﹐﹑﹒︐︑︒")
  /// Dividing punctuation (cl-05), middle dots (cl-06), colons, semicolons.
  static let dividing: Set<Unicode.Scalar> = scalars("？！‼⁇⁈⁉・：；﹔﹕﹖﹗︓︔︕︖?!:;･")
  /// Iteration marks (cl-09), prolonged sound mark (cl-10), hyphens (cl-04).
  static let iterationAndProlonged: Set<Unicode.Scalar> = scalars("ヽヾゝゞ々〻ー‐゠–〜～")
  /// Small kana (cl-11).
  static let smallKana: Set<Unicode.Scalar> = scalars(
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿｧｨｩｪｫｬｭｮｯｰ")
  /// Small kana, the prolonged sound mark and the hyphens that `line-break: normal` lets
  /// start a line (CSS Text 3 §5.3; UAX #14 class CJ and ‐ – 〜 ゠).
  static let conditionalStarters: Set<Unicode.Scalar> = smallKana.union(scalars("ー‐–〜゠"))
  /// Characters that may not be separated by a line break (cl-03 dashes and leaders).
  static let inseparable: Set<Unicode.Scalar> = scalars("—―…‥〳〴〵")

  static let notStarting: Set<Unicode.Scalar> = closingBrackets.union(stopsAndCommas).union(
    dividing
  ).union(iterationAndProlonged).union(smallKana)
  static let notStartingNormal = notStarting.subtracting(conditionalStarters)

  /// Fullwidth punctuation whose glyph occupies half its em box, so it may be set at half
  /// width (JLREQ 3.1.4 "half-width forms" / clreq punctuation compression).
  static let compressible: Set<Unicode.Scalar> = closingBrackets.union(openingBrackets)
    .union(scalars("。．、，・：；")).subtracting(scalars(")]}»›([{«‹’”‘“﹙﹚﹛﹜﹝﹞"))

  /// Punctuation that may hang into the margin past the line end (burasage).
  static let hanging: Set<Unicode.Scalar> = scalars("。．、，")

  private static func scalars(_ s: String) -> Set<Unicode.Scalar> { Set(s.unicodeScalars) }

  /// Whether `c` may be the first character of a line. False for closing brackets and
  /// quotes, full stops and commas, dividing punctuation (？！：；・), iteration marks,
  /// the prolonged sound mark, hyphens and small kana — the last three only when `strict`.
  package static func mayStartLine(_ c: Unicode.Scalar, strict: Bool = true) -> Bool {
    !(strict ? notStarting : notStartingNormal).contains(c)
  }

  /// Whether `line-break: normal` allows a break between `before` and `after` that UAX #14
  /// (strict for class CJ) does not: `after` is a conditional starter after CJK text that
  /// may end a line.
  package static func mayBreakBeforeConditional(before: Unicode.Scalar, after: Unicode.Scalar)
    -> Bool
  {
    conditionalStarters.contains(after) && isCJK(before) && mayEndLine(before)
      && !(before == after && inseparable.contains(before))
  }

  /// Whether UAX #14 allows a break here that libunibreak 1.1 does not: between a letter or
  /// digit and an East Asian wide opening bracket ("集合2|（逆"). Since Unicode 8, LB30
  /// keeps only narrow brackets to the letters before them (`(AL | HL | NU) × [OP −
  /// EA(F, W, H)]`); browsers (ICU) break before `（`, so a table column's min-content is
  /// the bracketed word, not the digit with it.
  package static func mayBreakBeforeWideOpening(before: Unicode.Scalar, after: Unicode.Scalar)
    -> Bool
  {
    isCJK(after) && openingBrackets.contains(after) && isWesternAlphanumeric(before)
  }

  /// Whether `c` may be the last character of a line. False for opening brackets and
  /// quotation marks.
  package static func mayEndLine(_ c: Unicode.Scalar) -> Bool { !openingBrackets.contains(c) }

  /// Whether a line break between `before` and `after` violates the rules: `after` may not
  /// start a line, `before` may not end one, or both are the same inseparable character
  /// (—— or ……).
  package static func forbidBreak(
    before: Unicode.Scalar, after: Unicode.Scalar, strict: Bool = true
  ) -> Bool {
    if !mayStartLine(after, strict: strict) || !mayEndLine(before) { return true }
    return before == after && inseparable.contains(before)
  }

  /// Fullwidth punctuation that may be set at half width (its ink fills half the em box)
  /// when a line must shrink: brackets, quotes, 。．、，・：；.
  package static func isCompressible(_ c: Unicode.Scalar) -> Bool { compressible.contains(c) }

  /// Punctuation that may hang past the end of a line instead of being pushed to the
  /// next one: 。．、，.
  package static func mayHang(_ c: Unicode.Scalar) -> Bool { hanging.contains(c) }

  /// Removes the break opportunities the rules forbid. `breakAfter[i]` says whether a
  /// line may break between `scalars[i]` and `scalars[i + 1]` (e.g. from UAX #14); the
  /// result clears it where `forbidBreak(before:after:)` holds, looking through spaces
  /// is not needed because a space is itself a legal line end. Counts must match.
  package static func applyRules(to scalars: [Unicode.Scalar], breakAfter: [Bool]) -> [Bool] {
    var out = breakAfter
    let n = min(scalars.count, breakAfter.count)
    for i in 0..<n where out[i] && i + 1 < scalars.count {
      if forbidBreak(before: scalars[i], after: scalars[i + 1]) { out[i] = false }
    }
    return out
  }

  /// Han ideographs, kana, Hangul, bopomofo, CJK punctuation and fullwidth forms — the
  /// characters between which UAX #14 allows breaks and kinsoku applies.
  package static func isCJK(_ c: Unicode.Scalar) -> Bool {
    switch c.value {
    case 0x1100...0x11FF,  // Hangul Jamo
      0x2E80...0x2FDF,  // CJK radicals, Kangxi
      0x2FF0...0x303F,  // ideographic description, CJK symbols and punctuation
      0x3040...0x30FF,  // Hiragana, Katakana
      0x3100...0x312F, 0x3130...0x318F, 0x3190...0x31FF,  // Bopomofo, Hangul compat, kanbun…
      0x3200...0x33FF,  // enclosed CJK, compatibility
      0x3400...0x4DBF,  // Ext A
      0x4E00...0x9FFF,  // Unified ideographs
      0xA960...0xA97F, 0xAC00...0xD7FF,  // Hangul
      0xF900...0xFAFF,  // compatibility ideographs
      0xFE30...0xFE4F,  // CJK compatibility forms
      0xFF00...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
      0xFF61...0xFF9F,  // halfwidth katakana and punctuation
      0x20000...0x3FFFF:  // Ext B and later planes
      return true
    default:
      return false
    }
  }

  /// Whether a quarter-em space goes between `a` and `b` (in text order): between a CJK
  /// ideograph or kana/hangul and a Latin letter or digit, either way round (JLREQ 3.6.1;
  /// clreq "spacing between Chinese and Western text"). Punctuation on either side (CJK
  /// or Western) takes no extra space; neither do fullwidth letters and digits.
  package static func needsQuarterEm(
    between a: Unicode.Scalar, and b: Unicode.Scalar, autospace: Autospace = .normal
  ) -> Bool {
    let western: Unicode.Scalar
    if isCJKLetter(a) && isWesternAlphanumeric(b) {
      western = b
    } else if isWesternAlphanumeric(a) && isCJKLetter(b) {
      western = a
    } else {
      return false
    }
    return autospace.contains(western.properties.numericType == .decimal ? .numeric : .alpha)
  }

  static func isCJKLetter(_ c: Unicode.Scalar) -> Bool {
    guard isCJK(c) else { return false }
    let p = c.properties
    // Exclude punctuation and symbols (brackets, 。、, fullwidth ASCII punctuation).
    if (0xFF01...0xFF5E).contains(c.value) { return false }
    return p.isAlphabetic || p.isIdeographic || c == "々" || c == "〆"
  }

  static func isWesternAlphanumeric(_ c: Unicode.Scalar) -> Bool {
    if isCJK(c) { return false }
    let p = c.properties
    if p.numericType == .decimal { return true }
    return p.isAlphabetic && !p.isIdeographic
  }

  // MARK: Spacing (JLREQ 3.1.4 half-width punctuation, 3.1.5 hanging, 3.6.1 ¼ em)

  /// Fullwidth punctuation whose right half is blank (closing brackets, 。．、，).
  static let blankRight: Set<Unicode.Scalar> = scalars("」』）〕】〉》〙〗〛｝］｠。．、，")
  /// Fullwidth opening brackets, whose left half is blank.
  static let blankLeft: Set<Unicode.Scalar> = scalars("「『（〔【〈《〘〖〚｛［｟")

  /// Whether the right half of `c`'s em box is blank (it may be set at half width).
  package static func hasBlankRightHalf(_ c: Unicode.Scalar) -> Bool { blankRight.contains(c) }
  /// Whether the left half of `c`'s em box is blank.
  package static func hasBlankLeftHalf(_ c: Unicode.Scalar) -> Bool { blankLeft.contains(c) }

  /// Demerit cost of hanging 。、 past the line end (TeX penalty units): a hung stop is a
  /// fallback for a line that would otherwise be too loose or too tight.
  package static let hangingCost: Double = 100

  /// The break items between `a` and `b` (in text order, neither a space) that JLREQ
  /// spacing asks for, or nil when the plain rules apply. `em` is the font size in px;
  /// `breakAllowed` whether a line may break here; `compress` whether the punctuation is
  /// set in the corner of its em box (Japanese, Simplified Chinese), so half of it is blank.
  /// - Adjacent punctuation (」「, 。」, 「『): the blank between them is cut to ½ em — a
  ///   fixed −½ em glue. At a break, the line still ends with a's blank half cut.
  /// - Closing punctuation before a break: for 。．、， a penalty of width −1 em (hanging:
  ///   the stop sits wholly past the measure, costing `hangingCost`), a penalty of width
  ///   −½ em (a line ending here loses the blank half: compression at the line end), then
  ///   glue that may shrink by ½ em (compression inside a line that must tighten).
  /// - CJK next to a Latin letter or digit: ¼ em glue, stretching to ½ em and shrinking to
  ///   ⅛ em (a break point if the rules allow one there), where `autospace` asks for it.
  package static func boundaryItems(
    _ a: Unicode.Scalar, _ b: Unicode.Scalar, em: Double, breakAllowed: Bool, compress: Bool,
    autospace: Autospace = .normal
  ) -> [BreakItem]? {
    let half = em / 2
    let spread = em * 0.1  // the inter-character justification stretch
    if compress,
      (hasBlankRightHalf(a) && isCompressible(b)) || (hasBlankLeftHalf(b) && isCompressible(a))
    {
      let glue = BreakItem.glue(width: -half, stretch: spread, shrink: 0)
      if breakAllowed {
        return [.penalty(width: hasBlankRightHalf(a) ? -half : 0, cost: 0, flagged: false), glue]
      }
      return [.prohibitedBreak, glue]
    }
    if compress, breakAllowed, hasBlankRightHalf(a) {
      // The narrower break first: a breaker drops a line start once a break makes the line
      // overfull, so the hanging break must come before the wider compressed one.
      var out: [BreakItem] = []
      if mayHang(a) { out.append(.penalty(width: -em, cost: hangingCost, flagged: false)) }
      out.append(.penalty(width: -half, cost: 0, flagged: false))
      out.append(.glue(width: 0, stretch: spread, shrink: half))
      return out
    }
    if needsQuarterEm(between: a, and: b, autospace: autospace) {
      let glue = BreakItem.glue(width: em / 4, stretch: em / 4, shrink: em / 8)
      return breakAllowed ? [glue] : [.prohibitedBreak, glue]
    }
    return nil
  }
}
