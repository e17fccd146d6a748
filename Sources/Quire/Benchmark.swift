import Foundation
import QuireCache
import QuireCore
import QuireRaster

/// What `quire bench` asks for.
public struct BenchRequest: Sendable {
  /// The book.
  public var book: URL
  /// How the book is laid out.
  public var layout = LayoutSettings()
  /// How many times the whole run is repeated (stage times are medians).
  public var repeats = 1
  /// Worker threads (at least 1).
  public var threads = ProcessInfo.processInfo.activeProcessorCount
  /// Gray or colour pages.
  public var color = PageColor.gray
  /// When set, also simulate reading with the page cache for this many turns.
  public var readingTurns: Int? = nil
  /// When set, also time the book cold and through this layout cache (its entry stored).
  public var cache: LayoutCache? = nil

  /// A benchmark of `book` with the defaults.
  public init(book: URL) { self.book = book }
}

/// Stage timings of one book, medians over the repeats. The stages overlap (layout streams
/// into raster), so layout, raster and encode are thread time divided by the workers.
public struct BenchResult: Codable, Sendable {
  /// The book's file name.
  public var book: String
  /// Pages laid out and drawn per run.
  public var pages: Int
  /// Worker threads.
  public var threads: Int
  /// Runs the medians are over.
  public var repeats: Int
  /// Opening and converting the book (wall clock).
  public var ingestSeconds: Double
  /// Laying chapters out (thread time over the workers).
  public var layoutSeconds: Double
  /// Drawing pages (thread time over the workers).
  public var rasterSeconds: Double
  /// PNG-encoding pages (thread time over the workers).
  public var encodeSeconds: Double
  /// The whole run (wall clock).
  public var totalSeconds: Double
  /// Pages over total seconds.
  public var pagesPerSecond: Double
  /// The process's peak resident memory.
  public var peakRSSMegabytes: Double
  /// The reading simulation, when asked for.
  public var reading: ReadingReport?
  /// Cold against cached timings, when a layout cache was given.
  public var cache: CacheTimings? = nil

  /// JSON keys as documented (seconds and MB in the names, snake_case like ReadingReport's).
  enum CodingKeys: String, CodingKey {
    case book, pages, threads, repeats, reading, cache
    case ingestSeconds = "ingest_s"
    case layoutSeconds = "layout_s"
    case rasterSeconds = "raster_s"
    case encodeSeconds = "encode_s"
    case totalSeconds = "total_s"
    case pagesPerSecond = "pages_per_s"
    case peakRSSMegabytes = "peak_rss_mb"
  }

  /// The result as aligned text lines.
  public func text() -> String {
    var s = """
      book      \(book)
      pages     \(pages)  (threads \(threads), median of \(repeats))
      ingest    \(ms(ingestSeconds))
      layout    \(ms(layoutSeconds))  (thread time / threads)
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
    if let c = cache {
      s += """
        paginate  cold \(ms(c.coldPaginateSeconds)), cached \(ms(c.cachedPaginateSeconds))
        page      cached \(ms(c.cachedPageSeconds))  (entry \(c.entryBytes / 1024) KB)

        """
    }
    return s
  }

  private func ms(_ s: Double) -> String { String(format: "%8.1f ms", s * 1000) }
}

/// `quire bench`: stage timings of a book, nothing written.
public enum Benchmark {
  /// Runs the book through every stage `repeats` times. Layout streams as in a render
  /// (`BookPagination`), so the stages overlap: ingest is wall-clock time, layout, raster and
  /// encode are thread time over the workers, total is wall-clock.
  public static func run(_ r: BenchRequest) throws(QuireError) -> BenchResult {
    guard r.threads >= 1 else { throw .invalidRequest(.threads(r.threads)) }
    var runs: [StageTimes] = []
    var last: PaginatedBook? = nil
    for _ in 0..<max(1, r.repeats) {
      let (book, times) = try once(r)
      runs.append(times)
      last = book
    }
    var reading: ReadingReport? = nil
    if let turns = r.readingTurns, let book = last {
      reading = try readingSimulation(book: book, request: r, turns: turns)
    }
    let t = median(runs.map(\.total))
    let pages = last?.records.count ?? 0
    var cacheTimings: CacheTimings? = nil
    if let cache = r.cache { cacheTimings = try self.cacheTimings(r, cache: cache) }
    var result = BenchResult(
      book: r.book.lastPathComponent, pages: pages, threads: r.threads, repeats: runs.count,
      ingestSeconds: median(runs.map(\.ingest)), layoutSeconds: median(runs.map(\.layout)),
      rasterSeconds: median(runs.map(\.raster)), encodeSeconds: median(runs.map(\.encode)),
      totalSeconds: t, pagesPerSecond: t > 0 ? Double(pages) / t : 0,
      peakRSSMegabytes: processPeakRSSMegabytes(), reading: reading)
    result.cache = cacheTimings
    return result
  }

  private struct StageTimes {
    var ingest = 0.0, layout = 0.0, raster = 0.0, encode = 0.0, total = 0.0
  }

  /// One run: every page laid out, drawn and PNG-encoded, timed by stage.
  private static func once(_ r: BenchRequest) throws(QuireError) -> (PaginatedBook, StageTimes) {
    let start = now()
    let clock = Mutex<(raster: Double, encode: Double)>((0, 0))
    let settings = r.layout
    let format = r.color.format
    var plan = PaginationPlan()
    plan.wanted = .all
    // As a render: no more workers than the memory budget allows for pages of this size.
    plan.threads = QuireLimits.workers(
      requested: r.threads, pixels: settings.pageWidth * settings.pageHeight,
      bytesPerPixel: r.color == .gray ? 1 : 4)
    let book = try BookPagination(path: r.book.path, settings: settings, plan: plan).run(
      visit: { page, renderer throws(QuireError) in
        let a = now()
        let image = renderer.render(
          page, width: settings.pageWidth, height: settings.pageHeight, format: format)
        let b = now()
        let png = PNGCodec.encodePage(image)
        let c = now()
        if png.isEmpty { throw .internalError("page \(page.number) encoded to no bytes") }
        clock.withLock {
          $0.raster += b - a
          $0.encode += c - b
        }
      })
    let workers = Double(max(1, min(plan.threads, book.records.count)))
    let (raster, encode) = clock.withLock { $0 }
    let times = StageTimes(
      ingest: book.ingestSeconds, layout: book.layoutSeconds / workers, raster: raster / workers,
      encode: encode / workers, total: now() - start)
    return (book, times)
  }

  /// Reads through the book with the page cache, as a reader app would.
  static func readingSimulation(book: PaginatedBook, request: BenchRequest, turns: Int)
    throws(QuireError) -> ReadingReport
  {
    let source = BookPages(
      book: book, width: request.layout.pageWidth, height: request.layout.pageHeight)
    let cache = PageCache(source: source, radius: 1, layoutKey: book.key)
    do {
      return try blocking { try await ReadingSimulation.run(cache: cache, turns: turns, seed: 1) }
    } catch {
      throw .internalError("reading simulation: \(error)")
    }
  }

  static func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    guard !s.isEmpty else { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
  }
}

/// Peak resident set size of this process, from getrusage (Linux reports KiB).
public func processPeakRSSMegabytes() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_maxrss) / 1024
}
