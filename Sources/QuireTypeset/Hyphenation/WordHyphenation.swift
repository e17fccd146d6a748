// Hyphenation points of words as the typesetter asks for them: the dictionary for a language
// looked up once per chapter, and points cached per word process-wide (`shared`), because
// the same long words come back page after page.
//
// A worker asks only for words its shaper's word table (Shaping/WordTable.swift) does not
// hold yet, and that table keeps a word's points with its shaped parts, so a per-worker
// table of points by word saw almost no repeat (328 of 18,897 asks on moby-dick) and cost
// 38 M instructions in hashing and inserts; it is gone. What does repeat is the letter
// run: "Whale", "whale," and "whale." are three words but one lowercased run for the
// patterns, so libhyphen's answers are kept per run (`HyphenRunMemo`) while the dictionary
// stays the same. Measured in Benchmarks/paginate-cost.md, session 12. Since session 17 the
// ASCII runs the Swift matcher takes (LiangMatcher.swift) skip the memo: matching one costs
// less than the memo's key array and probe.

/// A worker's hyphenation state: dictionaries by language and points by word.
struct WordHyphenation {
  /// Dictionaries by language tag (`nil`: no dictionary for that language).
  var dictionaries: [String: Hyphenator?] = [:]
  /// libhyphen's answers per letter run in the dictionary `runsDictionary`, kept from
  /// chapter to chapter by a worker while the dictionary stays the same: words that differ
  /// only in case or punctuation ask it once.
  var runs = HyphenRunMemo()
  /// The dictionary whose answers `runs` holds (a paragraph in another language empties
  /// it: the same run has other points in another language's patterns).
  var runsDictionary: ObjectIdentifier? = nil
  /// Points shared by all workers.
  let shared: SharedCache<HyphenKey, [Int]>

  init(shared: SharedCache<HyphenKey, [Int]>) { self.shared = shared }

  /// Moves the caches out, leaving this empty (so the taker holds the only reference).
  mutating func take() -> WordHyphenation {
    var taken = WordHyphenation(shared: shared)
    swap(&taken, &self)
    return taken
  }

  /// The dictionary for `lang`, loaded at the first word that asks.
  mutating func hyphenator(for lang: String) -> Hyphenator? {
    if let h = dictionaries[lang] { return h }
    let h = Hyphenator.forLanguage(lang)
    dictionaries[lang] = .some(h)
    return h
  }

  /// Hyphenation points of a word in a dictionary other than the paragraph's (a `lang`
  /// span), cached by word and dictionary in the shared cache only. `fold`: the word's
  /// `ShapeKey.fold`, when the caller has it.
  func sharedPoints(_ word: [UInt32], _ h: Hyphenator, fold: UInt64? = nil) -> [Int] {
    let key = HyphenKey(word: word, dictionary: ObjectIdentifier(h), fold: fold)
    if let hit = shared.get(key) { return hit }
    let found = h.hyphenationPoints(scalarValues: word)
    shared.put(key, found)
    return found
  }

  /// Hyphenation points of a word (scalar indices), cached. `fold`: the word's
  /// `ShapeKey.fold`, when the caller has it.
  mutating func points(_ word: [UInt32], _ h: Hyphenator, fold: UInt64? = nil) -> [Int] {
    let dictionary = ObjectIdentifier(h)
    if dictionary != runsDictionary {
      runs.removeAll()
      runsDictionary = dictionary
    }
    let key = HyphenKey(word: word, dictionary: dictionary, fold: fold)
    if let hit = shared.get(key) { return hit }
    let found = h.hyphenationPoints(scalarValues: word, memo: &runs)
    shared.put(key, found)
    return found
  }
}
