// UAX #14 line-break opportunities of one paragraph: libunibreak's answer, found without
// calling it for Latin text.
//
// libunibreak (1.1, Debian's) spends most of its time finding each character's class: a
// linear walk over its property ranges per scalar, ~290 instructions a character, 6 % of a
// paginate. For text whose every scalar lies in ASCII, Latin-1, Latin Extended-A/B, the
// General Punctuation quotes and dashes (U+2010–2029) or U+FFFC, this file runs the same
// algorithm — the UAX #14 pair table (direct, indirect and prohibited breaks), the mandatory
// breaks after BK/CR/LF/NL, no break before a space, CB as "break on both sides" — with the
// classes of those scalars read once from libunibreak's own property tables, language
// tailoring included (`lb_prop_lang_map`: the curly quotes are OP/CL in English), and
// resolved as libunibreak resolves them (AI to ID for Chinese, Japanese and Korean, to AL
// otherwise), the rules tabulated per state and class so each character costs two table
// reads (`transitions`). Anything else in the paragraph (another script, a combining mark,
// a control character) sends the whole paragraph to libunibreak. `LineBreakOpportunityTests`
// compares both over every paragraph of the corpus and over every short sequence of classes.
//
// libunibreak 1.1 asserts (aborts the process) on a regional indicator (U+1F1E6–1F1FF, the
// halves of a flag emoji): its data has the RI class, its pair table does not. Those
// scalars are handed to it as an ideograph of class ID (what emoji are) and the pairs kept
// together afterwards (UAX #14 rev. 30, LB30a: RI × RI).
//
// Rejected: replacing libunibreak altogether (its other classes — Hangul jamo, combining
// marks, South-East Asian scripts — are where a private copy would drift from it), and a
// fast path for pure-ASCII paragraphs only (three paragraphs in four of an English novel
// hold a curly quote or a dash).

import CUnibreak

/// Break opportunities after each scalar (`LINEBREAK_MUSTBREAK`, `…ALLOWBREAK`,
/// `…NOBREAK`), as libunibreak's `set_linebreaks_utf32` gives them.
enum LineBreakOpportunities {
  /// The opportunities of `scalars` in `language` (a BCP 47 tag, "" for none).
  static func find(_ scalars: [UInt32], language: String) -> [CChar] {
    if let fast = LatinLineBreaks.breaks(scalars, language: language) { return fast }
    return libunibreak(scalars, language: language)
  }

  /// libunibreak's answer, with regional indicators passed as an ID-class character.
  static func libunibreak(_ scalars: [UInt32], language: String) -> [CChar] {
    _ = LatinLineBreaks.ready
    let n = scalars.count
    var brks = [CChar](repeating: 0, count: n)
    guard n > 0 else { return brks }
    let flags = scalars.contains { isRegionalIndicator($0) }
    let text = flags ? scalars.map { isRegionalIndicator($0) ? 0x231A : $0 } : scalars
    text.withUnsafeBufferPointer { t in
      language.withCString { l in set_linebreaks_utf32(t.baseAddress, n, l, &brks) }
    }
    if flags {
      for i in 0..<(n - 1) where isRegionalIndicator(scalars[i]) {
        if isRegionalIndicator(scalars[i + 1]) { brks[i] = CChar(LINEBREAK_NOBREAK) }
      }
    }
    return brks
  }

  @inline(__always) static func isRegionalIndicator(_ v: UInt32) -> Bool {
    v >= 0x1F1E6 && v <= 0x1F1FF
  }
}

/// The fast path: libunibreak's algorithm over a class table for Latin text.
enum LatinLineBreaks {
  /// libunibreak's class numbers (`enum LineBreakClass`).
  typealias Class = UInt8

  /// Classes are compile-time constants (computed, not `static let`: a global's lazy
  /// initialisation check per use was a third of the per-character cost).
  static let ready: Bool = {
    init_linebreak()
    return true
  }()

  @inline(__always) static var op: Class { Class(LBP_OP.rawValue) }
  @inline(__always) static var ba: Class { Class(LBP_BA.rawValue) }
  @inline(__always) static var id: Class { Class(LBP_ID.rawValue) }
  @inline(__always) static var al: Class { Class(LBP_AL.rawValue) }
  @inline(__always) static var ns: Class { Class(LBP_NS.rawValue) }
  @inline(__always) static var wj: Class { Class(LBP_WJ.rawValue) }
  @inline(__always) static var cm: Class { Class(LBP_CM.rawValue) }
  /// The last class of the pair table (JT): BK, CB, CR, LF, NL and SP come after it and are
  /// handled by rule; RI and the classes that resolve to others (AI, CJ, SA, SG, XX) too.
  @inline(__always) static var lastPaired: Class { Class(LBP_JT.rawValue) }
  @inline(__always) static var bk: Class { Class(LBP_BK.rawValue) }
  @inline(__always) static var cb: Class { Class(LBP_CB.rawValue) }
  @inline(__always) static var cr: Class { Class(LBP_CR.rawValue) }
  @inline(__always) static var lf: Class { Class(LBP_LF.rawValue) }
  @inline(__always) static var nl: Class { Class(LBP_NL.rawValue) }
  @inline(__always) static var sp: Class { Class(LBP_SP.rawValue) }
  /// A scalar the fast path does not take (combining marks, regional indicators).
  @inline(__always) static var outside: Class { 0xFF }

  /// The scalars the fast path knows: U+0000–024F, U+2010–2029, U+FFFC, by table index.
  @inline(__always) static func slot(_ v: UInt32) -> Int {
    if v < 0x250 { return Int(v) }
    if v >= 0x2010 && v <= 0x2029 { return 0x250 + Int(v - 0x2010) }
    return v == 0xFFFC ? 0x250 + 26 : -1
  }
  static let slots = 0x250 + 27
  static func scalar(ofSlot k: Int) -> UInt32 {
    k < 0x250 ? UInt32(k) : k < 0x250 + 26 ? UInt32(0x2010 + k - 0x250) : 0xFFFC
  }

  /// UAX #14's pair table as libunibreak has it (rows: the class before, columns: after;
  /// OP … JT in `enum LineBreakClass` order): `_` a direct break, `%` an indirect one (only
  /// after spaces), `^` none even after spaces.
  static let pairRows = [
    "^^^^^^^^^^^^^^^^^^^^^^^^^^^^",  // OP
    "_^^%%^^^^%%_____%%__^%^_____",  // CL
    "_^^%%^^^^%%%%%__%%__^%^_____",  // CP
    "^^^%%%^^^%%%%%%%%%%%^%^%%%%%",  // QU
    "%^^%%%^^^%%%%%%%%%%%^%^%%%%%",  // GL
    "_^^%%%^^^_______%%__^%^_____",  // NS
    "_^^%%%^^^_______%%__^%^_____",  // EX
    "_^^%%%^^^__%____%%__^%^_____",  // SY
    "_^^%%%^^^__%%%__%%__^%^_____",  // IS
    "%^^%%%^^^__%%%%_%%__^%^%%%%%",  // PR
    "%^^%%%^^^__%%%__%%__^%^_____",  // PO
    "%^^%%%^^^%%%%%_%%%__^%^_____",  // NU
    "%^^%%%^^^__%%%_%%%__^%^_____",  // AL
    "%^^%%%^^^__%%%_%%%__^%^_____",  // HL
    "_^^%%%^^^_%____%%%__^%^_____",  // ID
    "_^^%%%^^^______%%%__^%^_____",  // IN
    "_^^%_%^^^__%____%%__^%^_____",  // HY
    "_^^%_%^^^_______%%__^%^_____",  // BA
    "%^^%%%^^^%%%%%%%%%%%^%^%%%%%",  // BB
    "_^^%%%^^^_______%%_^^%^_____",  // B2
    "____________________^_______",  // ZW
    "%^^%%%^^^__%%%_%%%__^%^_____",  // CM
    "%^^%%%^^^%%%%%%%%%%%^%^%%%%%",  // WJ
    "_^^%%%^^^_%____%%%__^%^___%%",  // H2
    "_^^%%%^^^_%____%%%__^%^____%",  // H3
    "_^^%%%^^^_%____%%%__^%^%%%%_",  // JL
    "_^^%%%^^^_%____%%%__^%^___%%",  // JV
    "_^^%%%^^^_%____%%%__^%^____%",  // JT
  ]

  /// The pair table as bytes: 0 direct, 1 indirect, 2 prohibited; row-major, 28 × 28.
  static let pairs: [UInt8] = {
    var table: [UInt8] = []
    for row in pairRows {
      precondition(row.count == Int(lastPaired), "pair table row of \(row.count) columns")
      for c in row.utf8 {
        table.append(c == UInt8(ascii: "_") ? 0 : c == UInt8(ascii: "%") ? 1 : 2)
      }
    }
    return table
  }()

  /// Class tables by tailoring (index into `lb_prop_lang_map`, or none) and by whether AI
  /// resolves to ID (Chinese, Japanese, Korean).
  struct Tables {
    var names: [(name: [UInt8], length: Int)] = []
    /// `[tailoring + 1][cjk]`: one class per slot.
    var classes: [[[Class]]] = []
  }

  static let tables: Tables = {
    _ = ready
    var t = Tables()
    let defaults = properties(quire_lb_default_properties())
    var tailorings: [[(UInt32, UInt32, Class)]] = [[]]
    var map = quire_lb_language_properties()!
    while let name = map.pointee.lang {
      let bytes = Array(String(cString: name).utf8)
      t.names.append((bytes, map.pointee.namelen))
      tailorings.append(properties(UnsafePointer(map.pointee.lbp)))
      map += 1
    }
    for tailoring in tailorings {
      t.classes.append(
        [false, true].map { cjk in
          (0..<slots).map { k in
            resolve(lookup(scalar(ofSlot: k), tailoring, defaults), cjk: cjk)
          }
        })
    }
    return t
  }()

  /// A property range list up to its `LBP_Undefined` end.
  static func properties(_ p: UnsafePointer<LineBreakProperties>?) -> [(UInt32, UInt32, Class)] {
    var out: [(UInt32, UInt32, Class)] = []
    guard var p else { return out }
    while p.pointee.prop != LBP_Undefined, out.count < 1 << 16 {
      out.append((p.pointee.start, p.pointee.end, Class(p.pointee.prop.rawValue)))
      p += 1
    }
    return out
  }

  /// The class libunibreak gives `v`: the tailoring's, else the default ranges' (XX when
  /// none has it).
  static func lookup(
    _ v: UInt32, _ tailoring: [(UInt32, UInt32, Class)], _ defaults: [(UInt32, UInt32, Class)]
  ) -> Class {
    for (lo, hi, c) in tailoring {
      if v < lo { break }
      if v <= hi { return c }
    }
    var (lo, hi) = (0, defaults.count)
    while lo < hi {
      let mid = (lo + hi) / 2
      if defaults[mid].1 < v { lo = mid + 1 } else { hi = mid }
    }
    if lo < defaults.count, defaults[lo].0 <= v { return defaults[lo].2 }
    return Class(LBP_XX.rawValue)
  }

  /// libunibreak's class resolution; the classes the fast path does not take as `outside`.
  static func resolve(_ c: Class, cjk: Bool) -> Class {
    switch UInt32(c) {
    case LBP_AI.rawValue: return cjk ? id : al
    case LBP_CJ.rawValue: return ns
    case LBP_SA.rawValue, LBP_SG.rawValue, LBP_XX.rawValue: return al
    case LBP_CM.rawValue, LBP_RI.rawValue, LBP_Undefined.rawValue: return outside
    default: return c
    }
  }

  /// The class table for `language` (libunibreak matches a tailoring by its name's prefix).
  /// Asked once per paragraph: the tag's bytes are compared in place (building arrays of
  /// them cost ~3,700 instructions a call; Benchmarks/paginate-cost.md, session 15).
  static func classes(for language: String) -> [Class] {
    var tag = language
    let (tailoring, cjk) = tag.withUTF8 { lang in match(lang, tables.names) }
    return tables.classes[tailoring][cjk ? 1 : 0]
  }

  /// The tailoring of the tag `lang` (0 for none, else its index in `names` + 1) and
  /// whether it is Chinese, Japanese or Korean.
  static func match(_ lang: UnsafeBufferPointer<UInt8>, _ names: [(name: [UInt8], length: Int)])
    -> (Int, Bool)
  {
    let two = lang.count >= 2 ? (lang[0], lang[1]) : (0, 0)
    let cjk =
      two == (UInt8(ascii: "z"), UInt8(ascii: "h")) || two == (UInt8(ascii: "j"), UInt8(ascii: "a"))
      || two == (UInt8(ascii: "k"), UInt8(ascii: "o"))
    for (k, entry) in names.enumerated() {
      let n = min(entry.length, entry.name.count)
      if lang.count >= n, lang.prefix(n).elementsEqual(entry.name.prefix(n)),
        entry.length <= entry.name.count || lang.count == n
      {
        return (k + 1, cjk)
      }
    }
    return (0, cjk)
  }

  /// The opportunities of `scalars`, or nil when one of them is outside the fast path.
  static func breaks(_ scalars: [UInt32], language: String) -> [CChar]? {
    let n = scalars.count
    if n == 0 { return [] }
    let table = classes(for: language)
    let machine = transitions
    guard table.count == slots, !machine.steps.isEmpty else { return nil }
    var inside = false
    let brks = scalars.withUnsafeBufferPointer { s in
      table.withUnsafeBufferPointer { table in
        machine.steps.withUnsafeBufferPointer { steps in
          [CChar](unsafeUninitializedCapacity: n) { out, initialized in
            inside = walk(s, table, steps, width: machine.width, into: out)
            initialized = inside ? n : 0
          }
        }
      }
    }
    return inside ? brks : nil
  }

  /// What `step` answers for one state and class: the opportunity before the class's
  /// character and the state after it.
  struct Transition {
    var brk: CChar
    /// The next state: its class times two, plus one when this character is a space.
    var next: UInt8
  }

  /// `step` for every state and class, row-major by state. A state is the walk's class
  /// times two, plus one when the character before is a space (libunibreak's "last" class,
  /// which decides the indirect breaks), so a step is one read. `width` exceeds every class
  /// of `tables` and every class `step` returns, so the walk indexes it without a check;
  /// empty (no fast path) if a state would not fit in a byte.
  static let transitions: (steps: [Transition], width: Int) = {
    let specials = [bk, cb, cr, lf, nl, sp, ba, wj, lastPaired]
    let known = tables.classes.joined().joined().filter { $0 != outside }
    let width = Int((known + specials).max() ?? lastPaired) + 1
    guard 2 * width <= 256 else { return ([], 0) }
    var steps = [Transition](
      repeating: Transition(brk: CChar(LINEBREAK_MUSTBREAK), next: bk * 2),
      count: 2 * width * width)
    // The classes the walk can be in: a paired class (`step` puts the new class there), or
    // BK and CR; the classes are those past the unused 0 (LBP_Undefined).
    for current in 1..<width where current <= Int(lastPaired) || current == bk || current == cr {
      for afterSpace in [false, true] {
        let state = current * 2 + (afterSpace ? 1 : 0)
        for new in 1..<width {
          let (brk, next) = step(Class(current), Class(new), afterSpace: afterSpace)
          steps[state * width + new] = Transition(
            brk: brk, next: next * 2 + (Class(new) == sp ? 1 : 0))
        }
      }
    }
    return (steps, width)
  }()

  /// libunibreak's walk over `s` into `brks` (all `s.count` written), one table read per
  /// character for its class and one for the step; false, `brks` partly written, when a
  /// scalar is outside the fast path. Classes first into an array, then the rules branched
  /// on per character (`step` inline), were ~40 instructions a character, ~60 M on
  /// moby-dick (session 17).
  @inline(__always)
  private static func walk(
    _ s: UnsafeBufferPointer<UInt32>, _ table: UnsafeBufferPointer<Class>,
    _ steps: UnsafeBufferPointer<Transition>, width: Int,
    into brks: UnsafeMutableBufferPointer<CChar>
  ) -> Bool {
    // `slot` answers below `table.count` (`slots`) or −1.
    @inline(__always) func classOf(_ v: UInt32) -> Class {
      let k = slot(v)
      return k >= 0 ? table[k] : outside
    }
    let n = s.count
    let first = classOf(s[0])
    guard first != outside else { return false }
    // libunibreak's "class before" starts as none, not the first character's: no space.
    var state = Int(lineStart(first)) * 2
    for i in 1..<max(1, n) {
      let new = classOf(s[i])
      guard new != outside else { return false }
      let t = steps[state * width + Int(new)]
      brks[i - 1] = t.brk
      state = Int(t.next)
    }
    brks[n - 1] = CChar(LINEBREAK_MUSTBREAK)
    return true
  }

  /// One step of libunibreak's walk: in state `current`, the opportunity before a character
  /// of class `new` (`afterSpace`: the character before that is a space) and the next state.
  static func step(_ current: Class, _ new: Class, afterSpace: Bool) -> (CChar, Class) {
    let (must, allow, no) = (
      CChar(LINEBREAK_MUSTBREAK), CChar(LINEBREAK_ALLOWBREAK), CChar(LINEBREAK_NOBREAK)
    )
    if current == bk || (current == cr && new != lf) { return (must, lineStart(new)) }
    if new > lastPaired {
      // BK CB CR LF NL SP (the only classes past the pair table that reach here).
      switch new {
      case sp: return (no, current)
      case cr: return (no, cr)
      case cb: return (allow, ba)
      default: return (no, bk)
      }
    }
    switch pairs[(Int(current) - 1) * Int(lastPaired) + Int(new) - 1] {
    case 0: return (allow, new)
    case 1: return (afterSpace ? allow : no, new)
    default: return (no, new)
    }
  }

  /// The class a line starts from (libunibreak's treatment of a first character).
  @inline(__always) static func lineStart(_ c: Class) -> Class {
    switch c {
    case lf, nl: return bk
    case cb: return ba
    case sp: return wj
    default: return c
    }
  }
}
