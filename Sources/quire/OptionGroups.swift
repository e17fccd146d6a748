import Foundation
import Quire

/// Option names shared by the commands that lay a book out.
let layoutValued: Set<String> = [
  "--size", "--font-size", "--margins", "--line-height", "--font", "--align", "--hyphenate",
  "--linebreak", "--publisher-styles", "--lang", "--encoding",
]
let layoutSwitches: Set<String> = ["--folio", "--strict"]

/// `--encoding`, `--publisher-styles`, `--lang`: how the book's content is read.
func readingOptions(_ a: Arguments) throws(UsageError) -> ReadingOptions {
  var o = ReadingOptions()
  if let e = a.value("--encoding") {
    guard !e.isEmpty, e.count < 64 else { throw UsageError("--encoding: bad name '\(e)'") }
    o.textEncoding = e
  }
  if let p = try a.choice("--publisher-styles", ["on", "off"]) { o.publisherStyles = p == "on" }
  if let l = a.value("--lang") {
    guard l.count <= 35, l.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    else {
      throw UsageError("--lang: bad language tag '\(l)'")
    }
    o.language = l
  }
  return o
}

/// The layout options of a command that lays a book out.
func layoutSettings(_ a: Arguments) throws(UsageError) -> LayoutSettings {
  var o = LayoutSettings()
  if let (w, h) = try a.size("--size") {
    o.pageWidth = w
    o.pageHeight = h
  }
  if let s = try a.double("--font-size", in: 4...400) { o.fontSize = s }
  if let m = try a.numbers("--margins", count: 4, in: 0...4000) {
    o.margins = PageMargins(top: m[0], right: m[1], bottom: m[2], left: m[3])
  }
  let m = o.effectiveMargins
  guard m.left + m.right < Double(o.pageWidth) - 8, m.top + m.bottom < Double(o.pageHeight) - 8
  else {
    throw UsageError(
      "--margins leave no room for text on a \(o.pageWidth)x\(o.pageHeight) page")
  }
  if let l = try a.double("--line-height", in: 0.5...5) { o.lineHeight = l }
  if let f = a.value("--font"), !f.isEmpty {
    let looksLikePath =
      f.contains("/") || [".ttf", ".otf", ".ttc"].contains { f.lowercased().hasSuffix($0) }
    o.font = looksLikePath ? .file(URL(fileURLWithPath: f)) : .family(f)
  }
  if let v = try a.choice("--align", TextAlignment.self) { o.alignment = v }
  if let v = try a.choice("--hyphenate", Hyphenation.self) { o.hyphenation = v }
  if let v = try a.choice("--linebreak", LineBreaking.self) { o.lineBreaking = v }
  o.folio = a.flag("--folio")
  o.reading = try readingOptions(a)
  return o
}

/// `--pages 1-10,15,20-`: ranges of pages from 1; "N-" runs to the end of the book.
func pageSelection(_ text: String) throws(UsageError) -> PageSelection {
  var selection = PageSelection(ranges: [])
  for part in text.split(separator: ",") {
    let ends = part.split(separator: "-", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard (1...2).contains(ends.count), let a = Int(ends[0]), a >= 1 else {
      throw UsageError("--pages: bad range '\(part)'")
    }
    if ends.count == 1 {
      selection.ranges.append(a...a)
    } else if ends[1].isEmpty {
      selection.from = min(selection.from ?? a, a)
    } else {
      guard let b = Int(ends[1]), b >= a else { throw UsageError("--pages: bad range '\(part)'") }
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
  try a.int("--threads", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
}

/// The book (or file) argument as a URL.
func fileURL(_ path: String) -> URL { URL(fileURLWithPath: path) }
