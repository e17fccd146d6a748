// FontContainer: the wrapping around an sfnt font — WOFF, WOFF2, a TTC/OTC collection — taken
// off before HarfBuzz sees the bytes.
//
// HarfBuzz reads sfnt (TrueType/OpenType, and collections by face index) but not WOFF or
// WOFF2; FreeType on this system reads both (zlib and Brotli are linked into it, and it
// undoes WOFF2's glyf/loca/hmtx transforms itself). So a WOFF or WOFF2 file is opened with
// `FT_New_Memory_Face`, its tables are read back one by one (`FT_Sfnt_Table_Info`,
// `FT_Load_Sfnt_Table`) and written out as a plain sfnt: a table directory sorted by tag,
// each table 4-byte aligned with its checksum. Layout (HarfBuzz) and pixels (the rasterizer's
// FreeType) then read the very same bytes. The alternative — libwoff2's C++ decoder plus our
// own zlib inflate of WOFF tables — would add a C++ dependency and a second parser for what
// FreeType already does.
//
// A WOFF2 collection is unwrapped one face at a time: the face picked becomes face 0 of its
// own sfnt. Collections that are plain sfnt stay as they are; a face is picked by index or by
// name (PostScript name, full name or family) among at most `maxCollectionFaces` faces.
//
// Bounds: the file and the size its header declares are at most `maxFontBytes`; at most
// `maxTables` tables; a collection header must list its faces inside the file. Anything else
// is a `FontError.notAFont` with the reason, which the caller turns into a warning.

import CFreeType
import CHarfBuzz
import Foundation

/// What a font file is, by its first four bytes.
enum FontContainer: Equatable, Sendable {
  case sfnt
  case collection
  case woff
  case woff2
  case unknown

  /// The largest font file, and the largest sfnt a WOFF/WOFF2 header may promise.
  static let maxFontBytes = 64 << 20
  /// Faces of a collection that are looked at when picking one by name.
  static let maxCollectionFaces = 256
  /// Tables copied out of a WOFF/WOFF2 font.
  static let maxTables = 512

  init(_ data: Data) {
    guard data.count >= 4 else {
      self = .unknown
      return
    }
    let magic = data.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    switch magic {
    case 0x774F_4646: self = .woff  // wOFF
    case 0x774F_4632: self = .woff2  // wOF2
    case 0x7474_6366: self = .collection  // ttcf
    case 0x0001_0000, 0x4F54_544F, 0x7472_7565, 0x7479_7031: self = .sfnt  // OTTO true typ1
    default: self = .unknown
    }
  }

  /// The sfnt bytes and face index to open for face `index` of `data` (any container).
  static func unwrap(_ data: Data, faceIndex index: Int, origin: String) throws(FontError) -> (
    data: Data, faceIndex: Int
  ) {
    guard data.count <= maxFontBytes else {
      throw .damaged(path: origin, reason: "\(data.count) bytes; fonts of at most \(maxFontBytes)")
    }
    switch FontContainer(data) {
    case .sfnt: return (data, 0)
    case .collection:
      let count = try collectionFaceCount(data, origin: origin)
      guard index < count else {
        throw .damaged(path: origin, reason: "face #\(index) of a collection of \(count)")
      }
      return (data, index)
    case .woff, .woff2:
      let declared = data.count >= 20 ? Int(data.bigEndian32(at: 16)) : 0
      guard declared > 0, declared <= maxFontBytes else {
        throw .damaged(path: origin, reason: "WOFF header declares \(declared) bytes of font")
      }
      return (try FreeTypeTables.sfnt(from: data, faceIndex: index, origin: origin), 0)
    case .unknown:
      throw .damaged(path: origin, reason: "not a TrueType, OpenType, WOFF or WOFF2 font")
    }
  }

  /// Faces in a TTC/OTC header, checked against the file's size.
  static func collectionFaceCount(_ data: Data, origin: String) throws(FontError) -> Int {
    guard data.count >= 12 else { throw .damaged(path: origin, reason: "truncated collection") }
    let count = Int(data.bigEndian32(at: 8))
    guard count >= 1, 12 + 4 * count <= data.count else {
      throw .damaged(path: origin, reason: "collection header lists \(count) faces")
    }
    return count
  }

  /// Faces of any container (1 for a single font; a WOFF2 collection's count from FreeType).
  static func faceCount(_ data: Data, origin: String) throws(FontError) -> Int {
    switch FontContainer(data) {
    case .collection: return try collectionFaceCount(data, origin: origin)
    case .woff2: return try FreeTypeTables.faceCount(data, origin: origin)
    default: return 1
    }
  }
}

/// Reads a WOFF/WOFF2 font's tables through FreeType and writes them out as an sfnt.
enum FreeTypeTables {
  /// The sfnt of face `index` of a WOFF/WOFF2 `data`.
  static func sfnt(from data: Data, faceIndex index: Int, origin: String) throws(FontError)
    -> Data
  {
    let flavor = data.count >= 8 ? data.bigEndian32(at: 4) : 0
    var result: Result<[(tag: UInt32, bytes: [UInt8])], FontError> = .success([])
    withFace(data, index: index, origin: origin) { face in
      result = tables(of: face, origin: origin)
    } failed: {
      result = .failure($0)
    }
    let loaded = try result.get()
    // A collection's flavor is 'ttcf'; the face inside is TrueType or CFF by its tables.
    let version: UInt32 =
      flavor == 0x7474_6366
      ? (loaded.contains { $0.tag == 0x4346_4620 || $0.tag == 0x4346_4632 }
        ? 0x4F54_544F : 0x0001_0000) : flavor
    return SfntWriter.write(version: version, tables: loaded)
  }

  /// Faces FreeType sees in `data`.
  static func faceCount(_ data: Data, origin: String) throws(FontError) -> Int {
    var count = 0
    var failure: FontError?
    withFace(data, index: 0, origin: origin) {
      count = $0.pointee.num_faces
    } failed: {
      failure = $0
    }
    if let failure { throw failure }
    return max(1, count)
  }

  /// Opens face `index` of `data` with a FreeType library of its own, for the call only.
  private static func withFace(
    _ data: Data, index: Int, origin: String, body: (FT_Face) -> Void,
    failed: (FontError) -> Void
  ) {
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else {
      failed(.damaged(path: origin, reason: "FT_Init_FreeType failed"))
      return
    }
    defer { FT_Done_FreeType(library) }
    data.withUnsafeBytes { raw in
      guard let base = raw.bindMemory(to: FT_Byte.self).baseAddress else { return }
      var face: FT_Face?
      let rc = FT_New_Memory_Face(library, base, FT_Long(raw.count), FT_Long(index), &face)
      guard rc == 0, let face else {
        failed(.damaged(path: origin, reason: "FT_New_Memory_Face: FreeType error \(rc)"))
        return
      }
      defer { FT_Done_Face(face) }
      body(face)
    }
  }

  private static func tables(of face: FT_Face, origin: String) -> Result<
    [(tag: UInt32, bytes: [UInt8])], FontError
  > {
    var out: [(tag: UInt32, bytes: [UInt8])] = []
    var total = 0
    var index: FT_UInt = 0
    while true {
      var tag: FT_ULong = 0
      var length: FT_ULong = 0
      guard FT_Sfnt_Table_Info(face, index, &tag, &length) == 0 else { break }
      index += 1
      guard out.count < FontContainer.maxTables else {
        return .failure(.damaged(path: origin, reason: "more than \(out.count) tables"))
      }
      total += Int(length)
      guard total <= FontContainer.maxFontBytes else {
        return .failure(.damaged(path: origin, reason: "tables larger than the font size cap"))
      }
      var bytes = [UInt8](repeating: 0, count: Int(length))
      var got = length
      let rc = bytes.withUnsafeMutableBufferPointer {
        FT_Load_Sfnt_Table(face, tag, 0, $0.baseAddress, &got)
      }
      guard rc == 0, got == length else {
        return .failure(.damaged(path: origin, reason: "FT_Load_Sfnt_Table: error \(rc)"))
      }
      out.append((UInt32(truncatingIfNeeded: tag), bytes))
    }
    guard !out.isEmpty else { return .failure(.damaged(path: origin, reason: "no tables")) }
    return .success(out)
  }
}

/// Writes an sfnt (OpenType) file from its tables.
enum SfntWriter {
  static func write(version: UInt32, tables unsorted: [(tag: UInt32, bytes: [UInt8])]) -> Data {
    let tables = unsorted.sorted { $0.tag < $1.tag }
    let n = tables.count
    var power = 1
    var log2 = 0
    while power * 2 <= n {
      power *= 2
      log2 += 1
    }
    var out: [UInt8] = []
    out.reserveCapacity(12 + 16 * n + tables.reduce(0) { $0 + $1.bytes.count + 3 })
    out.appendBig32(version)
    out.appendBig16(UInt16(n))
    out.appendBig16(UInt16(power * 16))
    out.appendBig16(UInt16(log2))
    out.appendBig16(UInt16(n * 16 - power * 16))
    var offset = 12 + 16 * n
    for t in tables {
      out.appendBig32(t.tag)
      out.appendBig32(checksum(t.bytes))
      out.appendBig32(UInt32(offset))
      out.appendBig32(UInt32(t.bytes.count))
      offset += (t.bytes.count + 3) & ~3
    }
    for t in tables {
      out += t.bytes
      out += [UInt8](repeating: 0, count: ((t.bytes.count + 3) & ~3) - t.bytes.count)
    }
    return Data(out)
  }

  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var sum: UInt32 = 0
    var i = 0
    while i < bytes.count {
      var word: UInt32 = 0
      for k in 0..<4 { word = word << 8 | UInt32(i + k < bytes.count ? bytes[i + k] : 0) }
      sum &+= word
      i += 4
    }
    return sum
  }
}

extension Data {
  fileprivate func bigEndian32(at i: Int) -> UInt32 {
    let s = startIndex + i
    return UInt32(self[s]) << 24 | UInt32(self[s + 1]) << 16 | UInt32(self[s + 2]) << 8
      | UInt32(self[s + 3])
  }
}

extension [UInt8] {
  fileprivate mutating func appendBig32(_ v: UInt32) {
    append(contentsOf: [
      UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF),
    ])
  }
  fileprivate mutating func appendBig16(_ v: UInt16) {
    append(contentsOf: [UInt8(v >> 8), UInt8(v & 0xFF)])
  }
}
