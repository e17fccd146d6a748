import Foundation
import QuireCore

/// What `quire render` asks for.
public struct RenderRequest: Sendable {
  public var book: String
  public var output: String
  public var ingest = IngestOptions()
  public var layout = LayoutOptions()
  public var format: PixelBuffer.Format = .gray8
  /// `--pages` text ("1-10,15"); nil renders every page.
  public var pages: String? = nil
  public var threads: Int = ProcessInfo.processInfo.activeProcessorCount
  public var boxes = false
  public var strict = false
  public init(book: String, output: String) {
    self.book = book
    self.output = output
  }
}

public struct RenderSummary: Sendable {
  public var pageCount: Int
  public var rendered: Int
  public var warnings: [String]
}

/// A book opened and laid out once: the shared start of render, paginate, bench and flip.
public struct LaidOutBook: Sendable {
  public var document: Document
  public var typesetter: Typesetter
  public var layout: BookLayout
  public var warnings: [String]

  public static func open(
    _ path: String, ingest: IngestOptions, layout options: LayoutOptions, threads: Int
  ) throws(QuireError) -> LaidOutBook {
    let doc: Document
    do {
      doc = try Book.open(URL(fileURLWithPath: path), options: ingest)
    } catch {
      throw .ingest(error)
    }
    let typesetter: Typesetter
    do {
      typesetter = try Typesetter(document: doc, options: options)
    } catch {
      throw .typeset("\(path): \(error)")
    }
    let layout = typesetter.layoutBook(threads: max(1, threads))
    let warnings = doc.warnings.map(\.description) + layout.warnings.map(\.description)
    return LaidOutBook(document: doc, typesetter: typesetter, layout: layout, warnings: warnings)
  }

  /// A renderer for this book's pages (fonts and images from the book).
  public func makeRenderer() -> PageRenderer {
    let resources = document.resources
    return PageRenderer(fonts: layout.fonts, images: { href in resources.data(forHref: href) })
  }
}

public enum RenderJob {
  /// Renders the asked pages to `DIR/page-NNNN.png` and writes `DIR/manifest.json`.
  /// `progress(done, total)` is called from worker threads; `total` is the number of pages
  /// to render when `--pages` names them all, else the pages known so far (it grows).
  ///
  /// Progressive: the package is opened without its chapters; when `--pages` is bounded,
  /// chapters are converted and laid out in spine order, in growing batches, only until the
  /// asked pages are known, and those are written first. Then the rest of the book is read
  /// and laid out in parallel for the manifest (page count, TOC pages, every page's source
  /// map). Every page is rendered as soon as its number is known and its display list is
  /// dropped once written (see PageStream), so memory does not grow with the book.
  public static func run(
    _ request: RenderRequest, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
  ) throws(QuireError) -> RenderSummary {
    let out = try OutputFolder(request.output)
    let spec: PageSpec? = try request.pages.map { text throws(QuireError) in try PageSpec(text) }
    let loader: ChapterLoader
    do {
      loader = try Book.openLazily(URL(fileURLWithPath: request.book), options: request.ingest)
    } catch {
      throw .ingest(error)
    }
    let threads = max(1, request.threads)
    let width = request.layout.width
    let height = request.layout.height
    let format = request.format
    let counter = AtomicCounter()
    let known = AtomicCounter()
    let wanted: @Sendable (Int) -> Bool = { spec?.contains($0) ?? true }
    // Names use four digits while the page count is unknown; widened at the end if needed.
    var written: [Int] = []
    let writtenBox = WrittenPages()

    var records: [PageRecord] = []
    var chapterWarnings: [Diagnostic] = []
    var rendererWarnings: [String] = []

    /// Lays out `range` with `typesetter`, rendering the wanted pages as they are numbered.
    func stream(_ typesetter: Typesetter, _ resources: any ResourceStore, _ range: Range<Int>)
      throws(QuireError)
    {
      let renderer = PageRenderer(
        fonts: typesetter.fonts, images: { href in resources.data(forHref: href) })
      let total: Int? = spec.flatMap { $0.limit == nil ? nil : $0.count }
      let s = PageStream(
        typesetter: typesetter, chapters: range, firstPage: records.count + 1,
        keepBoxes: request.boxes, strictAbout: request.strict ? request.book : nil,
        wanted: { n in
          let w = wanted(n)
          if w && total == nil { _ = known.next() }
          return w
        },
        render: { page throws(QuireError) in
          let image = renderer.render(page, width: width, height: height, format: format)
          try out.write(PNGCodec.encode(image), as: pageFileName(page.number, digits: 4))
          writtenBox.add(page.number)
        },
        rendered: {
          let done = counter.finished()
          progress(done, total ?? known.peek())
        })
      let result = try s.run(threads: threads)
      records += result.records
      chapterWarnings += result.warnings
      // Only the warnings are kept: the renderer holds its typesetter's fonts.
      rendererWarnings += renderer.warnings
    }

    // The asked pages first, from growing prefixes of the book.
    var next = 0
    if let limit = spec?.limit, !request.strict {
      var batch = 1
      while next < loader.count && records.count < limit {
        let end = min(loader.count, next + batch)
        let prefix: Document
        do {
          prefix = try loader.prefix(end)
        } catch {
          throw .ingest(error)
        }
        let typesetter: Typesetter
        do {
          typesetter = try Typesetter(document: prefix, options: request.layout)
        } catch {
          throw .typeset("\(request.book): \(error)")
        }
        try stream(typesetter, prefix.resources, next..<end)
        next = end
        batch *= 2
      }
    }

    // The whole book: exactly what Book.open gives, for the manifest and the other pages.
    let document: Document
    do {
      document = try loader.document()
    } catch {
      throw .ingest(error)
    }
    let typesetter: Typesetter
    do {
      typesetter = try Typesetter(document: document, options: request.layout)
    } catch {
      throw .typeset("\(request.book): \(error)")
    }
    if request.strict,
      let first = (document.warnings.map(\.description) + typesetter.warnings.map(\.description))
        .first
    {
      throw .strict("\(request.book): \(first)")
    }
    if next < document.chapters.count {
      try stream(typesetter, document.resources, next..<document.chapters.count)
    }

    let pageCount = records.count
    if pageCount == 0 {
      // Every spine document was unreadable or empty: bad data, not a usage mistake.
      let why = document.warnings.first.map { ": \($0)" } ?? ""
      throw .ingest(.badData(file: request.book, reason: "no readable content to lay out\(why)"))
    }
    let numbers: [Int]
    if let list = request.pages {
      numbers = try parsePages(list, pageCount: pageCount)
    } else {
      numbers = Array(stride(from: 1, through: pageCount, by: 1))
    }
    written = writtenBox.sorted()
    precondition(
      written == numbers, "rendered pages \(written.count) differ from asked \(numbers.count)")
    let digits = max(4, String(pageCount).count)
    if digits > 4 {
      for n in written {
        let from = out.root.appendingPathComponent(pageFileName(n, digits: 4)).path
        let to = out.root.appendingPathComponent(pageFileName(n, digits: digits)).path
        if rename(from, to) != 0 {
          throw .cannotCreate(path: to, reason: "rename: \(String(cString: strerror(errno)))")
        }
      }
    }

    let layoutDiagnostics = typesetter.warnings + chapterWarnings
    var warnings =
      document.warnings.map(\.description) + layoutDiagnostics.map(\.description)
      + rendererWarnings
    warnings = Array(NSOrderedSet(array: warnings).array as! [String])
    if request.strict, let first = (chapterWarnings.map(\.description) + rendererWarnings).first {
      throw .strict("\(request.book): \(first)")
    }
    // The fonts the pages use, in first-use order (as Typesetter.layoutBook renumbers them).
    var used: [FontFace] = []
    var seen: Set<FontFace> = []
    for r in records {
      for f in r.faces where seen.insert(f).inserted { used.append(f) }
    }
    let layout = BookLayout(
      pages: records.map(\.page), fonts: FontTable(faces: used), key: typesetter.key,
      warnings: layoutDiagnostics)
    var files: [Int: String] = [:]
    for n in written { files[n] = pageFileName(n, digits: digits) }
    let manifest = Manifest(
      document: document, layout: layout, options: request.layout, files: files,
      boxes: request.boxes, warnings: warnings)
    try out.write(manifest.encoded(), as: "manifest.json")
    return RenderSummary(pageCount: pageCount, rendered: written.count, warnings: warnings)
  }
}

/// `page-0001.png`: the number zero-padded to `digits`.
func pageFileName(_ n: Int, digits: Int) -> String {
  let s = String(n)
  return "page-" + String(repeating: "0", count: max(0, digits - s.count)) + s + ".png"
}

/// `--pages` before the page count is known: its syntax checked as `parsePages` does, and
/// how far into the book it reaches.
struct PageSpec: Sendable {
  var ranges: [(first: Int, last: Int?)] = []

  init(_ text: String) throws(QuireError) {
    for part in text.split(separator: ",") {
      let ends = part.split(separator: "-", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard (1...2).contains(ends.count), let a = Int(ends[0]), a >= 1 else {
        throw .usage("--pages: bad range '\(part)'")
      }
      var b: Int? = a
      if ends.count == 2 {
        if ends[1].isEmpty {
          b = nil
        } else {
          guard let n = Int(ends[1]), n >= a else { throw .usage("--pages: bad range '\(part)'") }
          b = n
        }
      }
      ranges.append((a, b))
    }
  }

  func contains(_ n: Int) -> Bool {
    ranges.contains { n >= $0.first && ($0.last.map { n <= $0 } ?? true) }
  }

  /// The last page asked for, nil when a range is open-ended.
  var limit: Int? {
    var m = 0
    for r in ranges {
      guard let last = r.last else { return nil }
      m = max(m, last)
    }
    return m
  }

  /// How many distinct pages the spec names, for a bounded spec (the progress total; pages
  /// past the book's end still count until the end is known).
  var count: Int {
    var s = Set<Int>()
    for r in ranges {
      if let last = r.last { for n in r.first...min(last, r.first + 100_000) { s.insert(n) } }
    }
    return s.count
  }
}

/// Page numbers written so far, from worker threads.
final class WrittenPages: @unchecked Sendable {
  // @unchecked: `numbers` is only touched under `lock`.
  private let lock = NSLock()
  private var numbers: [Int] = []
  func add(_ n: Int) {
    lock.lock()
    numbers.append(n)
    lock.unlock()
  }
  func sorted() -> [Int] {
    lock.lock()
    defer { lock.unlock() }
    return numbers.sorted()
  }
}

/// Parses `--pages` ("1-10,15", "3-", "7") into sorted unique page numbers ≤ pageCount.
public func parsePages(_ text: String, pageCount: Int) throws(QuireError) -> [Int] {
  let spec = try PageSpec(text)
  var pages = Set<Int>()
  for r in spec.ranges where r.first <= pageCount {
    for p in r.first...min(r.last ?? pageCount, pageCount) { pages.insert(p) }
  }
  if pages.isEmpty {
    throw .usage("--pages '\(text)' names no page of this book (it has \(pageCount))")
  }
  return pages.sorted()
}

/// A shared counter for handing out work to threads.
final class AtomicCounter: @unchecked Sendable {
  // A lock, not an atomic: the toolchain's Synchronization module works too, but this is
  // called once per page, far from any hot loop.
  private let lock = NSLock()
  private var value = 0
  private var done = 0
  func next() -> Int {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return value - 1
  }
  func peek() -> Int {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
  func finished() -> Int {
    lock.lock()
    defer { lock.unlock() }
    done += 1
    return done
  }
}
