import Foundation

/// Opens books. The façade of the Ingest stage.
public enum Book {
  /// Opens any supported book: .epub (or any zip with an OCF container), a folder holding an
  /// unpacked EPUB, a single .xhtml/.html file, or plain text.
  public static func open(_ url: URL, options: IngestOptions = IngestOptions()) throws(IngestError) -> Document {
    throw .badData(file: url.path, reason: "not implemented yet")
  }
}
