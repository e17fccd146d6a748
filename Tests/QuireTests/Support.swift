import Foundation
import QuireCore
import QuireIngest
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

/// The shared corpus (see QuireTestSupport's `Corpus`).
let corpus = Corpus.root
let packageRoot = Corpus.packageRoot

func corpusBook(_ name: String) -> String { corpus.appendingPathComponent(name).path }

let corpusBooks = [
  "moby-dick.epub", "childrens-literature.epub", "accessible_epub_3.epub", "wasteland-otf-obf.epub",
  "regime-anticancer-arabic.epub", "jlreq-in-japanese.epub", "pg84-frankenstein.epub",
  "xiyouji-journey-to-the-west.utf8.txt", "xiyouji-journey-to-the-west.gb18030.txt",
  "pride-and-prejudice.txt",
]

var corpusPresent: Bool { Corpus.available }

func temporaryFolder(_ name: String) -> String {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
    "quire-tests-\(getpid())-\(name)")
  try? FileManager.default.removeItem(at: dir)
  return dir.path
}

/// The built `quire` executable (swift test builds it next to the test bundle).
var quireExecutable: String? {
  var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = dir.appendingPathComponent("quire").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    dir = dir.deletingLastPathComponent()
  }
  let fallback = packageRoot.appendingPathComponent(".build/debug/quire").path
  return FileManager.default.isExecutableFile(atPath: fallback) ? fallback : nil
}

struct CommandResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

func runQuire(_ args: [String]) throws -> CommandResult {
  try runProcess(try #require(quireExecutable), args)
}

/// Runs `executable` to completion with its output captured. The layout cache goes to a
/// folder of the test run, never the user's ~/.cache.
func runProcess(_ executable: String, _ args: [String]) throws -> CommandResult {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: executable)
  p.arguments = args
  var environment = ProcessInfo.processInfo.environment
  environment["XDG_CACHE_HOME"] =
    FileManager.default.temporaryDirectory
    .appendingPathComponent("quire-tests-\(getpid())-xdg-cache").path
  p.environment = environment
  let out = Pipe()
  let err = Pipe()
  p.standardOutput = out
  p.standardError = err
  try p.run()
  let o = out.fileHandleForReading.readDataToEndOfFile()
  let e = err.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  return CommandResult(
    status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
    stderr: String(decoding: e, as: UTF8.self))
}

/// Writes a one-chapter XHTML document `name`.xhtml into the test run's temporary folder
/// `folder` (created when missing): `body` inside `<body>`, a `<style>` of `css` when given,
/// and `lang` on `<html>` when given. Returns the file's URL.
func writeXHTMLChapter(
  _ body: String, css: String? = nil, lang: String? = "en", folder: String, name: String
) throws -> URL {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
    "quire-\(folder)-\(ProcessInfo.processInfo.processIdentifier)")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let url = dir.appendingPathComponent(name + ".xhtml")
  let style = css.map { "<style>\($0)</style>" } ?? ""
  let langAttribute = lang.map { " lang=\"\($0)\"" } ?? ""
  let xhtml = """
    <?xml version="1.0" encoding="utf-8"?>
    <html xmlns="http://www.w3.org/1999/xhtml"\(langAttribute)><head><title>t</title>\(style)</head>
    <body>\(body)</body></html>
    """
  try Data(xhtml.utf8).write(to: url)
  return url
}

/// Writes an unpacked EPUB into the folder `dir`: mimetype, META-INF/container.xml naming
/// OPS/content.opf, the package document `opf`, and `files` under OPS/.
func writeUnpackedEPUB(_ dir: String, opf: String, files: [String: Data]) throws {
  let fm = FileManager.default
  try fm.createDirectory(atPath: "\(dir)/META-INF", withIntermediateDirectories: true)
  try fm.createDirectory(atPath: "\(dir)/OPS", withIntermediateDirectories: true)
  try Data("application/epub+zip".utf8).write(to: URL(fileURLWithPath: "\(dir)/mimetype"))
  try Data(
    """
    <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
    <rootfiles><rootfile full-path="OPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
    """.utf8
  ).write(to: URL(fileURLWithPath: "\(dir)/META-INF/container.xml"))
  try Data(opf.utf8).write(to: URL(fileURLWithPath: "\(dir)/OPS/content.opf"))
  for (path, data) in files { try data.write(to: URL(fileURLWithPath: "\(dir)/OPS/\(path)")) }
}

/// All running text of a document in reading order (the typesetter's input), without the
/// notes `footnotes` moves to the page foot (those are `noteText`'s).
func sourceText(_ doc: Document, footnotes: FootnoteMode = .foot) -> String {
  var s = ""
  // Inline blocks (and floated inline elements) hold book text too.
  func inlineText(_ inlines: [Inline]) {
    for i in inlines {
      if case .text(let run) = i { s += run.text }
      if case .inlineBlock(let ib) = i { blockText(ib.block) }
    }
  }
  // An inline block's blocks, in order.
  func blockText(_ b: Block) {
    inlineText(b.inlines)
    for c in b.children { blockText(c) }
  }
  func walk(_ blocks: [Block], moved: Set<Location>) {
    for b in blocks where !(b.note != nil && moved.contains(b.location)) {
      inlineText(b.inlines)
      walk(b.children, moved: moved)
    }
  }
  for c in doc.chapters {
    let moved = footnotes == .foot ? Set(c.movedNotes(.foot).map(\.location)) : []
    walk(c.blocks, moved: moved)
  }
  return s
}

/// The text of the notes `--footnotes foot` sets at page feet, chapter by chapter, each
/// chapter's notes in the order of their first references: what note lines hold in page order.
func noteText(_ doc: Document) -> String {
  var s = ""
  func walk(_ blocks: [Block]) {
    for b in blocks {
      for i in b.inlines {
        if case .text(let run) = i { s += run.text }
      }
      walk(b.children)
    }
  }
  for c in doc.chapters { walk(c.movedNotes(.foot)) }
  return s
}

/// Whitespace, soft hyphens and case removed: what text conservation compares.
func normalized(_ s: String) -> String {
  String(
    String.UnicodeScalarView(
      s.lowercased().unicodeScalars.filter {
        !$0.properties.isWhitespace && $0 != "\u{AD}" && $0 != "\u{FFFC}" && $0 != "\u{200B}"
          && $0 != "\u{FEFF}"
      }))
}

/// Golden files: compared exactly; QUIRE_BLESS=1 rewrites them.
func checkGolden(_ actual: Data, _ name: String) throws {
  let url = packageRoot.appendingPathComponent("Tests/QuireTests/Goldens").appendingPathComponent(
    name)
  if ProcessInfo.processInfo.environment["QUIRE_BLESS"] == "1" {
    try actual.write(to: url)
    return
  }
  guard let expected = FileManager.default.contents(atPath: url.path) else {
    Issue.record("missing golden \(name); run with QUIRE_BLESS=1 to create it")
    return
  }
  if expected != actual {
    let dump = FileManager.default.temporaryDirectory.appendingPathComponent("actual-\(name)")
    try actual.write(to: dump)
    Issue.record("\(name) differs from its golden; actual written to \(dump.path)")
  }
}

/// The reference the streamed path is checked against: the whole book opened eagerly
/// (`Book.open`) and laid out at once by the Typeset stage (`Typesetter.layoutBook`).
struct EagerBook {
  var document: Document
  var typesetter: Typesetter
  var layout: BookLayout
  /// Ingest, typesetter and chapter warnings, as strings.
  var warnings: [String]

  init(_ path: String, settings: LayoutSettings = LayoutSettings()) throws {
    document = try Book.open(URL(fileURLWithPath: path), options: settings.ingestOptions)
    typesetter = try Typesetter(document: document, options: settings.layoutOptions)
    layout = typesetter.layoutBook(threads: 2)
    warnings = (document.warnings + layout.warnings).map(\.description)
  }

  func makeRenderer() -> PageRenderer {
    let resources = document.resources
    return PageRenderer(fonts: layout.fonts, images: { href in resources.data(forHref: href) })
  }

  /// The diagnostics a render of the book reports (no raster warnings): ingest, typesetter,
  /// then each chapter's, through the façade's adapter.
  func diagnostics(book path: String) -> DiagnosticLog {
    var log = DiagnosticLog()
    log.add(contentsOf: document.warnings)
    log.add(contentsOf: typesetter.warnings)
    for c in document.chapters {
      log.add(contentsOf: typesetter.layoutChapter(c.spineIndex).warnings)
    }
    return log
  }

  /// The manifest a render of this book should write.
  func manifest(book path: String, settings: LayoutSettings, files: [Int: String], boxes: Bool)
    -> Data
  {
    var records: [PageRecord] = []
    for var page in layout.pages {
      var faces: [FontFace] = []
      for item in page.items {
        if case .glyphs(let run) = item, !faces.contains(layout.fonts.faces[run.font]) {
          faces.append(layout.fonts.faces[run.font])
        }
      }
      page.items = []
      if !boxes {
        page.lines = []
        page.images = []
      }
      records.append(PageRecord(page: page, faces: faces))
    }
    let book = PaginatedBook(
      document: document, typesetter: typesetter, records: records, complete: true,
      diagnostics: diagnostics(book: path), key: settings.reading.refined(typesetter.key),
      ingestSeconds: 0, layoutSeconds: 0)
    return Manifest(book: book, settings: settings, files: files, boxes: boxes).encoded()
  }
}

extension RenderRequest {
  /// A request from paths (what the tests have).
  init(book: String, output: String) {
    self.init(book: URL(fileURLWithPath: book), output: URL(fileURLWithPath: output))
  }
}

/// The first page of a browser-oracle fixture laid out with the default settings.
func oracleFixtureFirstPage(_ path: String) throws -> (EagerBook, Page) {
  let book = try EagerBook(path)
  return (book, try #require(book.layout.pages.first))
}

/// A book of one XHTML chapter, `body` styled by `css`, written to a scratch folder (named
/// `prefix-name`) and laid out; the folder is removed again.
func oneChapterBook(
  _ prefix: String, _ name: String, css: String, body: String,
  settings: LayoutSettings = LayoutSettings()
) throws -> EagerBook {
  let folder = temporaryFolder("\(prefix)-\(name)")
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let xhtml = """
    <?xml version="1.0" encoding="utf-8"?>
    <html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title>
    <style>\(css)</style></head><body>\(body)</body></html>
    """
  let path = folder + "/\(name).xhtml"
  try Data(xhtml.utf8).write(to: URL(fileURLWithPath: path))
  return try EagerBook(path, settings: settings)
}
