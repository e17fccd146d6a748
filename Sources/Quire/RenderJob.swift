import Foundation
import QuireCore
import QuireRaster
import QuireTypeset

/// What `quire render` asks for.
public struct RenderRequest: Sendable {
  /// The book.
  public var book: URL
  /// The folder the pages and manifest.json go to (created if needed).
  public var output: URL
  /// How the book is laid out.
  public var layout = LayoutSettings()
  /// Gray or colour pages.
  public var color = PageColor.gray
  /// The pages to render; pages past the end of the book are ignored.
  public var pages = PageSelection.all
  /// Worker threads (at least 1).
  public var threads = ProcessInfo.processInfo.activeProcessorCount
  /// Add each page's line and image boxes to the manifest.
  public var boxes = false
  /// Fail on any diagnostic instead of working around it.
  public var strict = false
  /// Flush every page file and the manifest to the disk before they are renamed into place,
  /// and the folder after (`--fsync`). Without it every file is still whole or absent for
  /// any reader and after the process dies (temporary name, then rename), but a power cut
  /// may lose the last files written: a render's output is derived from the book and a
  /// rerun rebuilds it, so durability is the caller's choice, not a cost of every render (two
  /// flushes took ~30 ms, more than drawing a page from the layout cache).
  public var flushToDisk = false
  /// The persisted layout cache: a few pages of a book seen before are drawn from it (only
  /// their chapters laid out), and every complete layout is stored in it. nil: none.
  public var cache: LayoutCache? = nil
  /// Also write two-page spread images (`spread-NNNN.png`, Spreads.swift).
  public var spreads = false
  /// How the page files are compressed (`--png-compression`): the same pixels either way;
  /// the layout and its cache key do not depend on it.
  public var compression = PNGCompression.standard

  /// The worker threads the render runs: `threads`, cut to what
  /// `QuireLimits.workerMemoryBudget` allows for pages of this size and colour.
  public var workerThreads: Int {
    QuireLimits.workers(
      requested: threads, pixels: layout.pageWidth * layout.pageHeight,
      bytesPerPixel: color == .gray ? 1 : 4)
  }

  /// A render of every page of `book` into `output` with the defaults.
  public init(book: URL, output: URL) {
    self.book = book
    self.output = output
  }
}

/// What a render did.
public struct RenderSummary: Sendable {
  /// The book's page count.
  public var pageCount: Int
  /// The pages written.
  public var rendered: Int
  /// The worker threads used (see `RenderRequest.workerThreads`).
  public var threads: Int
  /// Page files of an earlier render that were removed.
  public var removedStalePages: Int
  /// What was worked around (also in manifest.json).
  public var diagnostics: DiagnosticLog
  /// Where a render from the layout cache took its pages (nil: the whole-book path).
  var cachedSources: CachedLayout.Sources? = nil
}

/// `quire render`: page images and manifest.json.
public enum RenderJob {
  /// Renders the selected pages to `output/page-NNNN.png` and writes `output/manifest.json`.
  /// `progress(done, total)` is called from worker threads; `total` is the number of pages to
  /// render when the selection is bounded, else the selected pages known so far (it grows).
  ///
  /// Progressive and streaming (see `BookPagination`): with a bounded selection the selected
  /// pages are written before the rest of the book is read; every page is rendered as soon as
  /// its number is known and its display list dropped once written.
  ///
  /// The folder is locked for the render (`OutputFolder.lock`; another render into it fails
  /// with `cannotCreate`); an earlier manifest is removed before the first page is written,
  /// page files this render did not write are removed at the end, and the manifest is
  /// written last (flushed to the disk with the pages and the folder when `flushToDisk`).
  public static func run(
    _ request: RenderRequest, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
  ) throws(QuireError) -> RenderSummary {
    if let lowest = request.pages.lowest, lowest < 1 {
      throw .invalidRequest(.pageNumberBelowOne(lowest))
    }
    guard request.threads >= 1 else { throw .invalidRequest(.threads(request.threads)) }
    try request.layout.check()
    try FontFile.check(request.layout.font)
    let out = try OutputFolder(request.output.path)
    try out.lock()
    defer { out.unlock() }
    try out.remove(manifestName)
    // The book starts opening on another thread while the key is made and the entry read.
    let early =
      request.cache != nil && mayDrawFromCache(request)
      ? EarlyOpening(path: request.book.path, options: request.layout.ingestOptions) : nil
    defer { early?.wait() }
    let cacheKey = cacheKey(request)
    if let cacheKey,
      let hit = try cachedRun(request, key: cacheKey, out: out, early: early, progress: progress)
    {
      return hit
    }
    let settings = request.layout
    let flush = request.flushToDisk
    let format = request.color.format
    let written = Mutex<[Int]>([])
    // Each drawn page's manifest entry, encoded by the worker that drew it (named with four
    // digits), so the manifest written after the last page only splices them in. Not with
    // boxes: those entries are large (lines, blocks), and the records hold the boxes anyway.
    let entries = Mutex<[Int: Data]>([:])
    let boxes = request.boxes
    let counts = Mutex<(done: Int, known: Int)>((0, 0))
    let total = request.pages.boundedCount
    var plan = PaginationPlan()
    plan.wanted = request.pages
    plan.keepBoxes = request.boxes
    plan.strict = request.strict
    plan.threads = request.workerThreads
    // Names use four digits while the page count is unknown; widened at the end if needed.
    let book = try BookPagination(path: request.book.path, settings: settings, plan: plan).run(
      visit: { page, renderer throws(QuireError) in
        let size = settings.outputSize(of: page)
        let image = renderer.render(page, width: size.width, height: size.height, format: format)
        let name = pageFileName(page.number, digits: 4)
        try out.write(
          PNGCodec.encodePage(image, compression: request.compression), as: name, sync: flush)
        if !boxes {
          let entry = try Manifest.encode(
            Manifest.pageInfo(page, files: [page.number: name], boxes: false))
          entries.withLock { $0[page.number] = entry }
        }
        written.withLock { $0.append(page.number) }
        let (done, known) = counts.withLock {
          $0.done += 1
          return $0
        }
        progress(done, total ?? known)
      },
      wantedKnown: { counts.withLock { $0.known += 1 } })
    let pageCount = book.records.count
    let numbers = request.pages.pages(in: pageCount)
    if numbers.isEmpty {
      throw .invalidRequest(.noSelectedPage(request.pages, pageCount: pageCount))
    }
    let files = try nameFiles(
      written.withLock { $0.sorted() }, asked: numbers, pageCount: pageCount, in: out)
    let stale = try out.removeStalePages(keeping: Set(files.values))
    let spreads =
      request.spreads
      ? try SpreadPlan.write(
        SpreadPlan.pair(
          book.records.map { ($0.page.number, $0.page.rendition) },
          direction: book.document.metadata.direction, shown: { files[$0] != nil }),
        pages: files, in: out, format: format, compression: request.compression)
      : nil
    // The layout cache's entry is built and stored beside the manifest: both read the book.
    let storing = request.cache.flatMap { cache in
      cacheKey.map { key in
        Background { cache.remember(book, settings: settings, key: key, boxes: boxes) }
      }
    }
    defer { storing?.wait() }
    // The workers' entries name four-digit files: of no use once the names are widened.
    let encoded = pageCount > 9999 ? [:] : entries.withLock { $0 }
    try out.write(manifestName, sync: flush) { file throws(QuireError) in
      try Manifest.write(
        book, settings: settings, files: files, boxes: boxes, spreads: spreads,
        encoded: encoded, to: file)
    }
    if flush { try out.sync() }
    return RenderSummary(
      pageCount: pageCount, rendered: files.count, threads: request.workerThreads,
      removedStalePages: stale, diagnostics: book.diagnostics)
  }

  /// Checks that the written pages are the asked ones and widens their names when the book
  /// has more than 9999 pages; returns page number → file name.
  private static func nameFiles(
    _ written: [Int], asked: [Int], pageCount: Int, in out: OutputFolder
  ) throws(QuireError) -> [Int: String] {
    guard written == asked else {
      throw .internalError("rendered \(written.count) pages, \(asked.count) were asked for")
    }
    let digits = max(4, String(pageCount).count)
    var files: [Int: String] = [:]
    for n in written {
      files[n] = pageFileName(n, digits: digits)
      guard digits > 4 else { continue }
      let from = out.root.appendingPathComponent(pageFileName(n, digits: 4)).path
      let to = out.root.appendingPathComponent(pageFileName(n, digits: digits)).path
      if rename(from, to) != 0 {
        throw .cannotCreate(path: to, reason: "rename: \(String(cString: strerror(errno)))")
      }
    }
    return files
  }
}

/// Work run on a thread of its own while the caller goes on; `wait()` returns once it is done.
final class Background: Sendable {
  private let done = DispatchSemaphore(value: 0)

  init(_ body: @escaping @Sendable () -> Void) {
    let done = self.done
    Thread {
      body()
      done.signal()
    }.start()
  }

  /// Blocks until the work has finished. Call it once.
  func wait() { done.wait() }
}

/// The manifest's file name in a render's folder.
let manifestName = "manifest.json"

/// `page-0001.png`: the number zero-padded to `digits`.
func pageFileName(_ n: Int, digits: Int) -> String {
  let s = String(n)
  return "page-" + String(repeating: "0", count: max(0, digits - s.count)) + s + ".png"
}
