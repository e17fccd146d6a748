import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

@Suite struct LayoutTests {
  @Test func prideAndPrejudiceOpeningPages() throws {
    guard let path = Corpus.path("pride-and-prejudice.txt"),
      let doc = DocumentBuilder.plainText(path, chapters: 3)
    else { return }
    let t = try Typesetter(document: doc, options: LayoutOptions())
    let book = t.layoutBook(threads: 2)
    #expect(book.pages.count > 5)
    print(dump(Array(book.pages.prefix(3))))
  }
}
