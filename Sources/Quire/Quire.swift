// Quire: the façade that ties the stages together for the CLI and for library users.
//
//   BookPagination: Book.open, or Book.openLazily when some pages come first (Ingest) →
//     Typesetter per chapter (Typeset), streamed in spine order by PageStream → each wanted
//     page to a visitor (PageRenderer + PNGCodec in RenderJob, timers in Benchmark, nothing
//     in PaginateJob) → thin PageRecords;
//   PagedBook: the records plus chapters laid out again on demand (BookPages), the source of
//     the page cache (Cache) that the effects (Motion) take page images from.
//
// One layout path: every command — render, paginate, bench, flip, open, shelf — lays a book
// out through `BookPagination`, which streams chapters in spine order, numbers pages, can
// stop as soon as the wanted pages are known (the first pages of a `--pages` render land
// before the rest of the book is read), and keeps no page's display list once it has been
// visited, so memory stays flat in the book's length.
//
// The public surface is this module's requests, results and errors, all typed: a page
// selection is ranges, a turn style an enum, a font a family or a file, warnings are
// `Diagnostic`s aggregated in a `DiagnosticLog`. Strings are parsed into these only by the
// CLI, and no error of the library names a CLI flag. The stage modules are not re-exported;
// the few of their types that are part of the API (pixels, the colour type, turn geometry, timing curves,
// diagnostics, the reading report) are re-exported one by one below.
//
// The façade owns no algorithm: it wires stages, runs pages on worker threads, and keeps
// output deterministic (page files and the manifest are identical for identical inputs,
// whatever the thread count).
import Foundation
import QuireCore
import QuireIngest
import QuireTypeset

@_exported import struct QuireCache.ReadingReport
@_exported import struct QuireCore.Diagnostic
@_exported import struct QuireCore.DiagnosticLog
@_exported import enum QuireCore.PNGCompression
@_exported import struct QuireCore.PixelBuffer
@_exported import struct QuireCore.RGBA
@_exported import enum QuireMotion.LeafBack
@_exported import struct QuireMotion.TimingFunction
@_exported import enum QuireMotion.TurnCorner
@_exported import enum QuireMotion.TurnDirection

/// Why a job failed. Each case says which file and what failed; the CLI maps each case to
/// one stderr line and a sysexits code.
public enum QuireError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The book (or another input file, e.g. a font) is missing or unreadable.
  case cannotOpen(file: String, reason: String)
  /// The bytes are not a book that can be read, or nothing in it could be laid out.
  case badData(file: String, reason: String)
  /// A real book using something Quire refuses (DRM, encrypted entries).
  case unsupported(file: String, reason: String)
  /// A font could not be used (the file, and what the font library said).
  case badFont(file: String, reason: String)
  /// Damaged content that a strict job refuses instead of working around.
  case strict(Diagnostic)
  /// A request that makes no sense (for this book); see `RequestProblem`.
  case invalidRequest(RequestProblem)
  /// A file or folder could not be created or written.
  case cannotCreate(path: String, reason: String)
  /// Quire's own broken expectation.
  case internalError(String)

  /// One line: the file and what went wrong.
  public var description: String {
    switch self {
    case .cannotOpen(let f, let r): return "\(f): cannot open: \(r)"
    case .badData(let f, let r): return "\(f): \(r)"
    case .unsupported(let f, let r): return "\(f): unsupported: \(r)"
    case .badFont(let f, let r): return "\(f): \(r)"
    case .strict(let d): return "strict: \(d.description)"
    case .invalidRequest(let p): return p.description
    case .cannotCreate(let f, let r): return "\(f): cannot create: \(r)"
    case .internalError(let s): return "internal error: \(s)"
    }
  }

  /// Whether the failure stops everything, not only this book: an unusable request, an output
  /// that cannot be written or an internal error. A book that cannot be read (`cannotOpen`,
  /// `badData`, `unsupported`, `badFont`, `strict`) concerns that book alone; a batch goes on.
  public var isFatal: Bool {
    switch self {
    case .invalidRequest, .cannotCreate, .internalError: return true
    case .cannotOpen, .badData, .unsupported, .badFont, .strict: return false
    }
  }

  /// sysexits(3): 64 usage, 65 bad data, 66 cannot open, 73 cannot create, 70 internal.
  public var exitCode: Int32 {
    switch self {
    case .cannotOpen: return 66
    case .badData, .unsupported, .badFont, .strict: return 65
    case .invalidRequest: return 64
    case .cannotCreate: return 73
    case .internalError: return 70
    }
  }
}

/// A request the library cannot carry out as asked. The cases name the request's fields,
/// never a command-line flag: the CLI words them in its own terms.
public enum RequestProblem: Sendable, Equatable, CustomStringConvertible {
  /// Page numbers count from 1.
  case pageNumberBelowOne(Int)
  /// The page selection names no page of the book.
  case noSelectedPage(PageSelection, pageCount: Int)
  /// A page that the book does not have.
  case noSuchPage(Int, pageCount: Int)
  /// A turn from the first or last page that has no page to turn to.
  case nothingToTurnTo(page: Int, direction: TurnDirection)
  /// Layout settings that leave no room for text (page size, margins, font size, line height).
  case layoutSettings(String)
  /// Frame count, duration or frame rate out of range.
  case timing(String)
  /// An output path whose kind cannot be told (a folder, .png/.apng, .webp, .mp4, .webm).
  case outputKind(path: String)
  /// A shelf needs 1…200 books.
  case shelfSize(Int)
  /// The book brought to the front of a shelf is not on it.
  case noSuchShelfBook(Int, bookCount: Int)
  /// A thread count below 1.
  case threads(Int)
  /// An animation canvas (frame) with too many pixels (`QuireLimits.maxCanvasPixels`).
  case canvas(String)
  /// A batch naming more books than `BatchPlan.maxBooks`.
  case batchSize(Int)
  /// A flipbook whose pages or turn frames exceed `FlipbookLimits`.
  case flipbook(String)

  /// A sentence in the library's terms.
  public var description: String {
    switch self {
    case .pageNumberBelowOne(let n): return "page \(n): pages are numbered from 1"
    case .noSelectedPage(let s, let n): return "pages \(s) name no page of this book (it has \(n))"
    case .noSuchPage(let p, let n): return "page \(p): the book has \(n) pages"
    case .nothingToTurnTo(let p, let d):
      return "page \(p): no page to turn to (\(d == .next ? "last" : "first") page)"
    case .layoutSettings(let m): return "layout settings: \(m)"
    case .timing(let m): return "animation timing: \(m)"
    case .outputKind(let p): return "\(p): use a folder, .png/.apng, .webp, .mp4 or .webm"
    case .shelfSize(let n): return "a shelf holds 1…200 books, got \(n)"
    case .noSuchShelfBook(let k, let n): return "book \(k) is not on the shelf (\(n) books)"
    case .threads(let n): return "thread count \(n): at least 1"
    case .canvas(let m): return "canvas: \(m)"
    case .batchSize(let n): return "a batch holds at most \(n) books: split it"
    case .flipbook(let m): return "flipbook: \(m)"
    }
  }
}

/// The version of the layout engine: pages laid out by equal versions with equal settings
/// are equal.
public let layoutEngineVersion = LayoutKey.engineVersion

extension QuireError {
  /// An Ingest error in the façade's terms.
  /// Names and reasons quote the book's input, so they are elided past ~200 characters.
  init(_ e: IngestError) {
    func q(_ s: String) -> String { QuotedInput.elided(s) }
    func reason(_ s: String) -> String {
      QuotedInput.elided(s, limit: 2 * QuotedInput.maxQuotedCharacters)
    }
    switch e {
    case .cannotOpen(let p, let r): self = .cannotOpen(file: q(p), reason: reason(r))
    case .badData(let f, let r): self = .badData(file: q(f), reason: reason(r))
    case .unsupported(let f, let r): self = .unsupported(file: q(f), reason: reason(r))
    // A bound of IngestLimits: hostile or far beyond any real book, bad data to the caller.
    case .limitExceeded(let f, _, let r): self = .badData(file: q(f), reason: reason(r))
    }
  }

  /// A Typeset error: fonts name their file; impossible options are a request problem.
  init(_ e: TypesetError, book: String) {
    switch e {
    case .badOptions(let m): self = .invalidRequest(.layoutSettings(m))
    // Typeset's reason is Foundation's text: not shown (the file is named).
    case .fonts(.unreadable(let path, _)):
      self = .cannotOpen(file: path, reason: "cannot read the font file")
    case .fonts(.notAFont(let path)):
      self = .badFont(file: path, reason: "hb_face_create: not a usable font")
    case .fonts(.damaged(let path, let reason)):
      self = .badFont(file: path, reason: reason)
    case .fonts(.fontsFolderMissing):
      self = .internalError("\(book): \(e.description)")
    }
  }
}
