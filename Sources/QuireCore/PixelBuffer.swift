/// An owned image in memory: rows top to bottom, no padding between rows.
///
/// gray8: one byte per pixel. rgba8: four bytes per pixel, straight (not premultiplied) alpha.
/// The buffer owns its bytes (a copy-on-write array); code that reads or writes a part of it
/// without copying borrows a `PixelView` or `MutablePixelView` for the length of a closure.
public struct PixelBuffer: Sendable, Equatable {
  /// How a pixel is stored.
  public enum Format: String, Sendable, Hashable, Codable {
    /// One byte of gray per pixel (0 black … 255 white).
    case gray8
    /// Four bytes per pixel: red, green, blue, alpha, straight alpha.
    case rgba8
    /// Bytes per pixel: 1 for gray8, 4 for rgba8.
    public var channels: Int { self == .gray8 ? 1 : 4 }
  }

  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// How each pixel is stored.
  public var format: Format
  /// The pixel bytes, `height` rows of `bytesPerRow` bytes.
  public var pixels: [UInt8]

  /// A buffer over `pixels`; traps unless there are exactly width × height × channels bytes.
  public init(width: Int, height: Int, format: Format, pixels: [UInt8]) {
    precondition(
      width >= 0 && height >= 0 && pixels.count == width * height * format.channels,
      "PixelBuffer: \(pixels.count) bytes for \(width)x\(height) \(format)")
    self.width = width
    self.height = height
    self.format = format
    self.pixels = pixels
  }

  /// A buffer filled with one value per channel (white paper by default).
  public init(width: Int, height: Int, format: Format, fill: UInt8 = 255) {
    self.init(
      width: width, height: height, format: format,
      pixels: [UInt8](repeating: fill, count: width * height * format.channels))
  }

  /// Bytes in one row: width × channels.
  public var bytesPerRow: Int { width * format.channels }
}

extension PixelBuffer {
  /// The same image in another format. gray8 → rgba8 copies the gray into r, g, b with opaque
  /// alpha; rgba8 → gray8 composites on white paper, then takes Rec. 709 luminance.
  public func converted(to target: Format) -> PixelBuffer {
    if target == format { return self }
    let n = width * height
    var out = [UInt8](repeating: 255, count: n * target.channels)
    pixels.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        if target == .rgba8 {
          for i in 0..<n {
            let g = src[i]
            dst[4 * i] = g
            dst[4 * i + 1] = g
            dst[4 * i + 2] = g
          }
        } else {
          for i in 0..<n {
            dst[i] = grayOnWhite(
              r: src[4 * i], g: src[4 * i + 1], b: src[4 * i + 2], a: src[4 * i + 3])
          }
        }
      }
    }
    return PixelBuffer(width: width, height: height, format: target, pixels: out)
  }

  /// Borrows the rectangle (x, y, width, height) — the whole image by default — read-only for
  /// the duration of `body`. Traps when the rectangle is not inside the image.
  public func withView<R, E: Error>(
    x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil,
    _ body: (PixelView) throws(E) -> R
  ) throws(E) -> R {
    let (window, offset) = self.window.window(x: x, y: y, width: width, height: height)
    return try pixels.withUnsafeBufferPointer { (buffer) throws(E) -> R in
      let base = buffer.baseAddress ?? UnsafePointer(PixelWindow.placeholderBase)
      return try body(PixelView(base: base + offset, window))
    }
  }

  /// Borrows the rectangle (x, y, width, height) — the whole image by default — for reading
  /// and writing during `body`; writes land in this buffer. Traps when the rectangle is not
  /// inside the image.
  public mutating func withMutableView<R, E: Error>(
    x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil,
    _ body: (MutablePixelView) throws(E) -> R
  ) throws(E) -> R {
    let (window, offset) = self.window.window(x: x, y: y, width: width, height: height)
    return try pixels.withUnsafeMutableBufferPointer { (buffer) throws(E) -> R in
      let base = buffer.baseAddress ?? PixelWindow.placeholderBase
      return try body(MutablePixelView(base: base + offset, window))
    }
  }

  /// The whole image as a window.
  private var window: PixelWindow {
    PixelWindow(width: width, height: height, format: format, rowStride: bytesPerRow)
  }

  /// A copy of the rectangle (x, y, width, height); the buffer itself when that is all of it.
  public func cropped(x: Int, y: Int, width: Int, height: Int) -> PixelBuffer {
    if x == 0 && y == 0 && width == self.width && height == self.height { return self }
    return withView(x: x, y: y, width: width, height: height) { $0.copy() }
  }
}

/// The gray an RGBA pixel shows on white paper: composite on white, then Rec. 709 luminance
/// in 8.8 fixed point.
@inline(__always)
func grayOnWhite(r: UInt8, g: UInt8, b: UInt8, a: UInt8) -> UInt8 {
  let a = Int(a)
  let white = 255 * (255 - a)
  let r = (Int(r) * a + white + 127) / 255
  let g = (Int(g) * a + white + 127) / 255
  let b = (Int(b) * a + white + 127) / 255
  return UInt8((54 * r + 183 * g + 19 * b + 128) >> 8)
}
