import CZlib
import Dispatch
import Foundation
import QuireIngest
import QuireTestSupport
import QuireTypeset
import Testing

@testable import QuireRaster

/// Measurements, not checks: disabled unless QUIRE_BENCH=1, and meant for a release build:
///
///     QUIRE_BENCH=1 swift test -c release -Xswiftc -enable-testing \
///       --filter QuireRasterTests.RasterBenchmark
///
/// Pages are real text (Pride and Prejudice from the corpus), greedy-wrapped into 600×800 px
/// with 50 px margins, 16 px Noto Serif, 22.4 px leading: as dense as a novel page gets.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["QUIRE_BENCH"] == "1"))
struct RasterBenchmark {
  static let corpus = Corpus.path("pride-and-prejudice.txt")

  static func pages(_ s: TestShaper, count: Int) -> [Page]? {
    guard let text = try? String(contentsOfFile: corpus, encoding: .utf8) else { return nil }
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" })
    guard !words.isEmpty else { return nil }
    var rest = words[...]
    var out: [Page] = []
    while out.count < count {
      if rest.isEmpty { rest = words[...] }  // start the novel again for long runs
      let (items, used) = s.page(
        words: rest, font: 0, size: 16, width: 600, height: 800, margin: 50, lineHeight: 22.4)
      out.append(makePage(items))
      rest = rest.dropFirst(Swift.max(1, used))
    }
    return out
  }

  static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

  /// This thread's CPU time: steadier than wall time on a machine shared with other builds.
  static func cpu() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }

  /// The best of three runs of `body`, in thread CPU seconds.
  static func best(_ body: () -> Void) -> Double {
    var m = Double.infinity
    for _ in 0..<3 {
      let t = cpu()
      body()
      m = Swift.min(m, cpu() - t)
    }
    return m
  }

  @Test func renderAndEncodePagesPerSecond() throws {
    let s = TestShaper(["NotoSerif-Regular.ttf"])
    let pages = try #require(Self.pages(s, count: 200), "corpus missing: \(Self.corpus)")
    let glyphs = pages[10].items.reduce(0) {
      if case .glyphs(let r) = $1 { return $0 + r.glyphs.count } else { return $0 }
    }

    // First page from a cold renderer (faces opened, cache empty).
    var t = Self.now()
    let cold = PageRenderer(fonts: s.table, images: { _ in nil })
    let first = PNGCodec.encode(cold.render(pages[0], width: 600, height: 800, format: .gray8))
    let firstMs = (Self.now() - t) * 1000

    // One thread: render alone, encode alone (CPU time, best of three).
    let r = PageRenderer(fonts: s.table, images: { _ in nil })
    var buffers: [PixelBuffer] = []
    let renderS = Self.best {
      buffers = pages.map { r.render($0, width: 600, height: 800, format: .gray8) }
    }
    var bytes = 0
    let encodeS = Self.best { bytes = buffers.reduce(0) { $0 + PNGCodec.encode($1).count } }

    // Two threads, render + encode per page, one shared renderer.
    let shared = PageRenderer(fonts: s.table, images: { _ in nil })
    let snapshot = pages
    t = Self.now()
    DispatchQueue.concurrentPerform(iterations: 2) { lane in
      var i = lane
      while i < snapshot.count {
        _ = PNGCodec.encode(shared.render(snapshot[i], width: 600, height: 800, format: .gray8))
        i += 2
      }
    }
    let bothS = Self.now() - t

    // The rejected design's floor: a lock-striped shared glyph cache takes one lock per
    // glyph. Time only the locking (16 stripes, 2 threads), none of the cache work. (NSLock:
    // `Mutex` is ~Copyable and cannot sit in an array of stripes; the figure is the floor.)
    let stripes = (0..<16).map { _ in NSLock() }
    let perLane = glyphs * pages.count / 2
    let lockCPU = Self.best {
      DispatchQueue.concurrentPerform(iterations: 2) { lane in
        var k = UInt32(lane)
        for _ in 0..<perLane {
          k = k &* 1_664_525 &+ 1_013_904_223
          let l = stripes[Int(k >> 28)]
          l.lock()
          l.unlock()
        }
      }
    }
    let n = Double(pages.count)
    print(
      """
      RasterBenchmark: \(pages.count) pages 600x800 gray8, ~\(glyphs) glyphs/page
        first page (cold renderer, render+encode): \(String(format: "%.1f", firstMs)) ms, \
      \(first.count) bytes
        1 thread render only: \(String(format: "%.0f", n / renderS)) pages/s of CPU \
      (\(String(format: "%.2f", renderS / n * 1000)) ms/page)
        1 thread encode only: \(String(format: "%.0f", n / encodeS)) pages/s of CPU \
      (\(String(format: "%.2f", encodeS / n * 1000)) ms/page), mean \(bytes / pages.count) bytes/page
        2 threads render+encode, wall clock: \(String(format: "%.0f", n / bothS)) pages/s
        striped-lock floor (1 lock/glyph, 2 threads; this thread's CPU ≈ half): \
      \(String(format: "%.3f", lockCPU / n * 1000)) ms/page
      """)
  }

  /// Peak resident set of this process so far, in MB (Linux VmHWM).
  static func peakRSSMB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    let kb = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
    return kb / 1024
  }

  /// A book's worth of pages (700) rendered, encoded and written on 2 threads, wall clock,
  /// then mutool drawing moby-dick.epub at the same size right after, for a same-load ratio.
  /// mutool's time includes its EPUB layout; ours excludes the typesetter.
  @Test func bookAgainstMutool() throws {
    let s = TestShaper(["NotoSerif-Regular.ttf"])
    let pages = try #require(Self.pages(s, count: 700), "corpus missing: \(Self.corpus)")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-raster-bench")
    try? FileManager.default.removeItem(at: dir)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let renderer = PageRenderer(fonts: s.table, images: { _ in nil })
    let snapshot = pages
    let t = Self.now()
    DispatchQueue.concurrentPerform(iterations: 2) { lane in
      var i = lane
      while i < snapshot.count {
        let png = PNGCodec.encode(
          renderer.render(snapshot[i], width: 600, height: 800, format: .gray8))
        try? Data(png).write(to: dir.appendingPathComponent("page-\(i).png"))
        i += 2
      }
    }
    let ours = Double(pages.count) / (Self.now() - t)
    var line = "RasterBenchmark book: \(pages.count) pages, 2 threads, render+encode+write: "
    line += "\(String(format: "%.0f", ours)) pages/s; test process peak RSS "
    line += "\(String(format: "%.0f", Self.peakRSSMB())) MB"
    let epub = Corpus.path("moby-dick.epub")
    if FileManager.default.fileExists(atPath: "/usr/bin/mutool"),
      FileManager.default.fileExists(atPath: epub)
    {
      let out = dir.appendingPathComponent("mutool")
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/usr/bin/mutool")
      p.arguments = [
        "draw", "-q", "-W", "600", "-H", "800", "-S", "16", "-c", "gray", "-o",
        out.appendingPathComponent("p%04d.png").path, epub,
      ]
      let m0 = Self.now()
      try p.run()
      p.waitUntilExit()
      let seconds = Self.now() - m0
      let count = (try? FileManager.default.contentsOfDirectory(atPath: out.path).count) ?? 0
      line += "; mutool draw moby-dick: \(count) pages in \(String(format: "%.2f", seconds)) s = "
      line += "\(String(format: "%.0f", Double(count) / seconds)) pages/s"
    }
    try? FileManager.default.removeItem(at: dir)
    print(line)
  }

  /// zlib for comparison: one deflate stream with the given level and strategy.
  static func zlibCompress(_ input: [UInt8], level: Int32, strategy: Int32) -> Int {
    var stream = z_stream()
    _ = czlib_deflate_init2(&stream, level, Z_DEFLATED, 15, 8, strategy)
    defer { deflateEnd(&stream) }
    var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
    var input = input
    let produced = input.withUnsafeMutableBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        stream.next_in = src.baseAddress
        stream.avail_in = uInt(src.count)
        stream.next_out = dst.baseAddress
        stream.avail_out = uInt(dst.count)
        _ = deflate(&stream, Z_FINISH)
        return Int(stream.total_out)
      }
    }
    return produced
  }

  @Test func pngEncodingTable() throws {
    let s = TestShaper(["NotoSerif-Regular.ttf"])
    let pages = try #require(Self.pages(s, count: 60), "corpus missing: \(Self.corpus)")
    let r = PageRenderer(fonts: s.table, images: { _ in nil })
    let buffers = pages.dropFirst(20).prefix(30).map {
      r.render($0, width: 600, height: 800, format: .gray8)
    }
    let n = Double(buffers.count)
    var rows: [String] = [
      "| compressor | filter | level/strategy | ms/page | bytes/page |", "|---|---|---|---:|---:|",
    ]
    func row(_ c: String, _ f: String, _ l: String, _ seconds: Double, _ bytes: Int) {
      rows.append(
        "| \(c) | \(f) | \(l) | \(String(format: "%.2f", seconds / n * 1000)) | \(bytes / buffers.count) |"
      )
    }
    for filter in PNGCodec.Filter.allCases {
      for level: Int32 in [1, 2, 3, 4, 5, 6, 9] + (filter == .up ? [12] : []) {
        var bytes = 0
        let seconds = Self.best {
          bytes = buffers.reduce(0) { $0 + PNGCodec.encode($1, filter: filter, level: level).count }
        }
        row("libdeflate", filter.rawValue, "\(level)", seconds, bytes)
      }
    }
    for filter in [PNGCodec.Filter.none, .up, .paeth] {
      for (level, strategy, name) in [
        (Int32(1), Z_DEFAULT_STRATEGY, "1 default"), (6, Z_DEFAULT_STRATEGY, "6 default"),
        (9, Z_DEFAULT_STRATEGY, "9 default"), (6, Z_FILTERED, "6 filtered"), (6, Z_RLE, "6 rle"),
      ] {
        var bytes = 0
        let seconds = Self.best {
          bytes = buffers.reduce(0) {
            $0
              + Self.zlibCompress(
                $1.withView { PNGEncoder.filteredRows($0, filter: filter) }, level: level,
                strategy: strategy) + 57
          }
        }
        row("zlib", filter.rawValue, name, seconds, bytes)
      }
    }
    let table = rows.joined(separator: "\n")
    print(table)
    try? table.write(toFile: "/tmp/png-encoding-table.md", atomically: true, encoding: .utf8)
  }
}
