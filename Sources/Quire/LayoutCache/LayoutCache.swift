// LayoutCache: books laid out once stay laid out (MuPDF's accelerator files, crengine's
// cache). A folder of entries, one file per book and layout key (`LayoutCacheKey`: the
// book's content hash, every layout setting, the fonts, the engine version), holding what a
// later run needs to skip the layout (`LayoutCacheEntry`): `paginate` answers from it alone,
// `render --pages N` lays out only the chapter holding page N.
//
// Where: `$XDG_CACHE_HOME/quire`, else `~/.cache/quire`; `--cache DIR|off` on the commands.
//
// Concurrency without locks: an entry is written to a temporary file in the folder and
// renamed over its name (`AtomicFile`), so a reader sees a whole old entry, a whole new one
// or none; two processes storing the same key both write whole files and the last rename
// wins (both are the same layout). A reader reads the file in one call and checks it
// (header, CRC-32, JSON, key); eviction unlinking a file a reader has open costs that reader
// nothing. Temporary files left by a killed writer are removed by eviction after an hour.
//
// Beside the layouts the folder keeps what makes a cached run cheap: chapters' display lists
// (DisplayListFile), large pictures scaled as drawn (ScaledImageFile), the books' embedded
// fonts ready to use (KeptFontFile), content-hash memos
// (ContentHashMemo), fontconfig's parse (FontconfigMemo) and, when the process's owner asks
// (`keepCompiledHyphenationPatterns`, the CLI does), compiled hyphenation pattern tries
// (QuireTypeset's CompiledPatterns, one file per dictionary's bytes and format version).
//
// Size bound, least recently used first out: a hit sets the entry's modification time to
// now; after each store, when the entries together exceed `maxBytes`, the oldest (by that
// time, then by name) are removed until they fit. The cache is an accelerator: a failure to
// read, write or evict is a miss, never an error of the job.
//
// Rejected: an index file listing entries and their last use. It would need a lock (or a
// merge) across processes; the file system's own modification times need neither.

import Foundation
import QuireCore
import QuireTypeset

/// A persisted layout cache in one folder.
public struct LayoutCache: Sendable, Hashable {
  /// The folder holding the entries (created on the first store).
  public var directory: URL
  /// The most bytes the entries may take together.
  public var maxBytes: Int
  /// The engine version entries are keyed by: a new engine misses every older entry.
  public var engine: String = layoutEngineVersion
  /// How long a book file must be unchanged before its content hash is remembered
  /// (`ContentHashMemo`); tests set 0.
  var hashSettleSeconds = ContentHashMemo.settleSeconds
  /// Tests only: the font folders the system-font part of the key stamps, instead of
  /// fontconfig's configuration (nil: fontconfig's).
  var systemFontFolders: [String]? = nil

  /// The default size bound: 256 MB.
  public static let defaultMaxBytes = 256 << 20
  /// The largest entry file read (an entry with every line box of a huge book stays below).
  static let maxEntryBytes = 512 << 20
  /// The file name extension of entries.
  static let suffix = ".qlc"

  /// A cache in `directory` bounded to `maxBytes`.
  public init(directory: URL, maxBytes: Int = LayoutCache.defaultMaxBytes) {
    self.directory = directory
    self.maxBytes = max(0, maxBytes)
  }

  /// `$XDG_CACHE_HOME/quire`, else `$HOME/.cache/quire`; nil when neither names a folder.
  public static func standard() -> LayoutCache? {
    let env = ProcessInfo.processInfo.environment
    if let xdg = env["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      return LayoutCache(directory: URL(fileURLWithPath: xdg).appendingPathComponent("quire"))
    }
    guard let home = env["HOME"], home.hasPrefix("/") else { return nil }
    return LayoutCache(
      directory: URL(fileURLWithPath: home).appendingPathComponent(".cache/quire"))
  }

  /// Makes this cache's folder where the process keeps compiled hyphenation patterns: a
  /// dictionary's pattern trie is read from there when present (a few hundred thousand
  /// instructions instead of ~75 M to build en-US's) and stored there after it is built.
  /// Process-wide, so it is the process's owner's call (the CLI makes it for `--cache`); a
  /// long-lived process keeps its dictionaries loaded anyway.
  public func keepCompiledHyphenationPatterns() {
    Hyphenator.keepCompiledPatterns(in: directory.path)
  }

  /// Whether entries can be stored here: the folder exists or can be made, and this process
  /// may write into it. A cache that cannot be written may still be read (a read-only copy),
  /// but a run that cannot draw from it need not hash the book for a key nor encode an entry
  /// only for the store to fail (`XDG_CACHE_HOME` naming a folder that cannot exist, as
  /// `compare-mutool.py` sets it, a read-only home).
  var isWritable: Bool {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      return false
    }
    return access(directory.path, W_OK) == 0
  }

  /// The key of `book` laid out with `settings`.
  func key(_ book: URL, _ settings: LayoutSettings) -> LayoutCacheKey? {
    // Fontconfig's configuration is parsed only when system fonts are in play.
    var systemFonts: [String] = []
    if settings.layoutOptions.systemFonts {
      systemFonts =
        systemFontFolders.map { SystemFonts.stamps(configFiles: [], fontFolders: $0) }
        ?? FontconfigMemo(directory: directory).stamp()
    }
    let memo = ContentHashMemo(directory: directory, settleSeconds: hashSettleSeconds)
    return LayoutCacheKey.make(
      book: book, settings: settings, engine: engine, systemFonts: systemFonts,
      hash: memo.contentHash)
  }

  func path(_ key: LayoutCacheKey) -> String {
    directory.appendingPathComponent(key.digest + Self.suffix).path
  }

  /// The entry stored under `key`, nil when there is none or it does not check out; with
  /// `pages` false, without the pages' manifest entries (`paginate` needs the index only). A
  /// hit becomes the most recently used entry.
  func load(_ key: LayoutCacheKey, pages: Bool = true) -> LayoutCacheEntry? {
    let path = path(key)
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
      info.st_size <= Self.maxEntryBytes,
      let bytes = FileManager.default.contents(atPath: path),
      let entry = LayoutCacheFile.decode(bytes, pages: pages), entry.key == key.digest
    else { return nil }
    _ = utimensat(AT_FDCWD, path, nil, 0)
    return entry
  }

  /// Stores `entry` under `key` and evicts what no longer fits. Returns whether it was
  /// written (a cache that cannot be written is only slower).
  @discardableResult
  func store(_ entry: LayoutCacheEntry, _ key: LayoutCacheKey) -> Bool {
    guard let bytes = LayoutCacheFile.encode(entry),
      bytes.count <= min(maxBytes, Self.maxEntryBytes)
    else { return false }
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try AtomicFile.write(bytes, to: path(key))
    } catch {
      return false
    }
    evict()
    return true
  }

  /// The display-list file of chapter `spine` under the entry `key` (a digest).
  func drawingsPath(_ key: String, spine: Int) -> String {
    directory.appendingPathComponent("\(key)-\(spine)" + DisplayListFile.suffix).path
  }

  /// The display lists of chapter `spine` stored under the entry `key`, nil when there are
  /// none or they do not check out. A hit becomes the most recently used file.
  func drawings(_ key: String, spine: Int) -> ChapterDrawings? {
    let path = drawingsPath(key, spine: spine)
    guard let data = readSealed(path, maxBytes: Self.maxEntryBytes),
      let drawings = DisplayListFile.decode([UInt8](data))
    else { return nil }
    touch(path)
    return drawings
  }

  /// Stores a chapter's display lists and evicts what no longer fits. Returns whether they
  /// were written.
  @discardableResult
  func store(_ drawings: ChapterDrawings) -> Bool {
    guard let bytes = DisplayListFile.encode(drawings),
      bytes.count <= min(maxBytes, Self.maxEntryBytes)
    else { return false }
    return writeSealed(bytes, to: drawingsPath(drawings.key, spine: drawings.spine))
  }

  /// The entries' files (layouts, display lists, scaled pictures, fonts, content-hash memos and
  /// compiled hyphenation patterns) with their sizes and last use, oldest first.
  func entries() -> [(name: String, bytes: Int, used: Int64)] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    else { return [] }
    var out: [(name: String, bytes: Int, used: Int64)] = []
    let staleTemporary = Int64(Date().timeIntervalSince1970) - 3600
    for name in names {
      let path = directory.appendingPathComponent(name).path
      var info = stat()
      guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
      let used = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
      let kinds = [
        Self.suffix, DisplayListFile.suffix, ScaledImageFile.suffix, KeptFontFile.suffix,
        ContentHashMemo.suffix, CompiledPatterns.suffix,
      ]
      if name.hasPrefix("."), kinds.contains(where: { name.contains($0 + ".tmp-") }) {
        if Int64(info.st_mtim.tv_sec) < staleTemporary { unlink(path) }
        continue
      }
      guard kinds.contains(where: { name.hasSuffix($0) }) else { continue }
      out.append((name, Int(info.st_size), used))
    }
    out.sort { $0.used != $1.used ? $0.used < $1.used : $0.name < $1.name }
    return out
  }

  /// Removes the least recently used entries until the rest fit in `maxBytes`.
  func evict() {
    let all = entries()
    var total = all.reduce(0) { $0 + $1.bytes }
    for e in all where total > maxBytes {
      if unlink(directory.appendingPathComponent(e.name).path) == 0 || errno == ENOENT {
        total -= e.bytes
      }
    }
  }
}
