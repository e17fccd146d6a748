// VendoredFaces: the fonts/ folder's faces, opened once per process and shared by every
// font set.
//
// Why: every `Typesetter` builds a `FontSet`, and the vendored faces are most of it (53
// files mapped, a HarfBuzz face and font each, metrics and the Latin coverage table: ~10 M
// instructions). They depend on nothing but the folder, and a `Face` is immutable once made
// (its one lazy answer, small caps, is behind a lock), so a process that builds several
// typesetters (paginate's growing prefixes, a batch) opens them once, and a job can start
// opening them on another core while it reads the book (`prefetch`). Face numbers are
// positions in each set's own array, so sharing the instances changes no layout.
//
// Rejected: opening only the faces a page uses. Face numbers, the fallback order and the
// layout key are defined over the whole list; a lazy list would need every lookup to be
// able to open a face on demand, for ~10 M instructions that this sharing already moves
// off the critical path.

import Foundation
import QuireCore
import Synchronization

enum VendoredFaces {
  /// The faces opened so far, with the folder they came from.
  private static let opened = Mutex<(folder: String, faces: [Face])?>(nil)

  /// The vendored faces in `FontSet.vendored` order, read from `folder` (opened by the
  /// first caller; a caller asking meanwhile waits for them). A failure is not kept: the
  /// next caller tries again and gets the same error.
  static func faces(in folder: URL) throws(FontError) -> [Face] {
    try opened.withLock { (opened) throws(FontError) -> [Face] in
      if let opened, opened.folder == folder.path { return opened.faces }
      let faces = try open(folder)
      opened = (folder.path, faces)
      return faces
    }
  }

  /// Starts opening the vendored faces in the background (errors are left for the
  /// typesetter that needs them to meet).
  static func prefetch() {
    DispatchQueue.global(qos: .userInitiated).async {
      guard let folder = try? FontSet.locateFontsFolder() else { return }
      _ = try? faces(in: folder)
    }
  }

  private static func open(_ folder: URL) throws(FontError) -> [Face] {
    var faces: [Face] = []
    for v in FontSet.vendored {
      let path = folder.appendingPathComponent(v.file)
      let data: Data
      do { data = try Data(contentsOf: path, options: .alwaysMapped) } catch {
        throw .unreadable(path: path.path, reason: "\(error.localizedDescription)")
      }
      faces.append(
        try Face(
          data: data, origin: "fonts/\(v.file)", family: v.family, weight: v.weight,
          italic: v.italic, file: path.path, vendored: true))
    }
    return faces
  }
}
