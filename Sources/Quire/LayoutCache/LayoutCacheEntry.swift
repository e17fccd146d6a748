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
// File format: a 24-byte header, then JSON.
//
//     0  8  magic "QUIRELC\n"
//     8  4  format version, little-endian (1)
//    12  4  CRC-32 of the payload, little-endian
//    16  8  payload length in bytes, little-endian
//    24  …  payload: the entry as JSON
//
// The header makes truncation (length) and flipped bits (CRC-32, libdeflate's) visible before
// the JSON decoder sees the bytes; anything that does not check out, decode, or name the key
// asked for is a miss, and the entry is rebuilt. JSON because the entry is made of the
// manifest's own Codable types, so cached and fresh manifests are encoded by the same code
// (byte-identical output), and because a page map is small: moby-dick's 725 pages take
// ~110 KB, decoded in a few milliseconds. Rejected: a hand-made binary record per page —
// faster to decode, but a second encoding of every manifest field to keep in step with the
// contract, for a saving the process start (tens of milliseconds) dwarfs.

import CDeflate
import Foundation
import QuireCore
import QuireTypeset

/// One book's persisted layout.
struct LayoutCacheEntry: Codable, Sendable {
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
  /// Every page's manifest entry, without a file name.
  var pages: [Manifest.PageInfo]

  /// The entry of a completely paginated book.
  init(_ paginated: PaginatedBook, settings: LayoutSettings, key: LayoutCacheKey, boxes: Bool) {
    let head = Manifest(book: paginated, settings: settings, files: [:], boxes: boxes, pages: false)
    self.key = key.digest
    book = head.book
    layout = head.layout
    toc = head.toc
    diagnostics = paginated.layoutDiagnostics
    self.boxes = boxes
    pages = paginated.records.map { Manifest.pageInfo($0.page, files: [:], boxes: boxes) }
    chapters = []
    for record in paginated.records {
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

  /// Whether the chapters tile the pages 1…N in order and every page entry is numbered in
  /// place (what the cached paths rely on; a decoded entry that is not is a miss).
  var isConsistent: Bool {
    var next = 1
    for c in chapters {
      guard c.firstPage == next, c.pageCount >= 1 else { return false }
      next += c.pageCount
    }
    guard next == pages.count + 1 else { return false }
    for (i, p) in pages.enumerated() where p.number != i + 1 { return false }
    return true
  }
}

/// The entry's file format (see the essay above).
enum LayoutCacheFile {
  static let magic = Array("QUIRELC\n".utf8)
  static let version: UInt32 = 1
  static let headerSize = 24

  /// The file bytes of `entry`.
  static func encode(_ entry: LayoutCacheEntry) -> [UInt8]? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let payload = try? encoder.encode(entry) else { return nil }
    var out = magic
    out.reserveCapacity(headerSize + payload.count)
    append(&out, UInt64(version), bytes: 4)
    append(&out, UInt64(crc(payload)), bytes: 4)
    append(&out, UInt64(payload.count), bytes: 8)
    out += payload
    return out
  }

  /// The entry in `bytes`, nil unless the header, checksum and JSON all check out.
  static func decode(_ bytes: Data) -> LayoutCacheEntry? {
    guard bytes.count >= headerSize, bytes.prefix(8).elementsEqual(magic),
      read(bytes, at: 8, bytes: 4) == UInt64(version)
    else { return nil }
    let length = read(bytes, at: 16, bytes: 8)
    guard length == UInt64(bytes.count - headerSize) else { return nil }
    let payload = bytes.dropFirst(headerSize)
    guard read(bytes, at: 12, bytes: 4) == UInt64(crc(payload)),
      let entry = try? JSONDecoder().decode(LayoutCacheEntry.self, from: payload),
      entry.isConsistent
    else { return nil }
    return entry
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
