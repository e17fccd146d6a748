import Foundation

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
    let warnings = doc.warnings.map(\.description) + layout.warnings
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
  /// `progress(done, total)` is called from worker threads.
  public static func run(
    _ request: RenderRequest, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
  ) throws(QuireError) -> RenderSummary {
    let out = try OutputFolder(request.output)
    let book = try LaidOutBook.open(
      request.book, ingest: request.ingest, layout: request.layout, threads: request.threads)
    if request.strict, let first = book.warnings.first {
      throw .strict("\(request.book): \(first)")
    }
    let pages = book.layout.pages
    let numbers: [Int]
    if let list = request.pages {
      do {
        numbers = try parsePages(list, pageCount: pages.count)
      } catch {
        throw .usage(error.description)
      }
    } else {
      numbers = pages.map(\.number)
    }
    let width = request.layout.width
    let digits = max(4, String(pages.count).count)
    @Sendable func fileName(_ n: Int) -> String {
      let s = String(n)
      return "page-" + String(repeating: "0", count: max(0, digits - s.count)) + s + ".png"
    }

    let renderer = book.makeRenderer()
    let failure = FirstFailure()
    let counter = AtomicCounter()
    let threads = max(1, min(request.threads, numbers.count))
    let height = request.layout.height
    let format = request.format
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      while failure.get() == nil {
        let i = counter.next()
        if i >= numbers.count { break }
        let page = pages[numbers[i] - 1]
        let image = renderer.render(page, width: width, height: height, format: format)
        let png = PNGCodec.encode(image)
        do throws(QuireError) {
          try out.write(png, as: fileName(page.number))
        } catch {
          failure.set(error)
        }
        progress(counter.finished(), numbers.count)
      }
    }
    if let e = failure.get() { throw e }

    var warnings = book.warnings + renderer.warnings
    warnings = Array(NSOrderedSet(array: warnings).array as! [String])
    if request.strict, let first = renderer.warnings.first {
      throw .strict("\(request.book): \(first)")
    }
    var files: [Int: String] = [:]
    for n in numbers { files[n] = fileName(n) }
    let manifest = Manifest(
      document: book.document, layout: book.layout, options: request.layout, files: files,
      boxes: request.boxes, warnings: warnings)
    try out.write(manifest.encoded(), as: "manifest.json")
    return RenderSummary(pageCount: pages.count, rendered: numbers.count, warnings: warnings)
  }
}

/// Parses `--pages` ("1-10,15", "3-", "7") into sorted unique page numbers ≤ pageCount.
public func parsePages(_ text: String, pageCount: Int) throws(QuireError) -> [Int] {
  var pages = Set<Int>()
  for part in text.split(separator: ",") {
    let ends = part.split(separator: "-", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard (1...2).contains(ends.count), let a = Int(ends[0]), a >= 1 else {
      throw .usage("--pages: bad range '\(part)'")
    }
    var b = a
    if ends.count == 2 {
      if ends[1].isEmpty {
        b = pageCount
      } else {
        guard let n = Int(ends[1]), n >= a else { throw .usage("--pages: bad range '\(part)'") }
        b = n
      }
    }
    if a > pageCount { continue }
    for p in a...min(b, pageCount) { pages.insert(p) }
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
  func finished() -> Int {
    lock.lock()
    defer { lock.unlock() }
    done += 1
    return done
  }
}

/// The first error any worker hit.
final class FirstFailure: @unchecked Sendable {
  private let lock = NSLock()
  private var error: QuireError?
  func set(_ e: QuireError) {
    lock.lock()
    if error == nil { error = e }
    lock.unlock()
  }
  func get() -> QuireError? {
    lock.lock()
    defer { lock.unlock() }
    return error
  }
}
