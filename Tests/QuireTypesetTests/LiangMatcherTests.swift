import Foundation
import QuireCore
import QuireTestSupport
import Testing

@testable import QuireTypeset

/// The Swift matcher (LiangMatcher.swift) must give libhyphen's points for every word it
/// takes, in every installed dictionary: all letter runs of the corpus's text books, the
/// letters of every pattern of the dictionary itself, and random strings of its pattern
/// bytes. German's dictionary has a compound first level and stays with libhyphen.
@Suite struct LiangMatcherTests {
  /// Each installed dictionary file once, loaded with the smallest minimums (2, 2), so the
  /// comparison covers as many positions as any language's rules do.
  static func hyphenators() -> [Hyphenator] {
    PatternLoaderTests.dictionaries.compactMap { path in
      try? Hyphenator.load(path: path, rules: LanguageRules(left: 2, right: 2, minWord: 1))
        .get()
    }
  }

  /// The distinct letter runs (`Hyphenator.isWordScalar`) of the corpus's text books.
  static let corpusRuns: [[Unicode.Scalar]] = {
    var runs: Set<[Unicode.Scalar]> = []
    for book in LineBreakOpportunityTests.books where Corpus.has(book) {
      guard let paragraphs = try? LineBreakOpportunityTests.paragraphs(of: book) else {
        continue
      }
      for (text, _) in paragraphs {
        var run: [Unicode.Scalar] = []
        for v in text + [0x20] {
          if let s = Unicode.Scalar(v), Hyphenator.isWordScalar(s) {
            run.append(s)
          } else if !run.isEmpty {
            if run.count <= Hyphenator.maxWordLength { runs.insert(run) }
            run.removeAll()
          }
        }
      }
    }
    return runs.sorted { $0.lexicographicallyPrecedes($1, by: { $0.value < $1.value }) }
  }()

  /// The pattern words of a dictionary file (digits, dots and replacements removed), in its
  /// own encoding, and the bytes they use.
  static func patternWords(_ path: String) -> (words: [[CChar]], alphabet: [CChar]) {
    guard let data = FileManager.default.contents(atPath: path) else { return ([], []) }
    var words: Set<[CChar]> = []
    var alphabet: Set<CChar> = []
    for line in data.split(separator: UInt8(ascii: "\n")) {
      let pattern = line.prefix { $0 != UInt8(ascii: "/") && $0 > 0x20 }
      let letters = pattern.filter {
        !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) && $0 != UInt8(ascii: ".")
      }.map { CChar(bitPattern: $0) }
      guard !letters.isEmpty, letters.count <= LiangMatcher.maxBytes else { continue }
      words.insert(letters)
      alphabet.formUnion(letters)
    }
    return (words.sorted { $0.lexicographicallyPrecedes($1) }, alphabet.sorted())
  }

  /// libhyphen's character count of `bytes` (UTF-8: bytes that do not continue one).
  static func charCount(_ bytes: [CChar], utf8: Bool) -> Int {
    utf8 ? bytes.filter { UInt8(bitPattern: $0) & 0xC0 != 0x80 }.count : bytes.count
  }

  /// Compares both answers on `words` (each with libhyphen's character count); returns how
  /// many the matcher took.
  static func compare(_ h: Hyphenator, _ words: [[CChar]], utf8: Bool, _ what: String) -> Int {
    compare(h, words.map { ($0, charCount($0, utf8: utf8)) }, what)
  }

  static func compare(_ h: Hyphenator, _ words: [([CChar], Int)], _ what: String) -> Int {
    var taken = 0
    for (w, n) in words {
      guard let mine = h.matcherPoints(w, charCount: n) else { continue }
      taken += 1
      let theirs = h.libhyphenOnlyPoints(w, charCount: n)
      if mine != theirs {
        Issue.record("\(h.dictionaryPath) \(what) \(w): \(mine) vs libhyphen \(theirs)")
        return taken
      }
    }
    return taken
  }

  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
  func corpusWordsAgreeInEveryDictionary() throws {
    let runs = Self.corpusRuns
    #expect(runs.count > 10_000)
    for h in Self.hyphenators() {
      let words = runs.compactMap { r in h.encodedRun(r).map { ($0.bytes, $0.charCount) } }
      let taken = Self.compare(h, words, "corpus run")
      if h.hasMatcher {
        #expect(taken * 10 >= words.count * 9, "\(h.dictionaryPath): \(taken) of \(words.count)")
      }
    }
  }

  @Test func patternLettersAndRandomStringsAgreeInEveryDictionary() throws {
    var withMatcher = 0
    for h in Self.hyphenators() {
      guard h.hasMatcher else {
        // Only German's compound first level is outside the model.
        #expect(h.dictionaryPath.contains("hyph_de"), "\(h.dictionaryPath) has no matcher")
        continue
      }
      withMatcher += 1
      let utf8 = h.dictionaryIsUTF8
      let (words, alphabet) = Self.patternWords(h.dictionaryPath)
      let taken = Self.compare(h, words, utf8: utf8, "pattern")
      #expect(taken > words.count / 2, "\(h.dictionaryPath): \(taken) of \(words.count)")
      // Random strings of the patterns' bytes and '.', 1 to 24 bytes; and pattern words
      // joined, so patterns meet across their seams.
      var rng = SplitMix64(seed: 17)  // QuireCore's: a failure replays
      var random: [[CChar]] = []
      let symbols = alphabet + [CChar(UInt8(ascii: "."))]
      for _ in 0..<4000 {
        let n = Int(rng.next() % 24) + 1
        random.append((0..<n).map { _ in symbols[Int(rng.next() % UInt64(symbols.count))] })
      }
      for _ in 0..<4000 where !words.isEmpty {
        let a = words[Int(rng.next() % UInt64(words.count))]
        let b = words[Int(rng.next() % UInt64(words.count))]
        random.append(Array((a + b).prefix(LiangMatcher.maxBytes)))
      }
      #expect(Self.compare(h, random, utf8: utf8, "random") > 0)
    }
    #expect(withMatcher >= 1)
  }

  /// The ASCII path's runs (lowercased on the stack, matched without the memo) give what
  /// the general composition over libhyphen gives, on every piece of the English books.
  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)))
  func asciiWordsAgreeWithLibhyphenRuns() throws {
    guard let h = Hyphenator.forLanguage("en"), h.hasMatcher else { return }
    var checked = 0
    for book in ["moby-dick.epub", "pride-and-prejudice.txt"] where Corpus.has(book) {
      for (text, _) in try LineBreakOpportunityTests.paragraphs(of: book) {
        for piece in text.split(separator: 0x20) {
          let word = Array(piece)
          guard word.allSatisfy({ $0 < 0x80 || Hyphenator.isQuoteOrDash($0) }) else { continue }
          checked += 1
          let expected = Self.libhyphenComposition(h, word)
          let got = h.hyphenationPoints(scalarValues: word)
          if got != expected {
            Issue.record("\(String(decoding: word.map { UInt8($0 & 0x7F) }, as: UTF8.self))")
            return
          }
        }
      }
    }
    #expect(checked > 100_000)
    // Edge cases: run lengths at the limits, case, punctuation between runs.
    for w in [
      "a", "abcde", "Abcdefghij", String(repeating: "ab", count: 32),
      String(repeating: "hyphenation", count: 6), "well-known", "whale’s", "“Aye,", "UNESCO",
      "O'Brien", "co-operation—and", "x\(String(repeating: "y", count: 70))",
    ] {
      let word = w.unicodeScalars.map(\.value)
      #expect(h.hyphenationPoints(scalarValues: word) == Self.libhyphenComposition(h, word), "\(w)")
    }
  }

  /// The old ASCII path: the word's checks, then libhyphen on each lowercased letter run.
  static func libhyphenComposition(_ h: Hyphenator, _ word: [UInt32]) -> [Int] {
    guard word.count >= h.minWordLength, word.count <= 4 * Hyphenator.maxWordLength else {
      return []
    }
    if word.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) { return [] }
    let lower = word.contains { $0 >= 0x61 && $0 <= 0x7A }
    if !lower && word.filter({ $0 >= 0x41 && $0 <= 0x5A }).count >= 2 { return [] }
    func isLetter(_ v: UInt32) -> Bool { (v | 0x20) >= 0x61 && (v | 0x20) <= 0x7A }
    var points: [Int] = []
    var i = 0
    while i < word.count {
      guard isLetter(word[i]) else {
        i += 1
        continue
      }
      var j = i
      while j < word.count, isLetter(word[j]) { j += 1 }
      if j - i >= h.minWordLength && j - i <= Hyphenator.maxWordLength {
        let bytes = word[i..<j].map { CChar(UInt8($0 | 0x20)) }
        points += h.libhyphenOnlyPoints(bytes, charCount: j - i).map { $0 + i }
      }
      i = j
    }
    return points
  }
}
