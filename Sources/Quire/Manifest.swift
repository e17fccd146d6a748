import Foundation
import QuireIngest
import QuireTypeset

/// `manifest.json` of `quire render` (format "quire-pages/2"; DESIGN.md has the contract).
struct Manifest: Codable, Sendable {
  typealias LayoutInfo = LayoutSummary
  typealias LocationInfo = BookLocation
  typealias WarningInfo = WarningEntry
  struct TOCItem: Codable, Sendable {
    var title: String
    var page: Int?
    var children: [TOCItem]
  }
  struct LineInfo: Codable, Sendable {
    var text: String
    var x: Double, y: Double, width: Double, height: Double
    var block: Int
    var role: String
    var hyphenated: Bool
    var ratio: Double
  }
  struct ImageInfo: Codable, Sendable {
    var x: Double, y: Double, width: Double, height: Double
    var href: String
  }
  struct PageInfo: Codable, Sendable {
    var number: Int
    var file: String?
    var spine: Int
    var href: String
    var start: LocationInfo
    var end: LocationInfo
    var lines: [LineInfo]?
    var images: [ImageInfo]?
  }

  var format = "quire-pages/2"
  var book: BookInfo
  var layout: LayoutInfo
  var pageCount: Int
  var toc: [TOCItem]
  var warnings: [WarningInfo]
  var pages: [PageInfo]

  /// Builds the manifest of a paginated book. `files` maps page numbers to written file
  /// names (pages not rendered in this run have none); `boxes` adds line and image boxes.
  init(book paginated: PaginatedBook, settings: LayoutSettings, files: [Int: String], boxes: Bool) {
    let document = paginated.document
    let records = paginated.records.map(\.page)
    book = BookInfo(document.metadata)
    layout = LayoutInfo(settings, fonts: paginated.fontsUsed, key: paginated.key)
    pageCount = records.count
    let starts = records.map(\.start)
    toc = document.toc.map { Self.tocItem($0, starts: starts) }
    warnings = paginated.diagnostics.entries.map(WarningInfo.init)
    pages = records.map { p in
      PageInfo(
        number: p.number, file: files[p.number], spine: p.spine, href: p.href,
        start: BookLocation(p.start), end: BookLocation(p.end),
        lines: boxes
          ? p.lines.map {
            LineInfo(
              text: $0.text, x: Self.r($0.rect.x), y: Self.r($0.rect.y),
              width: Self.r($0.rect.width),
              height: Self.r($0.rect.height), block: $0.block, role: $0.role.rawValue,
              hyphenated: $0.hyphenated, ratio: Self.r($0.ratio))
          } : nil,
        images: boxes
          ? p.images.map {
            ImageInfo(
              x: Self.r($0.rect.x), y: Self.r($0.rect.y), width: Self.r($0.rect.width),
              height: Self.r($0.rect.height), href: $0.href)
          } : nil)
    }
  }

  /// Page number holding `location`: the last page starting at or before it.
  static func page(for location: Location, starts: [Location]) -> Int? {
    guard !starts.isEmpty else { return nil }
    var lo = 0
    var hi = starts.count - 1
    if location < starts[0] { return 1 }
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if starts[mid] <= location { lo = mid } else { hi = mid - 1 }
    }
    return lo + 1
  }

  static func tocItem(_ e: TOCEntry, starts: [Location]) -> TOCItem {
    TOCItem(
      title: e.title, page: e.location.flatMap { page(for: $0, starts: starts) },
      children: e.children.map { tocItem($0, starts: starts) })
  }

  /// Two decimals: enough for pixels and ratios, and stable text across platforms.
  static func r(_ v: Double) -> Double { (v * 100).rounded() / 100 }

  func encoded() -> Data {
    let enc = JSONEncoder()
    enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? enc.encode(self)) ?? Data()
  }
}
