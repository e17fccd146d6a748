// ContentHashMemo: a book file that has not changed is not hashed again (git's index does
// the same for the work tree).
//
// A cached `paginate` must know the book's content hash before it can look its layout up,
// and hashing moby-dick's 1.6 MB costs more than everything else the cached run does but
// start the process. The memo maps a file's identity, as `stat` gives it, to that hash: one
// small file per identity in the cache folder, named by the SHA-1 of
//
//     real path, device, inode, size, modification time (ns), status-change time (ns)
//
// and holding the 40 hex digits. Any write to the file moves its change time (which no
// program can set back), a replacement changes the inode, a move changes the path; each is
// a new identity, so a stale memo is never read, only left for eviction (memos are entries
// of the cache's LRU like the layouts, a few dozen bytes each).
//
// Racy writes: time stamps have a granularity (the kernel's coarse clock, a few ms), so a
// file written again within the tick in which it was hashed could keep its identity with
// other bytes. A memo is therefore only written for a file whose change time is at least
// `settleSeconds` in the past when it was hashed; a book written a moment ago is hashed on
// every run until it settles.
//
// Only regular files are memoized; an unpacked EPUB folder is hashed file by file each run
// (a folder's own times do not change when a file inside it is rewritten).

import Foundation
import QuireCore
import QuireIngest

/// Remembered content hashes of unchanged book files, kept in the layout cache's folder.
struct ContentHashMemo {
  /// The folder of the memo files (the layout cache's).
  let directory: URL

  /// How far in the past a file's change time must be for its hash to be remembered.
  var settleSeconds = Self.settleSeconds

  /// The default settling time.
  static let settleSeconds: Int64 = 2
  /// The file name extension of memo files.
  static let suffix = ".qhm"

  /// The content hash of `url` (`LayoutCacheKey.contentHash`), from the memo when the file
  /// is unchanged since it was last hashed.
  func contentHash(of url: URL) -> String? {
    guard let identity = Self.identity(of: url) else {
      return LayoutCacheKey.contentHash(of: url)
    }
    let memo = directory.appendingPathComponent(identity.name + Self.suffix).path
    if let remembered = read(memo) {
      _ = utimensat(AT_FDCWD, memo, nil, 0)
      return remembered
    }
    guard let hash = LayoutCacheKey.contentHash(of: url) else { return nil }
    let now = Int64(Date().timeIntervalSince1970)
    if identity.changedSeconds <= now - settleSeconds {
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try? AtomicFile.write(Array((hash + "\n").utf8), to: memo)
    }
    return hash
  }

  /// The memo's name for a regular file's identity and its change time in seconds; nil for
  /// anything but a regular file.
  static func identity(of url: URL) -> (name: String, changedSeconds: Int64)? {
    var info = stat()
    guard let real = realpath(url.path, nil) else { return nil }
    defer { free(real) }
    guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    let text =
      "\(String(cString: real))\0\(info.st_dev)\0\(info.st_ino)\0\(info.st_size)\0\(modified)\0\(changed)"
    let name = SHA1.hex(SHA1.digest(Array(text.utf8)))
    return (name, Int64(info.st_ctim.tv_sec))
  }

  /// The hash a memo file holds, nil unless it is exactly 40 hex digits and a newline.
  private func read(_ path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path), data.count == 41,
      data.last == UInt8(ascii: "\n")
    else { return nil }
    let hex = data.prefix(40)
    guard hex.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
      return nil
    }
    return String(decoding: hex, as: UTF8.self)
  }
}
