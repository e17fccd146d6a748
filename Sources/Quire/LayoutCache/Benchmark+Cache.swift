// `quire bench`'s cold-against-cached numbers: what a first `paginate` of a book costs (the
// layout, the entry stored), what a later one costs (the entry read back as a page map) and
// what a later `render --pages N` costs inside the process (the entry read, N's chapter
// laid out, page N drawn and PNG-encoded, nothing written). Process start and file writes
// are not in these numbers; Benchmarks/layout-cache.md has whole-process times.

import Foundation
import QuireCore
import QuireRaster

/// Cold and cached timings, medians over the repeats.
public struct CacheTimings: Codable, Sendable {
  /// A layout-only pagination with no cache, its entry stored.
  public var coldPaginateSeconds: Double
  /// The page map from the cache: key (the book hashed), entry read and decoded.
  public var cachedPaginateSeconds: Double
  /// One page from the cache: key, entry, its chapter laid out, drawn and encoded (median
  /// of the first, middle and last page).
  public var cachedPageSeconds: Double
  /// The entry's size on disk.
  public var entryBytes: Int

  enum CodingKeys: String, CodingKey {
    case coldPaginateSeconds = "cold_paginate_s"
    case cachedPaginateSeconds = "cached_paginate_s"
    case cachedPageSeconds = "cached_page_s"
    case entryBytes = "entry_bytes"
  }
}

extension Benchmark {
  /// Times the book cold and through `cache` (storing its entry there).
  static func cacheTimings(_ r: BenchRequest, cache: LayoutCache) throws(QuireError)
    -> CacheTimings
  {
    var cold: [Double] = []
    var warm: [Double] = []
    var page: [Double] = []
    var bytes = 0
    for _ in 0..<max(1, r.repeats) {
      let start = now()
      let key = try cacheKey(r, cache)
      var plan = PaginationPlan()
      plan.threads = r.threads
      let book = try BookPagination(path: r.book.path, settings: r.layout, plan: plan)
        .run(visit: { _, _ in })
      cache.remember(book, settings: r.layout, key: key, boxes: false)
      cold.append(now() - start)
      let read = now()
      let entry = try cachedEntry(r, cache, pages: false)
      _ = entry.pageMap
      warm.append(now() - read)
      bytes = Int(
        (try? FileManager.default.attributesOfItem(atPath: cache.path(key)))?[.size] as? UInt64 ?? 0
      )
      let count = entry.index.count
      for n in Set([1, (count + 1) / 2, count]).sorted() {
        let drawStart = now()
        try drawCached(n, r, entry: try cachedEntry(r, cache))
        page.append(now() - drawStart)
      }
    }
    return CacheTimings(
      coldPaginateSeconds: median(cold), cachedPaginateSeconds: median(warm),
      cachedPageSeconds: median(page), entryBytes: bytes)
  }

  private static func cacheKey(_ r: BenchRequest, _ cache: LayoutCache) throws(QuireError)
    -> LayoutCacheKey
  {
    guard let key = cache.key(r.book, r.layout) else {
      throw .cannotOpen(file: r.book.path, reason: "the book or a font cannot be read to key it")
    }
    return key
  }

  private static func cachedEntry(
    _ r: BenchRequest, _ cache: LayoutCache, pages: Bool = true
  ) throws(QuireError) -> LayoutCacheEntry {
    guard let entry = cache.load(try cacheKey(r, cache), pages: pages) else {
      throw .cannotCreate(
        path: cache.directory.path, reason: "the layout cache entry was not stored")
    }
    return entry
  }

  private static func drawCached(_ n: Int, _ r: BenchRequest, entry: LayoutCacheEntry)
    throws(QuireError)
  {
    let settings = r.layout
    let format = r.color.format
    let layout = CachedLayout(entry: entry, path: r.book.path, settings: settings)
    let drawn = try layout.draw([n]) { page, renderer throws(QuireError) in
      let image = renderer.render(
        page, width: settings.pageWidth, height: settings.pageHeight, format: format)
      if PNGCodec.encodePage(image).isEmpty {
        throw .internalError("page \(page.number) encoded to no bytes")
      }
    }
    if drawn == nil {
      throw .internalError("page \(n): its chapter laid out unlike the cached layout")
    }
  }
}
