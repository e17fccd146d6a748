// What the system's font fallback depends on, as text for the persisted layout cache key.
//
// Which system faces a book gets (SystemFonts.swift) is decided after the book is read,
// but the cache key must be known before, to skip that work. So the key names what
// fontconfig's answers are a function of: its configuration files and its font folders.
// Each is stamped "path size inode mtime"; the folders recursively (a font installed,
// removed or replaced through a rename changes its folder's time — the same test
// fontconfig's own cache uses to notice new fonts). The configuration is parsed without
// loading any font (FcInitLoadConfig), and only when it changed (the layout cache keeps
// the lists: Quire's FontconfigMemo). Bounded: at most `maxFolders`
// folders, `maxDepth` levels; past that the stamp says so and still names what it saw.

import CFontconfig
import Foundation

extension SystemFonts {
  /// Folders stamped at most, and their deepest level.
  static let maxFolders = 4_096
  static let maxDepth = 16

  /// "config=…" for each file, "fonts=…" for each font folder and every folder under it.
  package static func stamps(configFiles: [String], fontFolders: [String]) -> [String] {
    var out = configFiles.sorted().map { "config=\($0):\(stamp($0) ?? "absent")" }
    var folders: [String] = []
    for root in fontFolders.sorted() { walk(root, depth: 0, into: &folders) }
    out += folders.map { "fonts=\($0)" }
    if folders.count >= maxFolders { out.append("fonts=truncated") }
    return out
  }

  /// Stamps `folder` and the folders below it (symbolic links not followed), in name order.
  private static func walk(_ folder: String, depth: Int, into out: inout [String]) {
    guard out.count < maxFolders else { return }
    guard let s = stamp(folder) else {
      out.append("\(folder):absent")
      return
    }
    out.append("\(folder):\(s)")
    guard depth < maxDepth,
      let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
    else { return }
    for name in names.sorted() {
      let path = folder + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
      walk(path, depth: depth + 1, into: &out)
    }
  }

  /// "size inode mtime-ns" of a path, nil when it cannot be read.
  package static func stamp(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let ns = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    return "\(info.st_size) \(info.st_ino) \(ns)"
  }

  /// fontconfig's configuration files and font folders, from a configuration parsed here
  /// (never the process's current one, which stays untouched).
  package static func fontconfigLists() -> (files: [String], folders: [String]) {
    guard let config = FcInitLoadConfig() else { return ([], []) }
    defer { FcConfigDestroy(config) }
    func strings(_ list: OpaquePointer?) -> [String] {
      guard let list else { return [] }
      defer { FcStrListDone(list) }
      var out: [String] = []
      while let next = FcStrListNext(list) { out.append(String(cString: next)) }
      return out
    }
    return (strings(FcConfigGetConfigFiles(config)), strings(FcConfigGetFontDirs(config)))
  }
}
