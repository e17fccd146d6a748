// Outside list markers on the page (issue #10, CSS 2.1 §12.5.1): a marker hangs left of its
// item's text; one longer than the room between the page's edge and the text starts at the
// page's edge, so no glyph of it is lost past the edge.

import Foundation
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite struct ListMarkerTests {
  func book(_ body: String, name: String) throws -> EagerBook {
    let url = try writeXHTMLChapter(body, folder: "markers", name: name)
    return try EagerBook(url.path, settings: LayoutSettings(pageWidth: 600, pageHeight: 800))
  }

  /// The glyph runs of a page that lie left of every text line: the markers.
  static func markerRuns(_ page: Page) -> [GlyphRun] {
    let textLeft = page.lines.map(\.rect.x).min() ?? 0
    return page.items.compactMap {
      if case .glyphs(let run) = $0, let x = run.x.first, Double(x) < textLeft - 1 { return run }
      return nil
    }
  }

  @Test func shortMarkersHangLeftOfTheText() throws {
    let page = try #require(
      try book("<ol><li>one</li><li>two</li></ol>", name: "short").layout.pages.first)
    let runs = Self.markerRuns(page)
    #expect(runs.count == 2)
    let text = try #require(page.lines.first)
    // "1." ends 0.4 em left of the text (50 px margin + 40 px list padding).
    for run in runs { #expect(run.x.allSatisfy { $0 > 50 && Double($0) < text.rect.x - 6 }) }
  }

  @Test func longMarkersStartAtThePageEdge() throws {
    let page = try #require(
      try book(
        "<ol style=\"list-style-type: upper-roman\" start=\"3888\"><li>long</li><li>more</li></ol>"
          + "<ol style=\"font-size: 3em\" start=\"123456789\"><li>big</li></ol>", name: "long"
      ).layout.pages.first)
    let runs = Self.markerRuns(page)
    #expect(runs.count == 3)
    // MMMDCCCLXXXVIII. (16 glyphs) and 123456789. at 48 px: wider than the 90 px left of
    // their text; before, they began at negative x and lost their first glyphs.
    for run in runs {
      #expect(run.x.count >= 10)
      #expect(run.x.allSatisfy { $0 >= 0 }, "\(run.x)")
    }
    #expect(runs.contains { $0.x.first == 0 })
  }
}
