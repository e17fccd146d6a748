import Foundation
import Quire

/// `quire render BOOK -o DIR …`.
enum RenderCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let a = try Arguments(
      words, valued: layoutValued.union(["-o", "--output", "--color", "--pages", "--threads"]),
      switches: layoutSwitches.union(["--boxes"]))
    let book = try singleBook(a, command: "render")
    guard let out = a.value("-o") ?? a.value("--output") else {
      throw UsageError("render: -o DIR is required")
    }
    var r = RenderRequest(book: book, output: out)
    r.ingest = try ingestOptions(a)
    r.layout = try layoutOptions(a)
    r.format = try a.choice("--color", ["gray", "rgb"]) == "rgb" ? .rgba8 : .gray8
    r.pages = a.value("--pages")
    r.threads = try threadCount(a)
    r.boxes = a.flag("--boxes")
    r.strict = a.flag("--strict")
    let bar = ProgressBar("render")
    let summary = try RenderJob.run(r, progress: { bar.update($0, $1) })
    for w in summary.warnings.prefix(20) { Terminal.warning(w) }
    if summary.warnings.count > 20 {
      Terminal.warning("… \(summary.warnings.count - 20) more in manifest.json")
    }
    return 0
  }
}

/// `quire paginate BOOK [--json] [--stats]`.
enum PaginateCommand {
  struct Report: Encodable {
    struct PageEntry: Encodable {
      var number: Int, spine: Int, href: String
      var start: Manifest.LocationInfo, end: Manifest.LocationInfo
    }
    var pageCount: Int
    var layout: Manifest.LayoutInfo
    var warnings: [String]
    var pages: [PageEntry]
    var stats: QualityReport?
  }

  static func run(_ words: [String]) throws -> Int32 {
    let a = try Arguments(
      words, valued: layoutValued.union(["--threads"]),
      switches: layoutSwitches.union(["--json", "--stats"]))
    let path = try singleBook(a, command: "paginate")
    let options = try layoutOptions(a)
    let book = try LaidOutBook.open(
      path, ingest: try ingestOptions(a), layout: options, threads: try threadCount(a))
    if a.flag("--strict"), let w = book.warnings.first { throw QuireError.strict("\(path): \(w)") }
    let manifest = Manifest(
      document: book.document, layout: book.layout, options: options, files: [:], boxes: false,
      warnings: book.warnings)
    let stats = a.flag("--stats") ? QualityReport(layout: book.layout, options: options) : nil
    if a.flag("--json") {
      let report = Report(
        pageCount: manifest.pageCount, layout: manifest.layout, warnings: book.warnings,
        pages: manifest.pages.map {
          .init(number: $0.number, spine: $0.spine, href: $0.href, start: $0.start, end: $0.end)
        }, stats: stats)
      let enc = JSONEncoder()
      enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      Terminal.out(String(decoding: try enc.encode(report), as: UTF8.self))
      return 0
    }
    var s = "pages: \(manifest.pageCount)\n"
    var lastSpine = -1
    for p in manifest.pages where p.spine != lastSpine {
      lastSpine = p.spine
      s += "  page \(p.number): spine \(p.spine + 1) \(p.href)\n"
    }
    if let stats { s += stats.text() }
    for w in book.warnings { s += "warning: \(w)\n" }
    Terminal.out(s)
    return 0
  }
}
