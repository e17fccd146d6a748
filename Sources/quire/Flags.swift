import Quire

/// Runs a library job, turning its request problems into usage errors worded with the
/// CLI's flags (the library names its fields, not flags). `book` and `pages` are the
/// arguments as given, for the message.
func withFlagNames<T>(
  book: String?, pages: String? = nil, _ job: () throws(QuireError) -> T
) throws -> T {
  do {
    return try job()
  } catch .invalidRequest(let problem) {
    throw UsageError(flagWording(problem, book: book, pages: pages))
  }
}

/// One stderr line for a request problem, in terms of the options that caused it.
func flagWording(_ p: RequestProblem, book: String?, pages: String?) -> String {
  let file = book ?? "the book"
  switch p {
  case .pageNumberBelowOne(let n): return "--page \(n): pages are numbered from 1"
  case .noSelectedPage(let s, let n):
    return "--pages '\(pages ?? s.description)' names no page of \(file) (it has \(n))"
  case .noSuchPage(let page, let n): return "--page \(page): \(file) has \(n) pages"
  case .nothingToTurnTo(let page, let d):
    return "--page \(page): no page to turn to (\(d == .next ? "last" : "first") page of \(file))"
  case .layoutSettings(let m):
    return "layout options (--size, --margins, --font-size, --line-height): \(m)"
  case .timing(let m): return "--frames/--duration/--fps: \(m)"
  case .outputKind(let path): return "-o \(path): use a folder, .png/.apng, .webp, .mp4 or .webm"
  case .shelfSize(let n): return "shelf: give 1…200 books (got \(n))"
  case .noSuchShelfBook(let k, let n): return "--front \(k): there are \(n) books"
  case .threads(let n): return "--threads \(n): at least 1"
  case .canvas(let m): return "--size/--canvas (with --spread, twice the width): \(m)"
  case .batchSize(let n): return "batch: at most \(n) books in one batch: split the inputs"
  case .flipbook(let m): return "flipbook (--pages, --frames/--duration, --size): \(m)"
  }
}
