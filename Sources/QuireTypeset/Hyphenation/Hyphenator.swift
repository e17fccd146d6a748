// Hyphenation: Liang patterns through libhyphen, over the system's `hyphen-*` dictionaries
// (the files LibreOffice uses; Debian installs them in /usr/share/hyphen). libhyphen's trie
// is the dictionary; this file decides which words to match, converts them to the
// dictionary's encoding (UTF-8, ISO8859-1 or KOI8-R in Debian's set — read from the first
// line, exposed as `cset`), applies per-language left/right minimums and maps the answer
// back to Unicode-scalar indices of the caller's word. The matching itself is
// `LiangMatcher` (Swift, over libhyphen's trie, no allocation) for the words and
// dictionaries where it provably answers as hnj_hyphen_hyphenate2 does, else libhyphen:
// libhyphen's per-word mallocs and its hyphen/apostrophe first level cost ~5.5 K
// instructions a word (session 17). Rejected alternative: our own pattern loading from TeX
// pattern files — libhyphen already reads the dictionaries we want.
//
// Thread safety: a loaded HyphenDict is read-only (hnj_hyphen_hyphenate2 only walks its
// state table; the per-call buffers are ours), so one Hyphenator is shared by every thread;
// `BreakHyphenatorTests.concurrentUseAgrees` checks that. The Hyphenator owns the dict and
// frees it in deinit; instances live in a process-wide cache, one per dictionary file.
//
// Loading: a dictionary's trie is built from its text (PatternLoader; ~20 M instructions for
// en-US) unless the layout cache's folder holds its compiled form (CompiledPatterns.swift,
// keyed by the file's SHA-1 and the format version), which reads back in a few hundred
// thousand; the first process to build a trie with a cache folder set stores it there. The
// registry loads each file once, whichever tags land on it ("en", "en-US"), and a job can
// start the load in the background once it knows the book's language (`prefetch`), so the
// load overlaps the chapters' conversion instead of stalling the first layout worker while
// the other waits for the same file.

import CHyphen
import Foundation
import QuireCore
import QuireIngest

/// Finds the points where a word may be hyphenated, for one language.
package final class Hyphenator: Sendable {
  /// The dictionary file this hyphenator was loaded from.
  package let dictionaryPath: String
  /// Minimum letters before the first and after the last hyphen.
  package let leftMin: Int
  package let rightMin: Int
  /// Words (letter runs) shorter than this are never hyphenated.
  package let minWordLength: Int

  nonisolated(unsafe) private let dict: UnsafeMutablePointer<HyphenDict>
  /// Whether `dict` is one block read from a compiled file (`CompiledPatterns`), released
  /// with `free`, rather than libhyphen's structure of separate allocations.
  private let compiled: Bool
  private let encoding: DictionaryEncoding
  /// Liang's matching in Swift for the words libhyphen would answer the same
  /// (LiangMatcher.swift), nil when the dictionary is outside what it models.
  private let matcher: LiangMatcher?

  /// Longest letter run handed to libhyphen (its own buffers assume short words).
  static let maxWordLength = 64

  private init(
    path: String, dict: UnsafeMutablePointer<HyphenDict>, compiled: Bool, rules: LanguageRules
  ) {
    dictionaryPath = path
    self.dict = dict
    self.compiled = compiled
    let cset = withUnsafeBytes(of: dict.pointee.cset) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    encoding = DictionaryEncoding(cset: cset, utf8Flag: dict.pointee.utf8 != 0)
    let left = max(rules.left, Int(dict.pointee.lhmin))
    let right = max(rules.right, Int(dict.pointee.rhmin))
    leftMin = left
    rightMin = right
    minWordLength = max(rules.minWord, left + right)
    matcher = LiangMatcher(dict).flatMap { m in
      m.coversMinimums(left: left, right: right) ? m : nil
    }
  }

  deinit {
    if compiled { free(dict) } else { hnj_hyphen_free(dict) }
  }

  // MARK: Lookup

  /// The hyphenator for a BCP 47 language tag ("en", "en-GB", "de-CH", "pt-BR", "ru"), or
  /// nil when no dictionary is installed (a diagnostic is recorded, see `diagnostics`).
  /// Tries the exact region (hyph_en_GB.dic), then the language's default dictionary
  /// (en → en_US, de → de_DE, pt → pt_PT, es → es_ES, it → it_IT, nl → nl_NL, ru → ru_RU,
  /// fr → fr), then hyph_<lang>.dic. Results, including misses, are cached per tag.
  package static func forLanguage(_ bcp47: String) -> Hyphenator? {
    guard let tag = registryTag(bcp47) else { return nil }
    return registry.lookup(tag)
  }

  /// Starts loading, on a background thread, the dictionary `forLanguage(bcp47)` would load,
  /// so that the first word to hyphenate finds it ready: a layout asking meanwhile waits on
  /// the tag's slot for the rest of that load instead of starting its own (the en-US trie
  /// built from its text is ~75 M instructions, otherwise spent by the first layout worker
  /// while the other waits). Changes no result: the load is the lookup's own, and a tag
  /// without a dictionary records its diagnostic only when a layout asks for it (prefetching
  /// a language no text is in says nothing).
  package static func prefetch(_ bcp47: String) {
    guard let tag = registryTag(bcp47) else { return }
    DispatchQueue.global(qos: .userInitiated).async { _ = registry.lookup(tag, quiet: true) }
  }

  /// The registry's key for a BCP 47 tag, nil for one never hyphenated.
  private static func registryTag(_ bcp47: String) -> String? {
    let tag = bcp47.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-")
      .lowercased()
    guard !tag.isEmpty, tag.count <= 35 else { return nil }
    let language = tag.split(separator: "-").first.map(String.init) ?? tag
    if LanguageRules.unhyphenated.contains(language) { return nil }
    return tag
  }

  /// Messages about dictionaries that were missing or failed to load (for the CLI to show;
  /// the library never prints).
  package static func diagnostics() -> [String] { registry.messages() }

  /// Directories searched for hyph_*.dic, in order: $QUIRE_HYPHEN_DIR, then the system's.
  package static var searchDirectories: [String] {
    var dirs: [String] = []
    if let env = ProcessInfo.processInfo.environment["QUIRE_HYPHEN_DIR"], !env.isEmpty {
      dirs.append(env)
    }
    dirs += ["/usr/share/hyphen", "/usr/local/share/hyphen", "/usr/share/myspell/dicts"]
    return dirs
  }

  /// The dictionary file for `tag` and the language's rules: the first readable
  /// candidate (exact region, the language's default, the bare language) in the first
  /// search directory holding one. Only looks for files; nothing is loaded.
  static func locate(tag: String) -> Result<(path: String, rules: LanguageRules), LoadFailure> {
    let parts = tag.split(separator: "-").map(String.init)
    let language = parts[0]
    var names: [String] = []
    // Region subtag (2 letters or 3 digits), skipping a script subtag.
    if let region = parts.dropFirst().first(where: {
      $0.count == 2 || ($0.count == 3 && $0.allSatisfy(\.isNumber))
    }) {
      names.append("\(language)_\(region.uppercased())")
    }
    if let fallback = LanguageRules.defaultDictionary[language] { names.append(fallback) }
    names.append(language)
    let rules = LanguageRules.forLanguage(language)
    for dir in searchDirectories {
      for name in names {
        let path = "\(dir)/hyph_\(name).dic"
        if FileManager.default.isReadableFile(atPath: path) { return .success((path, rules)) }
      }
    }
    return .failure(
      LoadFailure(
        message:
          "no hyphenation dictionary for '\(tag)' (looked for \(names.map { "hyph_\($0).dic" }.joined(separator: ", ")) in \(searchDirectories.joined(separator: ", "))); hyphenation off"
      ))
  }

  /// The hyphenator of the dictionary file at `path` with `rules`.
  static func load(path: String, rules: LanguageRules) -> Result<Hyphenator, LoadFailure> {
    guard let (dict, compiled) = loadDictionary(path) else {
      return .failure(LoadFailure(message: "\(path): hnj_hyphen_load failed"))
    }
    return .success(Hyphenator(path: path, dict: dict, compiled: compiled, rules: rules))
  }

  struct LoadFailure: Error { var message: String }

  /// The pattern trie of the dictionary file at `path`: read from its compiled form when
  /// there is a folder for those (by default the registry's, `keepCompiledPatterns(in:)`)
  /// and it holds one for these bytes, else built (PatternLoader, else libhyphen's loader) and, when a folder is
  /// set, compiled into it for the next process. `compiled` tells how to free it.
  static func loadDictionary(_ path: String, compiledFolder: String? = registry.compiledFolder)
    -> (dict: UnsafeMutablePointer<HyphenDict>, compiled: Bool)?
  {
    guard let folder = compiledFolder,
      let text = CompiledPatterns.readFile(path, limit: CompiledPatterns.maxFileBytes)
    else { return (PatternLoader.load(path: path) ?? hnj_hyphen_load(path)).map { ($0, false) } }
    let source = SHA1.digest(text)
    if let dict = CompiledPatterns.load(folder: folder, source: source) { return (dict, true) }
    // Only a trie built from exactly the hashed bytes is stored under their hash.
    guard let built = PatternLoader.load(bytes: text) else {
      return hnj_hyphen_load(path).map { ($0, false) }
    }
    CompiledPatterns.store(built, folder: folder, source: source)
    return (built, false)
  }

  /// Keeps compiled pattern tries in `folder` (the layout cache's): dictionaries are read
  /// from there when their compiled form is present, and compiled into it when not. nil:
  /// always build from the text. Process-wide; dictionaries already loaded stay loaded.
  package static func keepCompiledPatterns(in folder: String?) {
    registry.compiledFolder = folder
  }

  // MARK: Hyphenation

  /// Indices, in Unicode scalars of `word`, where the word may be hyphenated: index k means
  /// the line may end after scalar k−1 (followed by a hyphen) and continue at scalar k.
  /// Sorted, unique, each in 1..<word.unicodeScalars.count.
  ///
  /// The word is split into runs of letters (apostrophes, hyphens and other punctuation
  /// separate runs, so "l'homme" and "well-known" hyphenate their parts); each run at least
  /// `minWordLength` long is lowercased and looked up, honouring `leftMin`/`rightMin`
  /// within the run. Words containing a digit, all-uppercase words of two or more letters
  /// (acronyms) and runs the dictionary's encoding cannot represent are not hyphenated.
  /// If the word contains soft hyphens (U+00AD) only those are used: each soft hyphen at
  /// scalar index j yields the point j (the soft hyphen itself is invisible).
  package func hyphenationPoints(in word: String) -> [Int] {
    var memo = HyphenRunMemo()
    return hyphenationPoints(scalars: Array(word.unicodeScalars), memo: &memo)
  }

  private func hyphenationPoints(scalars: [Unicode.Scalar], memo: inout HyphenRunMemo) -> [Int] {
    guard scalars.count >= minWordLength, scalars.count <= 4 * Hyphenator.maxWordLength else {
      return softHyphenPoints(scalars)
    }
    if scalars.contains("\u{AD}") { return softHyphenPoints(scalars) }
    var hasLower = false
    var upperCount = 0
    for s in scalars {
      if s.properties.numericType != nil { return [] }
      if s.properties.isLowercase { hasLower = true }
      if s.properties.isUppercase { upperCount += 1 }
    }
    if !hasLower && upperCount >= 2 { return [] }

    var points: [Int] = []
    var i = 0
    while i < scalars.count {
      guard Hyphenator.isWordScalar(scalars[i]) else {
        i += 1
        continue
      }
      var j = i
      while j < scalars.count, Hyphenator.isWordScalar(scalars[j]) { j += 1 }
      if j - i >= minWordLength && j - i <= Hyphenator.maxWordLength {
        for p in runPoints(scalars[i..<j], memo: &memo) { points.append(i + p) }
      }
      i = j
    }
    return points
  }

  /// `hyphenationPoints(in:)` for a word given as scalar values (the typesetter's form),
  /// without building a String; nil-scalar values mean no points. All-ASCII words (most of
  /// an English or French book) take a path that answers the same without Unicode property
  /// lookups: in ASCII, digits are the only numerics, A–Z/a–z the only cased letters and
  /// the only word scalars, and every dictionary encoding is the identity. So do words of
  /// ASCII and typographic quotes and dashes (`isQuoteOrDash`).
  func hyphenationPoints(scalarValues word: [UInt32]) -> [Int] {
    var memo = HyphenRunMemo()
    return hyphenationPoints(scalarValues: word, memo: &memo)
  }

  /// `hyphenationPoints(scalarValues:)`, with libhyphen's answers for letter runs kept in
  /// `memo` (which must hold this hyphenator's answers only).
  func hyphenationPoints(scalarValues word: [UInt32], memo: inout HyphenRunMemo) -> [Int] {
    var ascii = true
    for v in word where v >= 0x80 && !Hyphenator.isQuoteOrDash(v) {
      ascii = false
      break
    }
    guard ascii else {
      var scalars: [Unicode.Scalar] = []
      scalars.reserveCapacity(word.count)
      for v in word {
        guard let u = Unicode.Scalar(v) else { return [] }
        scalars.append(u)
      }
      return hyphenationPoints(scalars: scalars, memo: &memo)
    }
    guard word.count >= minWordLength, word.count <= 4 * Hyphenator.maxWordLength else {
      return []
    }
    var hasLower = false
    var upperCount = 0
    for v in word {
      if v >= 0x30 && v <= 0x39 { return [] }
      if v >= 0x61 && v <= 0x7A { hasLower = true }
      if v >= 0x41 && v <= 0x5A { upperCount += 1 }
    }
    if !hasLower && upperCount >= 2 { return [] }
    if case .unsupported = encoding { return [] }
    @inline(__always) func isLetter(_ v: UInt32) -> Bool {
      (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A)
    }
    var points: [Int] = []
    var i = 0
    while i < word.count {
      guard isLetter(word[i]) else {
        i += 1
        continue
      }
      var j = i
      while j < word.count, isLetter(word[j]) { j += 1 }
      if j - i >= minWordLength && j - i <= Hyphenator.maxWordLength,
        let matcher, appendMatched(word, i..<j, matcher, to: &points)
      {
        // Matched in Swift: no memo, no array for the run (see `appendMatched`).
      } else if j - i >= minWordLength && j - i <= Hyphenator.maxWordLength {
        // The lowercased run written in place, and a word that is one run answered with the
        // memo's own array: an empty array reserved or appended to took the growth path
        // once more per word (Benchmarks/paginate-cost.md, session 16).
        let bytes = [CChar](unsafeUninitializedCapacity: j - i) { out, count in
          for k in i..<j {
            let lower = word[k] <= 0x5A ? word[k] + 0x20 : word[k]
            (out.baseAddress! + (k - i)).initialize(
              to: CChar(bitPattern: UInt8(truncatingIfNeeded: lower)))
          }
          count = j - i
        }
        let found = memo.points(bytes, charCount: j - i, libhyphenPoints)
        if i == 0 {
          points = found  // the first run: nothing before it
        } else {
          for p in found { points.append(i + p) }
        }
      }
      i = j
    }
    return points
  }

  /// Appends the points of the ASCII letter run `word[run]`, lowercased, found by `matcher`
  /// (offset by the run's start); false, appending nothing, when the matcher leaves the run
  /// to libhyphen. The run and the answer live on the stack: libhyphen's mallocs, its first
  /// level, the memo's key array and its hashing were ~5.5 K instructions a run (session 17).
  private func appendMatched(
    _ word: [UInt32], _ run: Range<Int>, _ matcher: LiangMatcher, to points: inout [Int]
  ) -> Bool {
    let count = run.count
    guard count <= Hyphenator.maxWordLength else { return false }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Hyphenator.maxWordLength) {
      letters in
      withUnsafeTemporaryAllocation(of: Int8.self, capacity: Hyphenator.maxWordLength + 3) {
        hyphens in
        let base = letters.baseAddress!
        for k in run {
          let v = word[k]
          base[k - run.lowerBound] = UInt8(truncatingIfNeeded: v <= 0x5A ? v + 0x20 : v)
        }
        let bytes = UnsafeBufferPointer(start: base, count: count)
        guard matcher.hyphenate(bytes, into: hyphens.baseAddress!) else { return false }
        let lo = leftMin
        let hi = count - rightMin
        guard lo <= hi else { return true }
        for k in (lo - 1)..<hi where hyphens[k] & 1 == 1 { points.append(run.lowerBound + k + 1) }
        return true
      }
    }
  }

  /// ‘ ’ “ ” – —, which prose puts inside its pieces ("whale’s", "“Aye"): to every test of
  /// the general path they are what ASCII punctuation is (not a word scalar, not cased, not
  /// numeric, not a soft hyphen), so a word of ASCII and these takes the ASCII path, where
  /// they end letter runs as an apostrophe does. The general path's Unicode property
  /// lookups cost moby-dick ~34 M instructions on such words (session 16).
  @inline(__always) static func isQuoteOrDash(_ v: UInt32) -> Bool {
    v == 0x2019 || v == 0x2014 || v == 0x201C || v == 0x201D || v == 0x2018 || v == 0x2013
  }

  private func softHyphenPoints(_ scalars: [Unicode.Scalar]) -> [Int] {
    var points: [Int] = []
    for (k, s) in scalars.enumerated() where s == "\u{AD}" && k > 0 && k < scalars.count - 1 {
      points.append(k)
    }
    return points
  }

  /// Letters and the combining marks that belong to them.
  static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
    let p = s.properties
    return p.isAlphabetic
      || p.generalCategory == .nonspacingMark || p.generalCategory == .spacingMark
  }

  /// Points inside one letter run (indices relative to the run's start).
  private func runPoints(_ run: ArraySlice<Unicode.Scalar>, memo: inout HyphenRunMemo) -> [Int] {
    guard let (bytes, charCount) = encodedRun(run) else { return [] }
    return memo.points(bytes, charCount: charCount, libhyphenPoints)
  }

  /// A letter run lowercased in the dictionary's encoding, as libhyphen is given it, and its
  /// length in scalars; nil when the encoding cannot represent it.
  func encodedRun(_ run: some Collection<Unicode.Scalar>) -> (bytes: [CChar], charCount: Int)? {
    let lower: [Unicode.Scalar] = run.map { s in
      let m = s.properties.lowercaseMapping.unicodeScalars
      return m.count == 1 ? m.first! : s
    }
    guard let bytes = encoding.encode(lower) else { return nil }
    return (bytes, lower.count)
  }

  /// libhyphen's points for one lowercased letter run in the dictionary's encoding.
  private func libhyphenPoints(_ encoded: [CChar], charCount: Int) -> [Int] {
    if let found = matcherPoints(encoded, charCount: charCount) { return found }
    return libhyphenOnlyPoints(encoded, charCount: charCount)
  }

  /// `libhyphenPoints` from the matcher, nil when there is none or it leaves the run to
  /// libhyphen.
  func matcherPoints(_ encoded: [CChar], charCount: Int) -> [Int]? {
    guard let matcher, encoded.count <= LiangMatcher.maxBytes else { return nil }
    return encoded.withUnsafeBytes { raw -> [Int]? in
      withUnsafeTemporaryAllocation(of: Int8.self, capacity: LiangMatcher.maxBytes + 3) {
        hyphens -> [Int]? in
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        guard matcher.hyphenate(bytes, into: hyphens.baseAddress!) else { return nil }
        let lo = leftMin
        let hi = charCount - rightMin
        guard lo <= hi else { return [] }
        var points: [Int] = []
        for k in (lo - 1)..<hi where hyphens[k] & 1 == 1 { points.append(k + 1) }
        return points
      }
    }
  }

  /// Whether runs go to the Swift matcher (for tests).
  var hasMatcher: Bool { matcher != nil }
  /// Whether libhyphen numbers its answers per UTF-8 character (for tests).
  var dictionaryIsUTF8: Bool { dict.pointee.utf8 != 0 }

  /// libhyphen's points for one lowercased letter run, asked of libhyphen itself.
  func libhyphenOnlyPoints(_ encoded: [CChar], charCount: Int) -> [Int] {
    let size = encoded.count
    // The NUL-terminated word and libhyphen's answer (`size + 5` bytes) in one buffer on the
    // stack: two arrays, and the word's copy regrown for its NUL, were ~1.4 K instructions a
    // call.
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 2 * size + 6) {
      (buffer) -> [Int] in
      buffer.initialize(repeating: 0)
      _ = buffer.update(fromContentsOf: encoded)
      let word = buffer.baseAddress!
      let hyphens = word + size + 1
      var rep: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
      var pos: UnsafeMutablePointer<Int32>? = nil
      var cut: UnsafeMutablePointer<Int32>? = nil
      let rc = hnj_hyphen_hyphenate2(dict, word, Int32(size), hyphens, nil, &rep, &pos, &cut)
      defer {
        if let rep {
          for k in 0..<size { free(rep[k]) }
          free(rep)
        }
        free(pos)
        free(cut)
      }
      guard rc == 0 else { return [] }
      // For UTF-8 dictionaries libhyphen renumbers `hyphens` per character; for 8-bit ones a
      // character is a byte. Either way hyphens[k] odd = a point after character k.
      var points: [Int] = []
      let lo = leftMin
      let hi = charCount - rightMin
      guard lo <= hi else { return [] }
      for k in (lo - 1)..<hi where hyphens[k] & 1 == 1 {
        if let rep, rep[k] != nil { continue }  // non-standard (e.g. "ck" → "k-k"): skipped
        points.append(k + 1)
      }
      return points
    }
  }
}

/// libhyphen's points of lowercased letter runs by their encoded bytes, for one dictionary
/// (runs of the general path, and ASCII runs the Swift matcher leaves to libhyphen: an ASCII
/// run it takes costs less than the memo's key array and probe).
///
/// A book's pieces are words with their case and punctuation ("Whale", "whale,", "whale."),
/// each a key of its own in the word caches, but the patterns only ever see the lowercased
/// letter run ("whale"): this keeps that answer, so libhyphen runs once per distinct run. A
/// run's bytes decide its character count in the dictionary's encoding, so they are the
/// whole key. Emptied at `limit` entries (bounded memory).
struct HyphenRunMemo {
  /// A run's bytes, hashed in one call (an array's own hash feeds the hasher per element).
  private struct Run: Hashable {
    var bytes: [CChar]
    func hash(into h: inout Hasher) { bytes.withUnsafeBytes { h.combine(bytes: $0) } }
    /// What the dictionary asks: the bytes' FNV-1a fold from the seed, mixed (`ShapeKey`'s
    /// finalizer). A run is a few bytes; the Hasher's set-up and finalization cost more.
    func _rawHashValue(seed: Int) -> Int {
      var x = 0xcbf2_9ce4_8422_2325 ^ UInt64(bitPattern: Int64(seed))
      for b in bytes { x = (x ^ UInt64(UInt8(bitPattern: b))) &* 0x100_0000_01b3 }
      return ShapeKey.mixed(x)
    }
  }
  private var answers: [Run: [Int]] = [:]
  /// Runs kept at most.
  static let limit = 100_000

  var count: Int { answers.count }

  mutating func removeAll() { answers.removeAll(keepingCapacity: true) }

  /// The points of the run `bytes`, from `compute` the first time.
  mutating func points(
    _ bytes: [CChar], charCount: Int, _ compute: ([CChar], Int) -> [Int]
  ) -> [Int] {
    let run = Run(bytes: bytes)
    if let known = answers[run] { return known }
    let found = compute(bytes, charCount)
    if answers.count >= HyphenRunMemo.limit { answers.removeAll(keepingCapacity: true) }
    answers[run] = found
    return found
  }
}

// MARK: - Per-language rules and encodings

struct LanguageRules {
  var left: Int
  var right: Int
  var minWord: Int

  static let table: [String: LanguageRules] = [
    "en": .init(left: 2, right: 3, minWord: 5),
    "de": .init(left: 2, right: 2, minWord: 5),
    "fr": .init(left: 2, right: 3, minWord: 5),
    "es": .init(left: 2, right: 2, minWord: 5),
    "it": .init(left: 2, right: 2, minWord: 5),
    "pt": .init(left: 2, right: 3, minWord: 5),
    "nl": .init(left: 2, right: 2, minWord: 5),
    "ru": .init(left: 2, right: 2, minWord: 5),
  ]

  static func forLanguage(_ language: String) -> LanguageRules {
    table[language] ?? .init(left: 2, right: 3, minWord: 5)
  }

  /// Languages whose scripts are not hyphenated (CJK, Thai and its neighbours break
  /// between syllables or characters; Arabic and Hebrew do not hyphenate): no dictionary is
  /// looked up and no diagnostic is recorded.
  static let unhyphenated: Set<String> = [
    "zh", "ja", "ko", "th", "lo", "km", "my", "ar", "he", "fa", "ur", "yi",
  ]

  static let defaultDictionary: [String: String] = [
    "en": "en_US", "de": "de_DE", "pt": "pt_PT", "es": "es_ES", "it": "it_IT", "nl": "nl_NL",
    "ru": "ru_RU", "fr": "fr", "uk": "uk_UA", "pl": "pl_PL", "cs": "cs_CZ", "hu": "hu_HU",
    "sv": "sv_SE", "da": "da_DK", "nb": "nb_NO", "nn": "nn_NO", "ca": "ca", "ro": "ro_RO",
  ]
}

/// How a dictionary wants its words: UTF-8, or a single-byte charset.
enum DictionaryEncoding: Sendable {
  case utf8
  case latin1
  case koi8r
  case unsupported

  init(cset: String, utf8Flag: Bool) {
    let c = cset.uppercased().replacingOccurrences(of: "-", with: "")
      .replacingOccurrences(of: "_", with: "")
    if utf8Flag || c == "UTF8" {
      self = .utf8
    } else if c == "ISO88591" || c == "LATIN1" || c == "ISO885915" {
      self = .latin1
    } else if c == "KOI8R" {
      self = .koi8r
    } else {
      self = .unsupported
    }
  }

  /// KOI8-R bytes 0xC0…0xDF are the lowercase Cyrillic letters in this order; ё is 0xA3.
  private static let koi8Lower: [Unicode.Scalar: UInt8] = {
    var map: [Unicode.Scalar: UInt8] = [:]
    for (k, s) in "юабцдефгхийклмнопярстужвьызшэщчъ".unicodeScalars.enumerated() {
      map[s] = UInt8(0xC0 + k)
    }
    map["ё"] = 0xA3
    return map
  }()

  /// The encoded bytes, or nil when a scalar has no encoding.
  func encode(_ scalars: [Unicode.Scalar]) -> [CChar]? {
    switch self {
    case .utf8:
      var out: [CChar] = []
      for s in scalars {
        UTF8.encode(s) { out.append(CChar(bitPattern: $0)) }
      }
      return out
    case .latin1:
      var out: [CChar] = []
      for s in scalars {
        guard s.value < 256 else { return nil }
        out.append(CChar(bitPattern: UInt8(s.value)))
      }
      return out
    case .koi8r:
      var out: [CChar] = []
      for s in scalars {
        if s.value < 128 {
          out.append(CChar(bitPattern: UInt8(s.value)))
        } else if let b = DictionaryEncoding.koi8Lower[s] {
          out.append(CChar(bitPattern: b))
        } else {
          return nil
        }
      }
      return out
    case .unsupported:
      return nil
    }
  }
}

/// The process-wide cache: one Hyphenator per dictionary file, one entry per tag.
final class HyphenatorRegistry: Sendable {
  /// One tag's or one file's result: empty until known, and locked by the thread finding it.
  private final class Slot: Sendable {
    let loaded = Mutex<Hyphenator??>(nil)
  }
  private struct Tables {
    var byTag: [String: Slot] = [:]
    var byPath: [String: Slot] = [:]
    var notes: [String] = []
  }
  private let tables = Mutex(Tables())
  private let folder = Mutex<String?>(nil)
  /// The most tags (and so files) the registry keeps.
  static let maxTags = 256

  /// Where compiled pattern tries are kept (nil: nowhere).
  var compiledFolder: String? {
    get { folder.withLock { $0 } }
    set { folder.withLock { $0 = newValue } }
  }

  /// Loading happens outside the table lock (hyph_de_DE.dic takes seconds in libhyphen), so
  /// a slow language never blocks lookups of others. The first thread to lock a tag's slot
  /// finds the tag's file while holding that slot, then loads the file while holding the
  /// file's slot; a thread asking for the same tag, or another tag of the same file ("en"
  /// and "en-us" both land on hyph_en_US.dic), meanwhile waits on the slot and then reads
  /// the result instead of repeating the load: parallel chapters all ask for the book's
  /// language at once, and each load is pure CPU. (Lock order: a tag's slot, then a file's,
  /// then the tables; never the other way round.) A `quiet` lookup (a prefetch) that finds
  /// no dictionary records nothing and leaves the slots empty, for the next lookup to try.
  func lookup(_ tag: String, quiet: Bool = false) -> Hyphenator? {
    guard let slot = slot(tag, in: \.byTag) else { return nil }
    return slot.loaded.withLock { loaded -> Hyphenator? in
      if let done = loaded { return done }
      let result: Result<Hyphenator, Hyphenator.LoadFailure>
      switch Hyphenator.locate(tag: tag) {
      case .success(let (path, rules)): result = load(path, rules: rules)
      case .failure(let f): result = .failure(f)
      }
      switch result {
      case .success(let h):
        loaded = .some(h)
        return h
      case .failure(let f):
        if quiet { return nil }
        tables.withLock { $0.notes.append(f.message) }
        loaded = .some(nil)
        return nil
      }
    }
  }

  /// The hyphenator of the file at `path`, loaded once per file (every tag landing on the
  /// file shares the instance of the first).
  private func load(_ path: String, rules: LanguageRules) -> Result<
    Hyphenator, Hyphenator.LoadFailure
  > {
    guard let slot = slot(path, in: \.byPath) else {
      return .failure(Hyphenator.LoadFailure(message: "\(path): too many dictionaries"))
    }
    return slot.loaded.withLock { loaded in
      if let done = loaded, let h = done { return .success(h) }
      let result = Hyphenator.load(path: path, rules: rules)
      if case .success(let h) = result { loaded = .some(h) }
      return result
    }
  }

  /// The slot of `key` in one of the tables, created when missing; nil when that table is
  /// full.
  private func slot(_ key: String, in table: WritableKeyPath<Tables, [String: Slot]>) -> Slot? {
    tables.withLock { t -> Slot? in
      if let s = t[keyPath: table][key] { return s }
      if t[keyPath: table].count >= Self.maxTags { return nil }
      let s = Slot()
      t[keyPath: table][key] = s
      return s
    }
  }

  func messages() -> [String] { tables.withLock { $0.notes } }
}

extension Hyphenator {
  static let registry = HyphenatorRegistry()
}
