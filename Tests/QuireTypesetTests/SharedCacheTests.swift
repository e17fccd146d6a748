import Foundation
import Synchronization
import Testing

@testable import QuireTypeset

/// The striped cache the layout workers share (Shaping/SharedCache.swift): a value put is
/// the value got, the bound holds over all stripes, and threads hammering it at once see
/// only values that were put for the key.
@Suite struct SharedCacheTests {
  @Test func getsWhatWasPut() {
    let cache = SharedCache<Int, String>(limit: 10_000)
    for k in 0..<1_000 { cache.put(k, "v\(k)") }
    for k in 0..<1_000 { #expect(cache.get(k) == "v\(k)") }
    #expect(cache.get(1_000) == nil)
    cache.put(7, "seven")
    #expect(cache.get(7) == "seven")
    #expect(cache.count == 1_000)
  }

  @Test func boundHoldsOverAllStripes() {
    let limit = 256
    let cache = SharedCache<Int, Int>(limit: limit)
    for k in 0..<(limit * 20) {
      cache.put(k, k)
      #expect(cache.count <= limit)
    }
    // The last key put is always there: a full stripe is emptied before the insert.
    #expect(cache.get(limit * 20 - 1) == limit * 20 - 1)
    // Keys spread over the stripes: more than one stripe's share survives.
    #expect(cache.count > limit / SharedCache<Int, Int>.stripeCount)
  }

  @Test func threadsAgreeOnEveryKey() {
    let cache = SharedCache<[UInt32], [Int]>(limit: 4_096)
    let wrong = Atomic<Int>(0)
    let checked = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for round in 0..<2_000 {
        let n = (round * 7 + worker * 13) % 1_500
        let key: [UInt32] = [UInt32(n), UInt32(n % 17)]
        if let hit = cache.get(key) {
          if hit != [n, n * 2] { wrong.add(1, ordering: .relaxed) }
          checked.add(1, ordering: .relaxed)
        } else {
          cache.put(key, [n, n * 2])
        }
      }
    }
    #expect(wrong.load(ordering: .relaxed) == 0)
    #expect(checked.load(ordering: .relaxed) > 0)
    #expect(cache.count <= 4_096)
  }
}
