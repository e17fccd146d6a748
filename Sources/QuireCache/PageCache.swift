// Cache: a window of rendered pages around the current one, prefetched in the background.
//
// The model is Leaves' data source: a reader shows page i and will most likely ask for i + 1
// next (or i − 1 when reading backward), so after each turn the cache renders the pages of the
// window [i − radius, i + radius] it does not hold yet — those in the reading direction first
// — on one background task, and drops everything outside the window. A turn to a prefetched
// page is then a dictionary lookup. Units: page indices from 0 (the CLI numbers from 1),
// bytes for the budget, milliseconds for the stats.
//
// Concurrency: `PageCache` is an actor. Renders run off the actor (detached tasks) and are
// shared: a request for a page whose render is in flight awaits that render instead of
// starting another. Everything the cache stores is tagged with a generation; changing the
// layout key bumps it, so renders started under an old layout are never stored.
//
// Dependencies: the cache holds pixels and never renders, so it depends only on QuireCore
// (`PixelBuffer`), not on the raster stage and its fonts; a `PageSource` does the rendering.
//
// Rejected: an LRU over all pages ever seen (the window is what a reader needs, and the
// eviction order must follow the reading position, not recency); a lock-protected class
// (an actor makes the in-flight bookkeeping safe across suspension points for free).
import Foundation
@_exported import QuireCore

/// Renders pages on demand (the layout + raster stages behind the cache).
package protocol PageSource: Sendable {
  var pageCount: Int { get }
  func renderPage(_ index: Int) async throws -> PixelBuffer
}

package enum PageCacheError: Error, Equatable, CustomStringConvertible {
  case pageOutOfRange(index: Int, pageCount: Int)
  package var description: String {
    switch self {
    case .pageOutOfRange(let i, let n): return "page \(i + 1) is outside 1…\(n)"
    }
  }
}

package struct PageCacheStats: Sendable, Codable, Equatable {
  /// Requests served from the cache (including renders already in flight).
  package var hits = 0
  /// Requests that had to start a render.
  package var misses = 0
  /// Renders started by the prefetcher.
  package var prefetches = 0
  /// Pages dropped (window, budget, invalidation).
  package var evictions = 0
  /// Duration of the renders, in ms, in completion order (the most recent 4096).
  package var renderMillis: [Double] = []
  package init() {}
}

package actor PageCache {
  package nonisolated let radius: Int
  package nonisolated let byteBudget: Int
  private var source: any PageSource
  private var layoutKey: AnyHashable
  private var generation = 0
  private var pages: [Int: PixelBuffer] = [:]
  private var inFlight: [Int: (generation: Int, task: Task<PixelBuffer, Error>)] = [:]
  private var prefetchTask: Task<Void, Never>?
  private var current: Int?
  private var forward = true
  package private(set) var stats = PageCacheStats()

  /// - radius: pages kept on each side of the current one (1 = previous, current, next).
  /// - byteBudget: the most pixel bytes held; the pages farthest from the current one go
  ///   first, and the current page is always kept.
  package init(
    source: any PageSource, radius: Int = 1, byteBudget: Int = 256 << 20,
    layoutKey: AnyHashable = ""
  ) {
    self.source = source
    self.radius = Swift.max(0, Swift.min(radius, 64))
    self.byteBudget = Swift.max(0, byteBudget)
    self.layoutKey = layoutKey
  }

  package var pageCount: Int { source.pageCount }
  /// The indices held now, ascending.
  package var cachedIndices: [Int] { pages.keys.sorted() }
  /// Pixel bytes held now.
  package var bytes: Int { pages.values.reduce(0) { $0 + $1.pixels.count } }

  /// The page at `index`, which becomes the current page: served from the cache when
  /// prefetched, else rendered (a miss). Then the window moves and prefetching starts.
  package func page(_ index: Int) async throws -> PixelBuffer {
    guard index >= 0 && index < source.pageCount else {
      throw PageCacheError.pageOutOfRange(index: index, pageCount: source.pageCount)
    }
    if let previous = current, previous != index { forward = index > previous }
    current = index
    let page: PixelBuffer
    if let cached = pages[index] {
      stats.hits += 1
      page = cached
    } else if let running = inFlight[index], running.generation == generation {
      stats.hits += 1
      page = try await running.task.value
    } else {
      stats.misses += 1
      page = try await load(index)
    }
    minimize(to: index)
    schedulePrefetch()
    return page
  }

  /// Waits until the current prefetch pass is done (what a reader's dwell on a page allows).
  package func prefetchCompletion() async {
    await prefetchTask?.value
  }

  /// Drops every page outside the window around `index`.
  package func minimize(to index: Int) {
    let window = (index - radius)...(index + radius)
    for key in pages.keys where !window.contains(key) {
      pages[key] = nil
      stats.evictions += 1
    }
    enforceBudget(keeping: index)
  }

  /// A new layout (page size, fonts, …) or a new source: everything cached is stale.
  /// Nothing happens when the key is unchanged.
  package func invalidate(layoutKey key: AnyHashable, source newSource: (any PageSource)? = nil) {
    guard key != layoutKey || newSource != nil else { return }
    layoutKey = key
    if let newSource { source = newSource }
    generation += 1
    prefetchTask?.cancel()
    prefetchTask = nil
    stats.evictions += pages.count
    pages.removeAll()
    inFlight.removeAll()
    if let c = current, c >= source.pageCount { current = nil }
  }

  // MARK: - Rendering

  /// Renders `index` (or joins its render) and stores it if still wanted.
  private func load(_ index: Int) async throws -> PixelBuffer {
    let gen = generation
    let task: Task<PixelBuffer, Error>
    if let running = inFlight[index], running.generation == gen {
      task = running.task
    } else {
      let source = self.source
      task = Task.detached {
        let clock = ContinuousClock()
        let start = clock.now
        let page = try await source.renderPage(index)
        let elapsed = clock.now - start
        await self.recordRender(elapsed)
        return page
      }
      inFlight[index] = (gen, task)
    }
    do {
      let page = try await task.value
      if inFlight[index]?.generation == gen { inFlight[index] = nil }
      if gen == generation && isWanted(index) {
        pages[index] = page
        enforceBudget(keeping: current ?? index)
      }
      return page
    } catch {
      if inFlight[index]?.generation == gen { inFlight[index] = nil }
      throw error
    }
  }

  private func recordRender(_ d: Duration) {
    let c = d.components
    stats.renderMillis.append(Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15)
    if stats.renderMillis.count > 4096 { stats.renderMillis.removeFirst(1024) }
  }

  private func isWanted(_ index: Int) -> Bool {
    guard let c = current else { return true }
    return abs(index - c) <= radius
  }

  /// Window order: the pages ahead in the reading direction first, then those behind.
  func prefetchOrder(around index: Int) -> [Int] {
    let ahead = (1...Swift.max(1, radius)).map { forward ? index + $0 : index - $0 }
    let behind = (1...Swift.max(1, radius)).map { forward ? index - $0 : index + $0 }
    return (radius == 0 ? [] : ahead + behind).filter { $0 >= 0 && $0 < source.pageCount }
  }

  private func schedulePrefetch() {
    prefetchTask?.cancel()
    guard let c = current else { return }
    let order = prefetchOrder(around: c)
    let previous = prefetchTask
    prefetchTask = Task {
      await previous?.value
      await self.prefetch(order, generation: self.generation)
    }
  }

  private func prefetch(_ order: [Int], generation gen: Int) async {
    for index in order {
      if Task.isCancelled || gen != generation { return }
      if pages[index] != nil { continue }
      guard isWanted(index) else { continue }
      // Stop when the budget cannot take another page.
      let pageBytes = pages.values.first?.pixels.count ?? 0
      if bytes + pageBytes > byteBudget { return }
      if inFlight[index] == nil { stats.prefetches += 1 }
      _ = try? await load(index)
    }
  }

  private func enforceBudget(keeping keep: Int) {
    var total = bytes
    guard total > byteBudget else { return }
    let victims = pages.keys.filter { $0 != keep }.sorted {
      (abs($0 - keep), $0) > (abs($1 - keep), $1)
    }
    for v in victims where total > byteBudget {
      total -= pages[v]?.pixels.count ?? 0
      pages[v] = nil
      stats.evictions += 1
    }
  }
}
