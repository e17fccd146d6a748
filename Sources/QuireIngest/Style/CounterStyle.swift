// Counter styles (CSS Counter Styles 3, the predefined ones books use): how a counter value
// becomes text, for `list-style-type`, `counter()` and `counters()`. One implementation
// serves list markers and generated content, because list numbering *is* the `list-item`
// counter (CSS Lists 3).
//
// Each style has an algorithm (numeric, alphabetic, additive, or the CJK informal one), a
// range outside which it falls back (to `decimal`, or `cjk-decimal` for the CJK styles), and
// a suffix that markers add (". " for Latin styles, "、" for Japanese and Chinese ones, a
// space for bullets). Every algorithm runs in time proportional to the digits of its value;
// additive styles are only used inside their ranges (≤ 19,999), so their output stays
// short. Values are clamped to ±`CounterStyle.maxMagnitude` before anything is done.

/// A predefined counter style, or a string used as-is (`list-style-type: "– "`).
enum CounterStyle: Sendable, Hashable {
  case decimal, decimalLeadingZero, lowerRoman, upperRoman, lowerAlpha, upperAlpha, lowerGreek
  case upperArmenian, lowerArmenian, georgian, hebrew
  case disc, circle, square, none
  case cjkDecimal, cjkIdeographic, simpChineseInformal, hiragana, katakana, hiraganaIroha
  case katakanaIroha, japaneseInformal
  case string(String)

  /// Counter values beyond this magnitude are clamped (CSS leaves it to the UA).
  static let maxMagnitude = 1_000_000_000

  /// The style a `list-style-type` keyword names (case-insensitive), or nil.
  static func named(_ name: String) -> CounterStyle? {
    switch name.lowercased() {
    case "decimal": return .decimal
    case "decimal-leading-zero": return .decimalLeadingZero
    case "lower-roman": return .lowerRoman
    case "upper-roman": return .upperRoman
    case "lower-alpha", "lower-latin": return .lowerAlpha
    case "upper-alpha", "upper-latin": return .upperAlpha
    case "lower-greek": return .lowerGreek
    case "armenian", "upper-armenian": return .upperArmenian
    case "lower-armenian": return .lowerArmenian
    case "georgian": return .georgian
    case "hebrew": return .hebrew
    case "disc": return .disc
    case "circle": return .circle
    case "square": return .square
    case "none": return CounterStyle.none
    case "cjk-decimal": return .cjkDecimal
    case "cjk-ideographic", "trad-chinese-informal": return .cjkIdeographic
    case "simp-chinese-informal": return .simpChineseInformal
    case "hiragana": return .hiragana
    case "katakana": return .katakana
    case "hiragana-iroha": return .hiraganaIroha
    case "katakana-iroha": return .katakanaIroha
    case "japanese-informal": return .japaneseInformal
    default: return nil
    }
  }

  /// What a marker adds after the representation.
  var suffix: String {
    switch self {
    case .disc, .circle, .square: return " "
    case .none, .string: return ""
    case .cjkDecimal, .cjkIdeographic, .simpChineseInformal, .hiragana, .katakana,
      .hiraganaIroha, .katakanaIroha, .japaneseInformal:
      return "\u{3001}"
    default: return ". "
    }
  }

  /// A list marker: the representation and the suffix ("3. ", "• ", "iv. ", "三、").
  func marker(_ value: Int) -> String {
    if case .string(let s) = self { return s }
    return text(value) + suffix
  }

  /// The representation of `value` (no suffix), falling back outside the style's range.
  func text(_ value: Int) -> String {
    let n = max(-Self.maxMagnitude, min(Self.maxMagnitude, value))
    switch self {
    case .decimal: return String(n)
    case .decimalLeadingZero: return n < 0 ? "-" + Self.padded(-n) : Self.padded(n)
    case .lowerRoman: return Self.additive(n, Self.roman, range: 1...3999)?.lowercased() ?? "\(n)"
    case .upperRoman: return Self.additive(n, Self.roman, range: 1...3999) ?? "\(n)"
    case .lowerAlpha: return Self.alphabetic(n, Self.latin.lowercased())
    case .upperAlpha: return Self.alphabetic(n, Self.latin)
    case .lowerGreek: return Self.alphabetic(n, "αβγδεζηθικλμνξοπρστυφχψω")
    case .upperArmenian: return Self.additive(n, Self.armenian(0x531), range: 1...9999) ?? "\(n)"
    case .lowerArmenian: return Self.additive(n, Self.armenian(0x561), range: 1...9999) ?? "\(n)"
    case .georgian: return Self.additive(n, Self.georgianSymbols, range: 1...19999) ?? "\(n)"
    case .hebrew: return Self.additive(n, Self.hebrewSymbols, range: 1...10999) ?? "\(n)"
    case .disc: return "•"
    case .circle: return "◦"
    case .square: return "▪"
    case .none: return ""
    case .string(let s): return s
    default: return cjkText(n)
    }
  }

  private func cjkText(_ n: Int) -> String {
    switch self {
    case .cjkDecimal: return Self.cjkDecimalText(n)
    case .hiragana: return Self.alphabetic(n, Self.hiraganaLetters, fallback: Self.cjkDecimalText)
    case .katakana: return Self.alphabetic(n, Self.katakanaLetters, fallback: Self.cjkDecimalText)
    case .hiraganaIroha:
      return Self.alphabetic(n, Self.hiraganaIrohaLetters, fallback: Self.cjkDecimalText)
    case .katakanaIroha:
      return Self.alphabetic(n, Self.katakanaIrohaLetters, fallback: Self.cjkDecimalText)
    case .japaneseInformal: return Self.informal(n, japanese: true) ?? Self.cjkDecimalText(n)
    default: return Self.informal(n, japanese: false) ?? Self.cjkDecimalText(n)
    }
  }

  // MARK: - Algorithms

  private static func padded(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

  /// Bijective base-k: 1 → a, k → z, k + 1 → aa. Values below 1 fall back.
  private static func alphabetic(
    _ n: Int, _ letters: String, fallback: (Int) -> String = { String($0) }
  ) -> String {
    guard n >= 1 else { return fallback(n) }
    let symbols = Array(letters)
    var n = n
    var out: [Character] = []
    while n > 0 {
      n -= 1
      out.append(symbols[n % symbols.count])
      n /= symbols.count
    }
    return String(out.reversed())
  }

  /// Greedy additive system (symbols by decreasing weight); nil outside `range`.
  private static func additive(_ n: Int, _ symbols: [(Int, String)], range: ClosedRange<Int>)
    -> String?
  {
    guard range.contains(n) else { return nil }
    var n = n
    var out = ""
    for (weight, symbol) in symbols where n >= weight {
      let times = n / weight
      for _ in 0..<times { out += symbol }
      n -= times * weight
    }
    return out
  }

  private static func cjkDecimalText(_ n: Int) -> String {
    let digits = Array("〇一二三四五六七八九")
    let body = String(String(abs(n)).compactMap { $0.wholeNumberValue.map { digits[$0] } })
    return n < 0 ? "-" + body : body
  }

  /// Chinese and Japanese informal numbering for 0…9999 (nil outside): 十一, 二十, 一百零一
  /// (Chinese: 零 for skipped places, 一 dropped only before a leading 十); 百一, 千百十一
  /// (Japanese: no 零, 一 dropped before 十, 百 and 千).
  private static func informal(_ n: Int, japanese: Bool) -> String? {
    guard (0...9999).contains(n) else { return nil }
    let digits = Array(japanese ? "〇一二三四五六七八九" : "零一二三四五六七八九")
    if n == 0 { return String(digits[0]) }
    let places: [(Int, String)] = [(1000, "千"), (100, "百"), (10, "十"), (1, "")]
    var out = ""
    var pendingZero = false
    for (weight, mark) in places {
      let d = n / weight % 10
      if d == 0 {
        if !out.isEmpty { pendingZero = true }
        continue
      }
      if pendingZero && !japanese { out.append(digits[0]) }
      pendingZero = false
      let dropOne = d == 1 && weight > 1 && (japanese || (weight == 10 && out.isEmpty))
      if !dropOne { out.append(digits[d]) }
      out += mark
    }
    return out
  }

  // MARK: - Symbols

  private static let latin = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
  private static let roman: [(Int, String)] = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
  ]

  /// The 36 Armenian numeral letters (1…9, 10…90, 100…900, 1000…9000) are consecutive in
  /// Unicode from Ա (U+0531) or ա (U+0561).
  private static func armenian(_ base: UInt32) -> [(Int, String)] {
    var out: [(Int, String)] = []
    for k in 0..<36 {
      let weight = (k % 9 + 1) * [1, 10, 100, 1000][k / 9]
      out.append((weight, String(Character(Unicode.Scalar(base + UInt32(k))!))))
    }
    return out.reversed()
  }

  private static let georgianSymbols: [(Int, String)] = [
    (10000, "ჵ"), (9000, "ჰ"), (8000, "ჯ"), (7000, "ჴ"), (6000, "ხ"), (5000, "ჭ"),
    (4000, "წ"), (3000, "ძ"), (2000, "ც"), (1000, "ჩ"), (900, "შ"), (800, "ყ"), (700, "ღ"),
    (600, "ქ"), (500, "ფ"), (400, "ჳ"), (300, "ტ"), (200, "ს"), (100, "რ"), (90, "ჟ"),
    (80, "პ"), (70, "ო"), (60, "ჲ"), (50, "ნ"), (40, "მ"), (30, "ლ"), (20, "კ"), (10, "ი"),
    (9, "თ"), (8, "ჱ"), (7, "ზ"), (6, "ვ"), (5, "ე"), (4, "დ"), (3, "გ"), (2, "ბ"), (1, "ა"),
  ]

  /// Hebrew (CSS Counter Styles 3 §6.1): thousands with a geresh, 15 and 16 as ט״ו/ט״ז-style
  /// טו and טז (never the divine-name spellings).
  private static let hebrewSymbols: [(Int, String)] = [
    (10000, "י׳"), (9000, "ט׳"), (8000, "ח׳"), (7000, "ז׳"), (6000, "ו׳"), (5000, "ה׳"),
    (4000, "ד׳"), (3000, "ג׳"), (2000, "ב׳"), (1000, "א׳"), (400, "ת"), (300, "ש"), (200, "ר"),
    (100, "ק"), (90, "צ"), (80, "פ"), (70, "ע"), (60, "ס"), (50, "נ"), (40, "מ"), (30, "ל"),
    (20, "כ"), (19, "יט"), (18, "יח"), (17, "יז"), (16, "טז"), (15, "טו"), (10, "י"), (9, "ט"),
    (8, "ח"), (7, "ז"), (6, "ו"), (5, "ה"), (4, "ד"), (3, "ג"), (2, "ב"), (1, "א"),
  ]

  private static let hiraganaLetters =
    "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわゐゑをん"
  private static let katakanaLetters =
    "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヰヱヲン"
  private static let hiraganaIrohaLetters =
    "いろはにほへとちりぬるをわかよたれそつねならむうゐのおくやまけふこえてあさきゆめみしゑひもせす"
  private static let katakanaIrohaLetters =
    "イロハニホヘトチリヌルヲワカヨタレソツネナラムウヰノオクヤマケフコエテアサキユメミシヱヒモセス"
}
