import Foundation
import QuireIngest
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

/// Issue #10's break invariants: no heading is split across pages, and no heading ends a
/// page while its chapter goes on (it keeps with the text that follows). The end-to-end
/// corpus test applies `problems` to every corpus book at 600×800 (one layout per book for
/// both); this suite adds Accessible EPUB 3 (many section headings inside chapters) on small
/// pages, where breaks are most constrained. Without the heading rules it fails.
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
            case .lineBreak, .image, .math: length += 1
            case .inlineBlock(let ib): length += ib.end - ib.location.offset
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

  /// The broken rules of a laid-out book, one message each, and how many headings of two
  /// lines or more were checked (so a caller can tell the check was not vacuous).
  static func problems(_ book: EagerBook, name: String) -> (problems: [String], multiLine: Int) {
    // Text lines by spine: (page index, line start offset), in page order.
    var lines: [Int: [(page: Int, offset: Int)]] = [:]
    for (k, p) in book.layout.pages.enumerated() {
      for l in p.lines where l.role == .text {
        lines[l.start.spine, default: []].append((k, l.start.offset))
      }
    }
    var problems: [String] = []
    var multiLine = 0
    for h in headings(book.document) {
      let all = lines[h.spine] ?? []
      let mine = all.indices.filter { all[$0].offset >= h.start && all[$0].offset < h.end }
      guard let last = mine.last else { continue }
      if mine.count > 1 { multiLine += 1 }
      let heading = "\(name): heading at \(h.spine):\(h.start)"
      if Set(mine.map { all[$0].page }).count > 1 {
        problems.append("\(heading) is split across pages")
      }
      if last + 1 < all.count && all[last + 1].page != all[last].page {
        problems.append("\(heading) ends page \(all[last].page + 1) without its text")
      }
    }
    return (problems, multiLine)
  }

  @Test func sectionHeadingsOnSmallPages() throws {
    let book = try EagerBook(
      corpusBook("accessible_epub_3.epub"),
      settings: LayoutSettings(pageWidth: 320, pageHeight: 480))
    let (problems, multiLine) = Self.problems(book, name: "accessible_epub_3 320x480")
    #expect(problems.isEmpty, "\(problems.prefix(5))")
    #expect(multiLine > 5)
  }
}
