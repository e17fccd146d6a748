// RememberedResources (the cached render's resource store): a file is read from the
// underlying store once, what is kept stays within the byte budget, and missing files are
// asked for again.

import Foundation
import QuireIngest
import Synchronization
import Testing

@testable import Quire

@Suite struct RememberedResourcesTests {
  /// A store that counts its reads, with files of the given sizes.
  final class CountingStore: ResourceStore {
    let files: [String: Int]
    let reads = Mutex<[String: Int]>([:])
    init(_ files: [String: Int]) { self.files = files }
    func data(forHref href: String) -> Data? {
      reads.withLock { $0[href, default: 0] += 1 }
      return files[href].map { Data(repeating: UInt8($0 % 251), count: $0) }
    }
  }

  @Test func aFileIsReadOnceAndKeptWithinTheBudget() {
    let base = CountingStore(["cover.jpg": 600, "small.png": 300, "big.jpg": 2_000])
    let store = RememberedResources(base, budget: 1_000)
    for _ in 0..<3 {
      #expect(store.data(forHref: "cover.jpg")?.count == 600)
      #expect(store.data(forHref: "small.png")?.count == 300)
      #expect(store.data(forHref: "big.jpg")?.count == 2_000)
      #expect(store.data(forHref: "missing.gif") == nil)
    }
    let reads = base.reads.withLock { $0 }
    // 600 + 300 fit in 1,000 bytes; the 2,000-byte file never does, so it is read each time.
    #expect(reads == ["cover.jpg": 1, "small.png": 1, "big.jpg": 3, "missing.gif": 3])
  }

  @Test func aFullBudgetKeepsTheFirstFilesOnly() {
    let base = CountingStore(["a": 700, "b": 700])
    let store = RememberedResources(base, budget: 1_000)
    for _ in 0..<2 {
      _ = store.data(forHref: "a")
      _ = store.data(forHref: "b")
    }
    #expect(base.reads.withLock { $0 } == ["a": 1, "b": 2])
  }
}
