import QuireIngest

// The one place where the stages' warnings become `Diagnostic`s. Ingest reports
// `Diagnostic`s itself; Typeset and Raster report strings; when a stage reports `Diagnostic`s
// itself, its adapter below becomes `for d in warnings { add(d) }` and nothing else changes.

extension Diagnostic.Kind {
  /// A character that no font has (drawn as a missing-glyph box).
  static let missingGlyph = Diagnostic.Kind("missingGlyph")
  /// A font that was asked for but not found or not usable.
  static let layoutFont = Diagnostic.Kind("font")
  /// Something the typesetter worked around.
  static let layout = Diagnostic.Kind("layout")
  /// An image or font that could not be drawn.
  static let raster = Diagnostic.Kind("raster")
}

extension DiagnosticLog {
  /// Ingest's warnings (the book's files).
  mutating func add(ingest warnings: [Diagnostic]) {
    for w in warnings { add(w) }
  }

  /// Typeset's warnings: the typesetter's own (fonts) with `file` the book, a chapter's with
  /// `file` its href and `spine` its index.
  mutating func add(layout warnings: [String], file: String, spine: Int? = nil) {
    for w in warnings {
      let kind: Diagnostic.Kind =
        w.contains("no font has") ? .missingGlyph : w.hasPrefix("font ") ? .layoutFont : .layout
      add(Diagnostic(kind, file: file, spine: spine, message: Self.message(w, in: file)))
    }
  }

  /// Raster's warnings (images and fonts that would not decode), about `file`, the book.
  mutating func add(raster warnings: [String], file: String) {
    for w in warnings { add(Diagnostic(.raster, file: file, message: w)) }
  }

  /// `w` without a leading "file: " (the diagnostic names the file itself).
  private static func message(_ w: String, in file: String) -> String {
    w.hasPrefix(file + ": ") ? String(w.dropFirst(file.count + 2)) : w
  }
}
