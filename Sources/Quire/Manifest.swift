import Foundation
import QuireCore
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
    /// "vertical" for a line of a vertical page (top to bottom, tall and narrow); absent for
    /// horizontal lines.
    var orientation: String? = nil
  }
  struct ImageInfo: Codable, Sendable {
    var x: Double, y: Double, width: Double, height: Double
    var href: String
  }
  /// A text block's content box on the page (`BlockBox`): `index` as in `LineInfo.block`,
  /// `tag` the element ("" for an anonymous paragraph), `source` the element's preorder
  /// ordinal in its chapter document (−1 unknown), `fontSize` px, `marker` a list marker,
  /// `note` true for a note set at the page's foot or the chapter's end (absent otherwise),
  /// `inlineX` for a block inside an inline block its x within that box's content box.
  struct BlockInfo: Codable, Sendable {
    var index: Int
    var tag: String
    var source: Int
    var x: Double, y: Double, width: Double, height: Double
    var fontSize: Double
    var marker: String?
    var note: Bool? = nil
    var inlineX: Double? = nil
  }
  /// A block box (`BlockFragment`)'s fragment on the page (`--boxes`): border box and content box.
  struct BoxInfo: Codable, Sendable {
    struct Box: Codable, Sendable {
      var x: Double, y: Double, width: Double, height: Double
    }
    var index: Int
    var tag: String
    /// The `block` number of its lines, when it holds text.
    var text: Int?
    var x: Double, y: Double, width: Double, height: Double
    var content: Box
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
    var blocks: [BlockInfo]?
    /// Block boxes (border and content box of every block-level box, per fragment).
    var boxes: [BoxInfo]?
    /// Formulas (with `--boxes`): ManifestMath.swift.
    var math: [MathInfo]? = nil
    /// Line fragments of decorated inline boxes (with `--boxes`): ManifestMath.swift.
    var inlineBoxes: [InlineBoxInfo]? = nil
    /// The page's `writing-mode` ("vertical-rl", "vertical-lr"); absent for horizontal-tb.
    var writingMode: String? = nil
    /// EPUB rendition (Spreads.swift): "reflowable"/"pre-paginated", the spread side the
    /// item asks for, its orientation.
    var layout: String? = nil
    var spread: String? = nil
    var orientation: String? = nil
  }

  var format = "quire-pages/2"
  var book: BookInfo
  var layout: LayoutInfo
  var pageCount: Int
  var toc: [TOCItem]
  var warnings: [WarningInfo]
  var pages: [PageInfo]
  /// `--spreads`: the spread images and the pages on each side.
  var spreads: [Spread]? = nil

  /// Builds the manifest of a paginated book. `files` maps page numbers to written file
  /// names (pages not rendered in this run have none); `boxes` adds line and image boxes.
  /// Without `pages`, the page list is left empty (`write(_:to:)` streams it).
  init(
    book paginated: PaginatedBook, settings: LayoutSettings, files: [Int: String], boxes: Bool,
    pages withPages: Bool = true
  ) {
    let document = paginated.document
    book = BookInfo(document.metadata)
    layout = LayoutInfo(settings, fonts: paginated.fontsUsed, key: paginated.key)
    pageCount = paginated.records.count
    let starts = paginated.records.map(\.page.start)
    toc = document.toc.map { Self.tocItem($0, starts: starts) }
    warnings = paginated.diagnostics.entries.map(WarningInfo.init)
    pages =
      withPages ? paginated.records.map { Self.pageInfo($0.page, files: files, boxes: boxes) } : []
  }

  /// One page's entry.
  static func pageInfo(_ p: Page, files: [Int: String], boxes: Bool) -> PageInfo {
    var info = plainPageInfo(p, files: files, boxes: boxes)
    if p.writingMode.isVertical {
      info.writingMode = p.writingMode.rawValue
      // Text lines run top to bottom; folios keep horizontal digits (JLREQ §2.6.3).
      if var lines = info.lines {
        for k in lines.indices {
          lines[k].orientation = lines[k].role == "folio" ? "horizontal" : "vertical"
        }
        info.lines = lines
      }
    }
    return info
  }

  /// One page's entry, without the vertical writing fields.
  static func plainPageInfo(_ p: Page, files: [Int: String], boxes: Bool) -> PageInfo {
    var info = pageBoxes(p, files: files, boxes: boxes)
    info.layout = p.rendition?.layout.rawValue
    info.spread = p.rendition?.pageSpread?.rawValue
    info.orientation = p.rendition?.orientation.rawValue
    return info
  }

  static func pageBoxes(_ p: Page, files: [Int: String], boxes: Bool) -> PageInfo {
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
        } : nil,
      blocks: boxes ? p.blocks.map(Self.blockInfo) : nil,
      boxes: boxes ? p.boxes.map(Self.boxInfo) : nil, math: boxes ? Self.mathInfo(p) : nil,
      inlineBoxes: boxes ? Self.inlineBoxInfo(p) : nil)
  }

  static func blockInfo(_ b: BlockBox) -> BlockInfo {
    BlockInfo(
      index: b.index, tag: b.tag, source: b.source, x: r(b.rect.x), y: r(b.rect.y),
      width: r(b.rect.width), height: r(b.rect.height), fontSize: r(b.fontSize), marker: b.marker,
      note: b.note ? true : nil, inlineX: b.inlineX.map(r))
  }

  /// One block fragment's entry.
  static func boxInfo(_ b: BlockFragment) -> BoxInfo {
    BoxInfo(
      index: b.index, tag: b.tag, text: b.textBlock, x: r(b.border.x), y: r(b.border.y),
      width: r(b.border.width), height: r(b.border.height),
      content: BoxInfo.Box(
        x: r(b.content.x), y: r(b.content.y), width: r(b.content.width),
        height: r(b.content.height)))
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

  static var encoder: JSONEncoder {
    let enc = JSONEncoder()
    enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return enc
  }

  func encoded() -> Data { (try? Self.encoder.encode(self)) ?? Data() }

  /// Writes the manifest of `paginated` to `file`, byte for byte what `encoded()` gives for
  /// the full manifest, without holding the page list or its JSON in memory: the rest of the
  /// manifest is encoded with an empty page list, and each page's entry is encoded on its
  /// own, indented to its place (two spaces a level) and spliced into the empty list.
  ///
  /// `encoded` holds entries already encoded (`encode(pageInfo(…))` with the same file
  /// names and `boxes`), by page number: a render's workers encode each page they draw.
  static func write(
    _ paginated: PaginatedBook, settings: LayoutSettings, files: [Int: String], boxes: Bool,
    spreads: [Spread]? = nil, encoded: [Int: Data] = [:], to file: AtomicFile
  ) throws(QuireError) {
    var head = Manifest(
      book: paginated, settings: settings, files: files, boxes: boxes, pages: false)
    head.spreads = spreads
    let records = paginated.records
    try write(
      head: head, pageCount: records.count,
      page: { i throws(QuireError) in
        let page = records[i].page
        if let done = encoded[page.number] { return done }
        return try encode(pageInfo(page, files: files, boxes: boxes))
      }, to: file)
  }

  /// One page's entry as JSON, as the manifest holds it (before indenting).
  static func encode(_ page: PageInfo) throws(QuireError) -> Data {
    guard let json = try? encoder.encode(page) else {
      throw .internalError("manifest: page \(page.number) did not encode")
    }
    return json
  }

  /// Writes `head` (its page list empty) with the encoded entries `page(0..<pageCount)`
  /// (`encode(_:)`) spliced into its page list, as `write(_:settings:files:boxes:to:)`
  /// describes.
  static func write(
    head: Manifest, pageCount: Int, page: (Int) throws(QuireError) -> Data, to file: AtomicFile
  ) throws(QuireError) {
    try write(encodedHead: [UInt8](head.encoded()), pageCount: pageCount, page: page, to: file)
  }

  /// `write(head:pageCount:page:to:)` with the head already encoded (`encoded()`).
  static func write(
    encodedHead text: [UInt8], pageCount: Int, page: (Int) throws(QuireError) -> Data,
    to file: AtomicFile
  ) throws(QuireError) {
    let marker = Array("\"pages\" : [".utf8)
    guard let at = Self.find(marker, in: text),
      let close = text[(at + marker.count)...].firstIndex(of: UInt8(ascii: "]"))
    else { throw .internalError("manifest: no page list in the encoded manifest") }
    do {
      // Written in chunks of about `chunk` bytes: one system call per page cost more than
      // the page's bytes in a cached render of a long book.
      let chunk = 1 << 18
      var out: [UInt8] = []
      out.reserveCapacity(chunk + (chunk >> 2))
      out += text[..<(at + marker.count)]
      for i in 0..<pageCount {
        out += (i == 0 ? "\n" : ",\n").utf8
        appendIndented(try page(i), to: &out)
        if out.count >= chunk {
          try file.write(out)
          out.removeAll(keepingCapacity: true)
        }
      }
      out += (pageCount == 0 ? "" : "\n  ").utf8
      out += text[close...]
      try file.write(out)
    } catch let e as AtomicFileError {
      throw .cannotCreate(path: file.path, reason: e.reason)
    } catch let e as QuireError {
      throw e
    } catch {
      throw .internalError("manifest: \(type(of: error))")
    }
  }

  /// Appends `json` with every line one level deeper (4 spaces); empty lines (an empty
  /// list's) stay empty.
  static func appendIndented(_ json: Data, to out: inout [UInt8]) {
    json.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      var i = 0
      while i < raw.count {
        let newline = memchr(base + i, 0x0A, raw.count - i)
        let end = newline.map { base.distance(to: UnsafeRawPointer($0)) + 1 } ?? raw.count
        if raw[i] != 0x0A { out += "    ".utf8 }
        out += UnsafeRawBufferPointer(rebasing: raw[i..<end])
        i = end
      }
    }
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    for i in 0...(haystack.count - needle.count)
    where haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) {
      return i
    }
    return nil
  }
}
