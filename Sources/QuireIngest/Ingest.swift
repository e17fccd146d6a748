// Ingest: a book file (EPUB 2/3, a single XHTML/HTML file, an unpacked EPUB folder, or plain
// text) becomes a `Document`.
//
// The package side (Archive/, Package/, Book.swift) finds and reads the files; the content
// side (Markup/, Style/, PlainText/) turns one document into styled blocks. They meet at
// `ChapterConverter` (Markup/ChapterConverter.swift): the package side hands over a
// `ChapterSource` (resolved href + bytes), gets a `Chapter` and its @font-face rules back.
//
// Flow of `Book.open`:
//   bytes ─► sniff (PK\3\4 or an EOCD → EPUB; a folder with META-INF/container.xml →
//   unpacked EPUB; .xhtml/.html or `<html` → one document; else plain text)
//   EPUB: ZipArchive/FolderFiles ─► container.xml ─► OPF (metadata, manifest, spine) ─►
//   encryption.xml ─► chapters converted in parallel (largest first; the nav/NCX read
//   meanwhile) ─► TOC → Locations ─► fonts (de-obfuscated) ─► Document (+ a lazy
//   ResourceStore for images).
//   Plain text: TextDecoding (BOM, else UTF-8, else a legacy encoding guessed by uchardet,
//   weighed by evidence and tried on a bounded sample) ─► PlainTextBook (lines on Unicode
//   scalars, paragraphs, headings → chapters).
//
// Units and coordinates. Paths inside a book are *normalized archive paths*: "/"-separated,
// relative to the container root, percent-decoded, no "." / ".." / drive / leading "/"
// (`EntryName`). Every href from the OPF, nav, NCX or encryption.xml is resolved to one of
// these against the file it was written in, and fragments are kept apart. A TOC target
// becomes a `Location` (spine index, offset in Unicode scalars), the offset taken from the
// converted chapter's `anchors` — so TOC locations are exactly as good as the converter's.
//
// Why a hand-written ZIP reader on zlib rather than libzip: limits must be enforced *while*
// inflating (per entry, in total, by compression ratio, and never past the size the header
// declared), header sizes must never size a buffer, and the archive is in memory already.
// That is a few hundred bounds-checked lines around zlib's raw inflate; libzip would add a
// dependency, a file-descriptor API and still leave the limits to us.
//
// Why one libxml2 front end (Markup/MarkupParser.swift) for package files and chapters alike,
// converting the C tree once into Swift values and freeing it: no C pointer escapes the
// parse call, every later step is plain Swift values (Sendable, testable), and the parser
// options that keep hostile XML harmless (NONET, never NOENT/DTDLOAD/HUGE, silenced errors,
// depth caps) live in one place, so the OPF cannot be parsed more loosely than a chapter.
//
// Damage vs. hostility. Damaged *content* degrades with a `Diagnostic` (a missing manifest
// item, a bad CRC, a wrong mimetype, a fallback cycle: the item is skipped or left empty,
// deterministically). Hitting an `IngestLimits` bound (`IngestError.limitExceeded`, which
// names the entry and the `IngestLimit`), or content we refuse (`.unsupported`: encrypted
// ZIP entries, DRM on every spine item), stops the book. Which errors are fatal is decided
// by the error's case (`IngestError.isFatal`), never by its message. The alternative
// rejected: "best effort" past a limit — a zip bomb that is merely truncated still costs the
// memory it was designed to cost.
//
// Diagnostics: every warning is a QuireCore `Diagnostic` of one of Ingest's kinds
// (Document/Diagnostic+Ingest.swift), naming the file inside the book and, for chapters,
// the spine index, so later stages and the manifest can aggregate them by kind and file.
//
// Determinism: chapters are converted concurrently (DispatchQueue.concurrentPerform) into
// fixed slots (a `Mutex` guards them); diagnostics, fonts and TOC are assembled afterwards
// in spine order, so the Document does not depend on scheduling. The largest chapters are
// claimed first, so that conversion does not end with one core converting a long chapter
// while the other idles; the nav document is parsed by one of the same workers.

import CLibXML2
import CZlib
import Foundation
import QuireCore

/// Bounds that every hostile input runs into before it can hurt.
///
/// Chapter caps (`maxChapterElements`, `maxChapterTextBytes`, `maxAttributesPerElement`) are
/// enforced on a chapter's bytes before libxml2 parses them (Markup/MarkupBounds.swift): past
/// them the chapter is truncated (or the extra attributes dropped) with one warning, since
/// the bytes beyond are never parsed and cost nothing. Book caps (`maxBookElements`,
/// `maxBookTextBytes`) sum every chapter and stop the book with `limitExceeded`.
package struct IngestLimits: Sendable, Hashable {
  package var maxEntries = 20_000
  package var maxEntryBytes = 256 << 20
  package var maxTotalBytes = 1 << 30
  package var maxCompressionRatio = 1_000
  package var maxDepth = 200
  /// Elements (start tags) of one chapter; the chapter is truncated at the one past it.
  /// Long single-file novels hold tens of thousands. Measured (release, 600x800): a chapter
  /// of 300,000 `<p>a</p>` converts with a 561 MB peak (about 1.5 KB per element through
  /// libxml2, the markup tree and the blocks) and paginates 16,667 pages in 8 s of CPU.
  package var maxChapterElements = 300_000
  /// Bytes of text (character data, CDATA included) of one chapter; the chapter is
  /// truncated at it. The largest real single-file books (a Bible, complete Shakespeare)
  /// hold about 5 MB.
  package var maxChapterTextBytes = 32 << 20
  /// Elements of every chapter of a book together: past it, the book is refused. It bounds
  /// the book's conversion and layout time (about 25 µs of CPU per element, so under a
  /// minute); memory is bounded per chapter, since rendering streams chapters. A large
  /// dictionary holds about a million; the 6,600-page, 2,014-document book of issue #9
  /// far fewer.
  package var maxBookElements = 2_000_000
  /// Bytes of text of every chapter of a book together: past it, the book is refused.
  /// Twenty times the longest real books.
  package var maxBookTextBytes = 128 << 20
  /// Attributes of one start tag; the extra ones are dropped before parsing (libxml2's
  /// duplicate check is quadratic in them). Real markup uses a handful.
  package var maxAttributesPerElement = 256
  package init() {}
}

package struct IngestOptions: Sendable, Hashable {
  /// Forces the plain-text encoding (IANA name, e.g. "GB18030", "UTF-16LE").
  package var encoding: String? = nil
  /// Apply the book's own style sheets (off: the user-agent sheet only).
  package var publisherStyles: Bool = true
  package var limits = IngestLimits()
  /// The page size in px that CSS media queries see (orientation, width, height).
  package var viewport = MediaViewport()
  /// Whether the package's cover image becomes page 1 (Package/PackagePages.swift).
  package var cover = CoverPolicy.auto
  package init() {}
}

/// What `@media` queries are evaluated against: the reader's page, portrait by default.
package struct MediaViewport: Sendable, Hashable {
  package var width: Int
  package var height: Int
  package init(width: Int = 600, height: Int = 800) {
    self.width = width
    self.height = height
  }
}

/// A bound of `IngestLimits` (or `Book.maxFileBytes`) that input can run into. Its raw value
/// is the setting's name, as messages print it ("maxEntryBytes=268435456"). Nesting depth is
/// not here: deep markup is flattened, never refused.
package enum IngestLimit: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// `IngestLimits.maxEntries`: entries in a ZIP archive.
  case entries = "maxEntries"
  /// `IngestLimits.maxEntryBytes`: bytes of one file of the book (inflated).
  case entryBytes = "maxEntryBytes"
  /// `IngestLimits.maxTotalBytes`: bytes of all files read from one book (inflated).
  case totalBytes = "maxTotalBytes"
  /// `IngestLimits.maxCompressionRatio`: inflated bytes per compressed byte of an entry.
  case compressionRatio = "maxCompressionRatio"
  /// `Book.maxFileBytes`: bytes of the book file itself.
  case fileBytes = "maxFileBytes"
  /// `IngestLimits.maxChapterElements`: elements of one chapter (it is truncated).
  case chapterElements = "maxChapterElements"
  /// `IngestLimits.maxChapterTextBytes`: text bytes of one chapter (it is truncated).
  case chapterTextBytes = "maxChapterTextBytes"
  /// `IngestLimits.maxBookElements`: elements of all chapters of a book.
  case bookElements = "maxBookElements"
  /// `IngestLimits.maxBookTextBytes`: text bytes of all chapters of a book.
  case bookTextBytes = "maxBookTextBytes"
  /// `IngestLimits.maxAttributesPerElement`: attributes of one start tag (extras dropped).
  case attributesPerElement = "maxAttributesPerElement"

  /// The setting's name.
  package var description: String { rawValue }
}

/// Why a book could not be opened. The CLI maps each case to a sysexits code. Whether an
/// error stops the whole book or only degrades one of its files is decided by the case
/// (`isFatal`), never by the message.
package enum IngestError: Error, Sendable, CustomStringConvertible, Equatable {
  /// The file is missing or unreadable (EX_NOINPUT, 66).
  case cannotOpen(path: String, reason: String)
  /// The bytes are not a book we can read (EX_DATAERR, 65).
  case badData(file: String, reason: String)
  /// A real book using something we refuse (DRM, encrypted entries) (EX_DATAERR, 65).
  case unsupported(file: String, reason: String)
  /// The input ran into a bound of `IngestLimits`: hostile (a zip bomb) or far beyond any
  /// real book, so it stops the whole book (EX_DATAERR, 65). `reason` says what and names
  /// the setting with its value ("entry 'a.xhtml' inflates past maxCompressionRatio=1000").
  case limitExceeded(file: String, limit: IngestLimit, reason: String)

  /// "file: what is wrong", each part elided past ~200 characters of input (`QuotedInput`).
  package var description: String {
    let reasonLimit = 2 * QuotedInput.maxQuotedCharacters
    switch self {
    case .cannotOpen(let p, let r):
      return "\(QuotedInput.elided(p)): cannot open: \(QuotedInput.elided(r, limit: reasonLimit))"
    case .badData(let f, let r), .limitExceeded(let f, _, let r):
      return "\(QuotedInput.elided(f)): \(QuotedInput.elided(r, limit: reasonLimit))"
    case .unsupported(let f, let r):
      return "\(QuotedInput.elided(f)): unsupported: \(QuotedInput.elided(r, limit: reasonLimit))"
    }
  }

  /// Whether this error stops the whole book: a limit was hit, or the content is refused
  /// (encrypted). Damaged content (`badData`) only degrades the file it is in.
  package var isFatal: Bool {
    switch self {
    case .limitExceeded, .unsupported: return true
    case .badData, .cannotOpen: return false
    }
  }
}
