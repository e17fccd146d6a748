// Which language a paragraph is in, when its content does not say (EPUB 3.3 §"Language and
// direction": the package's `xml:lang`/`dir` are for its metadata; a content document's
// language is its own `xml:lang`/`lang`, and its base direction its own `dir`/`direction`,
// else LTR — page progression orders pages and never sets text direction).
//
// The language matters for hyphenation patterns, UAX #14 tailoring and HarfBuzz's `locl`
// forms (Japanese versus Chinese glyphs in a pan-CJK font). The rule, in order:
//   1. the element's own language (inherited from its ancestors up to `<html>`);
//   2. the book's `dc:language`, but only for a paragraph whose first letter is in the script
//      that language is written in (Latin for French, Han or kana for Japanese…), and —
//      for a Latin-script `dc:language` — only in a chapter whose common words do not belong
//      clearly to another language of the Latin script (`LatinStopWords`): an English
//      chapter in a French package is not hyphenated with French patterns;
//   3. the reader's `--lang`;
//   4. none (no hyphenation, UAX #14 defaults).
// All of it costs one script lookup per paragraph, plus one look at the first 600 words of
// a chapter that declares no language in a package whose language is written in Latin.

import CHarfBuzz
import QuireIngest

/// The language rule of one chapter (see above).
struct ContentLanguage: Sendable {
  /// The chapter document's own language (`<html>`/`<body>` `xml:lang`/`lang`).
  var content: String?
  /// `dc:language`, when this chapter may use it (its words do not contradict it).
  var package: String?
  /// The scripts `package` is written in.
  var packageScripts: [hb_script_t]
  /// `--lang`.
  var reader: String?

  init(chapter: Chapter, packageLanguage: String?, reader: String?) {
    content = chapter.language
    self.reader = reader.flatMap { $0.isEmpty ? nil : $0 }
    guard chapter.language == nil, let p = packageLanguage, !p.isEmpty else {
      package = nil
      packageScripts = []
      return
    }
    let scripts = ContentLanguage.scripts(of: p)
    packageScripts = scripts
    let contradicted =
      scripts == [HB_SCRIPT_LATIN] && LatinStopWords.clearlyOther(than: p, in: chapter) != nil
    package = contradicted ? nil : p
  }

  /// The language for a block with `own` language whose text starts with `text`.
  func language(own: String?, text: [UInt32]) -> String {
    if let own, !own.isEmpty { return own }
    if let content { return content }
    if let package, let script = ContentLanguage.firstScript(text),
      packageScripts.contains(script)
    {
      return package
    }
    return reader ?? ""
  }

  /// The first script of `text` that is not Common or Inherited (at most 64 scalars read).
  static func firstScript(_ text: [UInt32]) -> hb_script_t? {
    for v in text.prefix(64) {
      let s = Scripts.script(v)
      if s != HB_SCRIPT_COMMON && s != HB_SCRIPT_INHERITED && s != HB_SCRIPT_UNKNOWN { return s }
    }
    return nil
  }

  /// Whether a BCP 47 tag's language is written in Han, kana or Hangul (Chinese, Japanese,
  /// Korean, or a `Hans`/`Hant`/`Jpan`/`Kore` script subtag): font fallback then prefers the
  /// CJK face (`FontSet.face(for:choice:script:cjkContent:)`).
  /// Asked once per paragraph, so it reads the tag's bytes in place (no lower-casing, no
  /// split: `scripts(of:)` cost moby-dick 0.2 % of its paginate instructions here).
  static func isCJK(_ tag: String) -> Bool {
    var subtag: UInt64 = 0  // the current subtag's lower-cased letters, packed
    var length = 0
    var language: UInt64? = nil  // the first subtag, once the second starts
    for byte in tag.utf8 {
      if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
        if language != nil { break }  // only the second subtag may be a script
        (language, subtag, length) = (subtag, 0, 0)
        continue
      }
      guard length < 8 else { return false }
      subtag = subtag << 8 | UInt64(byte | 0x20)
      length += 1
    }
    guard let language else { return cjkLanguages.contains(subtag) }
    // A script subtag decides ("ja-Latn" is not written in Han); else the language does.
    if length == 4 { return cjkScripts.contains(subtag) }
    return cjkLanguages.contains(language)
  }

  private static let cjkLanguages: [UInt64] = ["ja", "zh", "ko", "yue", "wuu", "cmn"].map {
    $0.utf8.reduce(0) { $0 << 8 | UInt64($1) }
  }
  private static let cjkScripts: [UInt64] = ["hans", "hant", "jpan", "kore"].map {
    $0.utf8.reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// The scripts a BCP 47 tag is written in: its script subtag when it has one, else its
  /// language's usual script (Latin for the languages not listed).
  static func scripts(of tag: String) -> [hb_script_t] {
    let parts = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
    if parts.count > 1, parts[1].count == 4, let s = bySubtag[parts[1]] { return s }
    return byLanguage[parts.first ?? ""] ?? [HB_SCRIPT_LATIN]
  }

  private static let han = [
    HB_SCRIPT_HAN, HB_SCRIPT_HIRAGANA, HB_SCRIPT_KATAKANA, HB_SCRIPT_BOPOMOFO,
  ]
  private static let bySubtag: [String: [hb_script_t]] = [
    "latn": [HB_SCRIPT_LATIN], "cyrl": [HB_SCRIPT_CYRILLIC], "arab": [HB_SCRIPT_ARABIC],
    "hans": han, "hant": han, "jpan": han, "kore": [HB_SCRIPT_HANGUL, HB_SCRIPT_HAN],
    "deva": [HB_SCRIPT_DEVANAGARI], "grek": [HB_SCRIPT_GREEK], "hebr": [HB_SCRIPT_HEBREW],
  ]
  private static let byLanguage: [String: [hb_script_t]] = {
    var t: [String: [hb_script_t]] = [:]
    func add(_ langs: [String], _ s: [hb_script_t]) { for l in langs { t[l] = s } }
    add(["ja", "zh", "yue", "wuu", "cmn"], han)
    add(["ko"], [HB_SCRIPT_HANGUL, HB_SCRIPT_HAN])
    add(["ar", "fa", "ur", "ps", "ug", "ckb", "sd"], [HB_SCRIPT_ARABIC])
    add(["he", "iw", "yi", "lad"], [HB_SCRIPT_HEBREW])
    add(
      ["ru", "uk", "be", "bg", "mk", "sr", "kk", "ky", "tg", "mn", "tt", "ba", "cv"],
      [HB_SCRIPT_CYRILLIC])
    add(["el", "grc"], [HB_SCRIPT_GREEK])
    add(["hi", "mr", "ne", "sa", "kok", "mai", "bho"], [HB_SCRIPT_DEVANAGARI])
    add(["bn", "as"], [HB_SCRIPT_BENGALI])
    add(["pa"], [HB_SCRIPT_GURMUKHI])
    add(["gu"], [HB_SCRIPT_GUJARATI])
    add(["or"], [HB_SCRIPT_ORIYA])
    add(["ta"], [HB_SCRIPT_TAMIL])
    add(["te"], [HB_SCRIPT_TELUGU])
    add(["kn"], [HB_SCRIPT_KANNADA])
    add(["ml"], [HB_SCRIPT_MALAYALAM])
    add(["si"], [HB_SCRIPT_SINHALA])
    add(["th"], [HB_SCRIPT_THAI])
    add(["lo"], [HB_SCRIPT_LAO])
    add(["km"], [HB_SCRIPT_KHMER])
    add(["my"], [HB_SCRIPT_MYANMAR])
    add(["bo", "dz"], [HB_SCRIPT_TIBETAN])
    add(["ka"], [HB_SCRIPT_GEORGIAN])
    add(["hy"], [HB_SCRIPT_ARMENIAN])
    add(["am", "ti"], [HB_SCRIPT_ETHIOPIC])
    return t
  }()
}

/// The most common words of the Latin-script languages Quire has hyphenation patterns for,
/// to tell whether a chapter is clearly in another language than the package says.
enum LatinStopWords {
  static let words: [String: Set<String>] = [
    "en": ["the", "and", "of", "to", "is", "that", "with", "was", "for", "this", "which", "it"],
    "fr": ["le", "la", "les", "et", "des", "est", "une", "que", "dans", "pour", "qui", "du"],
    "de": ["der", "die", "und", "das", "ist", "nicht", "ein", "eine", "mit", "den", "sich", "zu"],
    "es": ["el", "los", "las", "y", "que", "es", "una", "por", "con", "para", "del", "como"],
    "it": ["il", "che", "di", "è", "non", "una", "per", "gli", "della", "con", "sono", "del"],
    "pt": ["o", "os", "que", "não", "uma", "com", "para", "do", "da", "em", "é", "por"],
    "nl": ["de", "het", "een", "en", "van", "is", "dat", "niet", "met", "zijn", "voor", "op"],
  ]

  /// Another language whose common words outnumber `tag`'s at least three to one (and
  /// twelve times at least) among the first 600 words of `chapter`; nil when `tag` is not
  /// one of the listed languages or nothing is clear.
  static func clearlyOther(than tag: String, in chapter: Chapter) -> String? {
    let primary =
      tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
      ?? ""
    guard words[primary] != nil, let own = languages.firstIndex(of: primary) else { return nil }
    var hits = [Int](repeating: 0, count: languages.count)
    let table = stopWords
    for w in firstWords(chapter, limit: 600) where w != 0 {
      var mask = table.languages(of: w)
      while mask != 0 {
        hits[mask.trailingZeroBitCount] += 1
        mask &= mask - 1
      }
    }
    // The most hits among the others; on a tie the language first in `languages`.
    var best = -1
    for k in languages.indices where k != own && (best < 0 || hits[k] > hits[best]) { best = k }
    guard best >= 0, hits[best] >= 12, hits[best] >= 3 * hits[own] else { return nil }
    return languages[best]
  }

  /// The listed languages in order: bit k of `StopWordTable`'s masks is `languages[k]`.
  static let languages: [String] = words.keys.sorted()

  /// Each listed word (as `packed`) and the languages it is common in, as a bit mask.
  static let stopWords: StopWordTable = {
    var t = StopWordTable()
    for (k, lang) in languages.enumerated() {
      for w in words[lang] ?? [] { t.add(packed(Array(w.utf8)), language: k) }
    }
    return t
  }()

  /// A small open-addressing table of the listed words: one multiplication and a probe or
  /// two per word read, where a `Dictionary` lookup (SipHash) per word read and a
  /// `[String: Int]` of hits cost ~20 M on moby-dick (session 16). 256 slots for under a
  /// hundred words.
  struct StopWordTable: Sendable {
    private var keys = [UInt64](repeating: 0, count: 256)
    private var masks = [UInt8](repeating: 0, count: 256)

    private static func slot(_ w: UInt64) -> Int { Int((w &* 0x9E37_79B9_7F4A_7C15) >> 56) }

    /// The languages `w` (packed, not 0) is common in, bit k for `languages[k]`.
    func languages(of w: UInt64) -> UInt8 {
      var s = Self.slot(w)
      while keys[s] != 0 {
        if keys[s] == w { return masks[s] }
        s = (s + 1) & 255
      }
      return 0
    }

    mutating func add(_ w: UInt64, language k: Int) {
      var s = Self.slot(w)
      while keys[s] != 0 && keys[s] != w { s = (s + 1) & 255 }
      keys[s] = w
      masks[s] |= UInt8(1 << k)
    }
  }

  /// A word of at most eight UTF-8 bytes as one number (its bytes in order; none is 0, so
  /// two words share a number only when they are equal); 0 for a longer word, which no
  /// listed word is. Words are compared without being made into Strings: that, and hashing
  /// them, was 2 % of a paginate of moby-dick.
  static func packed(_ bytes: [UInt8]) -> UInt64 {
    guard bytes.count <= 8 else { return 0 }
    return bytes.reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// The first `limit` words of the chapter's text, ASCII letters lower-cased, `packed`.
  /// Read as UTF-8 bytes (every chapter of a book in a Latin-script package comes here
  /// once): ASCII letters and all non-ASCII bytes make words, anything else ends one; at
  /// most 16 KB of each text run is read.
  static func firstWords(_ chapter: Chapter, limit: Int) -> [UInt64] {
    var out: [UInt64] = []
    out.reserveCapacity(limit)
    var word = Word()
    // Preorder over the block tree; the stack holds sibling arrays (copy-on-write
    // references) and the next index, so no block is copied.
    var stack: [(blocks: [Block], next: Int)] = [(chapter.blocks, 0)]
    while var top = stack.popLast(), out.count < limit {
      guard top.next < top.blocks.count else { continue }
      let b = top.blocks[top.next]
      top.next += 1
      stack.append(top)
      for case .text(let run) in b.inlines where !run.generated && out.count < limit {
        // The bytes in place (the UTF-8 view's iterator, through `prefix`, cost moby-dick
        // ~13 M instructions more; session 16).
        var text = run.text
        text.withUTF8 { bytes in
          for byte in bytes.prefix(16_384) {
            let folded = byte | 0x20
            if byte >= 0x80 || (folded >= 0x61 && folded <= 0x7A) {
              word.append(byte < 0x80 ? folded : byte)
            } else if word.length > 0 {
              out.append(word.take())
              if out.count >= limit { break }
            }
          }
        }
        if word.length > 0, out.count < limit { out.append(word.take()) }
      }
      if !b.children.isEmpty, stack.count < 10_000 { stack.append((b.children, 0)) }
    }
    return out
  }

  /// A word being read, packed as it grows (`packed`).
  struct Word {
    var key: UInt64 = 0
    var length = 0
    mutating func append(_ byte: UInt8) {
      key = length < 8 ? key << 8 | UInt64(byte) : 0
      length += 1
    }
    /// The packed word (0 when longer than eight bytes); the word starts afresh.
    mutating func take() -> UInt64 {
      defer { (key, length) = (0, 0) }
      return length <= 8 ? key : 0
    }
  }
}

extension ChapterFlow {
  /// The language of `block`, whose collected text is `text` (the rule above).
  func language(of block: Block, text: CollectedText) -> String {
    if let languages { return languages.language(own: block.lang, text: text.scalars) }
    return block.lang ?? language ?? options.language ?? ""
  }
}
