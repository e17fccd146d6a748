// `quire batch`: many books, one folder each, resumable, one bad book never stopping the rest.
//
// The job schedules; it does not convert. Each book is handed to a `convert` closure — the
// CLI runs `quire render` in a child process there, so a book that crashes, hangs on a
// signal or exhausts memory takes only its own process down (isolation a thread cannot
// give). `jobs` workers pull books in plan order; books run in parallel when they
// outnumber the workers' need, each with its share of the cores.
//
// Resuming: a converted book's folder gets `batch-stamp.json` — the SHA-1 of the book's
// bytes (of an unpacked EPUB folder's files, as the layout cache hashes it), the settings fingerprint (the render options as given) and the engine version —
// written atomically after its manifest. A later batch skips a book whose stamp matches and
// whose manifest.json is still there; anything else (a changed book, other options, a new
// engine, a stamp that does not parse) converts it again. `force` converts everything.
//
// The report (`summary.json` in the output root, written atomically at the end) lists per
// book: input, folder, status (converted / skipped / failed), exit code, pages, seconds,
// warnings (the manifest's warning counts summed) and the error line of a failed book.

import Foundation
import QuireCore
import QuireIngest
import Synchronization

/// What a batch converts and how.
public struct BatchRequest: Sendable {
  /// The books, from `BatchPlan.books`.
  public var books: [BatchBook]
  /// The folder the books' folders and summary.json go to.
  public var outputRoot: URL
  /// What else decides the outputs (the render options): a stamp made under other
  /// settings does not match.
  public var settings: String
  /// Books converted at the same time (at least 1).
  public var jobs = 1
  /// Convert books whose stamp matches too.
  public var force = false

  /// A batch of `books` into `outputRoot` under `settings`.
  public init(books: [BatchBook], outputRoot: URL, settings: String) {
    self.books = books
    self.outputRoot = outputRoot
    self.settings = settings
  }
}

/// How one conversion ended, as the `convert` closure reports it.
public struct BatchConversion: Sendable {
  /// The converter's exit code (sysexits; 0 = converted).
  public var exitCode: Int32
  /// Its one-line error when it failed.
  public var error: String?

  /// A conversion that ended with `exitCode` and, when it failed, `error`.
  public init(exitCode: Int32, error: String? = nil) {
    self.exitCode = exitCode
    self.error = error
  }
}

/// What happened to one book.
public struct BatchOutcome: Sendable, Codable, Equatable {
  /// Converted now, skipped (its stamp matched) or failed.
  public enum Status: String, Sendable, Codable { case converted, skipped, failed }
  /// The book file.
  public var input: String
  /// Its output folder's name under the root.
  public var output: String
  /// What happened.
  public var status: Status
  /// The converter's exit code (0 for a skipped book).
  public var exitCode: Int32
  /// The book's page count from its manifest (nil when it has none).
  public var pages: Int?
  /// Wall-clock seconds spent on it.
  public var seconds: Double
  /// Warnings in its manifest, counted with their repeats.
  public var warnings: Int
  /// The error line of a failed book.
  public var error: String?
}

/// A batch's report, also written to `summary.json`.
public struct BatchReport: Sendable, Codable {
  /// "quire-batch/1".
  public var format = "quire-batch/1"
  /// The layout engine that converted the books.
  public var engine = layoutEngineVersion
  /// The settings fingerprint of the batch.
  public var settings: String
  /// Books converted at the same time.
  public var jobs: Int
  /// Wall-clock seconds of the whole batch.
  public var seconds: Double
  /// One outcome per book, in plan order.
  public var books: [BatchOutcome]

  /// Books with `status`.
  public func count(_ status: BatchOutcome.Status) -> Int {
    books.reduce(0) { $0 + ($1.status == status ? 1 : 0) }
  }
}

/// A book finished: how many are done of how many, and its outcome.
public struct BatchProgress: Sendable {
  /// Books finished so far (this one included).
  public var done: Int
  /// Books in the batch.
  public var total: Int
  /// This book's outcome.
  public var outcome: BatchOutcome
}

/// Runs a batch.
public enum BatchJob {
  /// The stamp's file name in each book's folder.
  public static let stampName = "batch-stamp.json"
  /// The report's file name in the output root.
  public static let summaryName = "summary.json"

  /// Converts (or skips) every book of `request` with `convert`, `jobs` at a time; calls
  /// `progress` as each finishes (from worker threads) and writes summary.json.
  public static func run(
    _ request: BatchRequest, convert: @escaping @Sendable (BatchBook) -> BatchConversion,
    progress: @escaping @Sendable (BatchProgress) -> Void = { _ in }
  ) throws(QuireError) -> BatchReport {
    guard request.jobs >= 1 else { throw .invalidRequest(.threads(request.jobs)) }
    _ = try OutputFolder(request.outputRoot.path)
    let start = Date()
    let outcomes = Mutex([BatchOutcome?](repeating: nil, count: request.books.count))
    let next = Mutex(0)
    let finished = Mutex(0)
    let work: @Sendable () -> Void = {
      while true {
        let k = next.withLock { n -> Int in
          defer { n += 1 }
          return n
        }
        guard k < request.books.count else { return }
        let outcome = one(request.books[k], request, convert: convert)
        outcomes.withLock { $0[k] = outcome }
        let done = finished.withLock { n -> Int in
          n += 1
          return n
        }
        progress(BatchProgress(done: done, total: request.books.count, outcome: outcome))
      }
    }
    let workers = min(request.jobs, max(1, request.books.count))
    let group = DispatchGroup()
    for _ in 1..<max(1, workers) {
      group.enter()
      Thread.detachNewThread {
        work()
        group.leave()
      }
    }
    work()
    group.wait()
    let report = BatchReport(
      settings: request.settings, jobs: workers,
      seconds: (Date().timeIntervalSince(start) * 1000).rounded() / 1000,
      books: outcomes.withLock { $0.compactMap { $0 } })
    try writeSummary(report, to: request.outputRoot)
    return report
  }

  /// One book: skipped when its stamp matches, else converted and stamped.
  static func one(
    _ book: BatchBook, _ request: BatchRequest, convert: (BatchBook) -> BatchConversion
  ) -> BatchOutcome {
    let start = Date()
    var outcome = BatchOutcome(
      input: book.input.path, output: book.name, status: .failed, exitCode: 0, pages: nil,
      seconds: 0, warnings: 0, error: nil)
    guard let digest = LayoutCacheKey.contentHash(of: book.input) else {
      outcome.exitCode = 66
      outcome.error = "\(book.input.path): cannot open: cannot read the file"
      return outcome
    }
    let stamp = BatchStamp(input: digest, settings: request.settings)
    let manifest = ManifestSummary(book.output.appendingPathComponent("manifest.json"))
    if !request.force, let manifest, BatchStamp(book.output) == stamp {
      outcome.status = .skipped
      outcome.pages = manifest.pages
      outcome.warnings = manifest.warnings
    } else {
      let result = convert(book)
      outcome.exitCode = result.exitCode
      outcome.error = result.error
      // A failed render leaves no manifest of its own (an older one may still be there).
      let written =
        result.exitCode == 0
        ? ManifestSummary(book.output.appendingPathComponent("manifest.json")) : nil
      outcome.pages = written?.pages
      outcome.warnings = written?.warnings ?? 0
      if result.exitCode == 0, written != nil {
        outcome.status = .converted
        stamp.write(to: book.output)
      } else if result.exitCode == 0 {
        outcome.exitCode = 70
        outcome.error = outcome.error ?? "\(book.name): no manifest.json was written"
      }
    }
    outcome.seconds = (Date().timeIntervalSince(start) * 1000).rounded() / 1000
    return outcome
  }

  private static func writeSummary(_ report: BatchReport, to root: URL) throws(QuireError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let path = root.appendingPathComponent(summaryName).path
    do {
      try AtomicFile.write(try encoder.encode(report), to: path, sync: true)
    } catch {
      throw .cannotCreate(path: path, reason: "\(error)")
    }
  }
}

/// What a converted book's folder records about the conversion.
struct BatchStamp: Codable, Equatable {
  var format = "quire-batch-stamp/1"
  var engine = layoutEngineVersion
  /// SHA-1 of the book file's bytes, hex.
  var input: String
  var settings: String

  init(input: String, settings: String) {
    self.input = input
    self.settings = settings
  }

  /// The stamp in `folder`, nil when there is none or it does not parse.
  init?(_ folder: URL) {
    let url = folder.appendingPathComponent(BatchJob.stampName)
    guard let data = try? Data(contentsOf: url), data.count < 1 << 16,
      let stamp = try? JSONDecoder().decode(BatchStamp.self, from: data)
    else { return nil }
    self = stamp
  }

  /// Writes the stamp (atomically); a stamp that cannot be written only costs a
  /// conversion next time.
  func write(to folder: URL) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self) else { return }
    try? AtomicFile.write(data, to: folder.appendingPathComponent(BatchJob.stampName).path)
  }
}

/// The two numbers a batch reads back from a book's manifest.json.
struct ManifestSummary {
  var pages: Int
  var warnings: Int

  init?(_ url: URL) {
    struct Counted: Decodable { var count: Int? }
    struct Head: Decodable {
      var pageCount: Int
      var warnings: [Counted]?
    }
    guard let data = try? Data(contentsOf: url, options: .mappedIfSafe),
      let head = try? JSONDecoder().decode(Head.self, from: data)
    else { return nil }
    pages = head.pageCount
    warnings = (head.warnings ?? []).reduce(0) { $0 + max(1, $1.count ?? 1) }
  }
}
