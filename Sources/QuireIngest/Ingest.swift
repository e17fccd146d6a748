// Ingest: a book file (EPUB 2/3, a single XHTML/HTML file, an unpacked EPUB folder, or plain
// text) becomes a `Document`.
//
// (Design essay: to be completed by the Ingest owner — archive reader choice, limits,
// libxml2 options, why the C tree is converted once and freed.)

import Foundation

/// Bounds that every hostile input runs into before it can hurt.
public struct IngestLimits: Sendable, Hashable {
  public var maxEntries = 20_000
  public var maxEntryBytes = 256 << 20
  public var maxTotalBytes = 1 << 30
  public var maxCompressionRatio = 1_000
  public var maxDepth = 200
  public init() {}
}

public struct IngestOptions: Sendable, Hashable {
  /// Forces the plain-text encoding (IANA name, e.g. "GB18030", "UTF-16LE").
  public var encoding: String? = nil
  /// Apply the book's own style sheets (off: the user-agent sheet only).
  public var publisherStyles: Bool = true
  public var limits = IngestLimits()
  public init() {}
}

/// Why a book could not be opened. The CLI maps each case to a sysexits code.
public enum IngestError: Error, Sendable, CustomStringConvertible, Equatable {
  /// The file is missing or unreadable (EX_NOINPUT, 66).
  case cannotOpen(path: String, reason: String)
  /// The bytes are not a book we can read (EX_DATAERR, 65).
  case badData(file: String, reason: String)
  /// A real book using something we refuse (DRM, encrypted entries) (EX_DATAERR, 65).
  case unsupported(file: String, reason: String)

  public var description: String {
    switch self {
    case .cannotOpen(let p, let r): return "\(p): cannot open: \(r)"
    case .badData(let f, let r): return "\(f): \(r)"
    case .unsupported(let f, let r): return "\(f): unsupported: \(r)"
    }
  }
}
import CLibXML2
import CZlib
