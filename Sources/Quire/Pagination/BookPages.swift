import Foundation
import QuireCache
import QuireCore
import QuireRaster
import QuireTypeset

/// A paginated book as a `PageSource` for the page cache and the flip renderer: page index
/// i (from 0) renders page i + 1. It holds the page records only; a page's display list
/// comes from laying its chapter out again (the two most recent chapters are kept), so a
/// reader's window of pages costs a chapter or two, never the book.
final class BookPages: PageSource, Sendable {
  let book: PaginatedBook
  let renderer: PageRenderer
  let width: Int
  let height: Int
  /// The laid-out chapters kept, most recent last: spine index and numbered pages.
  private let recent = Mutex<[(spine: Int, pages: [Page])]>([])

  init(book: PaginatedBook, width: Int, height: Int) {
    self.book = book
    let resources = book.document.resources
    renderer = PageRenderer(
      fonts: book.typesetter.fonts, images: { href in resources.data(forHref: href) },
      embeddedFonts: book.document.fonts)
    self.width = width
    self.height = height
  }

  var pageCount: Int { book.records.count }

  func renderPage(_ index: Int) async throws -> PixelBuffer {
    try render(index, format: .rgba8)
  }

  /// Page `index` (from 0) drawn in `format`.
  func render(_ index: Int, format: PixelBuffer.Format) throws(QuireError) -> PixelBuffer {
    draw(try page(index), format: format)
  }

  /// `page` (a display list of this book) drawn in `format`; safe on several threads at once.
  func draw(_ page: Page, format: PixelBuffer.Format) -> PixelBuffer {
    renderer.render(page, width: width, height: height, format: format)
  }

  /// Page `index` (from 0) with its display list.
  func page(_ index: Int) throws(QuireError) -> Page {
    let records = book.records
    guard records.indices.contains(index) else {
      throw .invalidRequest(.noSuchPage(index + 1, pageCount: records.count))
    }
    let spine = records[index].page.spine
    var first = index
    while first > 0 && records[first - 1].page.spine == spine { first -= 1 }
    let pages = chapter(spine, firstNumber: first + 1)
    guard pages.indices.contains(index - first) else {
      throw .internalError("spine \(spine) laid out again gave \(pages.count) pages")
    }
    return pages[index - first]
  }

  private func chapter(_ spine: Int, firstNumber: Int) -> [Page] {
    if let kept = recent.withLock({ $0.first { $0.spine == spine } }) { return kept.pages }
    let typesetter = book.typesetter
    let pages = onLargeStack {
      typesetter.numbered(typesetter.layoutChapter(spine).pages, from: firstNumber)
    }
    recent.withLock {
      $0.removeAll { $0.spine == spine }
      $0.append((spine, pages))
      if $0.count > 2 { $0.removeFirst() }
    }
    return pages
  }
}

/// Runs `body` on a thread with a 16 MiB stack and waits for it: a chapter's block tree
/// recurses during layout, deeper than the default stacks of pool threads allow.
func onLargeStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
  let result = Mutex<T?>(nil)
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    let value = body()
    result.withLock { $0 = value }
    done.signal()
  }
  thread.stackSize = 16 << 20
  thread.start()
  done.wait()
  // The thread sets the result before signalling; should it ever not, run on this thread.
  guard let value = result.withLock({ $0.take() }) else { return body() }
  return value
}
