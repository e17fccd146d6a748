import Foundation

/// An owned image in memory: rows top to bottom, no padding between rows.
/// gray8: one byte per pixel. rgba8: four bytes per pixel, straight (not premultiplied) alpha.
public struct PixelBuffer: Sendable, Equatable {
  public enum Format: String, Sendable, Hashable, Codable {
    case gray8, rgba8
    public var channels: Int { self == .gray8 ? 1 : 4 }
  }

  public var width: Int
  public var height: Int
  public var format: Format
  public var pixels: [UInt8]

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
            let a = Int(src[4 * i + 3])
            let white = 255 * (255 - a)
            let r = (Int(src[4 * i]) * a + white + 127) / 255
            let g = (Int(src[4 * i + 1]) * a + white + 127) / 255
            let b = (Int(src[4 * i + 2]) * a + white + 127) / 255
            dst[i] = UInt8((54 * r + 183 * g + 19 * b + 128) >> 8)
          }
        }
      }
    }
    return PixelBuffer(width: width, height: height, format: target, pixels: out)
  }
}
