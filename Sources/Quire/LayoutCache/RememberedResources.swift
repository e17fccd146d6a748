// RememberedResources: a chapter's resources read once per cached render.
//
// A cached render of a page with a picture reads the picture's file twice: the layout asks
// for its intrinsic size (`ImageSize.of` needs only the header, but the store hands out the
// whole file), then the renderer decodes it. In an EPUB each read inflates the file from the
// ZIP again: moby-dick's 348 KB JPEG cover costs ~6.4 M instructions a read. This store keeps
// what it read for the rest of the render, so the renderer's read is the layout's bytes.
//
// Bounded: at most `budget` bytes are kept (the first files read, which are the ones the page
// draws); a file over the budget, or one read when the budget is spent, is read again each
// time, as before. The kept `Data` shares the reader's buffer; nothing is copied.

import Foundation
import QuireIngest
import Synchronization

/// A resource store that keeps the files it read from `base`, up to `budget` bytes.
final class RememberedResources: ResourceStore {
  private let base: any ResourceStore
  private let budget: Int
  private let kept = Mutex<(files: [String: Data], bytes: Int)>(([:], 0))

  /// The most bytes a cached render keeps (a few large pictures).
  static let defaultBudget = 64 << 20

  init(_ base: any ResourceStore, budget: Int = RememberedResources.defaultBudget) {
    self.base = base
    self.budget = budget
  }

  func data(forHref href: String) -> Data? {
    if let data = kept.withLock({ $0.files[href] }) { return data }
    guard let data = base.data(forHref: href) else { return nil }
    kept.withLock { kept in
      guard kept.files[href] == nil, kept.bytes + data.count <= budget else { return }
      kept.files[href] = data
      kept.bytes += data.count
    }
    return data
  }
}
