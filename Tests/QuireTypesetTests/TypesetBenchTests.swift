import Foundation
import QuireTestSupport
import Testing

@testable import QuireTypeset

/// Not a timed test: runs only with QUIRE_BENCH=1 (release: `swift test -c release
/// -Xswiftc -enable-testing --filter TypesetBench`) and prints the numbers.
@Suite struct TypesetBenchTests {
  @Test(.enabled(if: ProcessInfo.processInfo.environment["QUIRE_BENCH"] == "1"))
  func wholeNovel() throws {
    guard let path = Corpus.existingPath("pride-and-prejudice.txt"),
      let doc = DocumentBuilder.plainText(path, chapters: 1000)
    else { return }
    let clock = ContinuousClock()
    for threads in [1, 2] {
      let t0 = clock.now
      let t = try Typesetter(document: doc, options: LayoutOptions())
      let t1 = clock.now
      let c1 = cpuSeconds()
      let book = t.layoutBook(threads: threads)
      let cpu = cpuSeconds() - c1
      let t2 = clock.now
      let words = book.pages.flatMap(\.lines).reduce(0) { $0 + $1.text.split(separator: " ").count }
      print(
        "bench threads=\(threads) chapters=\(doc.chapters.count) pages=\(book.pages.count) words=\(words) init=\(t1 - t0) layout=\(t2 - t1) cpu=\(cpu)s"
      )
    }
  }
}

func cpuSeconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
