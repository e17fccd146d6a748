// A list of extra OpenType features (CSS `font-variant-*`, `font-feature-settings`, ligatures
// off under letter spacing) as a small number.
//
// Every shaping key names its feature list, and a key is built, copied, hashed and compared
// for every word of a book. An array there cost a retain and a release per copy and an
// array comparison per probe; an interned number costs nothing of that and keeps the key
// free of references but its text. Lists are interned once per resolved style (a chapter
// has a few dozen) and read back once per HarfBuzz call (a word-cache miss).
//
// The table is process-wide behind one mutex, so a number means the same list in every
// worker and the shared shape cache can compare keys by number. It holds at most
// `FeatureList.limit` distinct lists (a book has a handful; a hostile one with more gets
// the later lists shaped without their extra features, never unbounded memory). Number 0 is
// the empty list and never takes the lock.

import QuireCore

struct FeatureList: Hashable, Sendable {
  /// The list's number in the process-wide table; 0 is the empty list.
  let id: Int32

  /// Distinct non-empty lists the table holds at most.
  static let limit = 4096

  static let none = FeatureList(id: 0)

  private init(id: Int32) { self.id = id }

  /// The number of `features` (each `tag << 32 | value`), interned on first sight.
  init(_ features: [UInt64]) {
    guard !features.isEmpty else {
      self = .none
      return
    }
    id = FeatureList.table.withLock { t in
      if let known = t.ids[features] { return known }
      guard t.lists.count < FeatureList.limit else { return 0 }
      t.lists.append(features)
      let id = Int32(t.lists.count)
      t.ids[features] = id
      return id
    }
  }

  /// The features this number stands for.
  var features: [UInt64] {
    guard id > 0 else { return [] }
    return FeatureList.table.withLock { $0.lists[Int(id) - 1] }
  }

  private struct Table {
    var ids: [[UInt64]: Int32] = [:]
    var lists: [[UInt64]] = []
  }
  private static let table = Mutex(Table())
}
