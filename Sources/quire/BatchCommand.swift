import Foundation
import Quire
import Synchronization

/// `quire batch BOOK…|DIR|LIST -o OUTROOT [render options] [--jobs N] [--force]`: every
/// book through `quire render` in a child process of its own (a crash or a runaway book
/// stops only itself), `--jobs` at a time, resumable; a summary.json in OUTROOT.
enum BatchCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let a = try Arguments(
      words, valued: RenderCommand.valued.union(["--jobs"]),
      switches: RenderCommand.switches.union(["--force"]))
    guard !a.positionals.isEmpty else { throw UsageError("batch: no BOOK, folder or list given") }
    guard a.value("--pages") == nil else {
      throw UsageError("--pages: a batch renders whole books")
    }
    let root = try output(a, "batch")
    _ = try layoutSettings(a)  // every option checked once here, not once per book
    _ = try a.choice("--color", PageColor.self)
    _ = try a.choice("--png-compression", PNGCompression.self)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let jobs = try a.int("--jobs", in: 1...256) ?? cores
    let passed = renderOptions(words)
    var request = BatchRequest(
      books: try withFlagNames(book: nil) { () throws(QuireError) in
        try BatchPlan.books(a.positionals, outputRoot: root)
      }, outputRoot: root, settings: passed.joined(separator: " "))
    request.jobs = jobs
    request.force = a.flag("--force")
    // Books share the cores: without --threads each child gets its share.
    let threads = a.value("--threads") == nil ? ["--threads", "\(max(1, cores / jobs))"] : []
    let executable = executablePath()
    let bar = BatchProgressLine(total: request.books.count)
    let report = try withFlagNames(book: nil) { () throws(QuireError) in
      try BatchJob.run(
        request,
        convert: { book in
          childRender(
            executable, [book.input.path, "-o", book.output.path] + passed + threads)
        },
        progress: { bar.update($0) })
    }
    for book in report.books where book.status == .failed {
      Terminal.error(book.error ?? "\(book.input): exit \(book.exitCode)")
    }
    Terminal.note(
      "\(report.count(.converted)) converted, \(report.count(.skipped)) skipped, "
        + "\(report.count(.failed)) failed: \(root.appendingPathComponent(BatchJob.summaryName).path)"
    )
    return report.books.first { $0.status == .failed }.map { _ in 65 } ?? 0
  }

  /// The words of `words` that are render options (positionals, -o, --jobs and --force
  /// removed), in their order: what each child gets and what the settings stamp holds.
  static func renderOptions(_ words: [String]) -> [String] {
    var out: [String] = []
    var i = 0
    while i < words.count {
      let w = words[i]
      i += 1
      let name = w.split(separator: "=", maxSplits: 1).first.map(String.init) ?? w
      let inline = w.hasPrefix("--") && w.contains("=")
      if RenderCommand.valued.contains(name) || name == "--jobs" {
        let pair = inline ? [w] : [w] + (i < words.count ? [words[i]] : [])
        if !inline { i += 1 }
        if !["-o", "--output", "--jobs"].contains(name) { out += pair }
      } else if RenderCommand.switches.contains(name) {
        out.append(w)
      }
    }
    return out
  }

  /// This executable's path (the children run the same quire).
  static func executablePath() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  }

  /// Runs `quire render` with `arguments`; its last stderr line is the error of a failure.
  static func childRender(_ executable: String, _ arguments: [String]) -> BatchConversion {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["render"] + arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    do { try process.run() } catch {
      return BatchConversion(exitCode: 70, error: "cannot start \(executable): \(error)")
    }
    // Read stderr to its end before waiting: a child writing more than a pipe holds would
    // otherwise block forever. Only its tail is kept.
    let tail = Terminal.oneLine(
      String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile().suffix(4096), as: UTF8.self
      )
      .split(whereSeparator: \.isNewline).last.map(String.init) ?? "")
    process.waitUntilExit()
    if process.terminationReason == .uncaughtSignal {
      return BatchConversion(exitCode: 70, error: "killed by signal \(process.terminationStatus)")
    }
    let code = process.terminationStatus
    let line = tail.hasPrefix("quire: ") ? String(tail.dropFirst(7)) : tail
    return BatchConversion(exitCode: code, error: code == 0 ? nil : line)
  }
}

/// "batch 3/10 · 1 failed · ETA 0:42" on stderr, when it is a terminal.
final class BatchProgressLine: Sendable {
  private let total: Int
  private let start = Date()
  private let failed = Mutex(0)

  init(total: Int) { self.total = total }

  func update(_ p: BatchProgress) {
    let failures = failed.withLock { n -> Int in
      if p.outcome.status == .failed { n += 1 }
      return n
    }
    guard Terminal.isInteractive else { return }
    let elapsed = Date().timeIntervalSince(start)
    let left = p.done < p.total ? elapsed / Double(p.done) * Double(p.total - p.done) : 0
    let eta = String(format: "%d:%02d", Int(left) / 60, Int(left) % 60)
    let line =
      "\rbatch \(p.done)/\(p.total)\(failures > 0 ? " · \(failures) failed" : "") · ETA \(eta) "
      + "· \(Terminal.oneLine(p.outcome.output).prefix(40))\u{1B}[K"
    FileHandle.standardError.write(Data(line.utf8))
    if p.done == p.total { FileHandle.standardError.write(Data("\n".utf8)) }
  }
}
