import QuireCore
import QuireIngest
import QuireTypeset

// Where the stages' reports meet. Ingest and Typeset report `Diagnostic`s themselves, each
// naming its file (and spine and offset where it has them); Raster reports strings about the
// book's images and fonts, which become `raster` diagnostics about the book here.

extension Diagnostic.Kind {
  /// An image or font that could not be drawn.
  static let raster = Diagnostic.Kind("raster")
}

extension DiagnosticLog {
  /// Ingest's diagnostics (about the book's files).
  mutating func add(ingest diagnostics: [Diagnostic]) {
    for d in diagnostics { add(d) }
  }

  /// Typeset's diagnostics: the typesetter's own (fonts) and a chapter's (missing glyphs),
  /// each already naming its file.
  mutating func add(layout diagnostics: [Diagnostic]) {
    for d in diagnostics { add(d) }
  }

  /// Raster's warnings (images and fonts that would not decode), about `file`, the book.
  mutating func add(raster warnings: [String], file: String) {
    for w in warnings { add(Diagnostic(.raster, file: file, message: w)) }
  }
}
