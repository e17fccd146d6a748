import Foundation
import QuireCore
import Testing

@testable import QuireCache

/// A page source that draws page i as a 4×4 gray8 page filled with i (plus a layout salt),
/// counts its renders, and can be slow.
final class FakeSource: PageSource, Sendable {
  let pageCount: Int
  let salt: UInt8
  let delayNanos: UInt64
  private let rendered = Mutex<[Int]>([])

  init(pageCount: Int, salt: UInt8 = 0, delayNanos: UInt64 = 0) {
    self.pageCount = pageCount
    self.salt = salt
    self.delayNanos = delayNanos
  }

  var renders: [Int] { rendered.withLock { $0 } }
  func renderCount(_ i: Int) -> Int { renders.filter { $0 == i }.count }

  func renderPage(_ index: Int) async throws -> PixelBuffer {
    rendered.withLock { $0.append(index) }
    if delayNanos > 0 { try await Task.sleep(nanoseconds: delayNanos) }
    return PixelBuffer(width: 4, height: 4, format: .gray8, fill: UInt8(index % 200) &+ salt)
  }
}

@Suite struct PageCacheTests {
  @Test func turnToPrefetchedPageIsAHitWithoutRender() async throws {
    let source = FakeSource(pageCount: 10)
    let cache = PageCache(source: source)
    _ = try await cache.page(0)
    await cache.prefetchCompletion()
    #expect(source.renderCount(1) == 1)
    let page = try await cache.page(1)
    #expect(page.pixels[0] == 1)
    #expect(source.renderCount(1) == 1)
    let stats = await cache.stats
    #expect(stats.hits == 1)
    #expect(stats.misses == 1)
  }

  @Test func windowEvictsOutsidePages() async throws {
    let source = FakeSource(pageCount: 10)
    let cache = PageCache(source: source, radius: 1)
    for i in 0...3 {
      _ = try await cache.page(i)
      await cache.prefetchCompletion()
    }
    #expect(await cache.cachedIndices == [2, 3, 4])
    await cache.minimize(to: 3)
    #expect(await cache.cachedIndices == [2, 3, 4])
  }

  @Test func prefetchGoesInReadingDirectionFirst() async throws {
    let source = FakeSource(pageCount: 20)
    let cache = PageCache(source: source, radius: 2)
    _ = try await cache.page(10)
    await cache.prefetchCompletion()
    #expect(source.renders == [10, 11, 12, 9, 8])
    _ = try await cache.page(9)  // now reading backward
    await cache.prefetchCompletion()
    #expect(Array(source.renders.suffix(1)) == [7])
    #expect(await cache.prefetchOrder(around: 9) == [8, 7, 10, 11])
  }

  @Test func byteBudgetBoundsHeldPagesAndKeepsCurrent() async throws {
    let source = FakeSource(pageCount: 20)
    // Gray 4×4 pages are 16 bytes; the budget holds two.
    let cache = PageCache(source: source, radius: 3, byteBudget: 32)
    _ = try await cache.page(5)
    await cache.prefetchCompletion()
    let held = await cache.cachedIndices
    #expect(await cache.bytes <= 32)
    #expect(held.contains(5))
    #expect(held.count == 2)
    let tiny = PageCache(source: source, radius: 1, byteBudget: 0)
    let page = try await tiny.page(3)
    #expect(page.pixels[0] == 3)
    #expect(await tiny.cachedIndices.count <= 1)
  }

  @Test func layoutChangeInvalidates() async throws {
    let source = FakeSource(pageCount: 10)
    let cache = PageCache(source: source, layoutKey: "600x800/16")
    _ = try await cache.page(0)
    await cache.prefetchCompletion()
    await cache.invalidate(layoutKey: "600x800/16")  // same key: nothing happens
    #expect(await cache.cachedIndices == [0, 1])
    let relaid = FakeSource(pageCount: 5, salt: 100)
    await cache.invalidate(layoutKey: "600x800/18", source: relaid)
    #expect(await cache.cachedIndices.isEmpty)
    let page = try await cache.page(1)
    #expect(page.pixels[0] == 101)
    #expect(relaid.renderCount(1) == 1)
    await #expect(throws: PageCacheError.self) { try await cache.page(7) }
  }

  @Test func concurrentReadersGetTheRightPages() async throws {
    let source = FakeSource(pageCount: 30, delayNanos: 200_000)
    let cache = PageCache(source: source, radius: 2)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for reader in 0..<8 {
        group.addTask {
          var rng = SplitMix64(seed: UInt64(reader))
          for _ in 0..<25 {
            let i = Int(rng.next() % 30)
            let page = try await cache.page(i)
            #expect(page.pixels[0] == UInt8(i))
          }
        }
      }
      try await group.waitForAll()
    }
    await cache.prefetchCompletion()
    let stats = await cache.stats
    #expect(stats.hits + stats.misses == 200)
    #expect(await cache.cachedIndices.count <= 5)
  }

  @Test func readingSimulationIsDeterministicAndHitsPrefetchedPages() async throws {
    func run() async throws -> (ReadingReport, [Int]) {
      let source = FakeSource(pageCount: 40, delayNanos: 100_000)
      let cache = PageCache(source: source)
      let report = try await ReadingSimulation.run(cache: cache, turns: 60, seed: 42)
      return (report, source.renders)
    }
    let (a, rendersA) = try await run()
    let (b, rendersB) = try await run()
    #expect(a.turns == 60)
    #expect(a.hits == 60)  // every turn after the first page was prefetched
    #expect(a.hits == b.hits)
    #expect(rendersA == rendersB)
    #expect(a.coldMillis > 0)
    #expect(a.turnP50Millis <= a.turnP99Millis)
    let json = String(decoding: try JSONEncoder().encode(a), as: UTF8.self)
    for key in ["turns", "hits", "turn_p50_ms", "turn_p99_ms", "cold_ms"] {
      #expect(json.contains("\"\(key)\""))
    }
  }
}
