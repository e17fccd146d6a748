// The shaper's word cache: a word's shaped parts (whole, or split at its hyphenation points)
// by its text and shaping key.
//
// Every word of a book is looked up here once per occurrence (~215,000 times for
// Moby-Dick), so the lookup must not allocate: the probe takes the word as a slice of the
// paragraph's scalars and the key's other fields, and only a miss builds a `ShapeKey` with
// its own text array. A `Dictionary<WordKey, …>` needed that array (one malloc and free per
// word) and a SipHash of the key per probe; measured in Benchmarks/paginate-cost.md.
//
// Open addressing with linear probing over a power-of-two slot array; the stored hash is
// compared before the text. The text's 64-bit FNV fold (`ShapeKey.textFold`) feeds the
// hash, as it did the dictionary's, so crafted fold collisions cost what they cost there: a
// text comparison per colliding entry. The table is cleared when it reaches `limit`
// entries, so its memory is bounded.

struct WordTable {
  private struct Entry {
    var hash: UInt64
    var style: ShapeStyle
    var text: [UInt32]
    var hyphenated: Bool
    var parts: [WordPart]
  }

  private var slots: [Int32] = []
  private var entries: [Entry] = []
  let limit: Int

  init(limit: Int = 200_000) { self.limit = limit }

  var count: Int { entries.count }

  /// The hash of a word with `fold` under `style`.
  @inline(__always)
  static func hash(fold: UInt64, style: ShapeStyle, hyphenated: Bool) -> UInt64 {
    var h = fold ^ style.packed ^ (hyphenated ? 0x20 : 0)
    // Murmur3's finalizer: every input bit reaches the low bits the slot index uses.
    h ^= h >> 33
    h &*= 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    h &*= 0xC4CE_B9FE_1A85_EC53
    h ^= h >> 33
    return h
  }

  /// The parts stored for `word` under `style`, if any.
  func find(_ word: ArraySlice<UInt32>, fold: UInt64, style: ShapeStyle, hyphenated: Bool)
    -> [WordPart]?
  {
    guard !slots.isEmpty else { return nil }
    let h = WordTable.hash(fold: fold, style: style, hyphenated: hyphenated)
    let mask = slots.count - 1
    var s = Int(truncatingIfNeeded: h) & mask
    while true {
      let e = Int(slots[s])
      if e < 0 { return nil }
      if entries[e].hash == h, entries[e].hyphenated == hyphenated,
        entries[e].style == style, WordTable.same(entries[e].text, word)
      {
        return entries[e].parts
      }
      s = (s + 1) & mask
    }
  }

  /// Whether `text` holds the scalars of `word`, compared in place (the generic
  /// `elementsEqual` walked both through iterators: ~140 instructions a probe).
  @inline(__always)
  static func same(_ text: [UInt32], _ word: ArraySlice<UInt32>) -> Bool {
    guard text.count == word.count else { return false }
    return text.withUnsafeBufferPointer { a in
      word.withUnsafeBufferPointer { b in
        for k in 0..<a.count where a[k] != b[k] { return false }
        return true
      }
    }
  }

  /// Stores `parts` for `key` (its text is the word).
  mutating func insert(_ key: ShapeKey, hyphenated: Bool, parts: [WordPart]) {
    if entries.count >= limit { removeAll() }
    if entries.count * 2 >= slots.count { grow() }
    let h = WordTable.hash(fold: key.textFold, style: key.style, hyphenated: hyphenated)
    entries.append(
      Entry(hash: h, style: key.style, text: key.text, hyphenated: hyphenated, parts: parts))
    place(entries.count - 1, hash: h)
  }

  mutating func removeAll() {
    entries.removeAll(keepingCapacity: true)
    for k in slots.indices { slots[k] = -1 }
  }

  private mutating func place(_ e: Int, hash h: UInt64) {
    let mask = slots.count - 1
    var s = Int(truncatingIfNeeded: h) & mask
    while slots[s] >= 0 { s = (s + 1) & mask }
    slots[s] = Int32(e)
  }

  private mutating func grow() {
    slots = [Int32](repeating: -1, count: max(4096, slots.count * 2))
    for e in entries.indices { place(e, hash: entries[e].hash) }
  }
}
