// SealedFile: the header the layout cache's side files share — display lists
// (DisplayListFile.swift), scaled pictures (ScaledImageFile.swift) and kept fonts
// (KeptFontFile.swift) — and their reading from the cache folder.
//
// A sealed file is 24 bytes of header, little-endian, then the payload:
//
//     offset size
//     0      8    magic naming the kind, e.g. "QUIREDL\n"
//     8      4    the kind's format version
//     12     4    CRC-32 of the payload
//     16     8    the payload's length (the rest of the file)
//
// The same header as the entry's (LayoutCacheEntry.swift), whose payload has sections of its
// own. A file whose magic, version, length or checksum does not check out is not read
// further: it is a miss, and the caller writes it again. Files are read whole (not mapped: a
// file truncated by another process while mapped would be a SIGBUS) and only when they are
// regular files no larger than the kind's bound, so a hostile file costs at most that bound.

import Foundation
import QuireCore

/// One kind of sealed cache file: its magic and format version (see the essay above).
struct SealedFile {
  /// Eight bytes naming the kind.
  let magic: [UInt8]
  /// The kind's format version (a file of another version is a miss).
  let version: UInt32

  /// The header's length in bytes.
  static let headerSize = 24

  /// `payload` behind this kind's header.
  func seal(_ payload: [UInt8]) -> [UInt8] {
    var out = magic
    out.reserveCapacity(Self.headerSize + payload.count)
    LayoutCacheFile.append(&out, UInt64(version), bytes: 4)
    LayoutCacheFile.append(&out, UInt64(LayoutCacheFile.crc(payload)), bytes: 4)
    LayoutCacheFile.append(&out, UInt64(payload.count), bytes: 8)
    out += payload
    return out
  }

  /// Whether `bytes` is a whole, unchanged file of this kind (its payload starts at
  /// `headerSize`).
  func isSealed(_ bytes: some ContiguousBytes) -> Bool {
    bytes.withUnsafeBytes { raw in
      guard raw.count >= Self.headerSize, raw.prefix(8).elementsEqual(magic) else {
        return false
      }
      func field(_ at: Int, _ count: Int) -> UInt64 {
        (0..<count).reduce(0) { $0 | UInt64(raw[at + $1]) << (8 * UInt64($1)) }
      }
      let payload = UnsafeRawBufferPointer(rebasing: raw[Self.headerSize...])
      return field(8, 4) == UInt64(version) && field(16, 8) == UInt64(payload.count)
        && field(12, 4) == UInt64(LayoutCacheFile.crc(payload))
    }
  }
}

extension LayoutCache {
  /// The bytes of the regular file at `path` when it holds at most `maxBytes`, nil otherwise.
  func readSealed(_ path: String, maxBytes: Int) -> Data? {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= maxBytes
    else { return nil }
    return FileManager.default.contents(atPath: path)
  }

  /// Marks the file at `path` as the most recently used (a hit).
  func touch(_ path: String) {
    _ = utimensat(AT_FDCWD, path, nil, 0)
  }

  /// Writes a sealed file's `bytes` to `path` atomically and evicts what no longer fits;
  /// returns whether it was written.
  func writeSealed(_ bytes: [UInt8], to path: String) -> Bool {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try AtomicFile.write(bytes, to: path)
    } catch {
      return false
    }
    evict()
    return true
  }
}
