import Foundation
import Quire

/// `quire flipbook BOOK -o DIR …`: a static HTML flipbook (see `FlipbookJob`).
enum FlipbookCommand {
  /// `render`'s valued options (layout, --color, --pages, --threads), the turn's timing and
  /// its look.
  static let valued = RenderCommand.valued.union(timingValued).union([
    "--style", "--corner", "--back", "--sheet-format",
  ])
  /// The layout switches and `--no-spreads`.
  static let switches = layoutSwitches.union(["--no-spreads"])

  static func run(_ words: [String]) throws -> Int32 {
    let a = try Arguments(words, valued: valued, switches: switches)
    let book = try singleBook(a, command: "flipbook")
    var r = FlipbookRequest(book: fileURL(book), output: try output(a, "flipbook"))
    r.layout = try layoutSettings(a)
    r.color = try a.choice("--color", PageColor.self) ?? .rgb
    r.threads = try threadCount(a)
    if let text = a.value("--pages") { (r.firstPage, r.lastPage) = try pageRange(text) }
    if let s = try a.choice("--style", PageTurnStyle.self) { r.turn.style = s }
    if let c = try a.choice("--corner", ["top", "bottom", "middle"]).flatMap(TurnCorner.init) {
      r.turn.corner = c
    }
    if let b = try a.choice("--back", ["mirrored", "blank", "next"]).flatMap(LeafBack.init) {
      r.turn.back = b
    }
    var timing = try animationTiming(a)
    if timing.frames == nil && timing.duration == nil {
      timing.frames = FlipbookLimits.defaultFrames
    }
    r.turn.timing = timing
    r.spreads = !a.flag("--no-spreads")
    r.sheetFormat = try a.choice("--sheet-format", SheetFormat.self) ?? .png
    let bar = ProgressBar("flipbook")
    let s = try withFlagNames(book: book, pages: a.value("--pages")) {
      () throws(QuireError) in try FlipbookJob.run(r, progress: { bar.update($0, $1) })
    }
    Terminal.warnings(s.diagnostics, more: "in flipbook.json")
    let index = r.output.appendingPathComponent("index.html").path
    Terminal.out(
      "\(s.pages) pages, \(s.turns) turns, \(s.spreadTurns) spread turns: "
        + "\(megabytes(s.totalBytes)) in \(index)")
    return 0
  }

  /// `--pages A-B`, `A` or `A-` (to the end): one range of pages from 1.
  static func pageRange(_ text: String) throws(UsageError) -> (Int, Int?) {
    let selection = try pageSelection(text)
    if selection.ranges.isEmpty, let from = selection.from { return (from, nil) }
    guard selection.ranges.count == 1, selection.from == nil, let r = selection.ranges.first
    else {
      throw UsageError("--pages: one range A-B for a flipbook, got '\(quoted(text))'")
    }
    return (r.lowerBound, r.upperBound)
  }

  /// "3.4 MB" (decimal megabytes, one decimal).
  static func megabytes(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_000_000)
  }
}
