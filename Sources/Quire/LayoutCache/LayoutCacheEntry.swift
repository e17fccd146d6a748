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
// File format: a 24-byte header, then the sections.
//
//     0  8  magic "QUIRELC\n"
//     8  4  format version, little-endian (4)
//    12  4  CRC-32 of the payload, little-endian
//    16  8  payload length in bytes, little-endian
//    24  …  payload, every integer a little-endian 64-bit one:
//             head length H; H bytes: the head as JSON (key, book facts, layout summary,
//               diagnostics, boxes)
//             the pages' distinct hrefs, then the chapters' distinct font names: each a
//               count, then per string its length and UTF-8 bytes
//             chapter count C; per chapter its spine, first page, page count, font count F
//               and F indices into the font names
//             TOC length T; T bytes: the TOC as JSON (`[Manifest.TOCItem]`)
//             manifest head length M; M bytes: the manifest with an empty page list and the
//               entry's diagnostics, as `Manifest.encoded()` writes it
//             page count N; N × 48 bytes: the page index, per page its spine, href (index
//               into the hrefs), start spine and offset, end spine and offset (the number is
//               the position)
//             checkpoint section length K; K bytes: per page where its chapter's layout
//               can resume (CheckpointSection.swift)
//             N × (length L, L bytes): each page's manifest entry, as the manifest writes it
//               (`Manifest.encode`), without a file name
//
// The header makes truncation (length) and flipped bits (CRC-32, libdeflate's) visible before
// any decoder sees the bytes; anything that does not check out, decode, or name the key asked
// for is a miss, and the entry is rebuilt. JSON is kept for what is the manifest's own
// Codable types, so cached and fresh manifests are encoded by the same code (byte-identical
// output), and only where it is small or read rarely: Swift's JSON decoder spends ~500
// instructions a byte. So the page entries are kept as their encoded bytes (a cached render
// copies them into its manifest and decodes only the few it drew, to add their file names);
// the page index repeats in binary what `paginate` reports per page (its contract, not the
// manifest's); hrefs and chapters are binary (moby-dick's were 15 KB of the 24 KB head); the
// TOC is decoded only when a manifest head must be encoded again; and the manifest head is
// stored encoded, so a cached render that adds no warning of its own writes it as it is. A
// `paginate` reads the head, the strings, the chapters and the index; a render reads the
// manifest head and the page entries too. Rejected: a binary record of every manifest field
// — a second encoding of the whole contract to keep in step.

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
  /// The table of contents as JSON (`[Manifest.TOCItem]`), decoded by `toc` when needed.
  var tocJSON: Data
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
  /// Per page, where its chapter's layout can resume (`PageRecord.checkpoint`); empty when
  /// the entry was read without its page entries.
  var checkpoints: [FlowCheckpoint?] = []
  /// The manifest's head (empty page list, `diagnostics` as its warnings) as read from the
  /// entry's file: what a cached render that adds no warning writes. nil for an entry not
  /// read from a file; a stored entry's is always encoded again from its fields.
  var manifestHead: Data? = nil

  /// The table of contents, nil when `tocJSON` does not decode.
  var toc: [Manifest.TOCItem]? {
    try? JSONDecoder().decode([Manifest.TOCItem].self, from: tocJSON)
  }

  /// The entry of a completely paginated book, nil if a page entry does not encode.
  init?(_ paginated: PaginatedBook, settings: LayoutSettings, key: LayoutCacheKey, boxes: Bool) {
    let head = Manifest(book: paginated, settings: settings, files: [:], boxes: boxes, pages: false)
    self.key = key.digest
    book = head.book
    layout = head.layout
    guard let toc = try? LayoutCacheFile.jsonEncoder.encode(head.toc) else { return nil }
    tocJSON = toc
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
    checkpoints = paginated.records.map(\.checkpoint)
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
    return (pages.isEmpty || pages.count == index.count)
      && (checkpoints.isEmpty || checkpoints.count == index.count)
  }
}

/// The entry's file format (see the essay above).
enum LayoutCacheFile {
  static let magic = Array("QUIRELC\n".utf8)
  static let version: UInt32 = 4
  static let headerSize = 24
  /// Bytes per page in the page index.
  static let indexRecordSize = 48

  /// What the JSON head holds.
  struct Head: Codable {
    var key: String
    var book: BookInfo
    var layout: LayoutSummary
    var diagnostics: DiagnosticLog
    var boxes: Bool
  }

  static var jsonEncoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// The file bytes of `entry`; its manifest head is encoded again from its fields.
  static func encode(_ entry: LayoutCacheEntry) -> [UInt8]? {
    let hrefs = distinct(entry.index.map(\.href))
    let fonts = distinct(entry.chapters.flatMap(\.fonts))
    let head = Head(
      key: entry.key, book: entry.book, layout: entry.layout, diagnostics: entry.diagnostics,
      boxes: entry.boxes)
    guard entry.pages.count == entry.index.count,
      entry.checkpoints.count == entry.index.count, let headJSON = try? jsonEncoder.encode(head),
      let manifestHead = Manifest(cached: entry, diagnostics: entry.diagnostics)?.encoded()
    else { return nil }
    var payload = Writer()
    payload.block(headJSON)
    payload.strings(hrefs.list)
    payload.strings(fonts.list)
    payload.int(entry.chapters.count)
    for c in entry.chapters {
      for v in [c.spine, c.firstPage, c.pageCount, c.fonts.count] { payload.int(v) }
      for name in c.fonts { payload.int(fonts.index[name] ?? 0) }
    }
    payload.block(entry.tocJSON)
    payload.block(manifestHead)
    payload.int(entry.index.count)
    for p in entry.index {
      for v in [
        p.spine, hrefs.index[p.href] ?? 0, p.start.spine, p.start.offset, p.end.spine,
        p.end.offset,
      ] {
        payload.int(v)
      }
    }
    payload.block(CheckpointSection.encode(entry.checkpoints))
    for json in entry.pages { payload.block(json) }
    var out = magic
    out.reserveCapacity(headerSize + payload.bytes.count)
    append(&out, UInt64(version), bytes: 4)
    append(&out, UInt64(crc(payload.bytes)), bytes: 4)
    append(&out, UInt64(payload.bytes.count), bytes: 8)
    out += payload.bytes
    return out
  }

  /// The distinct strings of `all` in first-seen order, and their positions.
  private static func distinct(_ all: [String]) -> (list: [String], index: [String: Int]) {
    var list: [String] = []
    var index: [String: Int] = [:]
    for s in all where index[s] == nil {
      index[s] = list.count
      list.append(s)
    }
    return (list, index)
  }

  /// The payload being written.
  struct Writer {
    var bytes: [UInt8] = []
    mutating func int(_ v: Int) {
      LayoutCacheFile.append(&bytes, UInt64(bitPattern: Int64(v)), bytes: 8)
    }
    mutating func block(_ data: some Collection<UInt8>) {
      int(data.count)
      bytes += data
    }
    mutating func strings(_ list: [String]) {
      int(list.count)
      for s in list { block(Array(s.utf8)) }
    }
  }

  /// The entry in `bytes`, nil unless the header, checksum and sections all check out;
  /// with `pages` false, the manifest head and entries are not read (`pages` stays empty).
  static func decode(_ bytes: Data, pages: Bool = true) -> LayoutCacheEntry? {
    guard bytes.count >= headerSize, bytes.prefix(8).elementsEqual(magic),
      read(bytes, at: 8, bytes: 4) == UInt64(version)
    else { return nil }
    let length = read(bytes, at: 16, bytes: 8)
    guard length == UInt64(bytes.count - headerSize),
      read(bytes, at: 12, bytes: 4) == UInt64(crc(bytes.dropFirst(headerSize)))
    else { return nil }
    var r = Reader(bytes: bytes, at: headerSize)
    guard let headJSON = r.block(), let head = try? JSONDecoder().decode(Head.self, from: headJSON),
      let hrefs = r.strings(), let fonts = r.strings(), let chapters = r.chapters(fonts: fonts),
      let toc = r.block(), let manifestHead = r.block(),
      let index = pageIndex(bytes, &r.at, hrefs: hrefs)
    else { return nil }
    var entry = LayoutCacheEntry(
      head: head, chapters: chapters, toc: Data(toc), index: index, pages: [])
    if pages {
      guard let section = r.block(),
        let checkpoints = CheckpointSection.decode(section, count: index.count),
        let read = pageEntries(bytes, r.at, count: index.count)
      else { return nil }
      entry.pages = read
      entry.checkpoints = checkpoints
      entry.manifestHead = Data(manifestHead)
    }
    return entry.isConsistent ? entry : nil
  }

  /// Bounds-checked reads of the payload's sections.
  struct Reader {
    let bytes: Data
    var at: Int

    /// The next 64-bit integer, nil past the end or over `limit`.
    mutating func int(limit: Int = Int.max) -> Int? {
      guard bytes.count - at >= 8 else { return nil }
      let v = LayoutCacheFile.read(bytes, at: at, bytes: 8)
      at += 8
      return v <= UInt64(limit) ? Int(v) : nil
    }

    /// The next length-prefixed block (a slice of `bytes`).
    mutating func block() -> Data? {
      guard let n = int(limit: bytes.count - at - 8) else { return nil }
      let start = bytes.startIndex + at
      at += n
      return bytes[start..<start + n]
    }

    mutating func strings() -> [String]? {
      guard let count = int(limit: (bytes.count - at) / 8) else { return nil }
      var list: [String] = []
      list.reserveCapacity(count)
      for _ in 0..<count {
        guard let b = block(), let s = String(validating: b, as: UTF8.self) else { return nil }
        list.append(s)
      }
      return list
    }

    mutating func chapters(fonts: [String]) -> [LayoutCacheEntry.Chapter]? {
      guard let count = int(limit: (bytes.count - at) / 32) else { return nil }
      var chapters: [LayoutCacheEntry.Chapter] = []
      chapters.reserveCapacity(count)
      for _ in 0..<count {
        guard let spine = int(), let first = int(), let pages = int(),
          let n = int(limit: fonts.count)
        else { return nil }
        var names: [String] = []
        for _ in 0..<n {
          guard let k = int(limit: fonts.count - 1) else { return nil }
          names.append(fonts[k])
        }
        chapters.append(
          LayoutCacheEntry.Chapter(spine: spine, firstPage: first, pageCount: pages, fonts: names))
      }
      return chapters
    }
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

  static func append(_ out: inout [UInt8], _ value: UInt64, bytes: Int) {
    for i in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
  }

  static func read(_ data: Data, at offset: Int, bytes: Int) -> UInt64 {
    var v: UInt64 = 0
    let base = data.startIndex + offset
    for i in 0..<bytes { v |= UInt64(data[base + i]) << (8 * UInt64(i)) }
    return v
  }
}

extension LayoutCacheEntry {
  /// An entry from its decoded sections.
  fileprivate init(
    head: LayoutCacheFile.Head, chapters: [Chapter], toc: Data, index: [PageMap.Entry],
    pages: [Data]
  ) {
    key = head.key
    book = head.book
    layout = head.layout
    tocJSON = toc
    diagnostics = head.diagnostics
    self.chapters = chapters
    boxes = head.boxes
    self.index = index
    self.pages = pages
  }
}
