// FontconfigMemo: fontconfig's configuration is parsed once per change, not once per run.
//
// The layout cache key names the system's font configuration (SystemFontsStamp.swift): the
// configuration files and the font folders they name. Finding those means parsing the
// configuration (FcInitLoadConfig: ~50 XML files, 24 M instructions, a third of a cached
// `paginate`). What that parse returns is a function of the files it read, the folders
// they were found in (a file added to conf.d changes its folder's time), the user's
// configuration places and the environment fontconfig reads; so the lists are kept in the
// cache folder together with those inputs' stamps, and reused while every stamp is the same
// (what `make` does with a target's dependencies). The font folders themselves are stamped
// afresh on every run, as before: only the parse is skipped.
//
// The file, `fontconfig.qfm`, is text: a format line, then `env NAME=value`, `input PATH
// STAMP` (a configuration file, its folder, or a user configuration place, "absent" when
// missing) and `folder PATH` lines. Anything unreadable or stale is parsed again and
// rewritten (atomically); a cache folder that cannot be written only costs the parse.

import Foundation
import QuireCore
import QuireTypeset

/// fontconfig's configuration lists, remembered in the layout cache's folder.
struct FontconfigMemo {
  let directory: URL

  static let fileName = "fontconfig.qfm"
  static let format = "quire-fontconfig-memo/1"
  /// The environment fontconfig's configuration depends on.
  static let environment = [
    "FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT", "HOME", "XDG_CONFIG_HOME",
  ]

  /// `SystemFonts.stamps` of fontconfig's configuration files and font folders.
  func stamp() -> [String] {
    let path = directory.appendingPathComponent(Self.fileName).path
    if let text = try? String(contentsOfFile: path, encoding: .utf8),
      let lists = Self.parse(text), Self.isCurrent(text, lists)
    {
      return SystemFonts.stamps(configFiles: lists.files, fontFolders: lists.folders)
    }
    let lists = SystemFonts.fontconfigLists()
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try? AtomicFile.write(Array(Self.text(lists).utf8), to: path)
    return SystemFonts.stamps(configFiles: lists.files, fontFolders: lists.folders)
  }

  /// The places whose change can change the parse: the files read, their folders, and the
  /// user configuration places (present or not).
  static func inputs(_ files: [String]) -> [String] {
    let env = ProcessInfo.processInfo.environment
    let config =
      env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? env["HOME"].map { $0 + "/.config" }
    var places = files + files.map { ($0 as NSString).deletingLastPathComponent }
    if let config { places.append(config + "/fontconfig") }
    if let home = env["HOME"] { places += [home + "/.fonts.conf", home + "/.fonts.conf.d"] }
    return Array(Set(places)).sorted()
  }

  /// The memo text of `lists` with its inputs' current stamps.
  static func text(_ lists: (files: [String], folders: [String])) -> String {
    let env = ProcessInfo.processInfo.environment
    var lines = [format]
    lines += environment.map { "env \($0)=\(env[$0] ?? "")" }
    lines += inputs(lists.files).map { "input \($0)\t\(SystemFonts.stamp($0) ?? "absent")" }
    lines += lists.files.map { "file \($0)" }
    lines += lists.folders.map { "folder \($0)" }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The lists a memo holds, nil when it is not one.
  /// (Lines are split and compared as UTF-8 bytes: splitting ~5 KB of text into Characters
  /// cost 9 M instructions a run.)
  static func parse(_ text: String) -> (files: [String], folders: [String])? {
    let lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
    guard let first = lines.first, first.elementsEqual(format.utf8), lines.count <= 100_000
    else { return nil }
    var files: [String] = []
    var folders: [String] = []
    for line in lines {
      if line.starts(with: "file ".utf8) {
        files.append(String(decoding: line.dropFirst(5), as: UTF8.self))
      }
      if line.starts(with: "folder ".utf8) {
        folders.append(String(decoding: line.dropFirst(7), as: UTF8.self))
      }
    }
    return (files, folders)
  }

  /// Whether the environment and every input's stamp are what the memo `text` (holding
  /// `lists`) recorded.
  static func isCurrent(_ text: String, _ lists: (files: [String], folders: [String])) -> Bool {
    func recorded(_ t: String) -> [ArraySlice<UInt8>] {
      Array(t.utf8).split(separator: 0x0A).filter {
        $0.starts(with: "env ".utf8) || $0.starts(with: "input ".utf8)
      }
    }
    return recorded(text).elementsEqual(recorded(Self.text(lists)))
  }

}
