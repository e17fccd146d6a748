import CFreeType
import Foundation
import QuireTypeset

/// A font file's bytes in one stable allocation that FreeType may point into for as long as
/// any face opened from it lives. Owned here, freed once, after every rasterizer let go.
final class FontBytes: @unchecked Sendable {
  let base: UnsafeMutableRawPointer
  let count: Int
  let faceIndex: Int
  let origin: String

  init(_ face: FontFace) {
    let n = face.data.count
    let p = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(1, n), alignment: 16)
    face.data.withUnsafeBytes { raw in
      if let src = raw.baseAddress { p.copyMemory(from: src, byteCount: n) }
    }
    count = n
    base = p
    faceIndex = face.faceIndex
    origin = face.origin
  }
  deinit { base.deallocate() }
}

/// The renderer's fonts, copied out of the `FontTable` lazily (a book may list faces it never
/// draws with) and shared read-only by every rasterizer.
final class FontStore: Sendable {
  private let table: FontTable
  private let bytes = Mutex<[Int: FontBytes]>([:])

  init(_ table: FontTable) { self.table = table }

  func bytes(for id: FontID) -> FontBytes? {
    guard id >= 0 && id < table.faces.count else { return nil }
    return bytes.withLock { bytes in
      if let b = bytes[id] { return b }
      let b = FontBytes(table.faces[id])
      bytes[id] = b
      return b
    }
  }
}

/// Where a cached glyph's coverage lives in the arena, and how it sits on the pen position.
struct GlyphBitmap {
  /// Offset from the pen (whole pixels, after sub-pixel shift) to the bitmap's top-left; y down.
  var left: Int32
  var top: Int32
  var width: Int32
  var rows: Int32
  /// Byte offset in the arena; rows are `width` bytes, no padding.
  var offset: Int
}

/// The glyph cache's index: open addressing with linear probing in a power-of-two table of
/// slots (key, bitmap), at most half full. A page looks up every glyph it draws (~2,000 for
/// a text page), so the lookup is a multiply-xorshift hash of the key's fields and a probe
/// or two in one array — a `Dictionary` spent a SipHash (seeded, three rounds per word) on
/// each. Holds at most `maxCount` entries; past that the caller's generational clear runs
/// (glyphs that draw nothing take no arena bytes, so the arena alone would not bound it).
struct GlyphIndex {
  private struct Slot {
    var key: GlyphKey
    var bitmap: GlyphBitmap
    var used: Bool
  }

  private static let emptySlot = Slot(
    key: GlyphKey(font: 0, glyph: 0, size: 0, variant: 0),
    bitmap: GlyphBitmap(left: 0, top: 0, width: 0, rows: 0, offset: 0), used: false)
  /// The most entries kept (a book's working set is a few thousand).
  static let maxCount = 1 << 16

  private var slots = [Slot](repeating: emptySlot, count: 1024)
  /// Entries stored.
  private(set) var count = 0

  @inline(__always)
  private static func hash(_ k: GlyphKey) -> Int {
    var h = UInt64(k.glyph) | UInt64(k.variant) << 32 | UInt64(UInt32(bitPattern: k.size)) << 40
    h ^= UInt64(UInt32(bitPattern: k.font)) &* 0x9E37_79B9_7F4A_7C15
    h = (h ^ (h >> 31)) &* 0xBF58_476D_1CE4_E5B9
    return Int(truncatingIfNeeded: h ^ (h >> 29))
  }

  /// The bitmap stored for `key`.
  @inline(__always)
  func find(_ key: GlyphKey) -> GlyphBitmap? {
    let mask = slots.count - 1
    var i = Self.hash(key) & mask
    while slots[i].used {
      if slots[i].key == key { return slots[i].bitmap }
      i = (i + 1) & mask
    }
    return nil
  }

  /// Stores `bitmap` for `key` (replacing an earlier one).
  mutating func insert(_ key: GlyphKey, _ bitmap: GlyphBitmap) {
    if 2 * (count + 1) > slots.count { grow() }
    let mask = slots.count - 1
    var i = Self.hash(key) & mask
    while slots[i].used {
      if slots[i].key == key {
        slots[i].bitmap = bitmap
        return
      }
      i = (i + 1) & mask
    }
    slots[i] = Slot(key: key, bitmap: bitmap, used: true)
    count += 1
  }

  /// Forgets every entry, keeping the table's size.
  mutating func removeAll() {
    for i in slots.indices { slots[i].used = false }
    count = 0
  }

  private mutating func grow() {
    let old = slots
    slots = [Slot](repeating: Self.emptySlot, count: old.count * 2)
    count = 0
    for slot in old where slot.used { insert(slot.key, slot.bitmap) }
  }
}

struct GlyphKey: Hashable {
  var font: Int32
  var glyph: UInt32
  /// Pixels per em in 26.6.
  var size: Int32
  /// Bits 0–1: the quarter-pixel x offset; bit 2 synthetic bold; bit 3 synthetic italic.
  var variant: UInt8
}

/// One thread's FreeType: its own FT_Library, the faces opened in it, and a glyph cache.
/// Not thread-safe; `PageRenderer` lends it to one page render at a time. It moves between
/// threads only through the renderer's pool (inside its `Mutex`) and is never used by two at
/// once, which the compiler cannot see: hence `@unchecked Sendable`.
final class GlyphRasterizer: @unchecked Sendable {
  private(set) var library: OpaquePointer?
  private var faces: [Int: FT_Face] = [:]
  private var faceSize: [Int: Int32] = [:]
  /// Faces that failed to open, so the error is reported once.
  private var broken: Set<Int> = []
  private let store: FontStore
  // Keeps every FontBytes our faces point into alive until after FT_Done_Face.
  private var held: [FontBytes] = []

  private var index = GlyphIndex()
  private let arena: UnsafeMutablePointer<UInt8>
  private let arenaCapacity: Int
  private var arenaUsed = 0
  /// Scratch for a glyph too big for the arena (a huge drop cap); rendered per use.
  private var scratch: UnsafeMutablePointer<UInt8>? = nil
  private var scratchCapacity = 0
  /// How often the cache was dropped, for tests and tuning.
  private(set) var generations = 0

  init(store: FontStore, cacheBytes: Int) {
    self.store = store
    arenaCapacity = Swift.max(64 * 1024, cacheBytes)
    // Untouched arena pages cost no resident memory; they are filled as glyphs arrive.
    arena = UnsafeMutablePointer<UInt8>.allocate(capacity: arenaCapacity)
    var lib: OpaquePointer?
    if FT_Init_FreeType(&lib) == 0 { library = lib }
  }

  deinit {
    for (_, face) in faces { FT_Done_Face(face) }
    if let library { FT_Done_FreeType(library) }
    arena.deallocate()
    scratch?.deallocate()
  }

  /// The face for `font`, opened on first use; nil (with `error` set once) if it cannot be.
  private func face(_ font: Int, error: inout RasterError?) -> FT_Face? {
    if let f = faces[font] { return f }
    if broken.contains(font) { return nil }
    broken.insert(font)
    guard let library, let bytes = store.bytes(for: font) else {
      error = .font(function: "FT_Init_FreeType", code: -1, source: "font #\(font)")
      return nil
    }
    var face: FT_Face?
    let rc = FT_New_Memory_Face(
      library, bytes.base.assumingMemoryBound(to: FT_Byte.self), FT_Long(bytes.count),
      FT_Long(bytes.faceIndex), &face)
    guard rc == 0, let face else {
      error = .font(function: "FT_New_Memory_Face", code: rc, source: bytes.origin)
      return nil
    }
    broken.remove(font)
    held.append(bytes)
    faces[font] = face
    return face
  }

  /// Looks up (or renders and caches) a glyph. Returns nil for a face that cannot be opened.
  /// The pointer is valid until the next call.
  @inline(__always)
  func glyph(_ key: GlyphKey, error: inout RasterError?) -> (GlyphBitmap, UnsafePointer<UInt8>)? {
    if let g = index.find(key) { return (g, UnsafePointer(arena + g.offset)) }
    return renderGlyph(key, error: &error)
  }

  /// Generational clear: cheaper than LRU bookkeeping on every hit, and a book's working
  /// set (one or two faces at two or three sizes) refills in a page.
  private func clearCache() {
    index.removeAll()
    arenaUsed = 0
    generations += 1
  }

  private func renderGlyph(
    _ key: GlyphKey, error: inout RasterError?
  ) -> (GlyphBitmap, UnsafePointer<UInt8>)? {
    if index.count >= GlyphIndex.maxCount { clearCache() }
    let font = Int(key.font)
    guard let face = face(font, error: &error) else { return nil }
    if faceSize[font] != key.size {
      if FT_Set_Char_Size(face, 0, FT_F26Dot6(key.size), 72, 72) != 0 { return nil }
      faceSize[font] = key.size
    }
    let empty = GlyphBitmap(left: 0, top: 0, width: 0, rows: 0, offset: 0)
    let flags = FT_Int32(cft_load_target_light()) | FT_Int32(FT_LOAD_NO_BITMAP)
    guard FT_Load_Glyph(face, FT_UInt(key.glyph), flags) == 0 else {
      index.insert(key, empty)
      return (empty, UnsafePointer(arena))
    }
    let slot = face.pointee.glyph!
    if slot.pointee.format == cft_glyph_format_outline() {
      if key.variant & 4 != 0 {
        // FreeType's own FT_GlyphSlot_Embolden strength: 1/24 em.
        let strength =
          FT_MulFix(
            FT_Long(face.pointee.units_per_EM), face.pointee.size.pointee.metrics.y_scale) / 24
        FT_Outline_Embolden(&slot.pointee.outline, strength)
      }
      if key.variant & 8 != 0 {
        // A 12° slant (tan ≈ 0.2126) about the baseline, as browsers synthesize oblique.
        var shear = FT_Matrix(xx: 0x10000, xy: 0x366A, yx: 0, yy: 0x10000)
        FT_Outline_Transform(&slot.pointee.outline, &shear)
      }
      let dx = FT_Pos(key.variant & 3) * 16
      if dx != 0 { FT_Outline_Translate(&slot.pointee.outline, dx, 0) }
    }
    guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else {
      index.insert(key, empty)
      return (empty, UnsafePointer(arena))
    }
    let bm = slot.pointee.bitmap
    let width = Int(bm.width)
    let rows = Int(bm.rows)
    var g = GlyphBitmap(
      left: slot.pointee.bitmap_left, top: -slot.pointee.bitmap_top, width: Int32(width),
      rows: Int32(rows), offset: 0)
    let size = width * rows
    if size == 0 || bm.buffer == nil || bm.pixel_mode != UInt8(FT_PIXEL_MODE_GRAY.rawValue) {
      g.width = 0
      g.rows = 0
      index.insert(key, g)
      return (g, UnsafePointer(arena))
    }
    let pitch = Int(bm.pitch)
    let dest: UnsafeMutablePointer<UInt8>
    if size > arenaCapacity / 4 {
      // Too big to cache sensibly: copy to scratch, valid until the next call.
      if scratchCapacity < size {
        scratch?.deallocate()
        scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        scratchCapacity = size
      }
      dest = scratch!
    } else {
      if arenaUsed + size > arenaCapacity { clearCache() }
      g.offset = arenaUsed
      dest = arena + arenaUsed
      arenaUsed += size
      index.insert(key, g)
    }
    for r in 0..<rows {
      let src = pitch >= 0 ? bm.buffer + r * pitch : bm.buffer + (rows - 1 - r) * (-pitch)
      (dest + r * width).update(from: src, count: width)
    }
    return (g, UnsafePointer(dest))
  }
}
