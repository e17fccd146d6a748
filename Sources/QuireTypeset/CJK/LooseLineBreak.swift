// `line-break: loose` (CSS Text 3 §5.3): the most lenient Japanese rule set, for narrow
// columns (newspapers, vertical pages on small screens). On top of `normal` it lets a line
// start with an iteration mark (々 〻 ゝ ゞ ヽ ヾ), a centred punctuation mark (・ ： ； ･
// ゠) or an exclamation/question mark (！ ？ ‼ ⁇ ⁈ ⁉), break between two inseparable
// leaders (…… ‥‥ ⋯ ︙ 〳〵), before a postfix after an ideograph (100％, 30℃: % ¢ ° ‰ ′ ″
// ℃ ％ ￠) and after a prefix before one (＄100: $ £ ¥ € № ＄ ￡ ￥). Opening brackets still
// may not end a line and closing brackets, commas and full stops still may not start one.
// Kept apart from Kinsoku.swift's tables so the strict and normal sets stay as they were.

extension Kinsoku {
  /// Characters `line-break: loose` lets start a line that `normal` keeps off.
  static let looseStarters: Set<Unicode.Scalar> = Set(
    "々〻ゝゞヽヾ・：；･゠！？‼⁇⁈⁉…‥․⋯︙〳〴〵".unicodeScalars)
  /// Postfixes a loose line may start with after CJK text.
  static let loosePostfixes: Set<Unicode.Scalar> = Set("%¢°‰′″℃％￠".unicodeScalars)
  /// Prefixes a loose line may end with before CJK text.
  static let loosePrefixes: Set<Unicode.Scalar> = Set("$£¥€№＄￡￥".unicodeScalars)

  /// Whether `line-break: loose` allows a break between `before` and `after`: CJK text on
  /// the left that may end a line and a loose starter or a postfix on the right; a prefix
  /// on the left and a CJK letter on the right; or two inseparable leaders.
  static func looseAllows(before: UInt32, after: UInt32) -> Bool {
    guard let b = Unicode.Scalar(before), let a = Unicode.Scalar(after) else { return false }
    if b == a && inseparable.contains(a) { return true }
    if loosePrefixes.contains(b) { return isCJKLetter(a) }
    if loosePostfixes.contains(a) { return isCJKLetter(b) }
    return looseStarters.contains(a) && isCJK(b) && mayEndLine(b)
  }
}
