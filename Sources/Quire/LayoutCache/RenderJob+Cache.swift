// The render and paginate jobs' use of the persisted layout cache (see CachedLayout.swift):
// a render of a few pages of a seen book draws them from their chapters alone and writes the
// cached manifest; anything the cache cannot answer returns nil and the job lays the book out.

import Foundation
import QuireCore
import QuireRaster
import QuireTypeset

extension RenderJob {
  /// The render of `request` from the cached layout under `key`, nil on a miss (no entry, an
  /// entry without the boxes asked for, an unbounded or large selection, strict mode, a
  /// chapter that lays out differently, `--spreads`: the spreads are paired from the laid-out
  /// pages' renditions, which the entry does not hold).
  static func cachedRun(
    _ request: RenderRequest, key: LayoutCacheKey, out: OutputFolder, early: EarlyOpening? = nil,
    progress: @escaping @Sendable (Int, Int) -> Void
  ) throws(QuireError) -> RenderSummary? {
    guard let cache = request.cache, mayDrawFromCache(request),
      let entry = cache.load(key), entry.boxes || !request.boxes
    else { return nil }
    let pageCount = entry.index.count
    let numbers = request.pages.pages(in: pageCount)
    if numbers.isEmpty {
      throw .invalidRequest(.noSelectedPage(request.pages, pageCount: pageCount))
    }
    let digits = max(4, String(pageCount).count)
    var files: [Int: String] = [:]
    for n in numbers { files[n] = pageFileName(n, digits: digits) }
    guard let manifestPages = manifestPages(entry, files: files, boxes: request.boxes) else {
      return nil
    }
    let settings = request.layout
    let format = request.color.format
    var done = 0
    let layout = CachedLayout(
      entry: entry, path: request.book.path, settings: settings, cache: cache, book: key.book,
      early: early)
    let drawn = try layout.draw(numbers) { page, renderer throws(QuireError) in
      let image = renderer.render(
        page, width: settings.pageWidth, height: settings.pageHeight, format: format)
      try out.write(
        PNGCodec.encodePage(image, compression: request.compression),
        as: pageFileName(page.number, digits: digits),
        sync: request.flushToDisk)
      done += 1
      progress(done, numbers.count)
    }
    guard let drawn else { return nil }
    let raster = drawn.raster
    var diagnostics = entry.diagnostics
    diagnostics.add(contentsOf: raster)
    // The stored head holds the entry's diagnostics: it is this run's unless drawing warned.
    let stored = raster.isEmpty ? entry.manifestHead : nil
    guard let head = stored ?? Manifest(cached: entry, diagnostics: diagnostics)?.encoded()
    else { return nil }
    let stale = try out.removeStalePages(keeping: Set(files.values))
    try out.write(manifestName, sync: request.flushToDisk) { file throws(QuireError) in
      try Manifest.write(
        encodedHead: [UInt8](head), pageCount: pageCount,
        page: { manifestPages[$0 + 1] ?? entry.pages[$0] }, to: file)
    }
    if request.flushToDisk { try out.sync() }
    return RenderSummary(
      pageCount: pageCount, rendered: numbers.count, threads: 1, removedStalePages: stale,
      diagnostics: diagnostics, cachedSources: drawn.sources)
  }
}

extension RenderJob {
  /// Whether `cachedRun` may answer `request` from a stored entry: a bounded selection of at
  /// most `CachedLayout.maxCachedPages` pages, not strict, without spreads.
  static func mayDrawFromCache(_ request: RenderRequest) -> Bool {
    guard !request.strict, !request.spreads, let bounded = request.pages.boundedCount else {
      return false
    }
    return bounded <= CachedLayout.maxCachedPages
  }

  /// The layout-cache key of `request`, nil when the cache can serve it neither way: it
  /// cannot draw the pages (`mayDrawFromCache`) and cannot store the layout (`isWritable`).
  /// Then the book is not hashed (~89 M instructions for moby-dick's 1.6 MB when no
  /// memo of its content hash can be kept either).
  static func cacheKey(_ request: RenderRequest) -> LayoutCacheKey? {
    guard let cache = request.cache, mayDrawFromCache(request) || cache.isWritable else {
      return nil
    }
    return cache.key(request.book, request.layout)
  }
}

extension RenderJob {
  /// The manifest entries that differ from the entry's encoded ones, by page number: the
  /// drawn pages (with their file names), and every page when the entry has boxes and the
  /// request does not; nil when one of them does not decode.
  static func manifestPages(_ entry: LayoutCacheEntry, files: [Int: String], boxes: Bool)
    -> [Int: Data]?
  {
    let strip = entry.boxes && !boxes
    let numbers = strip ? Array(1...entry.pages.count) : files.keys.sorted()
    var changed: [Int: Data] = [:]
    let decoder = JSONDecoder()
    for n in numbers where entry.pages.indices.contains(n - 1) {
      guard var p = try? decoder.decode(Manifest.PageInfo.self, from: entry.pages[n - 1])
      else { return nil }
      p.file = files[n]
      if strip {
        p.lines = nil
        p.images = nil
        p.blocks = nil
        p.boxes = nil
        p.math = nil
        p.inlineBoxes = nil
      }
      changed[n] = try? Manifest.encode(p)
      guard changed[n] != nil else { return nil }
    }
    return changed
  }
}

extension PaginateJob {
  /// The page map of `request` from the cached layout under `key`, nil on a miss.
  static func cachedMap(_ request: PaginateRequest, key: LayoutCacheKey) -> PageMap? {
    guard let cache = request.cache, !request.stats, !request.strict,
      let entry = cache.load(key, pages: false)
    else { return nil }
    return entry.pageMap
  }
}
