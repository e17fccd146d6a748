import Foundation
import Quire

/// `quire bench BOOK [--repeat N] [--json] [--reading] [--flip]`.
enum BenchCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let a = try Arguments(
      words,
      valued: layoutValued.union([
        "--repeat", "--threads", "--turns", "--color", "--cache",
      ]),
      switches: layoutSwitches.union(["--json", "--reading", "--flip"]))
    let path = try singleBook(a, command: "bench")
    if a.flag("--flip") { return try flip(a, path) }
    var request = BenchRequest(book: fileURL(path))
    request.layout = try layoutSettings(a)
    request.repeats = try a.int("--repeat", in: 1...1000) ?? 1
    request.threads = try threadCount(a)
    request.color = try a.choice("--color", PageColor.self) ?? .gray
    request.cache = try layoutCache(a)
    if a.flag("--reading") {
      request.readingTurns = try a.int("--turns", in: 2...100_000) ?? 60
    }
    let result = try withFlagNames(book: path) { () throws(QuireError) in
      try Benchmark.run(request)
    }
    if a.flag("--json") {
      let enc = JSONEncoder()
      enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      Terminal.out(String(decoding: try enc.encode(result), as: UTF8.self))
    } else {
      Terminal.out(result.text())
    }
    return 0
  }

  /// `quire bench BOOK --flip [--json]`: frames/s of every animation (FlipBenchmark).
  static func flip(_ a: Arguments, _ path: String) throws -> Int32 {
    let layout = try layoutSettings(a)
    let speeds = try withFlagNames(book: path) { () throws(QuireError) in
      try FlipBenchmark.run(book: fileURL(path), layout: layout)
    }
    if a.flag("--json") {
      let enc = JSONEncoder()
      enc.outputFormatting = [.prettyPrinted, .sortedKeys]
      Terminal.out(String(decoding: try enc.encode(speeds), as: UTF8.self))
    } else {
      Terminal.out(FlipBenchmark.text(speeds))
    }
    return 0
  }
}
