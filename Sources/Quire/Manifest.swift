import Foundation

/// `manifest.json` of `quire render` (format "quire-pages/1"; DESIGN.md has the contract).
public struct Manifest: Codable, Sendable {
  public struct BookInfo: Codable, Sendable {
    public var title: String
    public var creators: [String]
    public var language: String?
    public var identifier: String?
    public var direction: String
  }
  public struct LayoutInfo: Codable, Sendable {
    public var width: Int
    public var height: Int
    public var fontSize: Double
    public var margins: [Double]
    public var lineHeight: Double
    public var fonts: [String]
    public var engine: String
    public var key: String
  }
  public struct TOCItem: Codable, Sendable {
    public var title: String
    public var page: Int?
    public var children: [TOCItem]
  }
  public struct LocationInfo: Codable, Sendable {
    public var spine: Int
    public var offset: Int
    init(_ l: Location) {
      spine = l.spine
      offset = l.offset
    }
  }
  public struct LineInfo: Codable, Sendable {
    public var text: String
    public var x: Double, y: Double, width: Double, height: Double
    public var block: Int
    public var role: String
    public var hyphenated: Bool
    public var ratio: Double
  }
  public struct ImageInfo: Codable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double
    public var href: String
  }
  public struct PageInfo: Codable, Sendable {
    public var number: Int
    public var file: String?
    public var spine: Int
    public var href: String
    public var start: LocationInfo
    public var end: LocationInfo
    public var lines: [LineInfo]?
    public var images: [ImageInfo]?
  }

  public var format = "quire-pages/1"
  public var book: BookInfo
  public var layout: LayoutInfo
  public var pageCount: Int
  public var toc: [TOCItem]
  public var warnings: [String]
  public var pages: [PageInfo]

  /// Builds the manifest. `files` maps page numbers to written file names (pages not
  /// rendered in this run have none); `boxes` adds line and image boxes.
  public init(
    document: Document, layout: BookLayout, options: LayoutOptions, files: [Int: String],
    boxes: Bool, warnings: [String]
  ) {
    let m = document.metadata
    book = BookInfo(
      title: m.title, creators: m.creators, language: m.language, identifier: m.identifier,
      direction: m.direction.rawValue)
    self.layout = LayoutInfo(
      width: options.width, height: options.height, fontSize: options.fontSize,
      margins: [
        options.margins.top, options.margins.right, options.margins.bottom, options.margins.left,
      ],
      lineHeight: options.lineHeight, fonts: layout.fonts.faces.map(\.name),
      engine: LayoutKey.engineVersion, key: layout.key.description)
    pageCount = layout.pages.count
    let starts = layout.pages.map(\.start)
    toc = document.toc.map { Self.tocItem($0, starts: starts) }
    self.warnings = warnings
    pages = layout.pages.map { p in
      PageInfo(
        number: p.number, file: files[p.number], spine: p.spine, href: p.href,
        start: LocationInfo(p.start), end: LocationInfo(p.end),
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
  public static func page(for location: Location, starts: [Location]) -> Int? {
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

  public func encoded() -> Data {
    let enc = JSONEncoder()
    enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? enc.encode(self)) ?? Data()
  }
}
