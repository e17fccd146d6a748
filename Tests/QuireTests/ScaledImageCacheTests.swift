// Large pictures kept scaled beside a layout cache entry (ScaledImageFile.swift): every page
// of a book of full-page JPEGs drawn through the cache — first decoding and writing the
// pictures, then reading them back — is byte-identical to the same page of a full uncached
// render; a damaged, truncated or foreign picture file is a miss that is decoded and written
// again; the pixels read back are what is drawn; eviction counts the files.

import Foundation
import QuireCore
import QuireRaster
import QuireTestSupport
import Testing

@testable import Quire

/// The cache's scaled-picture files.
private func pictureFiles(_ cache: LayoutCache) -> [String] {
  cacheFiles(cache, suffix: ScaledImageFile.suffix)
}

private let bitmaps = "page-blanche-bitmaps-in-spine.epub"

@Suite struct ScaledImageCacheTests {
  /// Every page, through a cache filled by `paginate`: the first cached render of a page
  /// decodes its 1200x1577 JPEG and writes the scaled picture, the second reads it; both
  /// equal the full render's page.
  @Test(.enabled(if: Corpus.has(bitmaps), Comment(rawValue: Corpus.missing)))
  func everyPictureDrawnFromTheCacheMatchesTheFullRender() throws {
    let book = Corpus.url(bitmaps)
    let s = LayoutSettings(pageWidth: 360, pageHeight: 480)
    let full = try renderThroughCache(book, nil, s, nil, "qsi-full")
    let cache = LayoutCache(directory: URL(fileURLWithPath: temporaryFolder("qsi-cache")))
    let count = try paginateIntoCache(book, s, cache)
    #expect(count >= 9)
    #expect(pictureFiles(cache).isEmpty)
    for n in 1...count {
      for pass in ["decodes", "reads"] {
        let out = try renderThroughCache(book, [n], s, cache, "qsi-\(pass)")
        #expect(try pageBytes(out, n) == pageBytes(full, n), "page \(n), \(pass) run")
      }
    }
    #expect(pictureFiles(cache).count >= 9, "one file per distinct picture and size")
  }

  /// A damaged, truncated or foreign picture file is a miss: the page is still identical and
  /// the file is written again as it was; a damaged payload under a fixed checksum never
  /// crashes or reads past the end.
  @Test(.enabled(if: Corpus.has(bitmaps), Comment(rawValue: Corpus.missing)))
  func damagedPictureFilesAreMissesAndRewritten() throws {
    let book = Corpus.url(bitmaps)
    let s = LayoutSettings(pageWidth: 240, pageHeight: 320)
    let cache = LayoutCache(directory: URL(fileURLWithPath: temporaryFolder("qsi-damaged")))
    _ = try paginateIntoCache(book, s, cache)
    let reference = try renderThroughCache(book, [1], s, cache, "qsi-damaged-ref")
    let name = try #require(pictureFiles(cache).first)
    let path = cache.directory.appendingPathComponent(name)
    let good = try Data(contentsOf: path)
    #expect(ScaledImageFile.decode(good) != nil)
    let step = max(1, good.count / 150)
    for offset in Array(stride(from: 0, to: good.count, by: step)) + [good.count - 1] {
      var flipped = good
      flipped[offset] ^= 0x5A
      #expect(ScaledImageFile.decode(flipped) == nil, "byte \(offset) flipped")
      #expect(ScaledImageFile.decode(good.prefix(offset)) == nil, "cut at \(offset)")
    }
    let header = ScaledImageFile.headerSize
    for offset in stride(from: header, to: min(good.count, header + 400), by: 3) {
      var payload = [UInt8](good.dropFirst(header))
      payload[offset - header] &+= 13
      var bytes = [UInt8](good.prefix(12))
      LayoutCacheFile.append(&bytes, UInt64(LayoutCacheFile.crc(payload)), bytes: 4)
      bytes += good[16..<header] + payload
      _ = ScaledImageFile.decode(Data(bytes))
    }
    // Another picture's file under this one's name is refused by its href or size.
    _ = try renderThroughCache(book, [2], s, cache, "qsi-damaged-other")
    let otherName = try #require(pictureFiles(cache).first { $0 != name })
    let other = try Data(contentsOf: cache.directory.appendingPathComponent(otherName))
    for damaged in [good.prefix(good.count / 2), Data(), other] {
      try damaged.write(to: path)
      let out = try renderThroughCache(book, [1], s, cache, "qsi-damaged-out")
      #expect(try pageBytes(out, 1) == pageBytes(reference, 1))
      #expect(try Data(contentsOf: path) == good)
    }
  }

  /// The pixels read back are what is drawn: a kept picture turned opaque black (a valid
  /// file) draws a mostly black page; eviction counts the files and removes them first when oldest.
  @Test(.enabled(if: Corpus.has(bitmaps), Comment(rawValue: Corpus.missing)))
  func theKeptPixelsAreWhatIsDrawn() throws {
    let book = Corpus.url(bitmaps)
    let s = LayoutSettings(pageWidth: 240, pageHeight: 320)
    let cache = LayoutCache(directory: URL(fileURLWithPath: temporaryFolder("qsi-tamper")))
    _ = try paginateIntoCache(book, s, cache)
    let first = try PNGCodec.decode(
      try pageBytes(renderThroughCache(book, [1], s, cache, "qsi-tamper-first"), 1))
    #expect(first.pixels.count { $0 == 0 } < first.pixels.count / 100)
    let name = try #require(pictureFiles(cache).first)
    var picture = try #require(
      ScaledImageFile.decode(try Data(contentsOf: cache.directory.appendingPathComponent(name))))
    let drawn = picture.width * picture.height
    picture.pixels = [UInt8](repeating: 0, count: drawn * 4)
    for k in 0..<drawn { picture.pixels[4 * k + 3] = 255 }
    #expect(cache.store(picture))
    let out = try renderThroughCache(book, [1], s, cache, "qsi-tamper-black")
    let image = try PNGCodec.decode(try pageBytes(out, 1))
    // The picture fills the (pre-paginated) page, scaled to the output size.
    #expect(image.pixels.count { $0 == 0 } > image.pixels.count / 2, "the kept pixels drawn")
    #expect(cache.entries().contains { $0.name == name })
    var small = cache
    small.maxBytes = 0
    small.evict()
    #expect(pictureFiles(cache).isEmpty)
  }
}
