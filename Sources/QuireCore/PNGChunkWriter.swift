import CDeflate

/// A PNG chunk type: four ASCII letters whose case bits say critical/ancillary, public/private
/// and safe-to-copy (PNG spec §5.4).
public struct PNGChunkType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The four letters as a big-endian 32-bit number, the way they are written.
  public let rawValue: UInt32
  /// The type whose bytes are `rawValue`, big-endian.
  public init(rawValue: UInt32) { self.rawValue = rawValue }
  /// The type spelled by four ASCII letters; traps on another length (a programming error).
  public init(_ letters: StaticString) {
    precondition(letters.utf8CodeUnitCount == 4, "PNGChunkType: '\(letters)' is not 4 letters")
    rawValue = letters.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
  }
  /// The four letters.
  public var description: String {
    String(
      decoding: (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * $0)) }, as: UTF8.self)
  }

  /// Image header: size, bit depth, colour type.
  public static let header = PNGChunkType("IHDR")
  /// Image data: the zlib stream of filtered rows (several IDATs concatenate).
  public static let imageData = PNGChunkType("IDAT")
  /// Image end.
  public static let end = PNGChunkType("IEND")
  /// APNG animation control: frame count and loop count.
  public static let animationControl = PNGChunkType("acTL")
  /// APNG frame control: a frame's rectangle, delay, dispose and blend operations.
  public static let frameControl = PNGChunkType("fcTL")
  /// APNG frame data: a sequence number, then what an IDAT would carry.
  public static let frameData = PNGChunkType("fdAT")
}

/// Builds a PNG (or APNG) file in memory, one chunk at a time: each chunk is its data's
/// length (4 bytes, big-endian), the type, the data, and the CRC-32 of type and data. The
/// CRC is libdeflate's (the same polynomial as zlib's `crc32`, several times faster).
///
/// The writer only frames chunks; what goes in them (IHDR fields, APNG sequence numbers) is
/// the caller's, with `header(width:height:format:)` for the common IHDR.
public struct PNGChunkWriter: Sendable {
  /// The PNG signature: the eight bytes every PNG file starts with.
  public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// The bytes written so far.
  public private(set) var bytes: [UInt8]

  /// A writer that starts with the PNG signature (or with nothing, to build loose chunks to
  /// append to a file already begun), with room for about `capacity` bytes.
  public init(signature: Bool = true, capacity: Int = 0) {
    bytes = []
    bytes.reserveCapacity(capacity + 64)
    if signature { bytes.append(contentsOf: Self.signature) }
  }

  /// Appends one chunk of `type` carrying `data`. Traps when the data exceeds PNG's limit of
  /// 2³¹ − 1 bytes (callers split larger payloads into several chunks).
  public mutating func append(_ type: PNGChunkType, _ data: UnsafeRawBufferPointer) {
    precondition(data.count < 1 << 31, "PNGChunkWriter: \(type) chunk of \(data.count) bytes")
    appendBigEndian(UInt32(data.count))
    let typeStart = bytes.count
    appendBigEndian(type.rawValue)
    // As typed bytes, so the append is one copy of the buffer.
    bytes.append(contentsOf: data.assumingMemoryBound(to: UInt8.self))
    let crc = bytes.withUnsafeBytes { all in
      let covered = UnsafeRawBufferPointer(rebasing: all[typeStart...])
      return libdeflate_crc32(0, covered.baseAddress, covered.count)
    }
    appendBigEndian(crc)
  }

  /// Appends one chunk of `type` carrying `data`.
  public mutating func append(_ type: PNGChunkType, _ data: [UInt8]) {
    data.withUnsafeBytes { append(type, $0) }
  }

  /// Appends the IHDR for an 8-bit image of `format` (gray or RGBA), deflate compression,
  /// adaptive filtering, no interlace.
  public mutating func header(width: Int, height: Int, format: PixelBuffer.Format) {
    var data: [UInt8] = []
    data.reserveCapacity(13)
    Self.appendBigEndian(UInt32(width), to: &data)
    Self.appendBigEndian(UInt32(height), to: &data)
    data.append(8)  // bit depth
    data.append(format == .gray8 ? 0 : 6)  // colour type: gray or RGBA
    data.append(contentsOf: [0, 0, 0])  // compression, filter method, no interlace
    append(.header, data)
  }

  /// Appends the IEND chunk.
  public mutating func end() {
    append(.end, [])
  }

  private mutating func appendBigEndian(_ v: UInt32) { Self.appendBigEndian(v, to: &bytes) }

  /// Appends `v` as four big-endian bytes (the byte order of every PNG integer).
  public static func appendBigEndian(_ v: UInt32, to out: inout [UInt8]) {
    out.append(UInt8(truncatingIfNeeded: v >> 24))
    out.append(UInt8(truncatingIfNeeded: v >> 16))
    out.append(UInt8(truncatingIfNeeded: v >> 8))
    out.append(UInt8(truncatingIfNeeded: v))
  }

  /// Appends `v` as two big-endian bytes.
  public static func appendBigEndian(_ v: UInt16, to out: inout [UInt8]) {
    out.append(UInt8(truncatingIfNeeded: v >> 8))
    out.append(UInt8(truncatingIfNeeded: v))
  }

  /// The CRC-32 a chunk of `type` carrying `data` ends with.
  public static func crc(_ type: PNGChunkType, _ data: [UInt8]) -> UInt32 {
    var typeBytes: [UInt8] = []
    appendBigEndian(type.rawValue, to: &typeBytes)
    let crc = typeBytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, 4) }
    return data.withUnsafeBytes { libdeflate_crc32(crc, $0.baseAddress, $0.count) }
  }
}
