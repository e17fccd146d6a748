// Spreads: two pages side by side, as a printed book opens (`quire render --spreads`), and
// the output size of fixed-layout pages (`--fit`, `--size native`).
//
// Pairing (EPUB 3.3 §8.2.5 and §8.2.6): pages are taken in reading order. The first slot of
// a spread is the left page in a left-to-right book and the right page in a right-to-left
// one (`page-progression-direction`). A page whose item says `page-spread-*` goes on that
// side: on the first slot it starts a new spread (a page waiting alone is shown alone), on
// the second it completes the waiting one (or stands alone with the first slot empty). A
// page that says nothing takes the next slot, except the book's first page, which opens on
// the second slot as a printed book's first recto does (Apple Books' rule for fixed-layout
// books). `page-spread-center` and `rendition:spread none` pages stand alone. Reflowable
// pages pair the same way (synthetic spreads). Linear time, one pass.
//
// One pairing for every spread Quire shows: `PagedBook.spreads(showing:)` is what
// `render --spreads` writes, what `flip --spread` turns between, what a `--timeline` chain's
// spread turns hold, and what `quire flipbook` draws as spread stills and spread turns and
// hands to its player (flipbook.json `spreads`). A page range (`--pages`) keeps the book's
// pairing and numbering: a page outside the range is an empty side (white paper), a spread
// with no page in the range is left out. So spread N is the same pages, on the same sides,
// in the same file name, whichever command drew it.
//
// Images: each spread is `spread-NNNN.png` (numbered from 1 in reading order), the left
// page's pixels then the right page's, as tall as the taller; an empty slot is white paper
// as wide as the other page. Both pages darken softly toward the spine (QuireMotion's
// `SpineShading`, the gutter shadow a spread turn shows too). The pages are read back from
// the page files the render wrote, so a spread never holds a page's display list, only two
// decoded images at a time.

import Foundation
import QuireCore
import QuireIngest
import QuireMotion
import QuireRaster
import QuireTypeset

/// How a fixed-layout page fills the output page.
public enum FixedLayoutFit: String, Sendable, Hashable, CaseIterable {
  /// The whole page, centred, letterboxed with its background colour (the default).
  case contain
  /// The output page filled, centred, the overflow cut.
  case cover

  var raster: FixedFit { self == .contain ? .contain : .cover }
}

extension LayoutSettings {
  /// The size a page is drawn at: the output page, or the ICB of a pre-paginated page under
  /// `--size native`.
  func outputSize(of page: Page) -> (width: Int, height: Int) {
    if nativeSize, let v = page.rendition?.viewport {
      return (Int(v.width), Int(v.height))
    }
    return (pageWidth, pageHeight)
  }
}

/// One spread: the page numbers on its left and right (nil: an empty side, white paper).
public struct Spread: Codable, Sendable, Equatable {
  /// From 1, in reading order: the book's numbering, also when a page range is shown.
  public var number: Int
  /// The spread's image file, when one was written.
  public var file: String?
  /// The page on the left (from 1), nil when that side is empty.
  public var left: Int?
  /// The page on the right (from 1), nil when that side is empty.
  public var right: Int?

  /// The pages in reading order (left to right, or right to left in an `rtl` book), empty
  /// sides left out.
  public func readingOrder(rtl: Bool) -> [Int] {
    (rtl ? [right, left] : [left, right]).compactMap { $0 }
  }

  /// Whether page `number` is on this spread.
  public func holds(_ number: Int) -> Bool { left == number || right == number }
}

enum SpreadPlan {
  /// The spreads of `pages` with only the pages `shown` kept: the others become empty sides
  /// and a spread left with no page is dropped; numbers stay the book's.
  static func pair(
    _ pages: [(number: Int, rendition: PageRendition?)], direction: TextDirection,
    shown: (Int) -> Bool
  ) -> [Spread] {
    restrict(pair(pages, direction: direction), to: shown)
  }

  /// `spreads` with only the pages `shown` kept (see `pair(_:direction:shown:)`).
  static func restrict(_ spreads: [Spread], to shown: (Int) -> Bool) -> [Spread] {
    spreads.compactMap { spread in
      var s = spread
      s.left = s.left.flatMap { shown($0) ? $0 : nil }
      s.right = s.right.flatMap { shown($0) ? $0 : nil }
      return s.left == nil && s.right == nil ? nil : s
    }
  }

  /// The spreads of pages given in reading order as (number, rendition).
  static func pair(_ pages: [(number: Int, rendition: PageRendition?)], direction: TextDirection)
    -> [Spread]
  {
    let firstSide: PageSpread = direction == .rtl ? .right : .left
    var out: [Spread] = []
    var waiting: Int?
    func emit(_ first: Int?, _ second: Int?) {
      let (l, r) = direction == .rtl ? (second, first) : (first, second)
      out.append(Spread(number: out.count + 1, file: nil, left: l, right: r))
    }
    func flush() {
      if let w = waiting { emit(w, nil) }
      waiting = nil
    }
    for (k, page) in pages.enumerated() {
      let side = page.rendition?.pageSpread
      if side == .center || page.rendition?.spread == RenditionSpread.none {
        flush()
        emit(direction == .rtl ? nil : page.number, direction == .rtl ? page.number : nil)
        continue
      }
      let first: Bool
      if let side { first = side == firstSide } else { first = k > 0 && waiting == nil }
      if first {
        flush()
        waiting = page.number
      } else {
        emit(waiting, page.number)
        waiting = nil
      }
    }
    flush()
    return out
  }

  /// Digits in the spread file names of `spreads`: 4, more past spread 9,999.
  static func digits(_ spreads: [Spread]) -> Int {
    max(4, String(spreads.last?.number ?? 0).count)
  }

  /// `spread-0001.png`.
  static func fileName(_ n: Int, digits: Int) -> String {
    let s = String(n)
    return "spread-" + String(repeating: "0", count: max(0, digits - s.count)) + s + ".png"
  }

  /// Writes each spread's image from the page files in `out`; returns the spreads with their
  /// files. Spread files of an earlier render are removed.
  static func write(
    _ spreads: [Spread], pages files: [Int: String], in out: OutputFolder,
    format: PixelBuffer.Format, compression: PNGCompression
  ) throws(QuireError) -> [Spread] {
    let digits = digits(spreads)
    var written: [Spread] = []
    for var spread in spreads {
      guard spread.left.flatMap({ files[$0] }) != nil || spread.right.flatMap({ files[$0] }) != nil
      else { continue }
      let left = try spread.left.flatMap { files[$0] }.map { name throws(QuireError) in
        try decode(name, in: out, format: format)
      }
      let right = try spread.right.flatMap { files[$0] }.map { name throws(QuireError) in
        try decode(name, in: out, format: format)
      }
      let name = fileName(spread.number, digits: digits)
      let image = compose(left, right, format: format)
      try out.write(PNGCodec.encodePage(image, compression: compression), as: name)
      spread.file = name
      written.append(spread)
    }
    let keep = Set(written.compactMap(\.file))
    for stale in try out.names(matching: { $0.hasPrefix("spread-") && $0.hasSuffix(".png") })
    where !keep.contains(stale) {
      try out.remove(stale)
    }
    return written
  }

  private static func decode(_ name: String, in out: OutputFolder, format: PixelBuffer.Format)
    throws(QuireError) -> PixelBuffer
  {
    let url = out.root.appendingPathComponent(name)
    do {
      return try PNGCodec.decode(try Data(contentsOf: url)).converted(to: format)
    } catch {
      throw .internalError("\(url.path): cannot read back the page for its spread: \(error)")
    }
  }

  /// Two pages side by side on white paper; a missing side is as wide as the other page. Both
  /// sides get the gutter shadow at the spine (`SpineShading`, the same pixels a spread turn's
  /// frame 0 shows), a missing side too: it is paper in the open book.
  static func compose(_ left: PixelBuffer?, _ right: PixelBuffer?, format: PixelBuffer.Format)
    -> PixelBuffer
  {
    let lw = left?.width ?? right?.width ?? 1
    let rw = right?.width ?? left?.width ?? 1
    let h = max(left?.height ?? 1, right?.height ?? 1)
    var out = PixelBuffer(width: lw + rw, height: h, format: format)
    let c = format.channels
    for (page, x0) in [(left, 0), (right, lw)] {
      guard let page else { continue }
      let y0 = (h - page.height) / 2
      for y in 0..<page.height {
        let src = y * page.width * c
        let dst = ((y0 + y) * (lw + rw) + x0) * c
        out.pixels.replaceSubrange(
          dst..<(dst + page.width * c), with: page.pixels[src..<(src + page.width * c)])
      }
    }
    SpineShading.apply(to: &out, spine: lw, leftWidth: lw, rightWidth: rw)
    return out
  }
}

extension BookReport {
  /// A chapter as `quire info` lists it, with its rendition properties (EPUBs).
  static func spineItem(_ c: Chapter) -> SpineItem {
    var item = SpineItem(
      index: c.spineIndex, href: c.href, mediaType: c.mediaType, linear: c.linear, size: c.size,
      characters: c.length)
    guard let r = c.rendition else { return item }
    item.layout = r.layout.rawValue
    item.orientation = r.orientation.rawValue
    item.spread = r.spread.rawValue
    item.pageSpread = r.pageSpread?.rawValue
    item.overrides = r.overrides.isEmpty ? nil : r.overrides
    item.viewport = r.viewport.map { [$0.width, $0.height] }
    return item
  }

  /// The package's rendition, for the report.
  static func rendition(_ m: BookMetadata) -> Rendition? {
    m.rendition.map {
      Rendition(
        layout: $0.layout.rawValue, orientation: $0.orientation.rawValue,
        spread: $0.spread.rawValue)
    }
  }
}
