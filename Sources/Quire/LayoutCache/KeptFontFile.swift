// KeptFontFile: a book's embedded font file kept ready to use beside the layout cache entries,
// so that a later `render --pages N` loads it without inflating (and de-obfuscating) it.
//
// Why: a cached render of one text page of moby-dick spent ~13 M of its ~136 M instructions
// inflating the book's four embedded OTF fonts (~980 KB) from the ZIP, on every run. The
// first cached render that loads a font writes its usable bytes here (through
// QuireIngest's `FontFileArchive`); later ones read them back: a read, a CRC-32 and a copy.
//
// Keyed by the book's content hash and the font's path in the package: one file per font,
// `<content>-f<hash>.qfb` with `<hash>` the first 16 hex digits of the SHA-1 of the path. A
// font's bytes do not depend on the layout settings, so every entry of one book shares its
// fonts. The file repeats the content hash and path, which must match (a hash collision is
// then a miss).
//
// File: a sealed file's header (SealedFile.swift: magic "QUIREFB\n", version, CRC-32,
// payload length), then the content hash and path (length-prefixed UTF-8) and the font's bytes (the
// rest of the file, at most `maxFontBytes`). Anything else is a miss: the font is read from
// the book again and the file written again. Files count against the cache's size bound and
// leave least recently used first, as entries do. Read, not mapped: a mapped file truncated
// by another process would be a SIGBUS, and reading ~1 MB costs little next to the checksum.
// Rejected: keeping the fonts inside the entry (every settings' entry would carry a copy, and
// `paginate` would read them for nothing).

import Foundation
import QuireCore
import QuireIngest

/// The kept font files of one book (see the essay above).
struct KeptFontFiles: FontFileArchive {
  let cache: LayoutCache
  /// The book's content hash.
  let book: String

  func bytes(path: String) -> Data? {
    cache.fontFile(book, path: path)
  }

  func keep(_ bytes: Data, path: String) {
    cache.store(KeptFontFile.Font(book: book, path: path, bytes: bytes))
  }
}

/// The kept font file's format.
enum KeptFontFile {
  /// The header's kind (SealedFile.swift).
  static let sealed = SealedFile(magic: Array("QUIREFB\n".utf8), version: 1)
  static let headerSize = SealedFile.headerSize
  /// The file name extension.
  static let suffix = ".qfb"
  /// The largest font kept.
  static let maxFontBytes = 64 << 20
  /// The longest content hash or path a file may name.
  static let maxNameBytes = 4096

  /// One kept font.
  struct Font: Equatable {
    /// The book's content hash.
    var book: String
    /// The font's path in the package.
    var path: String
    /// The usable (inflated, de-obfuscated) bytes.
    var bytes: Data
  }

  /// The file name (in the cache folder) of the font at `path` of the book `book`.
  static func name(_ book: String, path: String) -> String {
    let digest = SHA1.hex(SHA1.digest(Array(path.utf8)))
    return "\(book)-f\(digest.prefix(16))" + suffix
  }

  /// The file's bytes, nil when the font cannot be kept (empty, too large, long names).
  static func encode(_ f: Font) -> [UInt8]? {
    guard !f.bytes.isEmpty, f.bytes.count <= maxFontBytes, f.book.utf8.count <= maxNameBytes,
      f.path.utf8.count <= maxNameBytes
    else { return nil }
    var w = DisplayListFile.Writer()
    w.string(f.book)
    w.string(f.path)
    w.bytes += f.bytes
    return sealed.seal(w.bytes)
  }

  /// The font in `bytes`, nil unless the header, checksum and every field check out.
  static func decode(_ bytes: Data) -> Font? {
    guard sealed.isSealed(bytes) else { return nil }
    return bytes.withUnsafeBytes { raw -> Font? in
      var r = DisplayListFile.Reader(raw: raw, at: headerSize)
      guard let book = r.string(), let path = r.string(), book.utf8.count <= maxNameBytes,
        path.utf8.count <= maxNameBytes, r.left > 0, r.left <= maxFontBytes
      else { return nil }
      return Font(book: book, path: path, bytes: Data(raw[r.at...]))
    }
  }
}

extension LayoutCache {
  /// The path of a kept font's file.
  func fontFilePath(_ book: String, path: String) -> String {
    directory.appendingPathComponent(KeptFontFile.name(book, path: path)).path
  }

  /// The kept bytes of the font at `path` of the book whose content hash is `book`, nil when
  /// they are not kept or do not check out. A hit becomes the most recently used file.
  func fontFile(_ book: String, path: String) -> Data? {
    let file = fontFilePath(book, path: path)
    let most =
      KeptFontFile.headerSize + 16 + 2 * KeptFontFile.maxNameBytes + KeptFontFile.maxFontBytes
    guard let data = readSealed(file, maxBytes: most),
      let font = KeptFontFile.decode(data), font.book == book, font.path == path
    else { return nil }
    touch(file)
    return font.bytes
  }

  /// Stores a kept font and evicts what no longer fits. Returns whether it was written.
  @discardableResult
  func store(_ font: KeptFontFile.Font) -> Bool {
    guard let bytes = KeptFontFile.encode(font), bytes.count <= maxBytes else { return false }
    return writeSealed(bytes, to: fontFilePath(font.book, path: font.path))
  }
}
