import Foundation

// Geometry in points. One point is one output pixel (content scale 1); y grows downward,
// the origin is the top-left corner of the canvas, exactly like UIKit/Core Animation on iOS.
// These are our own small value types (not QuireTypeset's `Rect`) so that Motion does not
// depend on the typesetter's layout units.

public struct LayerPoint: Sendable, Hashable, Codable {
  public var x: Double
  public var y: Double
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  public init(_ x: Double, _ y: Double) { self.init(x: x, y: y) }
  public static let zero = LayerPoint(x: 0, y: 0)
}

public struct LayerSize: Sendable, Hashable, Codable {
  public var width: Double
  public var height: Double
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
  public init(_ width: Double, _ height: Double) { self.init(width: width, height: height) }
  public static let zero = LayerSize(width: 0, height: 0)
}

public struct LayerRect: Sendable, Hashable, Codable {
  public var origin: LayerPoint
  public var size: LayerSize
  public init(origin: LayerPoint, size: LayerSize) {
    self.origin = origin
    self.size = size
  }
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: LayerPoint(x: x, y: y), size: LayerSize(width: width, height: height))
  }
  public static let zero = LayerRect(x: 0, y: 0, width: 0, height: 0)
  public var minX: Double { origin.x }
  public var minY: Double { origin.y }
  public var maxX: Double { origin.x + size.width }
  public var maxY: Double { origin.y + size.height }
  public var width: Double { size.width }
  public var height: Double { size.height }
  public var midX: Double { origin.x + size.width / 2 }
  public var midY: Double { origin.y + size.height / 2 }
}

/// A colour with straight (not premultiplied) alpha, components in 0…1.
public struct RGBA: Sendable, Hashable, Codable {
  public var r: Double
  public var g: Double
  public var b: Double
  public var a: Double
  public init(r: Double, g: Double, b: Double, a: Double = 1) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }
  /// From 8-bit components.
  public init(r8: UInt8, g8: UInt8, b8: UInt8, a8: UInt8 = 255) {
    self.init(
      r: Double(r8) / 255, g: Double(g8) / 255, b: Double(b8) / 255, a: Double(a8) / 255)
  }
  public static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
  public static let black = RGBA(r: 0, g: 0, b: 0)
  public static let white = RGBA(r: 1, g: 1, b: 1)
  public static let red = RGBA(r: 1, g: 0, b: 0)
  public static let green = RGBA(r: 0, g: 1, b: 0)
  public static let blue = RGBA(r: 0, g: 0, b: 1)

  /// Interpolates in premultiplied space (so a fade to `clear` does not darken).
  public static func mix(_ p: RGBA, _ q: RGBA, _ t: Double) -> RGBA {
    let a = p.a + (q.a - p.a) * t
    if a <= 0 { return RGBA(r: 0, g: 0, b: 0, a: 0) }
    func c(_ x: Double, _ y: Double) -> Double { (x * p.a + (y * q.a - x * p.a) * t) / a }
    return RGBA(r: c(p.r, q.r), g: c(p.g, q.g), b: c(p.b, q.b), a: a)
  }
}
