import Foundation

/// A laid-out book as a `PageSource` for the page cache and the flip renderer: page index i
/// (from 0) renders page i + 1 to RGBA8.
public struct BookPages: PageSource {
  public let book: LaidOutBook
  public let renderer: PageRenderer
  public let width: Int
  public let height: Int

  public init(book: LaidOutBook, options: LayoutOptions) {
    self.book = book
    renderer = book.makeRenderer()
    width = options.width
    height = options.height
  }

  public var pageCount: Int { book.layout.pages.count }

  public func renderPage(_ index: Int) async throws -> PixelBuffer {
    guard book.layout.pages.indices.contains(index) else {
      throw PageCacheError.pageOutOfRange(index: index, pageCount: pageCount)
    }
    return renderer.render(book.layout.pages[index], width: width, height: height, format: .rgba8)
  }
}

/// Runs async work to completion from synchronous code (the CLI is synchronous).
func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
  let box = ResultBox<T>()
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
    done.signal()
  }
  done.wait()
  return try box.result!.get()
}

extension Benchmark {
  static func readingSimulation(book: LaidOutBook, request: BenchRequest, turns: Int)
    throws(QuireError)
    -> ReadingReport
  {
    let source = BookPages(book: book, options: request.layout)
    let cache = PageCache(source: source, radius: 1, layoutKey: book.layout.key)
    do {
      return try blocking { try await ReadingSimulation.run(cache: cache, turns: turns, seed: 1) }
    } catch {
      throw .internalError("reading simulation: \(error)")
    }
  }
}

/// Written once by the task, read after the semaphore: the semaphore orders the accesses.
private final class ResultBox<T>: @unchecked Sendable {
  var result: Result<T, Error>?
}
