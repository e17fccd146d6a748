import Foundation
import QuireIngest
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

/// Issue #10's break invariants on every corpus book: no heading is split across pages, and
/// no heading ends a page while its chapter goes on (it keeps with the text that follows).
@Suite(.enabled(if: corpusPresent, Comment(rawValue: Corpus.missing)))
struct HeadingBreakCorpusTests {
  /// Each heading's source range: (spine, first offset, end offset).
  static func headings(_ doc: Document) -> [(spine: Int, start: Int, end: Int)] {
    var out: [(spine: Int, start: Int, end: Int)] = []
    func walk(_ blocks: [Block], spine: Int) {
      for b in blocks {
        if case .heading = b.kind, !b.inlines.isEmpty {
          var length = 0
          for i in b.inlines {
            switch i {
            case .text(let r): length += r.text.unicodeScalars.count
            case .lineBreak, .image: length += 1
            }
          }
          out.append((spine, b.location.offset, b.location.offset + length))
        }
        walk(b.children, spine: spine)
      }
    }
    for c in doc.chapters { walk(c.blocks, spine: c.spineIndex) }
    return out
  }

  @Test(arguments: corpusBooks)
  func headingsStayWhole(_ name: String) throws {
    for size in name == "moby-dick.epub" ? [(600, 800), (320, 480)] : [(600, 800)] {
      let book = try EagerBook(
        corpusBook(name), settings: LayoutSettings(pageWidth: size.0, pageHeight: size.1))
      let pages = book.layout.pages
      // Text lines by spine: (page index, line start offset).
      var lines: [Int: [(page: Int, offset: Int)]] = [:]
      for (k, p) in pages.enumerated() {
        for l in p.lines where l.role == .text {
          lines[l.start.spine, default: []].append((k, l.start.offset))
        }
      }
      var multiLine = 0
      for h in Self.headings(book.document) {
        let mine = (lines[h.spine] ?? []).enumerated().filter {
          $0.element.offset >= h.start && $0.element.offset < h.end
        }
        guard let last = mine.last else { continue }
        if mine.count > 1 { multiLine += 1 }
        let heading = "\(name) \(size): heading at \(h.spine):\(h.start)"
        #expect(Set(mine.map(\.element.page)).count == 1, "\(heading) is split across pages")
        // The next text line of the chapter, if any, is on the heading's page.
        let all = lines[h.spine] ?? []
        if last.offset + 1 < all.count {
          #expect(all[last.offset + 1].page == last.element.page, "\(heading) ends its page")
        }
      }
      if name == "moby-dick.epub" || name == "accessible_epub_3.epub" {
        #expect(multiLine > 0, "\(name) \(size): no heading of two lines or more was checked")
      }
    }
  }
}
