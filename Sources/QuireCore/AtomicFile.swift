#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `write(2)`, named apart from `AtomicFile.write`.
@inline(__always)
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, bytes, count)
}

/// Why writing a file atomically failed: the target, the POSIX call that failed and the
/// system's message for its error.
public struct AtomicFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The POSIX step that failed.
  public enum Step: String, Sendable, Hashable {
    /// Creating the temporary file (`open`).
    case open
    /// Writing bytes (`write` / `pwrite`).
    case write
    /// Closing the temporary file (`close`), where delayed write errors surface.
    case close
    /// Moving the temporary file onto the target (`rename`).
    case rename
    /// Flushing the file or its folder to the disk (`fsync`).
    case sync
  }

  /// The file that was to be written.
  public var path: String
  /// The call that failed.
  public var step: Step
  /// The system's message for the error (`strerror`).
  public var message: String

  /// An error of `step` writing `path`.
  public init(path: String, step: Step, message: String) {
    self.path = path
    self.step = step
    self.message = message
  }

  /// "open: No such file or directory": the step and the message, without the path.
  public var reason: String { "\(step.rawValue): \(message)" }

  /// "path: step: message".
  public var description: String { "\(path): \(reason)" }
}

/// A file written under a temporary name in the target's own folder and renamed onto the
/// target by `commit()`, so no reader ever sees a half-written file under the target's name.
///
/// The temporary name is hidden (`.NAME.tmp-PID-N`) and unique within the process. If the
/// writer is dropped without a successful `commit()` — an error, an early return — the
/// temporary file is closed and removed; a failed `commit()` removes it too.
///
/// `commit(sync: true)` flushes the file to the disk before the rename, and
/// `syncFolder(_:)` the folder after it: durability across a power cut for the files that
/// must have it (a render's manifest). By default there is no `fsync`: it costs more than
/// rendering a page on a virtual disk, and the rename gives the atomicity readers need.
///
/// The temporary file is created with `O_EXCL` (never someone else's file) and recorded in
/// `AtomicFileRegistry` until it is committed or removed, so a process that is interrupted
/// can remove it.
///
/// One writer is used by one thread at a time.
public final class AtomicFile {
  /// The file being written.
  public let path: String
  /// Where the bytes go until `commit()`.
  public let temporaryPath: String
  private var descriptor: Int32

  private static let counter = Atomic<Int>(0)

  /// Creates the temporary file next to `path`.
  public init(path: String) throws(AtomicFileError) {
    self.path = path
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let n = Self.counter.wrappingAdd(1, ordering: .relaxed).oldValue
    temporaryPath = folder + "." + name + ".tmp-\(getpid())-\(n)"
    // Registered before it exists, so an interruption between open and register cannot miss it.
    guard AtomicFileRegistry.register(temporaryPath) else {
      descriptor = -1
      throw AtomicFileError(path: path, step: .open, message: "interrupted")
    }
    descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard descriptor >= 0 else {
      let error = Self.failure(path, .open)
      AtomicFileRegistry.unregister(temporaryPath)
      throw error
    }
  }

  deinit { discard() }

  /// Appends `bytes`.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(AtomicFileError) {
    try writeAll(bytes, at: nil)
  }

  /// Appends `bytes` (an array, `Data`, a slice…; contiguous collections are not copied).
  public func write(_ bytes: some Collection<UInt8>) throws(AtomicFileError) {
    try Self.withContiguousBytes(bytes) { (raw) throws(AtomicFileError) in
      try writeAll(raw, at: nil)
    }
  }

  /// Overwrites the bytes at `offset` (already written) with `bytes`, leaving the append
  /// position where it was — for a header whose counts are known only at the end.
  public func write(_ bytes: some Collection<UInt8>, at offset: Int) throws(AtomicFileError) {
    try Self.withContiguousBytes(bytes) { (raw) throws(AtomicFileError) in
      try writeAll(raw, at: offset)
    }
  }

  /// Closes the temporary file (flushing it to the disk first when `sync`) and renames it
  /// onto `path`. On failure the temporary file is removed and `path` is untouched.
  public func commit(sync: Bool = false) throws(AtomicFileError) {
    guard descriptor >= 0 else {
      throw AtomicFileError(path: path, step: .rename, message: "already committed or discarded")
    }
    let fd = descriptor
    descriptor = -1
    defer { AtomicFileRegistry.unregister(temporaryPath) }
    if sync && fsync(fd) != 0 {
      let error = Self.failure(path, .sync)
      close(fd)
      unlink(temporaryPath)
      throw error
    }
    if close(fd) != 0 {
      let error = Self.failure(path, .close)
      unlink(temporaryPath)
      throw error
    }
    if rename(temporaryPath, path) != 0 {
      let error = Self.failure(path, .rename)
      unlink(temporaryPath)
      throw error
    }
  }

  /// Abandons the file: closes and removes the temporary file (nothing after a commit).
  public func discard() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
    unlink(temporaryPath)
    AtomicFileRegistry.unregister(temporaryPath)
  }

  /// Writes `bytes` to `path` atomically in one go; `sync` flushes it to the disk first.
  public static func write(_ bytes: some Collection<UInt8>, to path: String, sync: Bool = false)
    throws(AtomicFileError)
  {
    let file = try AtomicFile(path: path)
    try file.write(bytes)
    try file.commit(sync: sync)
  }

  /// Flushes `folder`'s entries (renames, removals) to the disk (`fsync` of the folder).
  public static func syncFolder(_ folder: String) throws(AtomicFileError) {
    let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw failure(folder, .sync) }
    defer { close(fd) }
    if fsync(fd) != 0 { throw failure(folder, .sync) }
  }

  /// Writes all of `bytes`, appending (offset nil) or at `offset` (pwrite), retrying short
  /// and interrupted writes.
  private func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int?) throws(AtomicFileError) {
    guard descriptor >= 0 else {
      throw AtomicFileError(path: path, step: .write, message: "written after commit or discard")
    }
    guard var next = bytes.baseAddress else { return }
    var left = bytes.count
    var position = offset ?? 0
    while left > 0 {
      let n =
        offset == nil
        ? systemWrite(descriptor, next, left)
        : pwrite(descriptor, next, left, off_t(position))
      if n < 0 {
        if errno == EINTR { continue }
        throw Self.failure(path, .write)
      }
      next += n
      left -= n
      position += n
    }
  }

  private static func withContiguousBytes(
    _ bytes: some Collection<UInt8>,
    _ body: (UnsafeRawBufferPointer) throws(AtomicFileError) -> Void
  ) throws(AtomicFileError) {
    // The standard library's `with…` functions rethrow untyped errors; carry ours in a Result.
    let done: Result<Void, AtomicFileError>? = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(AtomicFileError) in try body(UnsafeRawBufferPointer(buffer)) }
    }
    if let done { return try done.get() }
    let copy = Array(bytes)
    try copy.withUnsafeBytes { raw in
      Result { () throws(AtomicFileError) in try body(raw) }
    }.get()
  }

  private static func failure(_ path: String, _ step: AtomicFileError.Step) -> AtomicFileError {
    AtomicFileError(path: path, step: step, message: String(cString: strerror(errno)))
  }
}
