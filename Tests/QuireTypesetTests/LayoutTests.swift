import Foundation
import QuireIngest
import QuireTestSupport
import Testing

@testable import QuireTypeset

@Suite struct LayoutTests {
  static func novelBook(_ o: LayoutOptions = LayoutOptions()) throws -> (Document, BookLayout)? {
    guard let path = Corpus.existingPath("pride-and-prejudice.txt"),
      let doc = DocumentBuilder.plainText(path, chapters: 3)
    else { return nil }
    return (doc, try Typesetter(document: doc, options: o).layoutBook(threads: 2))
  }

  @Test func prideAndPrejudiceGolden() throws {
    guard let (_, book) = try LayoutTests.novelBook() else { return }
    #expect(matchesGolden("pride-and-prejudice-hand-built.txt", dump(Array(book.pages.prefix(3)))))
  }

  @Test func justifiedLinesFillTheMeasureAndIndentsApply() throws {
    let o = LayoutOptions()
    guard let (_, book) = try LayoutTests.novelBook(o) else { return }
    let left = o.margins.left
    let right = Double(o.width) - o.margins.right
    let indent = 1.5 * o.fontSize
    let lines = book.pages.flatMap(\.lines).filter { $0.block > 0 && !$0.text.hasPrefix("CHAPTER") }
    for (k, l) in lines.enumerated() {
      let next = k + 1 < lines.count ? lines[k + 1] : nil
      let lastOfBlock = next?.block != l.block
      let firstOfBlock = k == 0 || lines[k - 1].block != l.block
      #expect(abs(l.rect.x - (firstOfBlock ? left + indent : left)) < 0.01, "\(l.text)")
      if lastOfBlock {
        // Natural width, or shrunk when that is what fits (never past the measure).
        #expect(l.ratio <= 0 && l.rect.maxX <= right + 0.01)
      } else if l.ratio < 4 {
        #expect(abs(l.rect.maxX - right) < 0.5, "\(l.text)")
      }
    }
    // The heading is centred.
    let heading = try #require(book.pages.first?.lines.first)
    #expect(abs((heading.rect.x - left) - (right - heading.rect.maxX)) < 0.5)
  }

  @Test func startAlignmentLeavesTheRaggedEdge() throws {
    var o = LayoutOptions()
    o.align = .start
    guard let (_, book) = try LayoutTests.novelBook(o) else { return }
    #expect(book.pages.flatMap(\.lines).allSatisfy { $0.ratio == 0 })
    #expect(
      book.pages.flatMap(\.lines).contains { $0.rect.maxX < Double(o.width) - o.margins.right - 20 }
    )
  }

  @Test func noHyphenationWhenOff() throws {
    var o = LayoutOptions()
    o.hyphenate = .off
    guard let (_, off) = try LayoutTests.novelBook(o), let (_, on) = try LayoutTests.novelBook()
    else { return }
    #expect(!off.pages.flatMap(\.lines).contains { $0.hyphenated })
    #expect(on.pages.flatMap(\.lines).contains { $0.hyphenated })
  }
}
