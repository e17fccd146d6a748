// The last resort of font fallback: the system's fonts, found through fontconfig.
//
// The vendored fonts cover every script in current use; a book may still hold characters
// none of them has (a historic script, a rare symbol, private-use characters its own fonts
// lacked). Before layout, `uncovered(in:fonts:)` lists the distinct characters of the book
// that no face of the font set draws; fontconfig is asked, per such character not yet
// covered, for its best font that has it (FcFontMatch on a pattern with just that
// character, then a check that the match really has it — fontconfig returns its best
// guess even when nothing covers the character). Each found file also covers whatever else
// of the list it has, so a whole historic script costs one lookup. The faces are appended to
// the end of the fallback chain: a system font never replaces a vendored or embedded one.
//
// Why before layout rather than at the first missing glyph: the font set (and the layout
// key, which names every face) must be fixed before any chapter is laid out, so that
// chapters laid out on different threads, or later from the cache, agree. The scan reads
// only text at U+0250 and above (below it, the body face covers everything), once per book.
//
// Output then depends on the machine's fonts; `--no-system-fonts` turns this off for fully
// reproducible pages, and the layout key names every system face used.

import CFontconfig
import Foundation
import QuireCore
import QuireIngest
import Synchronization

package enum SystemFonts {
  /// A system font file (a face of it, for collections).
  struct FontFile: Hashable, Sendable {
    var path: String
    var index: Int
    var family: String
  }

  /// At most this many system faces join a font set; at most `maxCharacters` distinct
  /// uncovered characters are looked up (each lookup is one fontconfig match).
  static let maxFaces = 8
  static let maxCharacters = 4_096

  /// What fontconfig answered so far in this process: the font per character, and each
  /// found file's character set (a reference fontconfig keeps alive for us).
  private struct Memo {
    var byScalar: [UInt32: FontFile?] = [:]
    var charsets: [FontFile: OpaquePointer] = [:]
  }

  /// fontconfig calls are serialized: its configuration is process-global.
  private static let memo = Mutex(Memo())

  /// The system faces that draw `scalars` (ascending), at most `maxFaces`, in the order
  /// they were found.
  static func faces(covering scalars: [UInt32]) -> [FontFile] {
    memo.withLock { memo in
      guard FcInit() != 0, let config = FcConfigGetCurrent() else { return [] }
      var found: [FontFile] = []
      var covered = Set<UInt32>()
      for scalar in scalars.prefix(maxCharacters) where !covered.contains(scalar) {
        let file: FontFile?
        if let known = memo.byScalar[scalar] {
          file = known
        } else {
          file = match(scalar, config: config, memo: &memo)
          memo.byScalar[scalar] = file
        }
        guard let file, let chars = memo.charsets[file] else { continue }
        if !found.contains(file) {
          guard found.count < maxFaces else { continue }
          found.append(file)
        }
        covered.formUnion(scalars.filter { FcCharSetHasChar(chars, $0) != 0 })
      }
      return found
    }
  }

  /// fontconfig's best font for one character, when it really has the character.
  private static func match(_ scalar: UInt32, config: OpaquePointer, memo: inout Memo)
    -> FontFile?
  {
    guard let charset = FcCharSetCreate() else { return nil }
    defer { FcCharSetDestroy(charset) }
    FcCharSetAddChar(charset, scalar)
    guard let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    FcPatternAddCharSet(pattern, "charset", charset)
    FcConfigSubstitute(config, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    guard let font = FcFontMatch(config, pattern, &result) else { return nil }
    defer { FcPatternDestroy(font) }
    var fontChars: OpaquePointer?
    guard FcPatternGetCharSet(font, "charset", 0, &fontChars) == FcResultMatch,
      let fontChars, FcCharSetHasChar(fontChars, scalar) != 0
    else { return nil }
    var file: UnsafeMutablePointer<FcChar8>?
    guard FcPatternGetString(font, "file", 0, &file) == FcResultMatch, let file else {
      return nil
    }
    var index: Int32 = 0
    _ = FcPatternGetInteger(font, "index", 0, &index)
    var family: UnsafeMutablePointer<FcChar8>?
    _ = FcPatternGetString(font, "family", 0, &family)
    let name = family.map { String(cString: $0) } ?? ""
    let found = FontFile(path: String(cString: file), index: Int(index), family: name)
    if memo.charsets[found] == nil { memo.charsets[found] = FcCharSetCopy(fontChars) }
    return found
  }

  /// The distinct characters of `document` (ascending) that no face of `fonts` draws;
  /// characters below U+0250, default-ignorables and private-use characters are never
  /// listed (a private-use character means something only in the font that defines it:
  /// a system font's glyph there would be some other private character).
  ///
  /// The chapters are scanned in parallel, in as many groups as there are cores (this runs
  /// on the serial path between conversion and layout): each group lists its characters in
  /// the order one scan of the book meets them (chapters from the last, each chapter's
  /// blocks level by level), and the groups are merged in that order, so the cap on
  /// distinct characters keeps exactly the ones that one scan keeps.
  static func uncovered(in document: Document, fonts: FontSet) -> [UInt32] {
    let chapters = document.chapters
    let groups = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8, chapters.count))
    let found = Mutex<[[UInt32]]>(Array(repeating: [], count: groups))
    DispatchQueue.concurrentPerform(iterations: groups) { g in
      let range = (chapters.count * g / groups)..<(chapters.count * (g + 1) / groups)
      var scan = ScalarScan()
      for c in range.reversed() { scan.blocks(chapters[c].blocks) }
      found.withLock { $0[g] = scan.order }
    }
    var seen = Set<UInt32>()
    merge: for list in found.withLock({ $0 }).reversed() {
      for v in list {
        if seen.count >= maxCharacters * 4 { break merge }
        seen.insert(v)
      }
    }
    return seen.sorted().filter { v in
      !ScriptFaces.isIgnorable(v) && !isPrivateUse(v) && !fonts.faces.contains { $0.hasGlyph(v) }
    }
  }

  /// The distinct scalars at U+0250 and above of some chapters, in the order met, at most
  /// `maxCharacters * 4` of them.
  private struct ScalarScan {
    var seen = Set<UInt32>()
    var order: [UInt32] = []

    /// Walks a chapter's blocks a level at a time, the last level pushed first (an explicit
    /// stack: trees may be thousands deep).
    mutating func blocks(_ blocks: [Block]) {
      var stack: [[Block]] = [blocks]
      while let level = stack.popLast() {
        for b in level {
          for case .text(let run) in b.inlines { SystemFonts.collect(run.text, into: &self) }
          if !b.children.isEmpty { stack.append(b.children) }
        }
      }
    }

    mutating func add(_ v: UInt32) -> Bool {
      if seen.count >= maxCharacters * 4 { return false }
      if seen.insert(v).inserted { order.append(v) }
      return true
    }
  }

  static func isPrivateUse(_ v: UInt32) -> Bool {
    (0xE000...0xF8FF).contains(v) || v >= 0xF0000
  }

  /// Adds the scalars of `text` at U+0250 and above to `seen`, reading its UTF-8 bytes in
  /// place: such a scalar starts with a byte of 0xC9 or more, so Latin text (and every
  /// continuation byte) costs one comparison per byte and only those scalars are decoded.
  /// (Decoding each run again as a String that held one curly quote cost moby-dick 46 M
  /// instructions, on one thread before layout.)
  private static func collect(_ text: String, into seen: inout ScalarScan) {
    let read: Void? = text.utf8.withContiguousStorageIfAvailable { collect($0, into: &seen) }
    if read == nil { Array(text.utf8).withUnsafeBufferPointer { collect($0, into: &seen) } }
  }

  /// The byte walk of `collect(_:into:)` over valid UTF-8.
  private static func collect(_ bytes: UnsafeBufferPointer<UInt8>, into seen: inout ScalarScan) {
    let n = bytes.count
    var i = 0
    while i < n {
      let lead = bytes[i]
      guard lead >= 0xC9 else {
        i += 1
        continue
      }
      let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
      guard i + length <= n else { return }
      var v = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
      for k in 1..<length { v = v << 6 | UInt32(bytes[i + k] & 0x3F) }
      i += length
      if v >= 0x250 && !seen.add(v) { return }
    }
  }
}

extension FontSet {
  /// This set, or one with the system faces that draw the characters of `document` it
  /// lacks appended to its fallback chain (none found, or `enabled` false: this set).
  func withSystemFallback(for document: Document, enabled: Bool) throws(FontError) -> FontSet {
    guard enabled else { return self }
    let missing = SystemFonts.uncovered(in: document, fonts: self)
    guard !missing.isEmpty else { return self }
    let files = SystemFonts.faces(covering: missing)
    guard !files.isEmpty else { return self }
    return try FontSet(embedded: embeddedSource, userFont: userFont, system: files)
  }
}
