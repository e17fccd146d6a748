import Foundation

public struct BenchRequest: Sendable {
  public var book: String
  public var ingest = IngestOptions()
  public var layout = LayoutOptions()
  public var repeats = 1
  public var threads = ProcessInfo.processInfo.activeProcessorCount
  public var format: PixelBuffer.Format = .gray8
  /// When set, also simulate reading with the page cache for this many turns.
  public var readingTurns: Int? = nil
  public init(book: String) { self.book = book }
}

/// Stage timings of one book. Stage times are medians over the repeats; raster and encode
/// run on `threads` workers, so their numbers are wall-clock seconds of those phases.
public struct BenchResult: Codable, Sendable {
  public var book: String
  public var pages: Int
  public var threads: Int
  public var repeats: Int
  public var ingestSeconds: Double
  public var layoutSeconds: Double
  public var rasterSeconds: Double
  public var encodeSeconds: Double
  public var totalSeconds: Double
  public var pagesPerSecond: Double
  public var peakRSSMegabytes: Double
  public var reading: ReadingReport?

  /// JSON keys as documented (seconds and MB in the names, snake_case like ReadingReport's).
  enum CodingKeys: String, CodingKey {
    case book, pages, threads, repeats, reading
    case ingestSeconds = "ingest_s"
    case layoutSeconds = "layout_s"
    case rasterSeconds = "raster_s"
    case encodeSeconds = "encode_s"
    case totalSeconds = "total_s"
    case pagesPerSecond = "pages_per_s"
    case peakRSSMegabytes = "peak_rss_mb"
  }

  public func text() -> String {
    var s = """
      book      \(book)
      pages     \(pages)  (threads \(threads), median of \(repeats))
      ingest    \(ms(ingestSeconds))
      layout    \(ms(layoutSeconds))
      raster    \(ms(rasterSeconds))  (thread time / threads)
      encode    \(ms(encodeSeconds))  (thread time / threads)
      total     \(ms(totalSeconds))
      pages/s   \(String(format: "%.1f", pagesPerSecond))
      peak RSS  \(String(format: "%.1f", peakRSSMegabytes)) MB

      """
    if let r = reading {
      s += String(
        """
        reading   \(r.turns) turns, \(r.hits) hits, turn p50 \(String(format: "%.2f", r.turnP50Millis)) ms, \
        p99 \(String(format: "%.2f", r.turnP99Millis)) ms, cold \(String(format: "%.2f", r.coldMillis)) ms

        """)
    }
    return s
  }

  private func ms(_ s: Double) -> String { String(format: "%8.1f ms", s * 1000) }
}

public enum Benchmark {
  public static func run(_ r: BenchRequest) throws(QuireError) -> BenchResult {
    var ingest: [Double] = []
    var layoutT: [Double] = []
    var raster: [Double] = []
    var encode: [Double] = []
    var total: [Double] = []
    var pages = 0
    var last: LaidOutBook? = nil
    for _ in 0..<r.repeats {
      let t0 = now()
      let doc: Document
      do {
        doc = try Book.open(URL(fileURLWithPath: r.book), options: r.ingest)
      } catch {
        throw .ingest(error)
      }
      let t1 = now()
      let typesetter: Typesetter
      do {
        typesetter = try Typesetter(document: doc, options: r.layout)
      } catch {
        throw .typeset("\(r.book): \(error)")
      }
      let layout = typesetter.layoutBook(threads: r.threads)
      let t2 = now()
      let book = LaidOutBook(document: doc, typesetter: typesetter, layout: layout, warnings: [])
      let renderer = book.makeRenderer()
      let counter = AtomicCounter()
      let times = StageClock()
      let all = layout.pages
      let threads = max(1, min(r.threads, all.count))
      DispatchQueue.concurrentPerform(iterations: threads) { _ in
        var rasterT = 0.0
        var encodeT = 0.0
        while true {
          let i = counter.next()
          if i >= all.count { break }
          let a = now()
          let image = renderer.render(
            all[i], width: r.layout.width, height: r.layout.height, format: r.format)
          let b = now()
          let png = PNGCodec.encode(image)
          let c = now()
          precondition(!png.isEmpty)
          rasterT += b - a
          encodeT += c - b
        }
        times.add(raster: rasterT, encode: encodeT)
      }
      let t3 = now()
      ingest.append(t1 - t0)
      layoutT.append(t2 - t1)
      raster.append(times.raster / Double(threads))
      encode.append(times.encode / Double(threads))
      total.append(t3 - t0)
      pages = all.count
      last = book
    }
    var reading: ReadingReport? = nil
    if let turns = r.readingTurns, let book = last {
      reading = try readingSimulation(book: book, request: r, turns: turns)
    }
    let t = median(total)
    return BenchResult(
      book: (r.book as NSString).lastPathComponent, pages: pages, threads: r.threads,
      repeats: r.repeats,
      ingestSeconds: median(ingest), layoutSeconds: median(layoutT), rasterSeconds: median(raster),
      encodeSeconds: median(encode), totalSeconds: t, pagesPerSecond: t > 0 ? Double(pages) / t : 0,
      peakRSSMegabytes: processPeakRSSMegabytes(), reading: reading)
  }

  static func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    guard !s.isEmpty else { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
  }
}

func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Peak resident set size of this process, from getrusage (Linux reports KiB).
public func processPeakRSSMegabytes() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_maxrss) / 1024
}

final class StageClock: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var raster = 0.0
  private(set) var encode = 0.0
  func add(raster r: Double, encode e: Double) {
    lock.lock()
    raster += r
    encode += e
    lock.unlock()
  }
}
