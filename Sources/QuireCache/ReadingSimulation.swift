import Foundation

/// What `quire bench --reading` prints.
public struct ReadingReport: Codable, Sendable, Equatable {
  /// Page turns simulated.
  public var turns: Int
  /// Turns whose page was already in the cache.
  public var hits: Int
  /// Median time a turn took to return its page, in milliseconds.
  public var turnP50Millis: Double
  /// 99th-percentile turn time, in milliseconds.
  public var turnP99Millis: Double
  /// Median time of an uncached page render, in milliseconds.
  public var coldMillis: Double

  enum CodingKeys: String, CodingKey {
    case turns, hits
    case turnP50Millis = "turn_p50_ms"
    case turnP99Millis = "turn_p99_ms"
    case coldMillis = "cold_ms"
  }
}

/// A reader going through a book: mostly forward, sometimes back a page (about one turn in
/// eight, from a seeded generator, so runs are reproducible).
///
/// Dwell: offline there is no reading time, so after each turn the reader waits for the
/// cache's prefetch pass to complete (`prefetchCompletion()`). This models a reader who
/// spends longer on a page than a page takes to render — true for real reading (seconds vs
/// milliseconds) — without making the benchmark sleep; a fixed sleep would make the result
/// depend on the machine's speed relative to the sleep.
/// A turn's time is the time `page(_:)` takes to return. cold_ms is the median time of the
/// renders the cache did (every render is of an uncached page).
package struct ReadingSimulation {
  package static func run(cache: PageCache, turns: Int, seed: UInt64) async throws
    -> ReadingReport
  {
    let count = await cache.pageCount
    guard count > 0 else {
      return ReadingReport(turns: 0, hits: 0, turnP50Millis: 0, turnP99Millis: 0, coldMillis: 0)
    }
    var random = SplitMix64(seed: seed)
    let clock = ContinuousClock()
    let hitsBefore = await cache.stats.hits
    var index = 0
    _ = try await cache.page(index)
    await cache.prefetchCompletion()
    var times: [Double] = []
    let turns = Swift.max(0, Swift.min(turns, 1_000_000))
    for _ in 0..<turns {
      let back = random.next() % 8 == 0
      var target = back ? index - 1 : index + 1
      if target < 0 { target = Swift.min(1, count - 1) }
      if target >= count { target = index - 1 }
      if target < 0 { target = 0 }
      let start = clock.now
      _ = try await cache.page(target)
      times.append(millis(clock.now - start))
      index = target
      await cache.prefetchCompletion()
    }
    let stats = await cache.stats
    return ReadingReport(
      turns: turns, hits: stats.hits - hitsBefore,
      turnP50Millis: percentile(times, 0.5), turnP99Millis: percentile(times, 0.99),
      coldMillis: percentile(stats.renderMillis, 0.5))
  }

  static func millis(_ d: Duration) -> Double {
    let c = d.components
    return Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
  }

  /// Nearest-rank percentile (0 for no samples).
  static func percentile(_ values: [Double], _ q: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
    return sorted[Swift.min(sorted.count - 1, Swift.max(0, rank))]
  }
}
