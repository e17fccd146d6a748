import Foundation
import QuireCore
import Synchronization

/// The one place Quire writes files. Every file goes into `root` under a plain name (no
/// separators, no dot-dot), first to a hidden temporary name, then renamed, so an
/// interrupted run never leaves a half-written page.
///
/// A render owns its folder for its duration (issue #9): `lock()` takes an exclusive `flock`
/// on `root/.quire-lock`, removed by `unlock()` (the lock goes with the process, so a crash
/// leaves at most an unlocked empty file, never a stale lock), and a second render into the
/// same folder fails at once with `cannotCreate` (exit 73). The folder is one render's complete output exactly when it has a
/// `manifest.json`: a render removes the old manifest before its first page
/// (`invalidateManifest`), removes page files it did not write (`removeStalePages`) and
/// writes its manifest last, atomically — so on any failure no manifest describes pages of
/// another size or count.
public final class OutputFolder: Sendable {
  /// The folder every file is written into.
  public let root: URL
  /// `root.path` with a trailing slash: file paths are this plus a checked name. Joined as
  /// strings because `URL.appendingPathComponent` asks the file system whether the name is
  /// a folder (an `fstatat` per page file, which waits on the folder's lock while another
  /// worker creates or renames a page in it).
  private let prefix: String
  /// The lock file's descriptor while `lock()` holds it (closing it releases the lock).
  private let lockDescriptor = Mutex<Int32>(-1)

  /// The name of the lock file a render holds in its folder.
  public static let lockName = ".quire-lock"

  /// Creates the folder (and parents) if needed.
  public init(_ path: String) throws(QuireError) {
    guard !path.isEmpty, !path.contains("\0") else {
      throw .cannotCreate(path: path, reason: "an empty output path")
    }
    root = URL(fileURLWithPath: path).standardizedFileURL
    prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
    try Self.makeFolders(root.path, as: path)
  }

  deinit { unlock() }

  /// Takes the folder for this job: throws `cannotCreate` when another process holds it.
  ///
  /// The lock file is removed by `unlock()`, so a lock taken on a file that another process
  /// removed meanwhile is no lock: after `flock` succeeds the descriptor must still be the
  /// file at the path (same device and inode), else it is taken again.
  public func lock() throws(QuireError) {
    let path = prefix + Self.lockName
    for _ in 0..<8 {
      let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
      guard fd >= 0 else {
        throw .cannotCreate(path: path, reason: "open: \(String(cString: strerror(errno)))")
      }
      guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
        let busy = errno == EWOULDBLOCK
        let reason = String(cString: strerror(errno))
        close(fd)
        throw .cannotCreate(
          path: root.path,
          reason: busy ? "another quire process is writing into this folder" : "flock: \(reason)")
      }
      var held = stat()
      var named = stat()
      if fstat(fd, &held) == 0, stat(path, &named) == 0, held.st_dev == named.st_dev,
        held.st_ino == named.st_ino
      {
        lockDescriptor.withLock { $0 = fd }
        // An interrupted run removes it with its temporary files.
        _ = AtomicFileRegistry.register(path)
        return
      }
      close(fd)
    }
    throw .cannotCreate(path: path, reason: "the lock file keeps changing")
  }

  /// Releases the folder: removes the lock file, then closes it (nothing if not locked).
  public func unlock() {
    let fd = lockDescriptor.withLock { fd in
      defer { fd = -1 }
      return fd
    }
    guard fd >= 0 else { return }
    let path = prefix + Self.lockName
    unlink(path)
    AtomicFileRegistry.unregister(path)
    close(fd)
  }

  /// Writes `bytes` as `name` atomically; `sync` flushes the file to the disk first.
  public func write(_ bytes: some Collection<UInt8>, as name: String, sync: Bool = false)
    throws(QuireError)
  {
    let target = prefix + (try Self.checked(name))
    do { try AtomicFile.write(bytes, to: target, sync: sync) } catch {
      throw .cannotCreate(path: target, reason: error.reason)
    }
  }

  /// Writes `name` atomically piece by piece: `body` appends to the file, which is renamed
  /// into place when it returns (flushed to the disk first when `sync`) and removed if it
  /// throws.
  func write(
    _ name: String, sync: Bool, _ body: (AtomicFile) throws(QuireError) -> Void
  ) throws(QuireError) {
    let target = prefix + (try Self.checked(name))
    let file: AtomicFile
    do { file = try AtomicFile(path: target) } catch {
      throw .cannotCreate(path: target, reason: error.reason)
    }
    try body(file)
    do { try file.commit(sync: sync) } catch {
      throw .cannotCreate(path: target, reason: error.reason)
    }
  }

  /// Flushes the folder's entries (renames and removals) to the disk.
  public func sync() throws(QuireError) {
    do { try AtomicFile.syncFolder(root.path) } catch {
      throw .cannotCreate(path: root.path, reason: error.reason)
    }
  }

  /// Removes `name` if it exists (the manifest of an earlier render, before new pages land).
  public func remove(_ name: String) throws(QuireError) {
    let target = prefix + (try Self.checked(name))
    if unlink(target) != 0 && errno != ENOENT {
      throw .cannotCreate(path: target, reason: "unlink: \(String(cString: strerror(errno)))")
    }
  }

  /// The names in the folder for which `matching` holds.
  func names(matching: (String) -> Bool) throws(QuireError) -> [String] {
    guard let dir = opendir(root.path) else {
      throw .cannotCreate(path: root.path, reason: "opendir: \(String(cString: strerror(errno)))")
    }
    defer { closedir(dir) }
    var found: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if matching(name) { found.append(name) }
    }
    return found
  }

  /// Removes every `page-*.png` not in `keep` (pages of an earlier render); returns how many.
  @discardableResult
  public func removeStalePages(keeping keep: Set<String>) throws(QuireError) -> Int {
    let stale = try names { name in
      name.hasPrefix("page-") && name.hasSuffix(".png") && !keep.contains(name)
    }
    for name in stale { try remove(name) }
    return stale.count
  }

  /// Writes one file atomically (temporary name in the same folder, then rename) with the
  /// core's `AtomicFile`: plain POSIX calls, no fsync unless asked for.
  public static func writeAtomically(_ data: Data, to url: URL, sync: Bool = false)
    throws(QuireError)
  {
    do { try AtomicFile.write(data, to: url.path, sync: sync) } catch {
      throw .cannotCreate(path: url.path, reason: error.reason)
    }
  }

  private static func checked(_ name: String) throws(QuireError) -> String {
    guard
      !name.isEmpty && !name.contains("/") && name != "." && name != ".."
        && !name.contains("\0")
    else {
      throw .internalError("OutputFolder: bad file name '\(name.prefix(200))'")
    }
    return name
  }

  /// `mkdir -p` with POSIX calls (their messages, never Foundation's).
  private static func makeFolders(_ path: String, as given: String) throws(QuireError) {
    var isDirectory = stat()
    if stat(path, &isDirectory) == 0 {
      guard isDirectory.st_mode & S_IFMT == S_IFDIR else {
        throw .cannotCreate(path: given, reason: "exists and is not a folder")
      }
      return
    }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != path { try makeFolders(parent, as: given) }
    if mkdir(path, 0o755) != 0 && errno != EEXIST {
      throw .cannotCreate(path: given, reason: "mkdir: \(String(cString: strerror(errno)))")
    }
  }
}
