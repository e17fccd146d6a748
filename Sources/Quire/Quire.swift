// Quire: the façade that ties the stages together for the CLI and for library users.
//
//   Book.open (Ingest) → Typesetter (Typeset) → PageRenderer + PNGCodec (Raster)
//     → OutputFolder (atomic files) + Manifest;  PageCache (Cache) and the effects (Motion)
//     take page images from a `BookPages` source.
//
// The façade owns no algorithm: it wires stages, runs pages on worker threads, and keeps
// output deterministic (page files and the manifest are identical for identical inputs,
// whatever the thread count).
import Foundation
@_exported import QuireCache
@_exported import QuireIngest
@_exported import QuireMotion
@_exported import QuireRaster
@_exported import QuireTypeset

/// Why a job failed; the CLI maps each case to one stderr line and a sysexits code.
public enum QuireError: Error, CustomStringConvertible, Sendable {
  case ingest(IngestError)
  case typeset(String)
  /// A file or folder could not be created or written (EX_CANTCREAT, 73).
  case cannotCreate(path: String, reason: String)
  /// Bad content that `--strict` refuses (EX_DATAERR, 65).
  case strict(String)
  /// An option that makes no sense for this book (EX_USAGE, 64).
  case usage(String)
  /// Our own broken expectation (EX_SOFTWARE, 70).
  case internalError(String)

  public var description: String {
    switch self {
    case .ingest(let e): return e.description
    case .typeset(let s): return s
    case .cannotCreate(let p, let r): return "\(p): cannot create: \(r)"
    case .strict(let s): return "strict: \(s)"
    case .usage(let s): return s
    case .internalError(let s): return "internal error: \(s)"
    }
  }

  /// sysexits(3).
  public var exitCode: Int32 {
    switch self {
    case .ingest(.cannotOpen): return 66
    case .ingest: return 65
    case .typeset: return 65
    case .cannotCreate: return 73
    case .strict: return 65
    case .usage: return 64
    case .internalError: return 70
    }
  }
}
