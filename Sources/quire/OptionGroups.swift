import Foundation
import Quire

/// Option names shared by the commands that lay a book out.
let layoutValued: Set<String> = [
  "--size", "--font-size", "--margins", "--line-height", "--font", "--align", "--hyphenate",
  "--linebreak", "--publisher-styles", "--lang", "--encoding", "--footnotes", "--cover",
  "--fit",
]
let layoutSwitches: Set<String> = ["--folio", "--strict", "--no-system-fonts"]

/// `--encoding`, `--publisher-styles`, `--lang`: how the book's content is read.
func readingOptions(_ a: Arguments) throws(UsageError) -> ReadingOptions {
  var o = ReadingOptions()
  if let e = a.value("--encoding") {
    guard !e.isEmpty, e.count < 64 else { throw UsageError("--encoding: bad name '\(quoted(e))'") }
    o.textEncoding = e
  }
  if let p = try a.choice("--publisher-styles", ["on", "off"]) { o.publisherStyles = p == "on" }
  if let c = try a.choice("--cover", CoverPage.self) { o.cover = c }
  if let l = a.value("--lang") {
    guard l.count <= 35, l.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    else {
      throw UsageError("--lang: bad language tag '\(quoted(l))'")
    }
    o.language = l
  }
  return o
}

/// The layout options of a command that lays a book out. Ranges are `QuireLimits`'; the
/// settings together must leave room for text (`LayoutSettings.problem`), else the message
/// names the option that does not fit.
func layoutSettings(_ a: Arguments) throws(UsageError) -> LayoutSettings {
  var o = LayoutSettings()
  if a.value("--size")?.lowercased() == "native" {
    o.nativeSize = true  // fixed-layout pages at their ICB; reflowable ones at the default
  } else if let (w, h) = try a.size("--size", in: QuireLimits.canvasSides) {
    o.pageWidth = w
    o.pageHeight = h
  }
  if let s = try a.double("--font-size", in: QuireLimits.fontSizes) { o.fontSize = s }
  if let m = try a.numbers("--margins", count: 4, in: 0...4000) {
    o.margins = PageMargins(top: m[0], right: m[1], bottom: m[2], left: m[3])
  }
  if let l = try a.double("--line-height", in: QuireLimits.lineHeights) { o.lineHeight = l }
  if let f = a.value("--font") {
    guard !f.isEmpty else { throw UsageError("--font: an empty name") }
    let looksLikePath =
      f.contains("/")
      || [".ttf", ".otf", ".ttc", ".woff", ".woff2"].contains {
        f.lowercased().hasSuffix($0)
      }
    if looksLikePath { try checkFontPath(f) }
    o.font = looksLikePath ? .file(URL(fileURLWithPath: f)) : .family(f)
  }
  if let v = try a.choice("--align", TextAlignment.self) { o.alignment = v }
  if let v = try a.choice("--hyphenate", Hyphenation.self) { o.hyphenation = v }
  if let v = try a.choice("--linebreak", LineBreaking.self) { o.lineBreaking = v }
  o.folio = a.flag("--folio")
  o.systemFonts = !a.flag("--no-system-fonts")
  if let v = try a.choice("--footnotes", FootnotePlacement.self) { o.footnotes = v }
  if let v = try a.choice("--fit", FixedLayoutFit.self) { o.fit = v }
  o.reading = try readingOptions(a)
  if let (setting, message) = o.problem {
    let flag: String
    switch setting {
    case .pageSize: flag = "--size"
    case .fontSize: flag = "--font-size"
    case .lineHeight: flag = "--line-height"
    case .margins: flag = "--margins"
    }
    throw UsageError("\(flag): \(message)")
  }
  return o
}

/// A `--font` path must name a regular file: a folder or a device is a usage mistake (a
/// damaged font file is bad data, found when the library reads it).
func checkFontPath(_ path: String) throws(UsageError) {
  var info = stat()
  guard stat(path, &info) == 0 else {
    throw UsageError("--font \(quoted(path)): \(String(cString: strerror(errno)))")
  }
  switch info.st_mode & S_IFMT {
  case S_IFREG: return
  case S_IFDIR: throw UsageError("--font \(quoted(path)): a folder, not a font file")
  default: throw UsageError("--font \(quoted(path)): not a regular file")
  }
}

/// `text` for a message: at most 200 characters, the rest elided.
func quoted(_ text: String) -> String {
  text.count <= 200 ? text : String(text.prefix(200)) + "…"
}

/// `--pages 1-10,15,20-`: ranges of pages from 1; "N-" runs to the end of the book.
func pageSelection(_ text: String) throws(UsageError) -> PageSelection {
  var selection = PageSelection(ranges: [])
  for part in text.split(separator: ",") {
    let ends = part.split(separator: "-", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard (1...2).contains(ends.count), let a = Int(ends[0]), a >= 1 else {
      throw UsageError("--pages: bad range '\(quoted(String(part)))'")
    }
    if ends.count == 1 {
      selection.ranges.append(a...a)
    } else if ends[1].isEmpty {
      selection.from = min(selection.from ?? a, a)
    } else {
      guard let b = Int(ends[1]), b >= a else {
        throw UsageError("--pages: bad range '\(quoted(String(part)))'")
      }
      selection.ranges.append(a...b)
    }
  }
  return selection
}

/// Exactly one BOOK positional.
func singleBook(_ a: Arguments, command: String) throws(UsageError) -> String {
  guard a.positionals.count == 1 else {
    throw UsageError(
      a.positionals.isEmpty
        ? "\(command): no BOOK given" : "\(command): one BOOK expected, got \(a.positionals.count)")
  }
  return a.positionals[0]
}

func threadCount(_ a: Arguments) throws(UsageError) -> Int {
  try a.int("--threads", in: QuireLimits.threads) ?? ProcessInfo.processInfo.activeProcessorCount
}

/// The book (or file) argument as a URL.
func fileURL(_ path: String) -> URL { URL(fileURLWithPath: path) }
