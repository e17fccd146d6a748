import Foundation
import QuireCore
import QuireIngest
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

/// Invariants of inline layout over every book of the corpus: no missing glyph with the
/// vendored fonts alone (no system fallback), no line is wider than its
/// measure (last lines included: the old "paragraph-final lines stick out past the justified
/// right edge by up to 16 px"), and no line of preformatted text is hyphenated. Each check is
/// also run on deliberately broken input, so it is known to be able to fail.
@Suite("Inline corpus invariants", .serialized)
struct InlineCorpusTests {
  /// Fullwidth punctuation that CJK text may hang past the measure (JLREQ, Kinsoku).
  static let hanging: Set<Character> = ["。", "、", "，", "．", "」", "』", "）", "！", "？", "：", "；"]

  /// Lines past the page's text area, or past the right edge of their block's justified lines
  /// (a block whose lines were stretched or shrunk shows where its measure ends; a line at
  /// the ratio's cap, ±4, may not reach it, and does not count).
  static func linesPastMeasure(_ lines: [LineBox], left: Double, right: Double) -> [LineBox] {
    var justifiedRight: [Int: Double] = [:]
    for l in lines where l.ratio != 0 && abs(l.ratio) < 3.99 && l.role == .text {
      justifiedRight[l.block] = max(justifiedRight[l.block] ?? 0, l.rect.maxX)
    }
    return lines.filter { l in
      guard l.role == .text else { return false }
      if let last = l.text.last, hanging.contains(last) { return false }
      let edge = min(right, justifiedRight[l.block] ?? right)
      return l.rect.x < left - 0.5 || l.rect.maxX > edge + 0.5
    }
  }

  /// Source ranges (spine, offsets) of the preformatted blocks of a document.
  static func preRanges(_ doc: Document) -> [(spine: Int, range: Range<Int>)] {
    var out: [(Int, Range<Int>)] = []
    /// From the first inline's offset to just after the last one's.
    func range(_ b: Block) -> Range<Int>? {
      var lo = Int.max
      var hi = Int.min
      for i in b.inlines {
        switch i {
        case .text(let r):
          lo = min(lo, r.location.offset)
          hi = max(hi, r.location.offset + r.text.unicodeScalars.count)
        case .lineBreak(let l): (lo, hi) = (min(lo, l.offset), max(hi, l.offset + 1))
        case .image(let img):
          (lo, hi) = (min(lo, img.location.offset), max(hi, img.location.offset + 1))
        case .math(let m):
          (lo, hi) = (min(lo, m.location.offset), max(hi, m.location.offset + 1))
        case .inlineBlock(let ib): (lo, hi) = (min(lo, ib.location.offset), max(hi, ib.end))
        }
      }
      return lo < hi ? lo..<hi : nil
    }
    func walk(_ blocks: [Block]) {
      for b in blocks {
        if b.kind == .preformatted || b.element == "pre", let r = range(b) {
          out.append((b.location.spine, r))
        }
        walk(b.children)
      }
    }
    for c in doc.chapters { walk(c.blocks) }
    return out
  }

  /// Hyphenated lines that start inside preformatted text.
  static func hyphenatedPreLines(_ lines: [LineBox], pre: [(spine: Int, range: Range<Int>)])
    -> [LineBox]
  {
    lines.filter { l in
      l.hyphenated
        && pre.contains { $0.spine == l.start.spine && $0.range.contains(l.start.offset) }
    }
  }

  static let books = corpusBooks.filter { $0 != "xiyouji-journey-to-the-west.gb18030.txt" }

  @Test(.enabled(if: corpusPresent, Comment(rawValue: Corpus.missing)), arguments: books)
  func noLineWiderThanItsMeasure(_ name: String) throws {
    var settings = LayoutSettings(pageWidth: 600, pageHeight: 800)
    settings.systemFonts = false  // the vendored fonts alone draw every book (issue #11)
    let book = try EagerBook(corpusBook(name), settings: settings)
    let missing = book.layout.warnings.filter { $0.kind == .missingGlyph }
    #expect(missing.isEmpty, "\(name): \(missing.prefix(3))")
    let m = settings.effectiveMargins
    let left = Double(m.left)
    let right = Double(settings.pageWidth) - Double(m.right)
    let lines = book.layout.pages.flatMap(\.lines)
    let past = Self.linesPastMeasure(lines, left: left, right: right)
    #expect(past.isEmpty, "\(name): \(past.prefix(5).map { "\($0.text) \($0.rect)" })")
    // The check can fail: the same lines against a measure 20 px narrower.
    if name == "moby-dick.epub" {
      #expect(!Self.linesPastMeasure(lines, left: left, right: right - 20).isEmpty)
    }
    let pre = Self.preRanges(book.document)
    #expect(Self.hyphenatedPreLines(lines, pre: pre).isEmpty, "\(name)")
  }

  @Test(.enabled(if: Corpus.has("accessible_epub_3.epub"), Comment(rawValue: Corpus.missing)))
  func preformattedTextIsFoundAndNeverHyphenated() throws {
    let book = try EagerBook(corpusBook("accessible_epub_3.epub"))
    let lines = book.layout.pages.flatMap(\.lines)
    let pre = Self.preRanges(book.document)
    #expect(pre.count > 50)  // the book's code samples
    let inPre = lines.filter { l in
      pre.contains { $0.spine == l.start.spine && $0.range.contains(l.start.offset) }
    }
    #expect(inPre.count > 200)
    #expect(Self.hyphenatedPreLines(lines, pre: pre).isEmpty)
    // The check can fail: the same lines marked hyphenated are all found.
    let marked = inPre.map { l -> LineBox in
      var l = l
      l.hyphenated = true
      return l
    }
    #expect(Self.hyphenatedPreLines(marked, pre: pre).count == inPre.count)
  }

  @Test func aLastLinePastTheJustifiedEdgeIsFound() {
    func line(_ x: Double, _ width: Double, ratio: Double) -> LineBox {
      LineBox(
        text: "words", rect: Rect(x: x, y: 0, width: width, height: 20), block: 7,
        hyphenated: false, ratio: ratio, start: Location(spine: 0, offset: 0),
        end: Location(spine: 0, offset: 5))
    }
    let ok = [line(50, 400, ratio: 0.5), line(50, 400, ratio: -0.2), line(50, 200, ratio: 0)]
    #expect(Self.linesPastMeasure(ok, left: 50, right: 550).isEmpty)
    // The moby-dick bug: a paragraph's last line 16 px past its justified lines.
    let bad = ok + [line(50, 416, ratio: 0)]
    #expect(Self.linesPastMeasure(bad, left: 50, right: 550).count == 1)
  }
}
