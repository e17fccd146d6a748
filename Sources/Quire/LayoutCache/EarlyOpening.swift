// EarlyOpening: a cached render's book read up to its spine on another core while the job
// computes the layout-cache key and reads the entry.
//
// Why: a cached `render --pages N` is one thread from start to end — the key (fontconfig
// stamp, the fonts' identity, the settings: ~9 M instructions), the entry (~8 M), then
// `Book.openLazily` (ZIP directory, container, OPF, spine: ~17 M), then the chapter. The
// opening depends on none of what comes before it, so it starts first, on a thread of its
// own, and the cached path takes its result (`CachedLayout.draw`).
//
// Only EPUB packages (a ZIP file, or a folder with META-INF/container.xml) are opened early:
// `openLazily` reads them only up to the spine, a few percent of what the whole-book path
// does when the cache misses. Anything else (plain text, a single XHTML file) it reads whole,
// which would be work thrown away on a miss. The embedded-font store (keyed by the content
// hash, which the key computes) is attached afterwards (`ChapterLoader.keeping`): it is used
// only when chapters convert.

import Dispatch
import Foundation
import QuireIngest
import Synchronization

/// A book being opened lazily on another thread.
final class EarlyOpening: Sendable {
  private let done = DispatchGroup()
  private let result = Mutex<Result<ChapterLoader, IngestError>?>(nil)

  /// Starts opening the book at `path`; nil when it is not an EPUB package.
  init?(path: String, options: IngestOptions) {
    guard Self.isPackage(path) else { return nil }
    let url = URL(fileURLWithPath: path)
    done.enter()
    Thread { [self] in
      let opened: Result<ChapterLoader, IngestError>
      do throws(IngestError) {
        opened = .success(try Book.openLazily(url, options: options))
      } catch {
        opened = .failure(error)
      }
      result.withLock { $0 = opened }
      done.leave()
    }.start()
  }

  /// The opened book (waits for the opening to finish), with `fontFiles` keeping its
  /// embedded fonts.
  func loader(keeping fontFiles: (any FontFileArchive)?) throws(IngestError) -> ChapterLoader {
    done.wait()
    guard let opened = result.withLock({ $0 }) else {
      preconditionFailure("an early opening finished without a result")
    }
    return try opened.get().keeping(fontFiles)
  }

  /// Waits for the opening to finish (a job returns only once its threads have).
  func wait() { done.wait() }

  /// Whether `path` names an EPUB package: a folder holding META-INF/container.xml, or a
  /// file starting with a ZIP local file header.
  static func isPackage(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return false
    }
    if isDirectory.boolValue {
      return FileManager.default.fileExists(atPath: path + "/META-INF/container.xml")
    }
    guard let file = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? file.close() }
    let head = (try? file.read(upToCount: 4)) ?? Data()
    return head.elementsEqual([0x50, 0x4B, 0x03, 0x04])
  }
}
