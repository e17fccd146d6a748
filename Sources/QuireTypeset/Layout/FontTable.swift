import Foundation

/// A font file (and face index within it) that glyph runs refer to by `FontID`.
/// The rasterizer opens the same bytes with FreeType, so layout and pixels agree.
package struct FontFace: Sendable, Hashable {
  package var name: String
  /// Where it came from: a path in fonts/, a system path, or "book:href" for embedded fonts.
  package var origin: String
  package var data: Data
  package var faceIndex: Int
  package init(name: String, origin: String, data: Data, faceIndex: Int = 0) {
    self.name = name
    self.origin = origin
    self.data = data
    self.faceIndex = faceIndex
  }
  package static func == (a: FontFace, b: FontFace) -> Bool {
    a.origin == b.origin && a.faceIndex == b.faceIndex && a.data.count == b.data.count
  }
  package func hash(into h: inout Hasher) {
    h.combine(origin)
    h.combine(faceIndex)
    h.combine(data.count)
  }
}

/// All faces a layout uses, indexed by `FontID`.
package struct FontTable: Sendable {
  package var faces: [FontFace]
  package init(faces: [FontFace]) { self.faces = faces }
}
