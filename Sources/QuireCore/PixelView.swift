/// The geometry of a rectangle of pixels inside an image: what a view knows besides where its
/// first byte is.
struct PixelWindow {
  var width: Int
  var height: Int
  var format: PixelBuffer.Format
  /// Bytes from the start of one row to the next in the owner.
  var rowStride: Int

  /// A base for views of an image without storage (zero bytes are ever read through it).
  static var placeholderBase: UnsafeMutablePointer<UInt8> {
    UnsafeMutablePointer(bitPattern: MemoryLayout<UInt64>.alignment).unsafelyUnwrapped
  }

  /// The rectangle (x, y, width, height) inside this window — to its right and bottom edges
  /// when a size is nil — and the byte offset of its first pixel. Traps when it is outside.
  func window(x: Int, y: Int, width w: Int?, height h: Int?) -> (PixelWindow, offset: Int) {
    let w = w ?? width - x
    let h = h ?? height - y
    precondition(
      x >= 0 && y >= 0 && w >= 0 && h >= 0 && x <= width - w && y <= height - h,
      "pixels: rectangle (\(x), \(y), \(w), \(h)) is outside \(width)x\(height)")
    let sub = PixelWindow(width: w, height: h, format: format, rowStride: rowStride)
    return (sub, y * rowStride + x * format.channels)
  }
}

/// A borrowed, read-only window onto part (or all) of a `PixelBuffer`: no copy, rows keep the
/// owner's stride. A view is handed to a closure by `PixelBuffer.withView` and is valid only
/// inside it — it holds a pointer into the owner's storage, so it must not be stored or
/// returned (see the essay in Core.swift for why this is a closure and not `~Escapable`).
public struct PixelView {
  /// Width of the window in pixels.
  public let width: Int
  /// Height of the window in pixels.
  public let height: Int
  /// The owner's pixel format.
  public let format: PixelBuffer.Format
  /// Bytes from the start of one row to the next (the owner's bytes per row).
  public let rowStride: Int
  @usableFromInline let base: UnsafePointer<UInt8>

  init(base: UnsafePointer<UInt8>, _ window: PixelWindow) {
    self.base = base
    width = window.width
    height = window.height
    format = window.format
    rowStride = window.rowStride
  }

  var window: PixelWindow {
    PixelWindow(width: width, height: height, format: format, rowStride: rowStride)
  }

  /// Bytes in one row of the window: width × channels.
  public var bytesPerRow: Int { width * format.channels }

  /// Row `y` (0 at the window's top) as `bytesPerRow` bytes. Traps when `y` is outside.
  @inlinable
  public func row(_ y: Int) -> UnsafeBufferPointer<UInt8> {
    precondition(y >= 0 && y < height, "PixelView: row \(y) outside 0..<\(height)")
    return UnsafeBufferPointer(start: base + y * rowStride, count: width * format.channels)
  }

  /// The colour at (x, y) of the window (gray8 reads as opaque gray). Traps when outside.
  public func color(x: Int, y: Int) -> RGBA {
    precondition(x >= 0 && x < width, "PixelView: column \(x) outside 0..<\(width)")
    let p = row(y).baseAddress.unsafelyUnwrapped + x * format.channels
    if format == .gray8 { return RGBA(r: p[0], g: p[0], b: p[0]) }
    return RGBA(r: p[0], g: p[1], b: p[2], a: p[3])
  }

  /// A window inside this one, in this window's coordinates, with the same lifetime.
  public func view(x: Int, y: Int, width: Int, height: Int) -> PixelView {
    let (sub, offset) = window.window(x: x, y: y, width: width, height: height)
    return PixelView(base: base + offset, sub)
  }

  /// An owned copy of the window.
  public func copy() -> PixelBuffer {
    let rowBytes = bytesPerRow
    let total = rowBytes * height
    let pixels = [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
      if let dst = out.baseAddress {
        for y in 0..<height {
          (dst + y * rowBytes).initialize(from: base + y * rowStride, count: rowBytes)
        }
      }
      initialized = total
    }
    return PixelBuffer(width: width, height: height, format: format, pixels: pixels)
  }

  /// Whether this window and `other` (same size and format) hold the same pixels.
  public func hasSamePixels(as other: PixelView) -> Bool {
    guard width == other.width, height == other.height, format == other.format else {
      return false
    }
    for y in 0..<height where !row(y).elementsEqual(other.row(y)) { return false }
    return true
  }
}

/// A borrowed window onto part (or all) of a `PixelBuffer` that writes through to it. Handed
/// to a closure by `PixelBuffer.withMutableView` and valid only inside it.
public struct MutablePixelView {
  /// Width of the window in pixels.
  public let width: Int
  /// Height of the window in pixels.
  public let height: Int
  /// The owner's pixel format.
  public let format: PixelBuffer.Format
  /// Bytes from the start of one row to the next (the owner's bytes per row).
  public let rowStride: Int
  @usableFromInline let base: UnsafeMutablePointer<UInt8>

  init(base: UnsafeMutablePointer<UInt8>, _ window: PixelWindow) {
    self.base = base
    width = window.width
    height = window.height
    format = window.format
    rowStride = window.rowStride
  }

  var window: PixelWindow {
    PixelWindow(width: width, height: height, format: format, rowStride: rowStride)
  }

  /// Bytes in one row of the window: width × channels.
  public var bytesPerRow: Int { width * format.channels }

  /// The same window, read-only.
  public var readOnly: PixelView { PixelView(base: UnsafePointer(base), window) }

  /// Row `y` (0 at the window's top) as `bytesPerRow` writable bytes. Traps when outside.
  @inlinable
  public func row(_ y: Int) -> UnsafeMutableBufferPointer<UInt8> {
    precondition(y >= 0 && y < height, "MutablePixelView: row \(y) outside 0..<\(height)")
    return UnsafeMutableBufferPointer(start: base + y * rowStride, count: width * format.channels)
  }

  /// A window inside this one, in this window's coordinates, with the same lifetime.
  public func view(x: Int, y: Int, width: Int, height: Int) -> MutablePixelView {
    let (sub, offset) = window.window(x: x, y: y, width: width, height: height)
    return MutablePixelView(base: base + offset, sub)
  }

  /// Fills the window with `color` (gray8: the gray it shows on white paper).
  public func fill(_ color: RGBA) {
    let bytes: [UInt8] =
      format == .gray8
      ? [grayOnWhite(r: color.r, g: color.g, b: color.b, a: color.a)]
      : [color.r, color.g, color.b, color.a]
    let c = bytes.count
    for y in 0..<height {
      let r = row(y)
      for x in 0..<width {
        for k in 0..<c { r[x * c + k] = bytes[k] }
      }
    }
  }

  /// Copies `source` (same size and format) into the window.
  public func copy(from source: PixelView) {
    precondition(
      source.width == width && source.height == height && source.format == format,
      "MutablePixelView: copy from \(source.width)x\(source.height) into \(width)x\(height)")
    let n = bytesPerRow
    for y in 0..<height {
      (base + y * rowStride).update(from: source.base + y * source.rowStride, count: n)
    }
  }
}
