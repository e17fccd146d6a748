import Foundation
import Synchronization
import Testing

@testable import QuireTypeset

/// The striped cache the layout workers share (Shaping/SharedCache.swift): a value put is
/// the value got, the bound holds over all stripes, and threads hammering it at once see
/// only values that were put for the key.
@Suite struct SharedCacheTests {
  /// A key whose stripe is its number.
  struct Key: StripedKey {
    var n: Int
    var stripeHint: Int { n }
  }

  @Test func getsWhatWasPut() {
    let cache = SharedCache<Key, String>(limit: 10_000)
    for k in 0..<1_000 { cache.put(Key(n: k), "v\(k)") }
    for k in 0..<1_000 { #expect(cache.get(Key(n: k)) == "v\(k)") }
    #expect(cache.get(Key(n: 1_000)) == nil)
    cache.put(Key(n: 7), "seven")
    #expect(cache.get(Key(n: 7)) == "seven")
    #expect(cache.count == 1_000)
  }

  @Test func boundHoldsOverAllStripes() {
    let limit = 256
    let cache = SharedCache<Key, Int>(limit: limit)
    for k in 0..<(limit * 20) {
      cache.put(Key(n: k), k)
      #expect(cache.count <= limit)
    }
    // The last key put is always there: a full stripe is emptied before the insert.
    #expect(cache.get(Key(n: limit * 20 - 1)) == limit * 20 - 1)
    // Keys spread over the stripes: more than one stripe's share survives.
    #expect(cache.count > limit / SharedCache<Key, Int>.stripeCount)
  }

  @Test func stripesComeFromTheKeysFold() {
    let a = ShapeKey(
      text: [104, 105], face: 0, smallCaps: false, rtl: false, script: 0, language: "en")
    var b = a
    b.text = [104, 105]
    #expect(a.stripeHint == b.stripeHint)
    let words = (0..<256).map {
      ShapeKey(
        text: [UInt32(97 + $0 % 26), UInt32($0)], face: 0, smallCaps: false, rtl: false, script: 0,
        language: "en")
    }
    let used = Set(words.map { $0.stripeHint & (SharedCache<ShapeKey, Int>.stripeCount - 1) })
    #expect(used.count == SharedCache<ShapeKey, Int>.stripeCount)
  }

  @Test func threadsAgreeOnEveryKey() {
    let cache = SharedCache<HyphenKey, [Int]>(limit: 4_096)
    let dictionary = ObjectIdentifier(SharedCacheTests.self as Any.Type)
    let wrong = Atomic<Int>(0)
    let checked = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for round in 0..<2_000 {
        let n = (round * 7 + worker * 13) % 1_500
        let key = HyphenKey(word: [UInt32(n), UInt32(n % 17)], dictionary: dictionary)
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
