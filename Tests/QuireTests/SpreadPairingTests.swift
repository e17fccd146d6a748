// One spread pairing (issue #14): `render --spreads`, `flip --spread` and `quire flipbook`
// (its spread stills, spread turns and the manifest the player follows) pair pages the same
// way — the book's own pairing (Spreads.swift) — for reflowable and pre-paginated books, left
// to right and right to left, odd and even page counts and `--pages A-B` ranges.

import Foundation
import QuireCore
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

@Suite struct SpreadPairingTests {
  static func reflowable(_ count: Int) -> [(number: Int, rendition: PageRendition?)] {
    (1...count).map { (number: $0, rendition: nil) }
  }

  static func sides(_ s: [Spread]) -> [[Int?]] { s.map { [$0.left, $0.right] } }

  /// Reflowable pages: page 1 alone on the recto (right in LTR, left in RTL), then pairs; the
  /// last page alone when the count is even.
  @Test func oddAndEvenCountsBothDirections() {
    let ltr4 = SpreadPlan.pair(Self.reflowable(4), direction: .ltr)
    #expect(Self.sides(ltr4) == [[nil, 1], [2, 3], [4, nil]])
    let ltr5 = SpreadPlan.pair(Self.reflowable(5), direction: .ltr)
    #expect(Self.sides(ltr5) == [[nil, 1], [2, 3], [4, 5]])
    let rtl4 = SpreadPlan.pair(Self.reflowable(4), direction: .rtl)
    #expect(Self.sides(rtl4) == [[1, nil], [3, 2], [nil, 4]])
    let rtl5 = SpreadPlan.pair(Self.reflowable(5), direction: .rtl)
    #expect(Self.sides(rtl5) == [[1, nil], [3, 2], [5, 4]])
    #expect(ltr5.map(\.number) == [1, 2, 3] && rtl4.map(\.number) == [1, 2, 3])
    #expect(rtl5[1].readingOrder(rtl: true) == [2, 3] && ltr4[0].readingOrder(rtl: false) == [1])
  }

  /// A page range keeps the book's pairing and numbers: pages outside it are blank sides,
  /// spreads without a shown page are dropped.
  @Test func aRangeKeepsTheBooksPairingAndNumbers() {
    let inner = SpreadPlan.pair(
      Self.reflowable(9), direction: .ltr, shown: { (3...6).contains($0) })
    #expect(Self.sides(inner) == [[nil, 3], [4, 5], [6, nil]])
    #expect(inner.map(\.number) == [2, 3, 4])
    let aligned = SpreadPlan.pair(
      Self.reflowable(9), direction: .rtl, shown: { (2...5).contains($0) })
    #expect(Self.sides(aligned) == [[3, 2], [5, 4]] && aligned.map(\.number) == [2, 3])
    let one = SpreadPlan.pair(Self.reflowable(9), direction: .ltr, shown: { $0 == 9 })
    #expect(Self.sides(one) == [[nil, 9]] && one.map(\.number) == [5])
    #expect(SpreadPlan.pair(Self.reflowable(3), direction: .ltr, shown: { _ in false }).isEmpty)
  }

  /// Pre-paginated pages: `spread-none` and `page-spread-center` alone, `page-spread-right`
  /// on the right even when the left is empty, reflowable pages after them pairing on.
  @Test func prePaginatedSidesThenReflowable() {
    var none = PageRendition(layout: .prePaginated)
    none.spread = .none
    let pages: [(number: Int, rendition: PageRendition?)] = [
      (1, none), (2, PageRendition(layout: .prePaginated, pageSpread: .right)),
      (3, PageRendition(layout: .reflowable)), (4, nil), (5, nil),
    ]
    #expect(
      Self.sides(SpreadPlan.pair(pages, direction: .ltr)) == [
        [1, nil], [nil, 2], [3, 4], [5, nil],
      ])
    #expect(SpreadPlan.digits(SpreadPlan.pair(Self.reflowable(3), direction: .ltr)) == 4)
  }

  /// The same spreads, sides, numbers, file names and pixels from `render --spreads`,
  /// `quire flipbook` (stills, spread turns and manifest) and `flip --spread`, for a
  /// reflowable LTR book, a reflowable RTL book, the pre-paginated fixture (spread-none,
  /// page-spread-right) and a range of each.
  @Test(arguments: [
    (FlipbookFixture.ltr, "1-5"), (FlipbookFixture.ltr, "3-7"), (FlipbookFixture.rtl, "1-4"),
    (FlipbookFixture.rtl, "2-5"), (FixedLayoutFixture.book, "1-5"),
  ])
  func everyCommandPairsAlike(book: String, range: String) throws {
    guard quireExecutable != nil else { return }
    let dir = temporaryFolder(
      "pairing-" + URL(fileURLWithPath: book).deletingPathExtension().lastPathComponent + "-"
        + range)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let size = ["--size", "200x260"]
    let render = try runQuire(
      ["render", book, "-o", dir + "/pages", "--spreads", "--color", "rgb", "--pages", range]
        + size)
    try #require(render.status == 0, "\(render.stderr)")
    // Again, with the layout cache warm: the cached path pairs the same spreads.
    let again = try runQuire(
      ["render", book, "-o", dir + "/again", "--spreads", "--color", "rgb", "--pages", range]
        + size)
    try #require(again.status == 0, "\(again.stderr)")
    let first = try #require(try json(dir + "/pages/manifest.json")["spreads"] as? [[String: Any]])
    let second = try #require(try json(dir + "/again/manifest.json")["spreads"] as? [[String: Any]])
    #expect(first.map { $0["file"] as? String } == second.map { $0["file"] as? String })
    let flipbook = try runQuire(
      ["flipbook", book, "-o", dir + "/book", "--pages", range, "--frames", "3"] + size)
    try #require(flipbook.status == 0, "\(flipbook.stderr)")
    let rendered = try #require(
      try json(dir + "/pages/manifest.json")["spreads"] as? [[String: Any]])
    let manifest = try json(dir + "/book/flipbook.json")
    let stills = try #require(manifest["spreads"] as? [[String: Any]])
    let key = { (s: [String: Any]) in
      "\(s["number"] as? Int ?? 0):\(s["left"] as? Int ?? 0)|\(s["right"] as? Int ?? 0)"
    }
    #expect(stills.map(key) == rendered.map(key), "\(book) \(range)")
    #expect(stills.count >= 2)
    for (a, b) in zip(stills, rendered) {
      let file = try #require(a["file"] as? String)
      #expect(file == b["file"] as? String)
      #expect(try image(dir + "/book/" + file) == image(dir + "/pages/" + file), "\(file)")
    }
    // A spread turn per neighbouring pair, from and to their first pages in reading order.
    let turns = try #require(manifest["spreadTurns"] as? [[String: Any]])
    #expect(turns.map { $0["from"] as? Int } == stills.dropLast().map { $0["from"] as? Int })
    #expect(turns.map { $0["to"] as? Int } == stills.dropFirst().map { $0["from"] as? Int })
    #expect(
      turns.map { $0["file"] as? String }
        == stills.dropLast().map {
          ($0["file"] as? String)?.replacingOccurrences(of: ".png", with: "-turn.png")
        })
    // `flip --spread` from the first pair of neighbouring spreads the range shows whole
    // starts on the first one's still and ends on the second one's.
    let whole = try PagedBook(
      contentsOf: URL(fileURLWithPath: book),
      layout: LayoutSettings(pageWidth: 200, pageHeight: 260)
    ).spreads().map { "\($0.number):\($0.left ?? 0)|\($0.right ?? 0)" }
    let shown = stills.map(key)
    guard
      let k = shown.indices.dropLast().first(where: {
        whole.contains(shown[$0]) && whole.contains(shown[$0 + 1])
      }), let page = stills[k]["from"] as? Int
    else {
      Issue.record("\(book) \(range): no two whole neighbouring spreads")
      return
    }
    let flip = try runQuire(
      ["flip", book, "--page", String(page), "--spread", "--frames", "3", "-o", dir + "/turn"]
        + size)
    try #require(flip.status == 0, "\(flip.stderr)")
    let still = { (i: Int) throws -> PixelBuffer in
      try image(dir + "/pages/" + (stills[i]["file"] as? String ?? ""))
    }
    #expect(try image(dir + "/turn/frame-0001.png") == still(k), "\(book) \(range) page \(page)")
    #expect(try image(dir + "/turn/frame-0003.png") == still(k + 1), "\(book) \(range)")
  }

  private func json(_ path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  private func image(_ path: String) throws -> PixelBuffer {
    try PNGCodec.decode(try Data(contentsOf: URL(fileURLWithPath: path))).converted(to: .rgba8)
  }
}
