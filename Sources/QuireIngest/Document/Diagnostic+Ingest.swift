// The kinds of diagnostic Ingest reports: damaged content it worked around. Each names what
// the reader loses; the message says where and why. Errors that stop a book are
// `IngestError`s, not diagnostics.

import QuireCore

extension Diagnostic.Kind {
  /// A ZIP entry was renamed (a name not in UTF-8, a backslash, a drive letter), skipped (a
  /// name that leaves the book, a duplicate) or read as plain data (a symlink).
  package static let archiveEntry = Diagnostic.Kind("archiveEntry")
  /// The `mimetype` file is missing or does not say `application/epub+zip`; the book is read
  /// anyway.
  package static let mimetype = Diagnostic.Kind("mimetype")
  /// A manifest item of the package document is unusable (no id or href, an href outside
  /// the book, a duplicate id) and was skipped.
  package static let manifestItem = Diagnostic.Kind("manifestItem")
  /// A spine item was skipped: its idref is not in the manifest, it is not a content
  /// document and has no usable fallback, or its file is missing from the book.
  package static let spineItem = Diagnostic.Kind("spineItem")
  /// A spine document could not be read (damaged archive data, a bad CRC); its chapter is
  /// left empty.
  package static let unreadableChapter = Diagnostic.Kind("unreadableChapter")
  /// A chapter's markup was not well-formed and was recovered with the HTML parser, was
  /// flattened below the nesting limit, or was empty.
  package static let malformedMarkup = Diagnostic.Kind("malformedMarkup")
  /// A style sheet is missing, unreadable, or has rules or @import chains that were skipped.
  package static let styleSheet = Diagnostic.Kind("styleSheet")
  /// The navigation document or the NCX could not be read; the table of contents comes from
  /// the other one, or is empty.
  package static let tableOfContents = Diagnostic.Kind("tableOfContents")
  /// META-INF/encryption.xml could not be read and was ignored.
  package static let encryptionFile = Diagnostic.Kind("encryptionFile")
  /// A resource is encrypted with something we cannot undo (DRM) and was skipped.
  package static let encryptedResource = Diagnostic.Kind("encryptedResource")
  /// A font named by @font-face is missing or unreadable, or is obfuscated without a key;
  /// text falls back to other fonts.
  package static let font = Diagnostic.Kind("font")
  /// A plain-text book had invalid byte sequences in its encoding; each became U+FFFD.
  package static let invalidText = Diagnostic.Kind("invalidText")
  /// A plain-text book without a byte-order mark is not UTF-8, and its encoding was guessed
  /// on little evidence; name the encoding to be sure.
  package static let guessedEncoding = Diagnostic.Kind("guessedEncoding")
}
