/// A colour: 8-bit sRGB components with straight (not premultiplied) alpha.
///
/// One colour type for the whole pipeline: CSS computes to it, display lists carry it, the
/// rasterizer composites it and animations interpolate it. Eight bits per channel is what
/// CSS colours and PNG pages hold; interpolation works in `Double` and rounds once.
public struct RGBA: Sendable, Hashable, Codable {
  /// Red, 0…255.
  public var r: UInt8
  /// Green, 0…255.
  public var g: UInt8
  /// Blue, 0…255.
  public var b: UInt8
  /// Alpha (opacity), 0 transparent … 255 opaque.
  public var a: UInt8

  /// A colour from 8-bit components.
  public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  /// A colour from components in 0…1 (clamped, rounded to the nearest 8-bit value).
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    r = RGBA.quantize(red)
    g = RGBA.quantize(green)
    b = RGBA.quantize(blue)
    a = RGBA.quantize(alpha)
  }

  /// Opaque black.
  public static let black = RGBA(r: 0, g: 0, b: 0)
  /// Opaque white.
  public static let white = RGBA(r: 255, g: 255, b: 255)
  /// Fully transparent black.
  public static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)

  /// Red in 0…1.
  public var red: Double { Double(r) / 255 }
  /// Green in 0…1.
  public var green: Double { Double(g) / 255 }
  /// Blue in 0…1.
  public var blue: Double { Double(b) / 255 }
  /// Alpha in 0…1.
  public var alpha: Double { Double(a) / 255 }

  static func quantize(_ v: Double) -> UInt8 {
    guard v.isFinite else { return 0 }
    return UInt8((min(max(v, 0), 1) * 255).rounded())
  }
}
