import CUnibreak
import Foundation
import QuireIngest
import QuireTestSupport
import Testing

@testable import QuireTypeset

/// The Latin fast path of UAX #14 (LineBreakOpportunities.swift) against libunibreak itself:
/// every short sequence of the classes it takes, and every paragraph of the corpus.
@Suite struct LineBreakOpportunityTests {
  /// One scalar of each class the fast path can meet in `language` (the first slot of each).
  static func representatives(_ language: String) -> [UInt32] {
    let table = LatinLineBreaks.classes(for: language)
    var seen: Set<UInt8> = []
    var out: [UInt32] = []
    for k in 0..<LatinLineBreaks.slots where table[k] != LatinLineBreaks.outside {
      if seen.insert(table[k]).inserted { out.append(LatinLineBreaks.scalar(ofSlot: k)) }
    }
    return out
  }

  /// Calls `body` with every sequence of `alphabet` of length 1…`length`.
  static func sequences(_ alphabet: [UInt32], upTo length: Int, _ body: ([UInt32]) -> Void) {
    var seq: [UInt32] = []
    func extend() {
      if !seq.isEmpty { body(seq) }
      guard seq.count < length else { return }
      for a in alphabet {
        seq.append(a)
        extend()
        seq.removeLast()
      }
    }
    extend()
  }

  @Test(arguments: ["", "en", "en-US", "de", "fr-CA", "ru", "zh-Hans", "ja", "ko"])
  func everyShortSequenceAgrees(language: String) {
    let reps = Self.representatives(language)
    // Spaces, line breaks and objects around the classes: the rules that look back.
    let alphabet = reps + [0x20, 0x2028, 0xFFFC, 0x0A, 0x0D]
    #expect(reps.count >= 15, "classes reached: \(reps.count)")
    var checked = 0
    var mismatches: [[UInt32]] = []
    Self.sequences(Array(Set(alphabet)).sorted(), upTo: language == "en" ? 4 : 3) { seq in
      let fast = LatinLineBreaks.breaks(seq, language: language)
      let slow = LineBreakOpportunities.libunibreak(seq, language: language)
      checked += 1
      if fast != slow, mismatches.count < 5 { mismatches.append(seq) }
    }
    #expect(checked > 1000)
    #expect(mismatches.isEmpty, "first differing sequences: \(mismatches)")
  }

  /// A paragraph's text as the typesetter collects it (a line break as U+2028, an object as
  /// U+FFFC), its language, for every block of a book.
  static func paragraphs(of book: String) throws -> [(text: [UInt32], lang: String)] {
    let doc = try Book.open(Corpus.url(book))
    var out: [(text: [UInt32], lang: String)] = []
    func walk(_ blocks: [Block], _ lang: String) {
      for b in blocks {
        let lang = b.lang ?? lang
        var text: [UInt32] = []
        for inline in b.inlines {
          switch inline {
          case .text(let run): text += run.text.unicodeScalars.map(\.value)
          case .lineBreak: text.append(0x2028)
          case .image, .math, .inlineBlock: text.append(0xFFFC)
          }
        }
        if !text.isEmpty { out.append((text, lang)) }
        walk(b.children, lang)
      }
    }
    for chapter in doc.chapters {
      walk(chapter.blocks, chapter.language ?? doc.metadata.language ?? "")
    }
    return out
  }

  static func shown(_ text: [UInt32]) -> String {
    String(String.UnicodeScalarView(text.prefix(80).compactMap(Unicode.Scalar.init)))
  }

  /// Every corpus book with text (page-blanche and svg-in-spine are images only).
  static let books = [
    "moby-dick.epub", "pg84-frankenstein.epub", "childrens-literature.epub",
    "accessible_epub_3.epub", "wasteland-otf-obf.epub", "israelsailing.epub", "trees.epub",
    "regime-anticancer-arabic.epub", "jlreq-in-japanese.epub", "haruko-html-jpeg.epub",
    "pride-and-prejudice.txt",
    "xiyouji-journey-to-the-west.utf8.txt",
  ]

  @Test(.enabled(if: Corpus.available, Comment(rawValue: Corpus.missing)), arguments: books)
  func everyCorpusParagraphAgrees(book: String) throws {
    guard Corpus.has(book) else { return }
    var fast = 0
    var total = 0
    for (text, lang) in try Self.paragraphs(of: book) {
      total += 1
      let slow = LineBreakOpportunities.libunibreak(text, language: lang)
      guard let quick = LatinLineBreaks.breaks(text, language: lang) else { continue }
      fast += 1
      #expect(quick == slow, "\(book): \(Self.shown(text))")
      // The entry point answers the same whichever path it takes.
      #expect(LineBreakOpportunities.find(text, language: lang) == slow)
    }
    #expect(total > 0)
    if book == "moby-dick.epub" || book == "pride-and-prejudice.txt" {
      // English prose goes the fast path (curly quotes and dashes included).
      #expect(fast * 100 >= total * 95, "\(book): \(fast) of \(total) paragraphs on the fast path")
    }
  }

  @Test func regionalIndicatorsNeitherAbortNorSplitAFlag() {
    // 🇫🇷🇩🇪 between words: libunibreak 1.1 asserts on the RI class.
    let text: [UInt32] = [0x61, 0x20, 0x1F1EB, 0x1F1F7, 0x1F1E9, 0x1F1EA, 0x20, 0x62]
    let brks = LineBreakOpportunities.find(text, language: "en")
    #expect(brks.count == text.count)
    #expect(brks[2] == CChar(LINEBREAK_NOBREAK))
    #expect(brks[4] == CChar(LINEBREAK_NOBREAK))
    #expect(brks[6] == CChar(LINEBREAK_ALLOWBREAK))
    #expect(brks[7] == CChar(LINEBREAK_MUSTBREAK))
    #expect(LatinLineBreaks.breaks(text, language: "en") == nil)
  }

  @Test func curlyQuotesFollowTheLanguage() {
    // “a” b: in English U+201C is OP (no break after it), in German CL.
    let text: [UInt32] = [0x201C, 0x61, 0x201D, 0x20, 0x62]
    #expect(
      LatinLineBreaks.breaks(text, language: "en")
        == LineBreakOpportunities.libunibreak(text, language: "en"))
    #expect(
      LatinLineBreaks.breaks(text, language: "de")
        == LineBreakOpportunities.libunibreak(text, language: "de"))
    #expect(LatinLineBreaks.classes(for: "en")[LatinLineBreaks.slot(0x201C)] == LatinLineBreaks.op)
  }
}
