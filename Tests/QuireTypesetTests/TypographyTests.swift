import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

/// The typography refinements: letter spacing, CJK punctuation, page-end hyphens.
@Suite struct TypographyTests {
  static let prose =
    "It was the best of times, it was the worst of times, it was the age of wisdom, it was "
    + "the age of foolishness, it was the epoch of belief, it was the epoch of incredulity, "
    + "it was the season of Light, it was the season of Darkness, it was the spring of hope, "
    + "it was the winter of despair, we had everything before us, we had nothing before us."

  /// Justified lines still end exactly at the right margin when their words are letter
  /// spaced, and letter spacing never reorders or overlaps glyphs.
  @Test func letterSpacingKeepsTheMargin() throws {
    var b = DocumentBuilder()
    b.paragraph(TypographyTests.prose)
    b.endChapter()
    var o = LayoutOptions.small
    o.hyphenate = .off
    let book = try Typesetter(document: b.document(), options: o).layoutBook(threads: 1)
    let lines = book.pages.flatMap(\.lines).filter { $0.role == .text }
    #expect(lines.count > 4)
    let right = Double(o.width) - o.margins.right
    var stretched = 0
    for l in lines.dropLast() {
      #expect(abs(l.rect.maxX - right) < 0.05, "\(l.text): \(l.rect.maxX) vs \(right)")
      if l.ratio > 0 { stretched += 1 }
    }
    #expect(stretched > 0)
    for case .glyphs(let run) in book.pages.flatMap(\.items) {
      for k in run.x.indices.dropFirst() { #expect(run.x[k] >= run.x[k - 1] - 0.01) }
    }
  }
}
