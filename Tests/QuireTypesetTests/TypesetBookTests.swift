import Foundation
import QuireIngest
import QuireTestSupport
import Testing

@testable import QuireTypeset

/// Real books from the corpus through Book.open: one layout per book, checked for the
/// invariants and against line dumps of fixed pages (Goldens/book-*.txt).
@Suite struct TypesetBookTests {
  static func open(_ name: String) -> Document? {
    guard let path = Corpus.existingPath(name) else { return nil }
    return try? Book.open(URL(fileURLWithPath: path))
  }

  static let cases: [(book: String, pages: ClosedRange<Int>)] = [
    ("moby-dick.epub", 20...21),
    ("pg84-frankenstein.epub", 12...12),
    ("regime-anticancer-arabic.epub", 4...4),
  ]

  @Test(arguments: 0..<3)
  func book(_ index: Int) throws {
    let (name, golden) = TypesetBookTests.cases[index]
    guard let doc = TypesetBookTests.open(name) else { return }
    let o = LayoutOptions()
    let t = try Typesetter(document: doc, options: o)
    let book = t.layoutBook(threads: 2)
    #expect(book.pages.count > 10)
    #expect(book.pages.map(\.number) == Array(1...book.pages.count))
    let bottom = Double(o.height) - o.margins.bottom + 0.001
    for p in book.pages {
      for l in p.lines where l.role == .text { #expect(l.rect.maxY <= bottom) }
      #expect(p.start <= p.end)
    }
    #expect(firstDifference(shownText(book.pages), sourceText(doc)) == nil)
    let stem = name.split(separator: ".").first.map(String.init) ?? name
    let pages = Array(
      book.pages[(golden.lowerBound - 1)..<min(golden.upperBound, book.pages.count)])
    #expect(matchesGolden("book-\(stem).txt", "\(book.pages.count) pages\n" + dump(pages)))
  }

  @Test func chapterAloneEqualsItsSliceInARealBook() throws {
    guard let doc = TypesetBookTests.open("pg84-frankenstein.epub") else { return }
    let t = try Typesetter(document: doc, options: .small)
    let book = t.layoutBook(threads: 2)
    let spine = doc.chapters.indices.max { doc.chapters[$0].size < doc.chapters[$1].size }!
    let alone = t.layoutChapter(spine)
    let slice = book.pages.filter { $0.spine == spine }
    #expect(slice.map(\.lines) == alone.pages.map(\.lines))
    #expect(slice.count > 3)
  }
}
