import CFreeType
import Foundation

/// The text of a shelf badge ("42%"), drawn with a font the caller hands over (the façade
/// passes a vendored face from fonts/), through FreeType: each character's glyph is rendered
/// to an 8-bit coverage bitmap and placed on a baseline by its advance, in the given colour
/// (straight alpha = coverage). No shaping: badge text is ASCII digits and "%", which need
/// none. One FreeType library and face per label set, freed when the set is.
///
/// Alternative rejected: hand-drawn digit shapes (a seven-segment look is not what the
/// bookshelf shows, and a real face is at hand).
package final class BadgeLabeler: @unchecked Sendable {
  private var library: FT_Library?
  private var face: FT_Face?
  private let bytes: UnsafeMutableBufferPointer<UInt8>
  private let lock = NSLock()

  /// Nil when FreeType cannot open `fontBytes` as a face (the badges then go without text).
  /// Every resource is made before `self` is: a failure frees what it made, and `deinit` (which
  /// runs only for a fully initialised labeler) frees the rest.
  package init?(fontBytes: [UInt8]) {
    guard !fontBytes.isEmpty, fontBytes.count <= 64 << 20 else { return nil }
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: fontBytes.count)
    _ = buffer.initialize(from: fontBytes)
    var lib: FT_Library?
    guard FT_Init_FreeType(&lib) == 0, let lib else {
      buffer.deallocate()
      return nil
    }
    var f: FT_Face?
    guard FT_New_Memory_Face(lib, buffer.baseAddress, FT_Long(buffer.count), 0, &f) == 0, let f
    else {
      FT_Done_FreeType(lib)
      buffer.deallocate()
      return nil
    }
    library = lib
    face = f
    bytes = buffer
  }

  deinit {
    if let face { FT_Done_Face(face) }
    if let library { FT_Done_FreeType(library) }
    bytes.deallocate()
  }

  /// `text` (at most 16 characters) at `pixelSize` (4…256) in `color`: an RGBA image just
  /// large enough for the ink, or nil when nothing could be drawn.
  package func image(_ text: String, pixelSize: Int, color: RGBA = .white) -> PixelBuffer? {
    let size = min(max(pixelSize, 4), 256)
    lock.lock()
    defer { lock.unlock() }
    guard let face, FT_Set_Pixel_Sizes(face, 0, FT_UInt(size)) == 0 else { return nil }
    var glyphs: [(x: Int, top: Int, width: Int, rows: Int, coverage: [UInt8])] = []
    var pen = 0
    for scalar in text.unicodeScalars.prefix(16) {
      guard FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_RENDER)) == 0,
        let slot = face.pointee.glyph
      else { continue }
      let bitmap = slot.pointee.bitmap
      let w = Int(bitmap.width)
      let rows = Int(bitmap.rows)
      var coverage = [UInt8](repeating: 0, count: w * rows)
      if let buffer = bitmap.buffer, w > 0, rows > 0 {
        let pitch = Int(bitmap.pitch)
        for y in 0..<rows {
          for x in 0..<w { coverage[y * w + x] = buffer[y * pitch + x] }
        }
      }
      glyphs.append(
        (pen + Int(slot.pointee.bitmap_left), Int(slot.pointee.bitmap_top), w, rows, coverage))
      pen += Int(slot.pointee.advance.x) >> 6
    }
    return compose(glyphs, color: color)
  }

  private func compose(
    _ glyphs: [(x: Int, top: Int, width: Int, rows: Int, coverage: [UInt8])], color: RGBA
  ) -> PixelBuffer? {
    let inked = glyphs.filter { $0.width > 0 && $0.rows > 0 }
    guard let minX = inked.map(\.x).min(), let maxX = inked.map({ $0.x + $0.width }).max(),
      let ascent = inked.map(\.top).max(), let descent = inked.map({ $0.rows - $0.top }).max()
    else { return nil }
    let w = maxX - minX
    let h = ascent + descent
    guard w > 0, h > 0 else { return nil }
    var px = [UInt8](repeating: 0, count: w * h * 4)
    for g in inked {
      for y in 0..<g.rows {
        for x in 0..<g.width {
          let a = g.coverage[y * g.width + x]
          guard a > 0 else { continue }
          let o = ((ascent - g.top + y) * w + (g.x - minX + x)) * 4
          guard o >= 0, o + 3 < px.count, a > px[o + 3] else { continue }
          px[o] = color.r
          px[o + 1] = color.g
          px[o + 2] = color.b
          px[o + 3] = a
        }
      }
    }
    return PixelBuffer(width: w, height: h, format: .rgba8, pixels: px)
  }
}
