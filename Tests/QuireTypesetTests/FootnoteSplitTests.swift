import QuireCore
import Testing

@testable import QuireTypeset

/// The page splitter with footnotes (Pagination/FootnoteSplit.swift).
@Suite struct FootnoteSplitTests {
  static func body(_ count: Int, blockSize: Int = 1) -> [SplitLine] {
    (0..<count).map { SplitLine(height: 10, block: $0 / blockSize) }
  }
  /// `count` note lines of note `note`, 5 px each.
  static func note(_ count: Int, _ note: Int) -> [SplitLine] {
    (0..<count).map { _ in SplitLine(height: 5, block: note) }
  }

  @Test func shortNoteSharesItsReferencesPage() {
    // 10 body lines, pages of 50: a 2-line note (10 px + 5 px rule) anchored at line 2.
    let pages = PageSplitter().split(
      Self.body(10), notes: Self.note(2, 0), anchors: [2, 2], separator: 5,
      pageHeight: { _ in 50 })
    #expect(pages.first == FootedPage(body: 0..<3, foot: 0..<2))
    #expect(pages.map(\.body.count).reduce(0, +) == 10)
  }

  @Test func longNoteCarriesOverAndTheTextKeepsFlowing() {
    // A 40-line note (200 px) anchored at line 1; pages of 100 px.
    let pages = PageSplitter().split(
      Self.body(30), notes: Self.note(40, 0), anchors: Array(repeating: 1, count: 40),
      separator: 5, pageHeight: { _ in 100 })
    // The note starts on page 1 with at least its first 2 lines.
    #expect(pages[0].body.contains(1) && pages[0].foot.count >= 2)
    // While it continues, every page still holds at least half a page of text.
    for p in pages where !p.body.isEmpty && p.body.upperBound < 30 {
      #expect(p.body.count >= 5, "\(p)")
    }
    #expect(pages.flatMap { Array($0.foot) } == Array(0..<40))
    #expect(pages.flatMap { Array($0.body) } == Array(0..<30))
  }

  @Test func laterNotesWaitForACarriedOne() {
    // Note 0 (40 lines) at line 1, note 1 (2 lines) at line 12: note 1 follows note 0.
    let notes = Self.note(40, 0) + Self.note(2, 1)
    let anchors = Array(repeating: 1, count: 40) + [12, 12]
    let pages = PageSplitter().split(
      Self.body(30), notes: notes, anchors: anchors, separator: 5, pageHeight: { _ in 100 })
    #expect(pages.flatMap { Array($0.foot) } == Array(0..<42))
    for p in pages where p.body.upperBound < 30 { #expect(p.body.count >= 5, "\(p)") }
  }

  @Test func notesOnlyPagesFinishTheChapter() {
    let pages = PageSplitter().split(
      Self.body(2), notes: Self.note(50, 0), anchors: Array(repeating: 1, count: 50),
      separator: 5, pageHeight: { _ in 100 })
    #expect(pages.flatMap { Array($0.foot) } == Array(0..<50))
    #expect(pages.last?.body.isEmpty == true)
  }

  @Test func randomChaptersCoverEverythingInOrder() {
    var rng = SplitMix64(seed: 7)
    for trial in 0..<300 {
      let n = Int.random(in: 0...60, using: &rng)
      let lines = (0..<n).map { _ in
        SplitLine(
          height: Double.random(
            in: 1...(Int.random(in: 0..<20, using: &rng) == 0 ? 300 : 30),
            using: &rng),
          breakBefore: Int.random(in: 0..<15, using: &rng) == 0 ? .always : .auto,
          keepWithNext: Int.random(in: 0..<10, using: &rng) == 0,
          block: Int.random(in: 0..<4, using: &rng), group: nil)
      }
      var notes: [SplitLine] = []
      var anchors: [Int] = []
      var anchor = 0
      for k in 0..<Int.random(in: 0...8, using: &rng) {
        anchor = min(max(0, n - 1), anchor + Int.random(in: 0...10, using: &rng))
        for _ in 0..<Int.random(in: 1...30, using: &rng) {
          notes.append(SplitLine(height: Double.random(in: 1...40, using: &rng), block: k))
          anchors.append(anchor)
        }
      }
      let height = Double.random(in: 20...200, using: &rng)
      let pages = PageSplitter().split(
        lines, notes: notes, anchors: anchors, separator: 4, pageHeight: { _ in height })
      #expect(pages.flatMap { Array($0.body) } == Array(0..<n), "trial \(trial)")
      #expect(pages.flatMap { Array($0.foot) } == Array(0..<notes.count), "trial \(trial)")
      #expect(pages.allSatisfy { !$0.body.isEmpty || !$0.foot.isEmpty })
      // No note line comes before the page of its anchor.
      var bodyPage = [Int](repeating: 0, count: n)
      for (k, p) in pages.enumerated() { for i in p.body { bodyPage[i] = k } }
      for (k, p) in pages.enumerated() {
        for i in p.foot where n > 0 { #expect(bodyPage[anchors[i]] <= k, "trial \(trial)") }
      }
    }
  }
}
