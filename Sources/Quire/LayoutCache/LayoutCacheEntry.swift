// LayoutCacheEntry: what a later run needs to skip laying a book out, and its file format.
//
// Contents: the manifest's head (book facts, layout summary with the fonts used and the
// layout key, TOC with page numbers), the ingest and layout diagnostics (raster warnings are
// not kept: they belong to the pages a run draws, and each run adds its own), per chapter its
// first page, page count and the fonts its pages use, and every page's manifest entry (number,
// spine, href, start/end Locations; with `boxes` also its lines, images and block boxes).
// A render of page N lays out only the chapter that holds it, numbered from the chapter's
// first page, and checks it against the entry before drawing.
//
// File format: a 24-byte header, then three sections.
//
//     0  8  magic "QUIRELC\n"
//     8  4  format version, little-endian (2)
//    12  4  CRC-32 of the payload, little-endian
//    16  8  payload length in bytes, little-endian
//    24  …  payload:
//             8  head length H; H bytes: the head as JSON (everything but the pages, with
//                the pages' distinct hrefs)
//             8  page count N; N × 48 bytes: the page index, per page its spine, href (index
//                into the head's hrefs), start spine and offset, end spine and offset, each
//                a little-endian 64-bit integer (the number is the position)
//             N × (8 length L, L bytes): each page's manifest entry, as the manifest
//                writes it (`Manifest.encode`), without a file name
//
// The header makes truncation (length) and flipped bits (CRC-32, libdeflate's) visible before
// any decoder sees the bytes; anything that does not check out, decode, or name the key asked
// for is a miss, and the entry is rebuilt. The head and the manifest entries are JSON because
// they are the manifest's own Codable types, so cached and fresh manifests are encoded by the
// same code (byte-identical output); the page entries are kept as their encoded bytes, so a
// cached render copies them into its manifest and decodes only the few it drew (to add
// their file names). The page index repeats, in binary, exactly what
// `paginate` reports per page (its contract, not the manifest's): Swift's JSON decoder spends
// ~650 instructions a byte, so decoding moby-dick's 110 KB of page entries cost 72 M
// instructions — more than the rest of a cached `paginate` after the process start. A
// `paginate` reads the head and the index; a render reads the entries' bytes too. Rejected: a binary record of every manifest field — a second
// encoding of the whole contract to keep in step, where one of five fields is enough.

import CDeflate
import Foundation
import QuireCore
import QuireTypeset

/// One book's persisted layout.
struct LayoutCacheEntry: Sendable {
  /// One chapter's place in the page sequence.
  struct Chapter: Codable, Sendable, Equatable {
    /// Its index among the chapters Quire made (a page's `spine`).
    var spine: Int
    /// The number of its first page.
    var firstPage: Int
    /// How many pages it has.
    var pageCount: Int
    /// The names of the fonts its pages use, in first-use order.
    var fonts: [String]
  }

  /// The key it was stored under (`LayoutCacheKey.digest`).
  var key: String
  var book: BookInfo
  var layout: LayoutSummary
  var toc: [Manifest.TOCItem]
  /// Ingest and layout diagnostics (no raster ones).
  var diagnostics: DiagnosticLog
  var chapters: [Chapter]
  /// Whether `pages` hold each page's lines, images and boxes.
  var boxes: Bool
  /// Every page as `paginate` reports it.
  var index: [PageMap.Entry]
  /// Every page's manifest entry, without a file name, encoded as the manifest writes it
  /// (`Manifest.encode(_:)`); empty when the entry was read without them
  /// (`LayoutCacheFile.decode(_:pages:)`).
  var pages: [Data]

  /// The entry of a completely paginated book, nil if a page entry does not encode.
  init?(_ paginated: PaginatedBook, settings: LayoutSettings, key: LayoutCacheKey, boxes: Bool) {
    let head = Manifest(book: paginated, settings: settings, files: [:], boxes: boxes, pages: false)
    self.key = key.digest
    book = head.book
    layout = head.layout
    toc = head.toc
    diagnostics = paginated.layoutDiagnostics
    self.boxes = boxes
    let infos = paginated.records.map { Manifest.pageInfo($0.page, files: [:], boxes: boxes) }
    var pages: [Data] = []
    pages.reserveCapacity(infos.count)
    for info in infos {
      guard let json = try? Manifest.encode(info) else { return nil }
      pages.append(json)
    }
    self.pages = pages
    index = infos.map {
      PageMap.Entry(number: $0.number, spine: $0.spine, href: $0.href, start: $0.start, end: $0.end)
    }
    chapters = Self.chapters(paginated.records)
  }

  /// The chapters of a book's pages, with the fonts each one's pages use.
  private static func chapters(_ records: [PageRecord]) -> [Chapter] {
    var chapters: [Chapter] = []
    for record in records {
      let names = record.faces.map(\.name)
      if let last = chapters.last, last.spine == record.page.spine {
        chapters[chapters.count - 1].pageCount += 1
        for name in names where !last.fonts.contains(name) {
          chapters[chapters.count - 1].fonts.append(name)
        }
      } else {
        chapters.append(
          Chapter(spine: record.page.spine, firstPage: record.page.number, pageCount: 1, fonts: []))
        chapters[chapters.count - 1].fonts = names.reduce(into: []) {
          if !$0.contains($1) { $0.append($1) }
        }
      }
    }
    return chapters
  }

  /// The chapter holding page `number`.
  func chapter(holding number: Int) -> Chapter? {
    var lo = 0
    var hi = chapters.count - 1
    while lo <= hi {
      let mid = (lo + hi) / 2
      let c = chapters[mid]
      if number < c.firstPage {
        hi = mid - 1
      } else if number >= c.firstPage + c.pageCount {
        lo = mid + 1
      } else {
        return c
      }
    }
    return nil
  }

  /// Whether the chapters tile the pages 1…N in order, every page is numbered in place and
  /// the manifest entries (when read) are one per page (what the cached paths rely on; a
  /// decoded entry that is not is a miss).
  var isConsistent: Bool {
    var next = 1
    for c in chapters {
      guard c.firstPage == next, c.pageCount >= 1 else { return false }
      next += c.pageCount
    }
    guard next == index.count + 1 else { return false }
    for (i, p) in index.enumerated() where p.number != i + 1 { return false }
    return pages.isEmpty || pages.count == index.count
  }
}

/// The entry's file format (see the essay above).
enum LayoutCacheFile {
  static let magic = Array("QUIRELC\n".utf8)
  static let version: UInt32 = 2
  static let headerSize = 24
  /// Bytes per page in the page index.
  static let indexRecordSize = 48

  /// What the head section holds: the entry but its pages, and the pages' hrefs.
  struct Head: Codable {
    var key: String
    var book: BookInfo
    var layout: LayoutSummary
    var toc: [Manifest.TOCItem]
    var diagnostics: DiagnosticLog
    var chapters: [LayoutCacheEntry.Chapter]
    var boxes: Bool
    var hrefs: [String]
  }

  /// The file bytes of `entry`.
  static func encode(_ entry: LayoutCacheEntry) -> [UInt8]? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var hrefs: [String] = []
    var hrefIndex: [String: Int] = [:]
    for p in entry.index where hrefIndex[p.href] == nil {
      hrefIndex[p.href] = hrefs.count
      hrefs.append(p.href)
    }
    let head = Head(
      key: entry.key, book: entry.book, layout: entry.layout, toc: entry.toc,
      diagnostics: entry.diagnostics, chapters: entry.chapters, boxes: entry.boxes, hrefs: hrefs)
    guard entry.pages.count == entry.index.count, let headJSON = try? encoder.encode(head)
    else { return nil }
    let pageBytes = entry.pages.reduce(0) { $0 + 8 + $1.count }
    var payload: [UInt8] = []
    payload.reserveCapacity(16 + headJSON.count + entry.index.count * indexRecordSize + pageBytes)
    append(&payload, UInt64(headJSON.count), bytes: 8)
    payload += headJSON
    append(&payload, UInt64(entry.index.count), bytes: 8)
    for p in entry.index {
      for v in [
        p.spine, hrefIndex[p.href] ?? 0, p.start.spine, p.start.offset, p.end.spine, p.end.offset,
      ] {
        append(&payload, UInt64(bitPattern: Int64(v)), bytes: 8)
      }
    }
    for json in entry.pages {
      append(&payload, UInt64(json.count), bytes: 8)
      payload += json
    }
    var out = magic
    out.reserveCapacity(headerSize + payload.count)
    append(&out, UInt64(version), bytes: 4)
    append(&out, UInt64(crc(payload)), bytes: 4)
    append(&out, UInt64(payload.count), bytes: 8)
    out += payload
    return out
  }

  /// The entry in `bytes`, nil unless the header, checksum and sections all check out;
  /// with `pages` false, the manifest entries are not read (`pages` stays empty).
  static func decode(_ bytes: Data, pages: Bool = true) -> LayoutCacheEntry? {
    guard bytes.count >= headerSize, bytes.prefix(8).elementsEqual(magic),
      read(bytes, at: 8, bytes: 4) == UInt64(version)
    else { return nil }
    let length = read(bytes, at: 16, bytes: 8)
    guard length == UInt64(bytes.count - headerSize),
      read(bytes, at: 12, bytes: 4) == UInt64(crc(bytes.dropFirst(headerSize)))
    else { return nil }
    var at = headerSize
    guard let head: Head = section(bytes, &at),
      let index = pageIndex(bytes, &at, hrefs: head.hrefs)
    else { return nil }
    var entryPages: [Data] = []
    if pages {
      guard let read = pageEntries(bytes, at, count: index.count) else { return nil }
      entryPages = read
    }
    let entry = LayoutCacheEntry(head: head, index: index, pages: entryPages)
    return entry.isConsistent ? entry : nil
  }

  /// The length-prefixed JSON section at `at`, which moves past it.
  private static func section<T: Decodable>(_ bytes: Data, _ at: inout Int) -> T? {
    guard bytes.count - at >= 8 else { return nil }
    let length = read(bytes, at: at, bytes: 8)
    guard length <= UInt64(bytes.count - at - 8) else { return nil }
    let start = bytes.startIndex + at + 8
    at += 8 + Int(length)
    return try? JSONDecoder().decode(T.self, from: bytes[start..<start + Int(length)])
  }

  /// The `count` length-prefixed page entries from `at` to the end of `bytes`; nil unless
  /// they fill it exactly.
  private static func pageEntries(_ bytes: Data, _ start: Int, count: Int) -> [Data]? {
    var at = start
    var pages: [Data] = []
    pages.reserveCapacity(count)
    for _ in 0..<count {
      guard bytes.count - at >= 8 else { return nil }
      let length = read(bytes, at: at, bytes: 8)
      guard length <= UInt64(bytes.count - at - 8) else { return nil }
      let from = bytes.startIndex + at + 8
      pages.append(Data(bytes[from..<from + Int(length)]))
      at += 8 + Int(length)
    }
    return at == bytes.count ? pages : nil
  }

  /// The page index at `at`, which moves past it; nil when it does not fit the bytes or
  /// names an href the head does not have.
  private static func pageIndex(_ bytes: Data, _ at: inout Int, hrefs: [String]) -> [PageMap.Entry]?
  {
    guard bytes.count - at >= 8 else { return nil }
    let count = read(bytes, at: at, bytes: 8)
    at += 8
    guard count <= UInt64((bytes.count - at) / indexRecordSize) else { return nil }
    let records = bytes.dropFirst(at).prefix(Int(count) * indexRecordSize)
    at += Int(count) * indexRecordSize
    return records.withUnsafeBytes { raw -> [PageMap.Entry]? in
      var index: [PageMap.Entry] = []
      index.reserveCapacity(Int(count))
      for i in 0..<Int(count) {
        func field(_ k: Int) -> Int {
          Int(
            Int64(
              littleEndian: raw.loadUnaligned(
                fromByteOffset: i * indexRecordSize + 8 * k, as: Int64.self)))
        }
        let href = field(1)
        guard hrefs.indices.contains(href) else { return nil }
        index.append(
          PageMap.Entry(
            number: i + 1, spine: field(0), href: hrefs[href],
            start: BookLocation(spine: field(2), offset: field(3)),
            end: BookLocation(spine: field(4), offset: field(5))))
      }
      return index
    }
  }

  static func crc(_ data: some DataProtocol & ContiguousBytes) -> UInt32 {
    data.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
  }

  private static func append(_ out: inout [UInt8], _ value: UInt64, bytes: Int) {
    for i in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
  }

  private static func read(_ data: Data, at offset: Int, bytes: Int) -> UInt64 {
    var v: UInt64 = 0
    let base = data.startIndex + offset
    for i in 0..<bytes { v |= UInt64(data[base + i]) << (8 * UInt64(i)) }
    return v
  }
}

extension LayoutCacheEntry {
  /// An entry from its decoded sections.
  fileprivate init(head: LayoutCacheFile.Head, index: [PageMap.Entry], pages: [Data]) {
    key = head.key
    book = head.book
    layout = head.layout
    toc = head.toc
    diagnostics = head.diagnostics
    chapters = head.chapters
    boxes = head.boxes
    self.index = index
    self.pages = pages
  }
}
