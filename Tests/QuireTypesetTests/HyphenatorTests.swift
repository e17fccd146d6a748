import Foundation
import Testing

@testable import QuireTypeset

/// Renders a word with "-" at its hyphenation points.
private func marked(_ h: Hyphenator, _ word: String) -> String {
  let points = Set(h.hyphenationPoints(in: word))
  var s = ""
  for (i, c) in word.unicodeScalars.enumerated() {
    if points.contains(i) { s += "-" }
    s.unicodeScalars.append(c)
  }
  return s
}

private func dictionaryInstalled(_ name: String) -> Bool {
  FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_\(name).dic")
}

@Suite struct HyphenatorTests {
  @Test(.enabled(if: dictionaryInstalled("en_US")))
  func english() throws {
    let h = try #require(Hyphenator.forLanguage("en"))
    #expect(h.leftMin == 2 && h.rightMin == 3)
    #expect(h.hyphenationPoints(in: "hyphenation") == [2, 6])
    #expect(marked(h, "hyphenation") == "hy-phen-ation")
    #expect(marked(h, "Hyphenation") == "Hy-phen-ation")
    #expect(marked(h, "extraordinary") == "ex-tra-or-di-nary")
    #expect(marked(h, "typesetting") == "type-set-ting")
    // Too short, acronyms, digits.
    #expect(h.hyphenationPoints(in: "table").count <= 1)
    #expect(h.hyphenationPoints(in: "cat").isEmpty)
    #expect(h.hyphenationPoints(in: "UNESCO").isEmpty)
    #expect(h.hyphenationPoints(in: "abc123def").isEmpty)
    // Trailing punctuation does not move indices; right minimum holds inside the run.
    #expect(h.hyphenationPoints(in: "“hyphenation,”") == [3, 7])
    // Soft hyphens override the patterns.
    #expect(h.hyphenationPoints(in: "co\u{AD}operate") == [2])
    // Region tags fall back to the language's dictionary and share the instance.
    let us = try #require(Hyphenator.forLanguage("en-US"))
    let gb = try #require(Hyphenator.forLanguage("en_GB"))
    #expect(us === h && gb === h)
  }

  @Test(.enabled(if: dictionaryInstalled("en_US")))
  func pointsRespectMinimumsEverywhere() throws {
    let h = try #require(Hyphenator.forLanguage("en"))
    let words =
      "internationalization responsibilities characteristically misunderstanding photosynthesis"
      .split(separator: " ")
    for w in words {
      let n = w.unicodeScalars.count
      let p = h.hyphenationPoints(in: String(w))
      #expect(!p.isEmpty)
      #expect(p == p.sorted() && Set(p).count == p.count)
      #expect(p.allSatisfy { $0 >= 2 && $0 <= n - 3 }, "\(w): \(p)")
    }
  }

  /// The run memo answers exactly what libhyphen answers, once per lowercased letter run:
  /// case and punctuation variants of a word share one entry.
  @Test(.enabled(if: dictionaryInstalled("en_US")))
  func runMemoAgreesAndSharesVariants() throws {
    let h = try #require(Hyphenator.forLanguage("en"))
    let words = [
      "whaleboat", "Whaleboat", "whaleboat,", "“Whaleboat!”", "whaleboat's", "WHALEBOAT",
      "hyphenation", "hyphenation—extraordinary", "naïveté", "café-extraordinary", "cat",
    ]
    var memo = HyphenRunMemo()
    for w in words {
      let scalars = w.unicodeScalars.map(\.value)
      let plain = h.hyphenationPoints(scalarValues: scalars)
      #expect(h.hyphenationPoints(scalarValues: scalars, memo: &memo) == plain, "\(w)")
      // A second ask is answered from the memo, the same.
      #expect(h.hyphenationPoints(scalarValues: scalars, memo: &memo) == plain, "\(w)")
    }
    // whaleboat, hyphenation, extraordinary, naïveté (WHALEBOAT is an acronym to the
    // hyphenator and never reaches libhyphen; "café", "cat" and "s" are too short); with the
    // Swift matcher, runs of ASCII words are matched on the stack without the memo: only the
    // non-ASCII words' runs are kept (naïveté, and extraordinary from café-extraordinary).
    #expect(memo.count == (h.hasMatcher ? 2 : 4))
  }

  @Test(.enabled(if: dictionaryInstalled("de_DE")))
  func germanLatin1Dictionary() throws {
    let h = try #require(Hyphenator.forLanguage("de-CH"))
    #expect(marked(h, "Silbentrennung") == "Sil-ben-tren-nung")
    #expect(marked(h, "Schifffahrt") == "Schiff-fahrt")
    #expect(marked(h, "Häuser") == "Häu-ser")
    #expect(marked(h, "Zucker") == "Zu-cker")
    #expect(marked(h, "Straße") == "Stra-ße")
  }

  @Test(.enabled(if: dictionaryInstalled("fr")))
  func frenchUTF8Dictionary() throws {
    let h = try #require(Hyphenator.forLanguage("fr-FR"))
    #expect(marked(h, "développement") == "dé-ve-lop-pe-ment")
    #expect(marked(h, "anticonstitutionnellement") == "an-ti-cons-ti-tu-tion-nel-le-ment")
    // Elision: the part after the apostrophe is hyphenated on its own.
    #expect(marked(h, "l’extraordinaire") == "l’ex-tra-or-di-naire")
  }

  @Test(.enabled(if: dictionaryInstalled("ru_RU")))
  func russianKOI8Dictionary() throws {
    let h = try #require(Hyphenator.forLanguage("ru"))
    #expect(marked(h, "переносы") == "пе-ре-но-сы")
    #expect(marked(h, "Электричество") == "Элек-три-че-ство")
    #expect(marked(h, "ёлочка") == "ёлоч-ка")
  }

  @Test func otherInstalledLanguages() {
    for (tag, word) in [
      ("es", "desarrollo"), ("it", "precipitevolissimevolmente"), ("pt-PT", "desenvolvimento"),
      ("nl", "ontwikkeling"),
    ] {
      guard let h = Hyphenator.forLanguage(tag) else { continue }
      #expect(!h.hyphenationPoints(in: word).isEmpty, "\(tag) \(word)")
    }
  }

  @Test func missingLanguageIsNilWithDiagnostic() {
    #expect(Hyphenator.forLanguage("zz-QQ") == nil)
    #expect(Hyphenator.forLanguage("") == nil)
    #expect(Hyphenator.diagnostics().contains { $0.contains("'zz-qq'") })
    // Languages that are not hyphenated: nil, and no diagnostic.
    #expect(Hyphenator.forLanguage("ja") == nil && Hyphenator.forLanguage("zh-Hant") == nil)
    #expect(!Hyphenator.diagnostics().contains { $0.contains("'ja'") || $0.contains("zh") })
  }

  /// A prefetch is a quiet lookup: a tag without a dictionary records nothing and stays
  /// unanswered (the next lookup tries again and records the note once); a dictionary it
  /// loads is the one every tag of that file gets.
  @Test func quietLookupRecordsNothingAndLeavesTheTagOpen() {
    let registry = HyphenatorRegistry()
    #expect(registry.lookup("zz-qq", quiet: true) == nil)
    #expect(registry.messages().isEmpty)
    #expect(registry.lookup("zz-qq") == nil)
    #expect(registry.lookup("zz-qq") == nil)
    #expect(registry.messages().filter { $0.contains("'zz-qq'") }.count == 1)
  }

  @Test(.enabled(if: dictionaryInstalled("en_US")))
  func tagsOfOneFileShareTheLoadedDictionary() async throws {
    let registry = HyphenatorRegistry()
    let tags = ["en-us", "en", "en-us", "en", "en-us", "en", "en-us", "en"]
    // Concurrent first lookups of two tags landing on hyph_en_US.dic: one load, one instance.
    let found = await withTaskGroup(of: ObjectIdentifier?.self) { group in
      for (k, tag) in tags.enumerated() {
        group.addTask { registry.lookup(tag, quiet: k == 0).map(ObjectIdentifier.init) }
      }
      var all: [ObjectIdentifier?] = []
      for await h in group { all.append(h) }
      return all
    }
    #expect(found.count == tags.count && found.allSatisfy { $0 != nil })
    #expect(Set(found).count == 1)
    let h = try #require(registry.lookup("en"))
    #expect(h.dictionaryPath.hasSuffix("hyph_en_US.dic"))
    #expect(h.hyphenationPoints(in: "hyphenation") == [2, 6])
    #expect(registry.messages().isEmpty)
  }

  @Test(.enabled(if: dictionaryInstalled("en_US")))
  func prefetchThenLookupGivesTheSameHyphenator() throws {
    Hyphenator.prefetch("en-US")
    let h = try #require(Hyphenator.forLanguage("en-US"))
    #expect(Hyphenator.forLanguage("en") === h)
  }

  @Test(.enabled(if: dictionaryInstalled("en_US")))
  func concurrentUseAgrees() async throws {
    let h = try #require(Hyphenator.forLanguage("en"))
    let words = ["hyphenation", "extraordinary", "typesetting", "responsibilities", "computer"]
    let expected = words.map { h.hyphenationPoints(in: $0) }
    let results = await withTaskGroup(of: Bool.self) { group in
      for t in 0..<8 {
        group.addTask {
          for k in 0..<500 {
            let i = (k + t) % words.count
            if h.hyphenationPoints(in: words[i]) != expected[i] { return false }
          }
          return true
        }
      }
      var all = true
      for await ok in group { all = all && ok }
      return all
    }
    #expect(results)
  }
}

@Suite struct HyphenatorHostileTests {
  @Test func oddWordsAreSafe() throws {
    guard let h = Hyphenator.forLanguage("en") else { return }
    let long = String(repeating: "abcdefghij", count: 1000)
    for w in [
      "", "a", long, "\u{0}\u{1}hyphenation", "hyphen\u{301}ation", "🙂🙂🙂🙂🙂🙂",
      "ﬁnancial", "hyphenation\u{AD}", "\u{AD}\u{AD}\u{AD}", "中文字符测试",
    ] {
      let n = w.unicodeScalars.count
      let p = h.hyphenationPoints(in: w)
      #expect(p.allSatisfy { $0 > 0 && $0 < n })
    }
    #expect(h.hyphenationPoints(in: long).isEmpty)
  }
}
