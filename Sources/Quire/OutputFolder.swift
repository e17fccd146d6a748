import Foundation
import QuireCore

/// The one place Quire writes files. Every file goes into `root` under a plain name (no
/// separators, no dot-dot), first to a hidden temporary name, then renamed, so an
/// interrupted run never leaves a half-written page.
public struct OutputFolder: Sendable {
  /// The folder every file is written into.
  public let root: URL

  /// Creates the folder (and parents) if needed.
  public init(_ path: String) throws(QuireError) {
    root = URL(fileURLWithPath: path).standardizedFileURL
    do {
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    } catch {
      throw .cannotCreate(path: path, reason: "mkdir: \(Self.reason(error))")
    }
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDir), isDir.boolValue
    else {
      throw .cannotCreate(path: path, reason: "not a directory")
    }
  }

  /// Writes `bytes` as `name` atomically.
  public func write(_ bytes: some Collection<UInt8>, as name: String) throws(QuireError) {
    try Self.writeAtomically(Data(bytes), to: root.appendingPathComponent(Self.checked(name)))
  }

  /// Writes `data` as `name` atomically.
  public func write(_ data: Data, as name: String) throws(QuireError) {
    try Self.writeAtomically(data, to: root.appendingPathComponent(Self.checked(name)))
  }

  /// Writes one file atomically (temporary name in the same folder, then rename) with the
  /// core's `AtomicFile`: plain POSIX calls, no fsync — Foundation's `Data.write(to:)` fsyncs
  /// every file, which on a virtual disk costs more than rendering the page; rename gives the
  /// atomicity readers need, and durability across a power cut is not a goal for
  /// regenerable output.
  public static func writeAtomically(_ data: Data, to url: URL) throws(QuireError) {
    do { try AtomicFile.write(data, to: url.path) } catch {
      throw .cannotCreate(path: url.path, reason: error.reason)
    }
  }

  private static func checked(_ name: String) -> String {
    precondition(
      !name.isEmpty && !name.contains("/") && name != "." && name != ".." && !name.contains("\0"),
      "OutputFolder: bad file name '\(name)'")
    return name
  }

  static func reason(_ error: Error) -> String {
    let ns = error as NSError
    if let under = ns.userInfo[NSUnderlyingErrorKey] as? NSError, under.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(under.code)))
    }
    return ns.localizedDescription
  }
}
