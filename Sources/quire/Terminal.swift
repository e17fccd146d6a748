import Foundation
import Quire
import Synchronization

/// stderr output of the CLI: one-line errors and, when stderr is a terminal, a progress bar.
enum Terminal {
  static let isInteractive = isatty(2) != 0

  /// The longest line written to stderr, in characters: a message quotes at most ~200
  /// characters of any input, and this bounds whatever a message built from several quotes
  /// (a file name and an excerpt) adds up to.
  static let maxLineLength = 400

  static func error(_ message: String) { line("quire: \(message)") }

  static func warning(_ message: String) { line("quire: warning: \(message)") }

  /// A remark that is neither a warning nor an error (a cut thread count).
  static func note(_ message: String) { line("quire: note: \(message)") }

  /// One line on stderr: newlines inside `text` become spaces, and a line longer than
  /// `maxLineLength` is cut with an ellipsis.
  static func line(_ text: String) {
    FileHandle.standardError.write(Data((oneLine(text) + "\n").utf8))
  }

  /// `text` as one line of at most `maxLineLength` characters.
  static func oneLine(_ text: String) -> String {
    var flat = text.map { $0.isNewline ? " " : $0 }
    if flat.count > maxLineLength { flat = Array(flat.prefix(maxLineLength - 1)) + ["…"] }
    return String(flat)
  }

  /// The first 20 entries of `log` as warnings, then how many more there are and where.
  static func warnings(_ log: DiagnosticLog, more place: String) {
    for e in log.entries.prefix(20) { warning(e.description) }
    if log.entries.count > 20 { warning("… \(log.entries.count - 20) more \(place)") }
  }

  static func out(_ text: String) {
    FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
  }
}

/// A progress bar on stderr, redrawn at most ten times a second; silent when stderr is not
/// a terminal (logs and pipes stay clean).
final class ProgressBar: Sendable {
  private let label: String
  private let lastDraw = Mutex(0.0)
  private let enabled = Terminal.isInteractive
  private let start = Date()

  init(_ label: String) { self.label = label }

  func update(_ done: Int, _ total: Int) {
    guard enabled, total > 0 else { return }
    lastDraw.withLock { lastDraw in
      let now = Date().timeIntervalSince(start)
      guard done == total || now - lastDraw >= 0.1 else { return }
      lastDraw = now
      let width = 30
      let filled = min(width, done * width / total)
      let bar =
        String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
      let rate = now > 0 ? Double(done) / now : 0
      let line = "\r\(label) [\(bar)] \(done)/\(total)  \(String(format: "%.0f", rate))/s"
      FileHandle.standardError.write(Data(line.utf8))
      if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
  }
}
