// Hyphenation points of words as the typesetter asks for them: the dictionary for a language
// looked up once per chapter, and points cached per word (for the worker, and process-wide
// through `shared`), because the same long words come back page after page.

/// A worker's hyphenation state: dictionaries by language and points by word.
struct WordHyphenation {
  /// Dictionaries by language tag (`nil`: no dictionary for that language).
  var dictionaries: [String: Hyphenator?] = [:]
  /// Points by word (scalar values) in the dictionary `pointsDictionary`, kept from chapter
  /// to chapter by a worker while the dictionary stays the same.
  var points: [[UInt32]: [Int]] = [:]
  /// The dictionary whose points `points` holds (a paragraph in another language empties
  /// it: the same word has other points in another language's patterns).
  var pointsDictionary: ObjectIdentifier? = nil
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
  /// span), cached by word and dictionary in the shared cache only.
  func sharedPoints(_ word: [UInt32], _ h: Hyphenator) -> [Int] {
    let key = HyphenKey(word: word, dictionary: ObjectIdentifier(h))
    if let hit = shared.get(key) { return hit }
    let found = h.hyphenationPoints(scalarValues: word)
    shared.put(key, found)
    return found
  }

  /// Hyphenation points of a word (scalar indices), cached.
  mutating func points(_ word: [UInt32], _ h: Hyphenator) -> [Int] {
    let dictionary = ObjectIdentifier(h)
    if dictionary != pointsDictionary {
      points.removeAll(keepingCapacity: true)
      pointsDictionary = dictionary
    }
    if let hit = points[word] { return hit }
    let key = HyphenKey(word: word, dictionary: dictionary)
    if let hit = shared.get(key) {
      points[word] = hit
      return hit
    }
    let found = h.hyphenationPoints(scalarValues: word)
    points[word] = found
    shared.put(key, found)
    return found
  }
}
