import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

/// Real books from the corpus through Book.open: line dumps of fixed pages, and invariants.
@Suite struct TypesetBookTests {
  static func open(_ name: String) -> Document? {
    guard let path = Corpus.path(name) else { return nil }
    return try? Book.open(URL(fileURLWithPath: path))
  }

  @Test(arguments: ["moby-dick.epub", "pg84-frankenstein.epub", "regime-anticancer-arabic.epub"])
  func bookInvariants(_ name: String) throws {
    guard let doc = TypesetBookTests.open(name) else { return }
    let o = LayoutOptions()
    let t = try Typesetter(document: doc, options: o)
    let book = t.layoutBook(threads: 2)
    #expect(book.pages.count > 10)
    let bottom = Double(o.height) - o.margins.bottom + 0.001
    for p in book.pages {
      for l in p.lines where l.role == .text { #expect(l.rect.maxY <= bottom) }
    }
    #expect(firstDifference(shownText(book.pages), sourceText(doc)) == nil)
    print("\(name): \(book.pages.count) pages, warnings: \(book.warnings.prefix(5))")
  }
}
