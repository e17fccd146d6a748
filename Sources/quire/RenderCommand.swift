import Foundation
import Quire

/// `quire render BOOK -o DIR …`.
enum RenderCommand {
  /// The options of `render` that take a value (`quire batch` passes them on).
  static let valued = layoutValued.union([
    "-o", "--output", "--color", "--pages", "--threads", "--cache", "--png-compression",
  ])
  /// The switches of `render`.
  static let switches = layoutSwitches.union(["--boxes", "--fsync", "--spreads"])

  static func run(_ words: [String]) throws -> Int32 {
    let a = try Arguments(words, valued: valued, switches: switches)
    let book = try singleBook(a, command: "render")
    var r = RenderRequest(book: fileURL(book), output: try output(a, "render"))
    r.layout = try layoutSettings(a)
    r.color = try a.choice("--color", PageColor.self) ?? .gray
    let pagesText = a.value("--pages")
    if let text = pagesText { r.pages = try pageSelection(text) }
    r.threads = try threadCount(a)
    r.boxes = a.flag("--boxes")
    r.strict = a.flag("--strict")
    r.flushToDisk = a.flag("--fsync")
    r.cache = try layoutCache(a)
    r.spreads = a.flag("--spreads")
    r.compression = try a.choice("--png-compression", PNGCompression.self) ?? .standard
    if a.value("--threads") != nil, r.workerThreads < r.threads {
      Terminal.note(
        "--threads \(r.threads): \(r.workerThreads) used; \(r.layout.pageWidth)x"
          + "\(r.layout.pageHeight) \(r.color.rawValue) pages of every worker must fit in "
          + "\(QuireLimits.workerMemoryBudget >> 20) MB")
    }
    let bar = ProgressBar("render")
    let summary = try withFlagNames(book: book, pages: pagesText) { () throws(QuireError) in
      try RenderJob.run(r, progress: { bar.update($0, $1) })
    }
    Terminal.warnings(summary.diagnostics, more: "in manifest.json")
    return 0
  }
}

/// `quire paginate BOOK [--json] [--stats]`.
enum PaginateCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let a = try Arguments(
      words, valued: layoutValued.union(["--threads", "--cache"]),
      switches: layoutSwitches.union(["--json", "--stats"]))
    let path = try singleBook(a, command: "paginate")
    var r = PaginateRequest(book: fileURL(path))
    r.layout = try layoutSettings(a)
    r.threads = try threadCount(a)
    r.stats = a.flag("--stats")
    r.strict = a.flag("--strict")
    r.cache = try layoutCache(a)
    // One job, then exit: what it leaves behind need not be freed (Disposal.swift).
    Disposal.processExitsAfterJob()
    let map = try withFlagNames(book: path) { () throws(QuireError) in try PaginateJob.run(r) }
    if a.flag("--json") {
      let enc = JSONEncoder()
      enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      Terminal.out(String(decoding: try enc.encode(map), as: UTF8.self))
      return 0
    }
    var s = "pages: \(map.pageCount)\n"
    var lastSpine = -1
    for p in map.pages where p.spine != lastSpine {
      lastSpine = p.spine
      s += "  page \(p.number): spine \(p.spine + 1) \(p.href)\n"
    }
    if let stats = map.stats { s += stats.text() }
    for w in map.warnings {
      s += "warning: \(w.file): \(w.message)\(w.count > 1 ? " (\(w.count) times)" : "")\n"
    }
    Terminal.out(s)
    return 0
  }
}
