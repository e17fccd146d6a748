// Renders page 3 of a book and the curl from page 3 to page 4, through Quire's public API.
//
//   swift run --package-path Examples flip-sample [BOOK] [OUT]
//
// BOOK defaults to samples/childrens-literature.epub, OUT to a folder in the temporary
// directory; page-0003.png and turn/ (frame-0001.png … + frames.json) go into OUT.
import Foundation
import Quire

let arguments = CommandLine.arguments.dropFirst()
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let bookURL =
  arguments.first.map { URL(fileURLWithPath: $0) }
  ?? root.appendingPathComponent("samples/childrens-literature.epub")
let out =
  arguments.dropFirst().first.map { URL(fileURLWithPath: $0) }
  ?? FileManager.default.temporaryDirectory.appendingPathComponent("quire-flip-sample")

do {
  // Open and paginate the book: 600x800 pages, 16 px text, justified and hyphenated.
  var layout = LayoutSettings(pageWidth: 600, pageHeight: 800)
  layout.font = .family("serif")
  let book = try PagedBook(contentsOf: bookURL, layout: layout)
  print("\(book.info.title): \(book.pageCount) pages")

  // One page as a PNG.
  try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
  try book.pagePNG(3).write(to: out.appendingPathComponent("page-0003.png"))

  // The page turning: a curl of 12 frames, written as PNG frames + frames.json.
  let turn = try book.turn(from: 3, PageTurn(style: .curl, timing: AnimationTiming(frames: 12)))
  try turn.write(to: out.appendingPathComponent("turn"))
  print("page 3 and a \(turn.frameCount)-frame \(turn.style) in \(out.path)")

  // Anything worked around while reading the book.
  for entry in book.diagnostics.entries { print("warning: \(entry)") }
} catch {
  // QuireError: one line naming the file and what failed.
  FileHandle.standardError.write(Data("flip-sample: \(error)\n".utf8))
  exit(1)
}
