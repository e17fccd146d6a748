import Foundation

/// A font file (and face index within it) that glyph runs refer to by `FontID`.
/// The rasterizer opens the same bytes with FreeType, so layout and pixels agree.
public struct FontFace: Sendable, Hashable {
  public var name: String
  /// Where it came from: a path in fonts/, a system path, or "book:href" for embedded fonts.
  public var origin: String
  public var data: Data
  public var faceIndex: Int
  public init(name: String, origin: String, data: Data, faceIndex: Int = 0) {
    self.name = name
    self.origin = origin
    self.data = data
    self.faceIndex = faceIndex
  }
  public static func == (a: FontFace, b: FontFace) -> Bool {
    a.origin == b.origin && a.faceIndex == b.faceIndex && a.data.count == b.data.count
  }
  public func hash(into h: inout Hasher) {
    h.combine(origin)
    h.combine(faceIndex)
    h.combine(data.count)
  }
}

/// All faces a layout uses, indexed by `FontID`.
public struct FontTable: Sendable {
  public var faces: [FontFace]
  public init(faces: [FontFace]) { self.faces = faces }
}
