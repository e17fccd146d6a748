// The `quire` command line: parses words, calls the library, maps errors to sysexits codes.
// All logic lives in the library; this target only talks to the terminal.
import Foundation
import Quire

// Before any thread starts, so every thread inherits the blocked signals (see Signals).
Signals.install()

let words = Array(CommandLine.arguments.dropFirst())

func dispatch(_ words: [String]) throws -> Int32 {
  guard let command = words.first else {
    Terminal.out(overview)
    return 64
  }
  let rest = Array(words.dropFirst())
  switch command {
  case "-h", "--help":
    Terminal.out(overview)
    return 0
  case "help":
    guard let topic = rest.first else {
      Terminal.out(overview)
      return 0
    }
    guard let text = commandHelp[topic] else {
      throw UsageError("help: no command '\(quoted(topic))'")
    }
    Terminal.out(text)
    return 0
  case "--version":
    Terminal.out("quire \(layoutEngineVersion)")
    return 0
  default:
    if rest.contains("--help") || rest.contains("-h"), let text = commandHelp[command] {
      Terminal.out(text)
      return 0
    }
  }
  switch command {
  case "info": return try InfoCommand.run(rest)
  case "render": return try RenderCommand.run(rest)
  case "paginate": return try PaginateCommand.run(rest)
  case "bench": return try BenchCommand.run(rest)
  case "flip": return try FlipCommand.run(rest)
  case "open": return try OpenCommand.run(rest)
  case "shelf": return try ShelfCommand.run(rest)
  case "batch": return try BatchCommand.run(rest)
  case "flipbook": return try FlipbookCommand.run(rest)
  default: throw UsageError("unknown command '\(quoted(command))' (see quire --help)")
  }
}

do {
  let code = try dispatch(words)
  exit(code)
} catch let e as UsageError {
  Terminal.error(e.description)
  exit(64)
} catch let e as QuireError {
  // A font the reader named is the reader's option: say so (the library names only the file).
  if case .badFont(let file, let reason) = e,
    let chosen = words.firstIndex(of: "--font").map({ words.index(after: $0) }),
    chosen < words.endIndex, URL(fileURLWithPath: words[chosen]).path == file
  {
    Terminal.error("--font \(quoted(file)): \(reason)")
  } else {
    Terminal.error(e.description)
  }
  exit(e.exitCode)
} catch {
  Terminal.error("internal error: \(type(of: error))")
  exit(70)
}
