import CIsal

/// Which deflate implementation, at which level, makes the zlib stream of a PNG's rows.
///
/// Two libraries, two trades (Benchmarks/render-speed.md, session 13): libdeflate (levels
/// 0…12) makes the smaller files; Intel ISA-L's igzip (levels 0…3, hand-written SIMD)
/// makes a text page about three times faster for files some 10 % larger. Both write
/// standard zlib streams, so any PNG reader decodes either, to the same pixels. The bytes
/// are a function of the input, the method and the library's version (igzip picks its
/// SIMD kernels by CPU at run time; a given machine always writes the same bytes).
public struct DeflateMethod: Sendable, Hashable, CustomStringConvertible {
  /// The deflate library.
  public enum Engine: String, Sendable, Hashable, CaseIterable {
    /// libdeflate (levels 0…12).
    case libdeflate
    /// Intel ISA-L's igzip (levels 0…3).
    case igzip
  }

  /// The library.
  public let engine: Engine
  /// The level, within the engine's range.
  public let level: Int32

  /// libdeflate at `level`, clamped to 0…12.
  public static func libdeflate(_ level: Int32) -> DeflateMethod {
    DeflateMethod(engine: .libdeflate, level: max(0, min(12, level)))
  }

  /// igzip at `level`, clamped to 0…3.
  public static func igzip(_ level: Int32) -> DeflateMethod {
    DeflateMethod(engine: .igzip, level: max(0, min(Int32(ISAL_DEF_MAX_LEVEL), level)))
  }

  private init(engine: Engine, level: Int32) {
    self.engine = engine
    self.level = level
  }

  /// "libdeflate 1", "igzip 1".
  public var description: String { "\(engine.rawValue) \(level)" }
}

/// One igzip stream state and its level buffer (together ~0.3–1.3 MB), reused for every
/// compression of one pooled `Deflater.Compressor`; this class is their only owner.
final class IgzipStream {
  let level: Int32
  private let stream: UnsafeMutablePointer<isal_zstream>
  private let levelBuffer: UnsafeMutablePointer<UInt8>?
  private let levelBufferSize: UInt32

  init(level: Int32) {
    self.level = level
    stream = .allocate(capacity: 1)
    stream.initialize(to: isal_zstream())
    levelBufferSize = UInt32(cisal_level_buffer_size(level))
    levelBuffer = levelBufferSize == 0 ? nil : .allocate(capacity: Int(levelBufferSize))
  }

  deinit {
    stream.deallocate()
    levelBuffer?.deallocate()
  }

  /// The output room `compress` may need for `count` input bytes: the worst case is stored
  /// blocks (5 bytes per 64 KiB), plus the zlib header and Adler-32, with a wide margin.
  static func bound(_ count: Int) -> Int { count + count / 8 + 1024 }

  /// The largest input one call takes (igzip counts in 32 bits); larger goes to libdeflate.
  static let largestInput = Int(UInt32.max / 2)

  /// Compresses `data` into a zlib stream at `out` (`bound(data.count)` bytes); the stream's
  /// length, or nil when igzip reports an error (the caller then uses another compressor).
  func compress(_ data: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>) -> Int? {
    guard data.count <= Self.largestInput else { return nil }
    let room = Self.bound(data.count)
    isal_deflate_stateless_init(stream)
    stream.pointee.next_in = UnsafeMutablePointer(
      mutating: data.baseAddress?.assumingMemoryBound(to: UInt8.self))
    stream.pointee.avail_in = UInt32(data.count)
    stream.pointee.next_out = out
    stream.pointee.avail_out = UInt32(min(room, Int(UInt32.max)))
    stream.pointee.level = UInt32(level)
    stream.pointee.level_buf = levelBuffer
    stream.pointee.level_buf_size = levelBufferSize
    stream.pointee.gzip_flag = UInt16(IGZIP_ZLIB)
    stream.pointee.end_of_stream = 1
    stream.pointee.flush = UInt16(NO_FLUSH)
    guard isal_deflate_stateless(stream) == COMP_OK else { return nil }
    return Int(stream.pointee.total_out)
  }
}

/// How a render compresses its page files: the trade between encode time and file size,
/// as a user picks it (`quire render --png-compression fast|small`). Either way the files
/// decode to the same pixels; only their bytes differ.
public enum PNGCompression: String, Sendable, Hashable, CaseIterable {
  /// Gray pages by igzip level 2: a moby-dick page in 2.9 M instructions instead of 9.0 M,
  /// files 7 % larger than `small`'s. Colour (RGBA) pages stay with libdeflate level 1:
  /// there igzip's files grew 12 % (text) to 30–100 % (flat colour fills) (Benchmarks/
  /// render-speed.md, session 13).
  case fast
  /// libdeflate level 1: the files of every render before session 13.
  case small

  /// The compression a render uses unless told otherwise.
  public static let standard = PNGCompression.fast

  /// The row filter: none for both (filters made text pages 8–20 % larger with either
  /// library).
  public var filter: PNGEncoder.Filter { .none }

  /// The deflate library and level for pages of `format`.
  public func method(for format: PixelBuffer.Format) -> DeflateMethod {
    switch (self, format) {
    case (.fast, .gray8): return .igzip(2)
    case (.fast, .rgba8), (.small, _): return .libdeflate(1)
    }
  }
}
