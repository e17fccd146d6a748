// Where a book's files come from: a ZIP archive in memory, or a folder on disk (an unpacked
// EPUB, or the folder around a single XHTML file). Both answer by normalized path inside the
// book, and both enforce the same limits; a folder never serves a file outside itself.

import Foundation
import QuireCore

/// Files of one book, by normalized path ("OPS/ch1.xhtml"). Thread-safe.
protocol PackageFiles: Sendable {
  /// The book on disk, for messages.
  var file: String { get }
  func contains(_ path: String) -> Bool
  /// Size in bytes as far as the container knows it (header size for ZIP, file size on disk).
  func size(of path: String) -> Int?
  func read(_ path: String) throws(IngestError) -> Data
  /// Problems found while opening (bad names, duplicates, symlinks).
  var openingWarnings: [Diagnostic] { get }
}

extension ZipArchive: PackageFiles {
  func size(of path: String) -> Int? {
    entry(named: path).map { Int(clamping: $0.uncompressedSize) }
  }
  var openingWarnings: [Diagnostic] { warnings }
}

/// A folder read as a book. Paths are normalized like ZIP entry names, then the real path
/// (symlinks resolved) must still lie inside the real root: a symlink pointing out is refused.
final class FolderFiles: PackageFiles, Sendable {
  let file: String
  let root: URL
  let realRoot: String
  let limits: IngestLimits
  /// Paths already counted against `maxTotalBytes`, and their total.
  private let budget = Mutex<(charged: Set<String>, total: UInt64)>(([], 0))

  init(root: URL, limits: IngestLimits) {
    self.root = root
    self.file = root.path
    self.realRoot = root.resolvingSymlinksInPath().standardizedFileURL.path
    self.limits = limits
  }

  var openingWarnings: [Diagnostic] { [] }

  /// The on-disk path for a book path, or nil when it is unsafe or outside the folder.
  private func locate(_ path: String) -> URL? {
    guard case .path(let clean, _) = EntryName.normalize(path), clean == path else { return nil }
    let url = root.appendingPathComponent(clean)
    let real = url.resolvingSymlinksInPath().standardizedFileURL.path
    guard real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") else { return nil }
    return URL(fileURLWithPath: real)
  }

  func contains(_ path: String) -> Bool {
    guard let url = locate(path) else { return false }
    var isDir: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && !isDir.boolValue
  }

  func size(of path: String) -> Int? {
    guard let url = locate(path),
      let attrs = try? FileManager.default.attributesOfItem(atPath: url.path)
    else { return nil }
    return (attrs[.size] as? NSNumber)?.intValue
  }

  func read(_ path: String) throws(IngestError) -> Data {
    guard let url = locate(path) else {
      throw .badData(
        file: file,
        reason:
          "'\(QuotedInput.elided(path))' is not a file inside the book folder (or points outside it)"
      )
    }
    guard let size = self.size(of: path) else {
      throw .badData(
        file: file, reason: "'\(QuotedInput.elided(path))' is missing from the book folder")
    }
    guard size <= limits.maxEntryBytes else {
      throw .limitExceeded(
        file: file, limit: .entryBytes,
        reason:
          "'\(QuotedInput.elided(path))' is \(size) bytes, over maxEntryBytes=\(limits.maxEntryBytes)"
      )
    }
    let data: Data
    do {
      // Regular files only (a FIFO would block forever), never more than the entry cap.
      data = try Book.readFile(url, limit: limits.maxEntryBytes, kind: .entryBytes)
    } catch {
      if case .limitExceeded(_, let limit, let reason) = error {
        throw .limitExceeded(
          file: file, limit: limit, reason: "'\(QuotedInput.elided(path))': \(reason)")
      }
      throw .badData(file: file, reason: "'\(QuotedInput.elided(path))' cannot be read: \(error)")
    }
    try budget.withLock { (budget) throws(IngestError) in
      if budget.charged.contains(path) { return }
      guard budget.total + UInt64(data.count) <= UInt64(limits.maxTotalBytes) else {
        throw .limitExceeded(
          file: file, limit: .totalBytes,
          reason:
            "'\(QuotedInput.elided(path))' takes the book past maxTotalBytes=\(limits.maxTotalBytes)"
        )
      }
      budget.total += UInt64(data.count)
      budget.charged.insert(path)
    }
    return data
  }
}

/// Serves the book's resources (images, fonts) to later stages, reading lazily.
struct PackageResourceStore: ResourceStore {
  let files: any PackageFiles
  /// Resources we must not serve (DRM-encrypted) by path.
  let refused: Set<String>
  /// Font files already de-obfuscated, by path, so `data(forHref:)` gives the usable bytes.
  let decoded: [String: Data]
  /// Image items in formats Quire cannot decode → their usable manifest fallbacks
  /// (Resources/ImageFallback.swift).
  var imageFallbacks: [String: [String]] = [:]

  func data(forHref href: String) -> Data? {
    if DataURL.isDataURL(href) { return try? DataURL.decode(href) }
    let path = href.split(separator: "#", maxSplits: 1).first.map(String.init) ?? href
    if refused.contains(path) { return nil }
    if let d = decoded[path] { return d }
    if let fallbacks = imageFallbacks[path] {
      return imageOrFallback(path, own: try? files.read(path), fallbacks: fallbacks)
    }
    return try? files.read(path)
  }
}
