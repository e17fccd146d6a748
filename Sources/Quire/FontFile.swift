// FontFile: checks a reader-chosen font file before any stage opens it (issue #9).
//
// A `FontChoice.file` comes from the user, not from a book, so it gets the checks the stages
// leave to the system: it must be a regular file (not a folder, not /dev/zero, which would
// be mapped or read forever), at most `QuireLimits.maxFontFileBytes`, and its sfnt table
// directory (or each face's, in a collection) must lie inside the file with every table it
// lists — a truncated font otherwise loads with missing tables and draws nothing, silently.
// WOFF files are checked by their header's length. Errors are POSIX messages (strerror),
// never Foundation's.

import Foundation

/// The checks of a font file named by `FontChoice.file`.
enum FontFile {
  /// Throws `cannotOpen` (missing, unreadable, not a regular file) or `badFont` (too large,
  /// truncated, not a font) for a `.file` choice; nothing for the others.
  static func check(_ choice: FontChoice) throws(QuireError) {
    guard case .file(let url) = choice else { return }
    let path = url.path
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw .cannotOpen(file: path, reason: String(cString: strerror(errno)))
    }
    let kind = info.st_mode & S_IFMT
    guard kind == S_IFREG else {
      throw .cannotOpen(
        file: path, reason: kind == S_IFDIR ? "a folder, not a font file" : "not a regular file")
    }
    let size = Int(info.st_size)
    guard size <= QuireLimits.maxFontFileBytes else {
      throw .badFont(
        file: path, reason: "\(size) bytes; fonts of at most \(QuireLimits.maxFontFileBytes)")
    }
    let bytes = try contents(path, size: size)
    if let problem = problem(bytes) { throw .badFont(file: path, reason: problem) }
  }

  private static func contents(_ path: String, size: Int) throws(QuireError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .cannotOpen(file: path, reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: size)
    var done = 0
    while done < size {
      let n = bytes.withUnsafeMutableBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return read(fd, base + done, size - done)
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw .cannotOpen(
          file: path, reason: n < 0 ? String(cString: strerror(errno)) : "shorter than its size")
      }
      done += n
    }
    return bytes
  }

  /// Why `bytes` are not a complete font, or nil.
  static func problem(_ bytes: [UInt8]) -> String? {
    guard bytes.count >= 12 else { return "not a font (\(bytes.count) bytes)" }
    switch tag(bytes, 0) {
    case "wOFF", "wOF2":
      guard bytes.count >= 12, Int(u32(bytes, 8)) == bytes.count else {
        return
          "truncated WOFF (its header says \(u32(bytes, 8)) bytes, the file has \(bytes.count))"
      }
      return nil
    case "ttcf":
      let faces = Int(u32(bytes, 8))
      guard faces >= 1, faces <= 10_000, 12 + 4 * faces <= bytes.count else {
        return "truncated or damaged font collection"
      }
      for i in 0..<faces {
        if let p = tableDirectoryProblem(bytes, at: Int(u32(bytes, 12 + 4 * i))) { return p }
      }
      return nil
    default:
      return tableDirectoryProblem(bytes, at: 0)
    }
  }

  /// Checks the sfnt table directory at `offset`: a known version, and every table inside
  /// the file.
  private static func tableDirectoryProblem(_ bytes: [UInt8], at offset: Int) -> String? {
    guard offset >= 0, offset + 12 <= bytes.count else { return "truncated font" }
    let version = u32(bytes, offset)
    guard version == 0x0001_0000 || ["OTTO", "true", "typ1"].contains(tag(bytes, offset)) else {
      return "not a TrueType or OpenType font"
    }
    let tables = Int(u16(bytes, offset + 4))
    guard tables >= 1, offset + 12 + 16 * tables <= bytes.count else { return "truncated font" }
    for t in 0..<tables {
      let record = offset + 12 + 16 * t
      let start = Int(u32(bytes, record + 8))
      let length = Int(u32(bytes, record + 12))
      guard start + length <= bytes.count else {
        return "truncated font: table '\(tag(bytes, record))' ends at byte \(start + length) of "
          + "\(bytes.count)"
      }
    }
    return nil
  }

  private static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }

  private static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) << 8 | UInt16(b[i + 1]) }

  /// Four bytes as a tag, non-printable bytes as '?'.
  private static func tag(_ b: [UInt8], _ i: Int) -> String {
    String(b[i..<i + 4].map { (32..<127).contains($0) ? Character(UnicodeScalar($0)) : "?" })
  }
}
