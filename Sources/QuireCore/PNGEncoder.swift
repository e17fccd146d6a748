import CDeflate

/// Still PNG files from pixels: filtered rows, compressed by libdeflate or (a render's gray
/// page files by default, `PNGCompression.fast`) by ISA-L's igzip, framed by `PNGChunkWriter`.
/// Deterministic — the same pixels, filter and method give the same bytes (no time, text or
/// gamma chunks).
///
/// Why not libpng's writer: it compresses with zlib, 2–3× slower than libdeflate for the same
/// size on text pages (Benchmarks/png-encoding.md), and cannot be told which row filter to use.
public enum PNGEncoder {
  /// PNG row filters (the PNG spec's filter types 0–4, plus a per-row adaptive choice).
  public enum Filter: String, Sendable, CaseIterable {
    /// Rows stored as they are (type 0).
    case none
    /// Each byte minus the byte one pixel to the left (type 1).
    case sub
    /// Each byte minus the byte above (type 2).
    case up
    /// Each byte minus the mean of left and above (type 3).
    case average
    /// Each byte minus the Paeth predictor of left, above, upper left (type 4).
    case paeth
    /// Per row, the filter with the smallest sum of |signed residuals| (libpng's heuristic).
    case adaptive

    /// The filter-type byte that precedes a row filtered this way.
    var code: UInt8 {
      switch self {
      case .none, .adaptive: return 0
      case .sub: return 1
      case .up: return 2
      case .average: return 3
      case .paeth: return 4
      }
    }
  }

  /// The defaults chosen from the measurements in Benchmarks/png-encoding.md: page images are
  /// mostly flat paper, where filter none at level 3 is fastest for nearly the same size.
  public static let defaultFilter: Filter = .none
  /// libdeflate's compression level by default (1 fastest … 12 smallest).
  public static let defaultLevel: Int32 = 3

  /// A complete PNG of `image` (8-bit gray or RGBA).
  public static func encode(
    _ image: PixelBuffer, filter: Filter = defaultFilter, level: Int32 = defaultLevel
  ) -> [UInt8] {
    image.withView { encode($0, filter: filter, level: level) }
  }

  /// A complete PNG of the borrowed window `view`.
  ///
  /// The filtered rows and the deflate output live in scratch buffers of a pooled
  /// compressor (`Deflater.withScratch`), reused page after page: the only allocation per
  /// image is the returned file, and the compressed stream is copied once, into it.
  public static func encode(
    _ view: PixelView, filter: Filter = defaultFilter, level: Int32 = defaultLevel
  ) -> [UInt8] {
    encode(view, filter: filter, method: .libdeflate(level))
  }

  /// A complete PNG of `image`, its rows filtered by `filter` and deflated by `method`.
  public static func encode(_ image: PixelBuffer, filter: Filter, method: DeflateMethod) -> [UInt8]
  {
    image.withView { encode($0, filter: filter, method: method) }
  }

  /// A complete PNG of the borrowed window `view`, its rows filtered by `filter` and deflated
  /// by `method`.
  public static func encode(_ view: PixelView, filter: Filter, method: DeflateMethod) -> [UInt8] {
    Deflater.withScratch(method: method) { scratch in
      let idat = scratch.compress(rowsOf: view, filter: filter)
      var png = PNGChunkWriter(capacity: idat.count)
      png.header(width: view.width, height: view.height, format: view.format)
      png.append(.imageData, idat)
      png.end()
      return png.bytes
    }
  }

  /// The zlib stream an IDAT (or APNG fdAT) carries for `view`: its rows filtered, deflated.
  public static func imageData(_ view: PixelView, filter: Filter, level: Int32) -> [UInt8] {
    imageData(view, filter: filter, method: .libdeflate(level))
  }

  /// The zlib stream an IDAT carries for `view`: its rows filtered, deflated by `method`.
  public static func imageData(_ view: PixelView, filter: Filter, method: DeflateMethod)
    -> [UInt8]
  {
    Deflater.withScratch(method: method) { [UInt8]($0.compress(rowsOf: view, filter: filter)) }
  }

  /// One filter-type byte before each row, then the filtered row: what PNG compresses.
  public static func filteredRows(_ view: PixelView, filter: Filter) -> [UInt8] {
    let total = filteredCount(view)
    return [UInt8](unsafeUninitializedCapacity: total) { dst, initialized in
      writeFilteredRows(view, filter: filter, into: dst.baseAddress)
      initialized = total
    }
  }

  /// The bytes `filteredRows` gives for `view`: a filter byte and a row per row (one zero
  /// byte per row for an image without columns).
  static func filteredCount(_ view: PixelView) -> Int {
    view.bytesPerRow == 0 ? view.height : view.height * (view.bytesPerRow + 1)
  }

  /// Writes the `filteredCount(view)` bytes of the filtered rows to `out`.
  static func writeFilteredRows(
    _ view: PixelView, filter: Filter, into out: UnsafeMutablePointer<UInt8>?
  ) {
    guard let out, view.height > 0 else { return }
    let bpp = view.format.channels
    let stride = view.bytesPerRow
    // PNG forbids empty images; an empty buffer still gets well-formed (if invalid) output.
    if stride == 0 {
      out.initialize(repeating: 0, count: view.height)
      return
    }
    var prior: UnsafePointer<UInt8>? = nil
    for y in 0..<view.height {
      let row = view.row(y).baseAddress.unsafelyUnwrapped
      let o = out + y * (stride + 1)
      var kind = filter
      if filter == .adaptive {
        kind = bestFilter(row: row, prior: prior, count: stride, bpp: bpp, scratch: o + 1)
      }
      o[0] = kind.code
      apply(kind, row: row, prior: prior, count: stride, bpp: bpp, out: o + 1)
      prior = row
    }
  }

  /// The libpng heuristic: the filter with the smallest sum of |signed residuals|.
  private static func bestFilter(
    row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>?, count: Int, bpp: Int,
    scratch: UnsafeMutablePointer<UInt8>
  ) -> Filter {
    var best = Filter.none
    var bestSum = Int.max
    for kind in [Filter.none, .sub, .up, .average, .paeth] {
      apply(kind, row: row, prior: prior, count: count, bpp: bpp, out: scratch)
      var sum = 0
      for i in 0..<count {
        let v = Int(Int8(bitPattern: scratch[i]))
        sum &+= v < 0 ? -v : v
      }
      if sum < bestSum {
        bestSum = sum
        best = kind
      }
    }
    return best
  }

  private static func apply(
    _ kind: Filter, row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>?, count: Int, bpp: Int,
    out: UnsafeMutablePointer<UInt8>
  ) {
    switch kind {
    case .none, .adaptive:
      out.update(from: row, count: count)
    case .sub:
      for i in 0..<count { out[i] = row[i] &- (i >= bpp ? row[i - bpp] : 0) }
    case .up:
      if let p = prior {
        for i in 0..<count { out[i] = row[i] &- p[i] }
      } else {
        out.update(from: row, count: count)
      }
    case .average:
      for i in 0..<count {
        let a = i >= bpp ? Int(row[i - bpp]) : 0
        let up = prior.map { Int($0[i]) } ?? 0
        out[i] = row[i] &- UInt8((a + up) >> 1)
      }
    case .paeth:
      for i in 0..<count {
        let a = i >= bpp ? Int(row[i - bpp]) : 0
        let up = prior.map { Int($0[i]) } ?? 0
        let c = i >= bpp ? (prior.map { Int($0[i - bpp]) } ?? 0) : 0
        let p = a + up - c
        let pa = abs(p - a)
        let pb = abs(p - up)
        let pc = abs(p - c)
        let pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? up : c)
        out[i] = row[i] &- UInt8(pred)
      }
    }
  }
}

/// zlib streams from libdeflate, with compressors reused across calls: allocating one costs a
/// few hundred kilobytes of tables. A compressor is used by one thread at a time; idle ones
/// wait in a small pool behind a `Mutex`.
///
/// A pooled compressor also keeps the two buffers a PNG encode needs (the filtered rows and
/// the compressed stream) between calls, so a render that encodes hundreds of same-sized
/// pages allocates and faults in those ~1 MB once per thread instead of once per page. Only
/// buffers up to `keptScratchBytes` are kept: a huge image's scratch is freed after use.
public enum Deflater {
  /// One compressor (libdeflate's, or an igzip stream) and its scratch; this class is their
  /// only owner. It moves between threads only through the pool's mutex, never shared, hence
  /// `@unchecked Sendable`.
  final class Compressor: @unchecked Sendable {
    let method: DeflateMethod
    /// libdeflate's compressor: the method's own, or the fallback of an igzip method (for an
    /// input igzip cannot take), made when first needed.
    private var handle: OpaquePointer?
    private let igzip: IgzipStream?
    /// Filtered rows (input) and the zlib stream (output), grown on demand.
    private var input = ScratchBytes()
    private var output = ScratchBytes()

    init(method: DeflateMethod) {
      self.method = method
      switch method.engine {
      case .libdeflate:
        handle = Self.libdeflateCompressor(level: method.level)
        igzip = nil
      case .igzip:
        handle = nil
        igzip = IgzipStream(level: method.level)
      }
    }
    deinit { handle.map { libdeflate_free_compressor($0) } }

    private static func libdeflateCompressor(level: Int32) -> OpaquePointer {
      // Fails only when out of memory.
      guard let h = libdeflate_alloc_compressor(level) else {
        preconditionFailure("libdeflate_alloc_compressor(\(level)) failed: out of memory")
      }
      return h
    }

    /// The zlib stream of `view`'s filtered rows, in this compressor's output scratch: valid
    /// until the compressor's next use.
    func compress(rowsOf view: PixelView, filter: PNGEncoder.Filter) -> UnsafeRawBufferPointer {
      let count = PNGEncoder.filteredCount(view)
      let rows = input.reserve(count)
      PNGEncoder.writeFilteredRows(view, filter: filter, into: rows)
      return compress(UnsafeRawBufferPointer(start: rows, count: count))
    }

    /// The zlib stream of `data`, in this compressor's output scratch.
    func compress(_ data: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
      if let igzip {
        let out = output.reserve(IgzipStream.bound(data.count))
        if let n = igzip.compress(data, into: out) {
          return UnsafeRawBufferPointer(start: out, count: n)
        }
      }
      return libdeflateCompress(data)
    }

    /// libdeflate's zlib stream of `data` (an igzip method's fallback: libdeflate at level 1).
    private func libdeflateCompress(_ data: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
      let h = handle ?? Self.libdeflateCompressor(level: 1)
      handle = h
      let bound = libdeflate_zlib_compress_bound(h, data.count)
      let out = output.reserve(bound)
      let n = libdeflate_zlib_compress(h, data.baseAddress, data.count, out, bound)
      // The bound guarantees success; 0 would mean libdeflate broke its contract.
      precondition(n > 0, "libdeflate_zlib_compress returned 0 within its own bound")
      return UnsafeRawBufferPointer(start: out, count: n)
    }

    /// Frees scratch buffers larger than what the pool keeps.
    func trim() {
      input.trim(to: Deflater.keptScratchBytes)
      output.trim(to: Deflater.keptScratchBytes)
    }
  }

  /// Idle compressors, at most `poolLimit`.
  private static let idle = Mutex<[Compressor]>([])
  private static let poolLimit = 8
  /// The largest scratch buffer an idle compressor keeps (a 1200×1600 RGBA page fits).
  static let keptScratchBytes = 8 << 20

  /// Runs `body` with an idle compressor of libdeflate `level` (clamped to 0…12), then
  /// returns it to the pool. What `body` gets from the compressor is valid only inside `body`.
  static func withScratch<R>(level: Int32, _ body: (Compressor) -> R) -> R {
    withScratch(method: .libdeflate(level), body)
  }

  /// Runs `body` with an idle compressor of `method`, then returns it to the pool. What
  /// `body` gets from the compressor is valid only inside `body`.
  static func withScratch<R>(method: DeflateMethod, _ body: (Compressor) -> R) -> R {
    let compressor =
      idle.withLock { pool -> Compressor? in
        pool.lastIndex { $0.method == method }.map { pool.remove(at: $0) }
      } ?? Compressor(method: method)
    defer {
      compressor.trim()
      idle.withLock { pool in
        if pool.count < poolLimit { pool.append(compressor) }
      }
    }
    return body(compressor)
  }

  /// The zlib-wrapped deflate stream of `input` at libdeflate `level` (clamped to 0…12).
  public static func compress(_ input: [UInt8], level: Int32) -> [UInt8] {
    input.withUnsafeBytes { compress($0, level: level) }
  }

  /// The zlib-wrapped deflate stream of `input` at libdeflate `level` (clamped to 0…12).
  public static func compress(_ input: UnsafeRawBufferPointer, level: Int32) -> [UInt8] {
    compress(input, method: .libdeflate(level))
  }

  /// The zlib-wrapped deflate stream of `input` made by `method`.
  public static func compress(_ input: UnsafeRawBufferPointer, method: DeflateMethod) -> [UInt8] {
    withScratch(method: method) { [UInt8]($0.compress(input)) }
  }
}

/// A growable byte buffer that is never zeroed or copied when it grows (its old contents are
/// dropped): scratch whose every use writes before it reads.
struct ScratchBytes: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>? = nil
  private var capacity = 0

  /// At least `count` writable bytes (their contents undefined).
  mutating func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
    if let base, capacity >= count { return base }
    base?.deallocate()
    let grown = max(count, 1)
    let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    base = fresh
    capacity = grown
    return fresh
  }

  /// Frees the buffer when it holds more than `limit` bytes.
  mutating func trim(to limit: Int) {
    guard capacity > limit else { return }
    base?.deallocate()
    base = nil
    capacity = 0
  }

  deinit { base?.deallocate() }
}
