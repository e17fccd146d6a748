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
    precondition(width >= 0 && height >= 0 && pixels.count == width * height * format.channels,
      "PixelBuffer: \(pixels.count) bytes for \(width)x\(height) \(format)")
    self.width = width
    self.height = height
    self.format = format
    self.pixels = pixels
  }

  /// A buffer filled with one value per channel (white paper by default).
  public init(width: Int, height: Int, format: Format, fill: UInt8 = 255) {
    self.init(width: width, height: height, format: format,
      pixels: [UInt8](repeating: fill, count: width * height * format.channels))
  }

  public var bytesPerRow: Int { width * format.channels }
}
