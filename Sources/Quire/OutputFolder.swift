import Foundation

/// The one place Quire writes files. Every file goes into `root` under a plain name (no
/// separators, no dot-dot), first to a hidden temporary name, then renamed, so an
/// interrupted run never leaves a half-written page.
public struct OutputFolder: Sendable {
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

  public func write(_ data: Data, as name: String) throws(QuireError) {
    try Self.writeAtomically(data, to: root.appendingPathComponent(Self.checked(name)))
  }

  /// Writes one file atomically (temporary name in the same folder, then rename).
  ///
  /// Plain POSIX calls rather than `Data.write(to:)`: Foundation fsyncs every file, which on
  /// a virtual disk costs more than rendering the page. Rename gives the atomicity readers
  /// need (no half-written page under the final name); durability across a power cut is not
  /// a goal for regenerable output.
  public static func writeAtomically(_ data: Data, to url: URL) throws(QuireError) {
    let dir = url.deletingLastPathComponent()
    let tmp = dir.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
    let fd = open(tmp.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard fd >= 0 else {
      throw .cannotCreate(path: url.path, reason: "open: \(String(cString: strerror(errno)))")
    }
    var failure: String? = nil
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      var offset = 0
      while offset < raw.count {
        let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          failure = "write: \(String(cString: strerror(errno)))"
          return
        }
        offset += n
      }
    }
    if close(fd) != 0 && failure == nil { failure = "close: \(String(cString: strerror(errno)))" }
    if failure == nil && rename(tmp.path, url.path) != 0 {
      failure = "rename: \(String(cString: strerror(errno)))"
    }
    if let failure {
      unlink(tmp.path)
      throw .cannotCreate(path: url.path, reason: failure)
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
