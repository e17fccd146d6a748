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
// `FeatureList.limit` distinct lists (a book has a handful), so its memory is bounded
// whatever a hostile book or a long batch asks. A list that finds the table full is not
// dropped: it gets `FeatureList.unshared`, a number that names no one list, and the style
// that holds it keeps the list itself; words in that style are shaped with it on the slow
// path (no word table, no shared cache: Inline/ShapedParagraph.swift `shapeWord`). Number 0
// is the empty list and never takes the lock.

import QuireCore

struct FeatureList: Hashable, Sendable {
  /// The list's number in the process-wide table; 0 is the empty list, −1 `unshared`.
  let id: Int32

  /// Distinct non-empty lists the process-wide table holds at most.
  static let limit = 4096

  static let none = FeatureList(id: 0)
  /// A list the table had no room for: it stands for no particular list, so keys holding it
  /// are never cached and the caller shapes with the list it kept.
  static let unshared = FeatureList(id: -1)

  fileprivate init(id: Int32) { self.id = id }

  /// The number of `features` (each `tag << 32 | value`), interned on first sight;
  /// `unshared` when the table is full.
  init(_ features: [UInt64]) {
    guard !features.isEmpty else {
      self = .none
      return
    }
    self = FeatureList.table.withLock { $0.intern(features) }
  }

  /// The features this number stands for (none for `unshared`: the caller holds them).
  var features: [UInt64] {
    guard id > 0 else { return [] }
    return FeatureList.table.withLock { $0.lists[Int(id) - 1] }
  }

  private static let table = Mutex(FeatureTable(limit: FeatureList.limit))
}

/// Interned feature lists: a number per distinct list, at most `limit` lists.
struct FeatureTable {
  let limit: Int
  private var ids: [[UInt64]: Int32] = [:]
  fileprivate private(set) var lists: [[UInt64]] = []

  init(limit: Int) { self.limit = limit }

  /// The number of the non-empty `features`; `unshared` when they are new and the table full.
  mutating func intern(_ features: [UInt64]) -> FeatureList {
    if let known = ids[features] { return FeatureList(id: known) }
    guard lists.count < limit else { return .unshared }
    lists.append(features)
    let id = Int32(lists.count)
    ids[features] = id
    return FeatureList(id: id)
  }
}
