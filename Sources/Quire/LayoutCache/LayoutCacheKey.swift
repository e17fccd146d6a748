// LayoutCacheKey: what a persisted layout is keyed by, written down (working principle 5).
//
// A layout is a function of the book's bytes, the layout settings, the fonts, the engine and
// the hyphenation dictionaries. The key is the SHA-1 of one text that names each of them:
//
//   - the book's content hash: SHA-1 of the file's bytes (remembered for an unchanged file:
//     `ContentHashMemo`); for an unpacked EPUB folder, of
//     every file's relative path and SHA-1 in path order (at most 100,000 files, 32 levels;
//     a folder past that is not cached). The book's CSS, publisher fonts and images are in
//     those bytes. A single HTML/XHTML file is not cached: it reads style sheets, images and
//     fonts from the folder around it, which its bytes do not cover;
//   - every layout setting: the Typeset options as JSON (page size, font size, margins in
//     effect, line height, font choice, alignment, hyphenation, line breaking, publisher
//     styles, language, folio, footnotes), the text encoding, the cover policy and the CSS
//     media viewport (the page size);
//   - the fonts: each vendored font file's name, size, inode and modification time (hashing
//     32 MB of fonts per run would cost more than the layout it saves; a replaced file gets
//     a new inode or time), and the `--font` file's path and SHA-1;
//   - the system's fonts, unless `--no-system-fonts`: fontconfig's configuration files and
//     font folders, stamped (SystemFontsStamp.swift) — which system faces a book falls back
//     to is only known after reading it, so the key names everything that answer depends on;
//   - the engine version (`layoutEngineVersion`, injectable for tests);
//   - the hyphenation dictionary folders' modification times (a dictionary package
//     installed or upgraded renames files in them).
//
// Rejected: keying by the path and modification time of the book (what a file manager
// would do): a copy of the book elsewhere would miss, and a book rewritten within the same
// second would hit a stale layout. (The memo keeps the content hash as the key and only
// skips recomputing it, with the status-change time and a settling delay guarding against
// both.) The typesetter's own `LayoutKey` is no use here: it is made from the converted
// Document, i.e. after the work the cache is there to skip.

import Foundation
import QuireIngest
import QuireTypeset

/// The key of one book's layout under one set of settings.
struct LayoutCacheKey: Hashable, Sendable {
  /// Hex SHA-1 of every part (the entry's file name).
  var digest: String
  /// The book's content hash (one of the parts; what keys its kept font files).
  var book: String

  /// Most files an unpacked book folder may have to be hashed.
  static let maxFolderFiles = 100_000
  /// Deepest folder level searched.
  static let maxFolderDepth = 32

  /// The key of `book` laid out with `settings` by `engine` on a system whose font
  /// configuration stamps are `systemFonts` (empty with system fonts off), the book's
  /// content hash from `hash`; nil when something it names cannot be read (then nothing is
  /// cached and the layout reports the problem).
  static func make(
    book: URL, settings: LayoutSettings, engine: String, systemFonts: [String],
    hash: (URL) -> String? = contentHash(of:)
  ) -> LayoutCacheKey? {
    guard !isMarkup(book), let content = hash(book),
      let fonts = fontIdentity(settings.font)
    else { return nil }
    var parts = ["quire-layout-cache/1", "engine=\(engine)", "book=\(content)"]
    parts.append(settingsText(settings))
    parts += fonts
    parts += systemFonts
    for dir in Hyphenator.searchDirectories {
      parts.append("hyphen=\(dir):\(stamp(dir) ?? "absent")")
    }
    return LayoutCacheKey(
      digest: SHA1.hex(SHA1.digest(Array(parts.joined(separator: "\n").utf8))), book: content)
  }

  /// Every setting that can move a line or a page break, as text.
  static func settingsText(_ s: LayoutSettings) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let options = String(decoding: (try? encoder.encode(s.layoutOptions)) ?? Data(), as: UTF8.self)
    let r = s.reading
    return [
      "options=\(options)", "publisherStyles=\(r.publisherStyles)",
      "encoding=\(r.textEncoding ?? "-")", "cover=\(r.cover.rawValue)",
      "viewport=\(s.pageWidth)x\(s.pageHeight)",
    ].joined(separator: "\n")
  }

  /// The fonts' identities: the vendored files' stamps and the reader's font file's hash.
  static func fontIdentity(_ font: FontChoice) -> [String]? {
    guard let files = try? VendoredFonts.files() else { return nil }
    var parts: [String] = []
    for file in files {
      guard let s = stamp(file.path) else { return nil }
      parts.append("font=\(file.lastPathComponent):\(s)")
    }
    if case .file(let url) = font {
      guard let hash = contentHash(of: url) else { return nil }
      parts.append("userFont=\(url.path):\(hash)")
    }
    return parts
  }

  /// "size:inode:mtime-ns" of a file or folder, nil when it cannot be read.
  static func stamp(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let ns = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    return "\(info.st_size):\(info.st_ino):\(ns)"
  }

  /// Hex SHA-1 of a file's bytes, or of a folder's files (relative paths and their SHA-1s,
  /// in path order); nil when it cannot be read or is past the bounds.
  static func contentHash(of url: URL) -> String? {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
      return nil
    }
    if !isFolder.boolValue { return fileHash(url) }
    var listing: [String] = []
    guard collect(url, prefix: "", depth: 0, into: &listing) else { return nil }
    return SHA1.hex(SHA1.digest(Array(listing.joined(separator: "\n").utf8)))
  }

  /// Hex SHA-1 of a regular file's bytes (read, not mapped: a mapped file truncated under
  /// us would be a SIGBUS).
  private static func fileHash(_ url: URL) -> String? {
    var info = stat()
    guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
      info.st_size <= Book.maxFileBytes,
      let data = try? Data(contentsOf: url), data.count <= Book.maxFileBytes
    else { return nil }
    return SHA1.hex(SHA1.digest(data))
  }

  /// Whether a book file is read as one HTML/XHTML document (Ingest's test: not a ZIP, and
  /// an HTML name or `<html`/`<!doctype html` near the start).
  static func isMarkup(_ url: URL) -> Bool {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
    defer { try? handle.close() }
    let data = (try? handle.read(upToCount: 1024)) ?? Data()
    if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return false }
    let name = url
    if ["xhtml", "html", "htm", "xht"].contains(name.pathExtension.lowercased()) { return true }
    let head = String(decoding: data.prefix(1024), as: UTF8.self).lowercased()
    return head.contains("<html") || head.contains("<!doctype html")
  }

  /// Appends "path sha1" for every regular file under `folder`; false past the bounds or on
  /// a file that cannot be read. Symbolic links to folders are not followed.
  private static func collect(_ folder: URL, prefix: String, depth: Int, into out: inout [String])
    -> Bool
  {
    guard depth <= maxFolderDepth,
      let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
    else { return false }
    for name in names.sorted() {
      let url = folder.appendingPathComponent(name)
      let path = prefix + name
      var info = stat()
      guard lstat(url.path, &info) == 0 else { return false }
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        guard collect(url, prefix: path + "/", depth: depth + 1, into: &out) else { return false }
      case S_IFREG, S_IFLNK:
        guard out.count < maxFolderFiles, let hash = fileHash(url) else { return false }
        out.append("\(path) \(hash)")
      default: continue
      }
    }
    return true
  }
}
