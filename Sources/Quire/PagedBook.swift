import Foundation
import QuireCache
import QuireCore
import QuireIngest
import QuireRaster

/// A book's bibliographic facts, as the manifest and `PagedBook` give them.
public struct BookInfo: Codable, Sendable, Hashable {
  /// The title.
  public var title: String
  /// Authors and other creators, in the book's order.
  public var creators: [String]
  /// The book's language (BCP 47), when it names one.
  public var language: String?
  /// The book's identifier (ISBN, UUID…), when it has one.
  public var identifier: String?
  /// Page progression: "ltr" or "rtl".
  public var direction: String

  init(_ m: BookMetadata) {
    title = m.title
    creators = m.creators
    language = m.language
    identifier = m.identifier
    direction = m.direction.rawValue
  }
}

/// A book opened and paginated, whose pages are drawn on demand: what a reader app holds.
///
/// Opening lays the whole book out once to number its pages, keeping only each page's source
/// map; `page(_:)` lays the page's chapter out again and draws it, so memory does not grow
/// with the book.
///
/// ```swift
/// let book = try PagedBook(contentsOf: url)
/// let page = try book.page(3)            // a PixelBuffer, 600x800
/// let turn = try book.turn(from: 3)      // a curl to page 4
/// ```
public final class PagedBook: Sendable {
  let pages: BookPages
  let settings: LayoutSettings

  /// Opens and paginates the book at `url` (an .epub, an unpacked EPUB folder, .xhtml/.html
  /// or plain text).
  public convenience init(
    contentsOf url: URL, layout: LayoutSettings = LayoutSettings(),
    threads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) throws(QuireError) {
    try self.init(url.path, layout: layout, threads: threads, through: nil)
  }

  /// Paginates through page `through` only, when given (the pages a turn needs).
  init(_ path: String, layout: LayoutSettings, threads: Int, through: Int?)
    throws(QuireError)
  {
    guard threads >= 1 else { throw .invalidRequest(.threads(threads)) }
    var plan = PaginationPlan()
    plan.threads = threads
    if let through {
      plan.wanted = PageSelection(ranges: [1...max(1, through)])
      plan.stopEarly = true
    }
    let book = try BookPagination(path: path, settings: layout, plan: plan).run(visit: { _, _ in })
    pages = BookPages(book: book, width: layout.pageWidth, height: layout.pageHeight)
    settings = layout
  }

  /// Title, creators, language, identifier and page progression.
  public var info: BookInfo { BookInfo(pages.book.document.metadata) }

  /// The number of pages (of those laid out, when opened for a turn only).
  public var pageCount: Int { pages.pageCount }

  /// Everything that was worked around while reading and laying out the book.
  public var diagnostics: DiagnosticLog { pages.book.diagnostics }

  /// The layout key: equal keys give equal pages (a cache key for page counts and maps).
  public var layoutKey: String { pages.book.key }

  /// Page `number` (from 1), drawn at the page size in `color`.
  public func page(_ number: Int, color: PageColor = .rgb) throws(QuireError) -> PixelBuffer {
    guard number >= 1 else { throw .invalidRequest(.pageNumberBelowOne(number)) }
    return try pages.render(number - 1, format: color.format)
  }

  /// Page `number` (from 1) as PNG bytes, the bytes `quire render` writes for it.
  public func pagePNG(_ number: Int, color: PageColor = .gray) throws(QuireError) -> Data {
    Data(PNGCodec.encodePage(try page(number, color: color)))
  }

  /// Whether the book reads right to left (its page-progression direction).
  var rightToLeft: Bool { pages.book.document.metadata.direction == .rtl }
}

extension PixelBuffer {
  /// The image as PNG bytes (deterministic: no time or text chunks).
  public func pngData() -> Data { Data(PNGCodec.encode(self)) }
}

/// Runs async work to completion from synchronous code (the jobs are synchronous).
func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
  let result = Mutex<Result<T, Error>?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    let r: Result<T, Error>
    do { r = .success(try await work()) } catch { r = .failure(error) }
    result.withLock { $0 = r }
    done.signal()
  }
  done.wait()
  guard let r = result.withLock({ $0.take() }) else {
    throw QuireError.internalError("async work finished without a result")
  }
  return try r.get()
}
