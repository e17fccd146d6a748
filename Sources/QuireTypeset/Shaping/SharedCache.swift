// SharedCache: the shaped runs and hyphenation points that the layout workers share.
//
// Every worker keeps its own table of words in front (WordTable.swift), so only a word the
// worker has not seen reaches this cache — a few thousand times a chapter. One mutex for the
// whole dictionary made those a lock convoy on two cores: the Synchronization `Mutex` on
// Linux is a priority-inheriting futex, which never spins, so a worker that finds it held
// sleeps in the kernel, and the lock is handed to it on release while the other worker,
// already back for its next word, sleeps in turn; and on a loaded machine a worker preempted
// inside the lock stalls the other for a whole time slice. `perf sched` of `paginate
// moby-dick.epub` (2 threads) counted 0.2–4 K futex sleeps a run, three quarters of all the
// workers' context switches, in `get`/`put` (Benchmarks/paginate-cost.md, session 15).
//
// So a worker never waits here. The dictionary is split into stripes by the key's hash,
// each behind its own mutex, so two workers rarely want the same one; and a stripe that is
// held is treated as a miss (`get` answers nil, `put` keeps nothing): the worker computes
// the value itself, a HarfBuzz call or a pattern lookup (~14 K instructions), instead of
// sleeping. The stripe comes from what the key already holds (`StripedKey.stripeHint`: a
// shaping key's FNV fold of its text): picking it with a full `hashValue`, a second SipHash
// per probe besides the dictionary's, cost moby-dick ~48 M instructions. The dictionaries
// hash those folds without SipHash as well (`ShapeKey._rawHashValue`, session 16: the
// Hasher's set-up and finalization per probe and per rehash as a stripe grows cost
// moby-dick ~55 M instructions; a crafted fold collision costs what it cost before, a
// comparison of the texts). What a cache holds
// never changes a result, only how fast it comes (a miss recomputes the same value), so the
// output does not depend on who held what when.
//
// Bounds: `limit` entries in all; a stripe that reaches its share (limit / stripes) is
// emptied, as the whole dictionary was before.
//
// Rejected: a cache per worker (each worker shapes every word once more: session 11
// measured that per-worker runs cost more in hashing and growth than the lock saved), and a
// spinning lock (on this shared machine the holder is often preempted, and a spinner burns
// the core the holder needs).

import QuireCore
import Synchronization

/// A key that names its stripe from what it already holds, without a second full hash.
protocol StripedKey: Hashable, Sendable {
  /// Equal for equal keys; its low bits should differ between keys.
  var stripeHint: Int { get }
}

/// An FNV fold's bits mixed into the low ones (FNV's low bits alone follow the scalars'
/// parities): Fibonacci hashing, the product's high half.
private func stripeMix(_ fold: UInt64) -> Int {
  Int(truncatingIfNeeded: (fold &* 0x9E37_79B9_7F4A_7C15) >> 32)
}

extension ShapeKey: StripedKey {
  /// The text's FNV fold (made with the key), mixed.
  var stripeHint: Int { stripeMix(textFold) }
}

extension HyphenKey: StripedKey {
  /// The word's FNV fold (made with the key), mixed.
  var stripeHint: Int { stripeMix(fold) }
}

/// A bounded dictionary shared by the chapters laid out in parallel, split into stripes
/// that lock independently.
final class SharedCache<Key: StripedKey, Value: Sendable>: Sendable {
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
    stripes[key.stripeHint & (Self.stripeCount - 1)]
  }

  /// The value kept for `key`; nil when there is none or its stripe is held by another
  /// thread right now (the caller computes the value instead of waiting).
  func get(_ key: Key) -> Value? {
    stripe(key).store.withLockIfAvailable { $0[key] } ?? nil
  }

  /// Keeps `value` for `key`, unless its stripe is held by another thread right now.
  func put(_ key: Key, _ value: Value) {
    let limit = stripeLimit
    _ = stripe(key).store.withLockIfAvailable {
      if $0.count >= limit { $0.removeAll(keepingCapacity: true) }
      $0[key] = value
    }
  }

  /// Entries held now (all stripes).
  var count: Int { stripes.reduce(0) { n, s in n + s.store.withLock { $0.count } } }
}
