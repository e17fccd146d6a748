import Foundation
import Quire

/// Option names shared by the commands that lay a book out.
let layoutValued: Set<String> = [
  "--size", "--font-size", "--margins", "--line-height", "--font", "--align", "--hyphenate",
  "--linebreak", "--publisher-styles", "--lang", "--encoding",
]
let layoutSwitches: Set<String> = ["--folio", "--strict"]

func ingestOptions(_ a: Arguments) throws(UsageError) -> IngestOptions {
  var o = IngestOptions()
  if let e = a.value("--encoding") {
    guard !e.isEmpty, e.count < 64 else { throw UsageError("--encoding: bad name '\(e)'") }
    o.encoding = e
  }
  if let p = try a.choice("--publisher-styles", ["on", "off"]) { o.publisherStyles = p == "on" }
  // Publisher @media queries (orientation, widths) see the page being laid out.
  let size = try a.size("--size")
  let canvas = try a.size("--canvas")
  if let (w, h) = size ?? canvas { o.viewport = MediaViewport(width: w, height: h) }
  return o
}

func layoutOptions(_ a: Arguments) throws(UsageError) -> LayoutOptions {
  var o = LayoutOptions()
  if let (w, h) = try a.size("--size") {
    o.width = w
    o.height = h
    o.margins = .proportional(width: w, height: h)
  }
  if let s = try a.double("--font-size", in: 4...400) { o.fontSize = s }
  if let m = try a.numbers("--margins", count: 4, in: 0...4000) {
    o.margins = .init(top: m[0], right: m[1], bottom: m[2], left: m[3])
  }
  guard o.margins.left + o.margins.right < Double(o.width) - 8,
    o.margins.top + o.margins.bottom < Double(o.height) - 8
  else { throw UsageError("--margins leave no room for text on a \(o.width)x\(o.height) page") }
  if let l = try a.double("--line-height", in: 0.5...5) { o.lineHeight = l }
  if let f = a.value("--font") { o.font = f }
  if let al = try a.choice("--align", ["justify", "start"]) { o.align = .init(rawValue: al)! }
  if let h = try a.choice("--hyphenate", ["auto", "off"]) { o.hyphenate = .init(rawValue: h)! }
  if let b = try a.choice("--linebreak", ["optimal", "greedy"]) {
    o.lineBreaking = .init(rawValue: b)!
  }
  if let p = try a.choice("--publisher-styles", ["on", "off"]) { o.publisherStyles = p == "on" }
  if let l = a.value("--lang") {
    guard l.count <= 35, l.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    else {
      throw UsageError("--lang: bad language tag '\(l)'")
    }
    o.language = l
  }
  o.folio = a.flag("--folio")
  return o
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
