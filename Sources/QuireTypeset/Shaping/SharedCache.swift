// SharedCache: the shaped runs and hyphenation points that the layout workers share.
//
// Every worker keeps its own table of words in front (WordTable.swift), so only a word the
// worker has not seen reaches this cache — a few thousand times a chapter. One mutex for the
// whole dictionary made those few thousand a lock convoy on two cores: the Synchronization
// `Mutex` on Linux is a priority-inheriting futex, which never spins, so a worker that finds
// it held sleeps in the kernel, and the lock is handed to it on release while the other
// worker, already back for its next word, sleeps in turn. `perf sched` of `paginate
// moby-dick.epub` (2 threads) counted ~3–4 K futex sleeps, three quarters of all the
// workers' context switches, in `get`/`put` (Benchmarks/paginate-cost.md, session 15).
//
// So the dictionary is split into stripes by the key's hash, each behind its own mutex:
// two workers meet on one stripe 1/16 as often, and a convoy, which needs them to meet
// again and again, does not form. The hash is computed once more outside the lock to pick
// the stripe (the dictionary hashes again inside): a few instructions per probe, against a
// kernel round trip per collision.
//
// Bounds: `limit` entries in all; a stripe that reaches its share (limit / stripes) is
// emptied, as the whole dictionary was before. What a cache holds never changes a result,
// only how fast it comes: a miss recomputes the same value.
//
// Rejected: a cache per worker (each worker shapes every word once more: session 11
// measured that per-worker runs cost more in hashing and growth than the lock saved), and a
// spinning lock (on this shared machine the holder is often preempted, and a spinner burns
// the core the holder needs).

import QuireCore
import Synchronization

/// A bounded dictionary shared by the chapters laid out in parallel, split into stripes
/// that lock independently.
final class SharedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// One stripe: its own lock and dictionary, padded to a cache line of its own so that the
  /// two workers' lock words never share one.
  private final class Stripe: Sendable {
    let store = Mutex<[Key: Value]>([:])
    /// 64 bytes after the lock word and the dictionary reference.
    private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
  }

  /// The number of stripes (a power of two).
  static var stripeCount: Int { 16 }

  private let stripes: [Stripe]
  /// Entries in all stripes at most.
  let limit: Int
  /// Entries one stripe holds before it is emptied.
  private let stripeLimit: Int

  init(limit: Int = 300_000) {
    self.limit = max(limit, 0)
    stripes = (0..<Self.stripeCount).map { _ in Stripe() }
    stripeLimit = max(1, self.limit / Self.stripeCount)
  }

  private func stripe(_ key: Key) -> Stripe {
    stripes[key.hashValue & (Self.stripeCount - 1)]
  }

  func get(_ key: Key) -> Value? { stripe(key).store.withLock { $0[key] } }

  func put(_ key: Key, _ value: Value) {
    let limit = stripeLimit
    stripe(key).store.withLock {
      if $0.count >= limit { $0.removeAll(keepingCapacity: true) }
      $0[key] = value
    }
  }

  /// Entries held now (all stripes).
  var count: Int { stripes.reduce(0) { n, s in n + s.store.withLock { $0.count } } }
}
