import QuireCore
import QuireIngest
import QuireTypeset

// Where the stages' reports meet. Ingest, Typeset and Raster report `Diagnostic`s
// themselves, each naming its file (and spine and offset where it has them); the façade only
// aggregates them, in stage order.

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

  /// Raster's diagnostics (images and fonts that would not draw), each naming its file.
  mutating func add(raster diagnostics: [Diagnostic]) {
    for d in diagnostics { add(d) }
  }
}
