// Where the tests find the shared corpus of real books, on any machine.
//
// The corpus is `../shared/corpus` relative to the package root (the root is found from this
// file's own path, so the answer does not depend on the working directory), or the folder
// named by the `QUIRE_CORPUS` environment variable. Tests that need it are disabled with
// `Corpus.missing` as their comment, so a machine without the corpus says why they were
// skipped instead of passing silently.

import Foundation

/// The real books the corpus-backed tests read.
public enum Corpus {
  /// The package root: three levels up from Tests/QuireTestSupport/Corpus.swift.
  public static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The corpus folder: `$QUIRE_CORPUS` when set, else `../shared/corpus` from the root.
  public static let root: URL = {
    if let env = ProcessInfo.processInfo.environment["QUIRE_CORPUS"], !env.isEmpty {
      return URL(fileURLWithPath: env, isDirectory: true)
    }
    return packageRoot.deletingLastPathComponent()
      .appendingPathComponent("shared/corpus", isDirectory: true).standardizedFileURL
  }()

  /// Whether the corpus is here (its README is the marker).
  public static var available: Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path)
  }

  /// Whether the corpus is here and holds `name`.
  public static func has(_ name: String) -> Bool {
    FileManager.default.fileExists(atPath: url(name).path)
  }

  /// The URL of the corpus file `name`.
  public static func url(_ name: String) -> URL { root.appendingPathComponent(name) }

  /// The path of the corpus file `name`.
  public static func path(_ name: String) -> String { url(name).path }

  /// Why corpus tests are skipped, for `.enabled(if:_:)` comments and skip messages.
  public static var missing: String {
    "skipped: the corpus is not at \(root.path) (set QUIRE_CORPUS or put it at ../shared/corpus)"
  }
}
