// The typesetter's output: pages as render-agnostic display lists plus a source map.
//
// Coordinates: page pixels, origin at the top-left, y down. Glyph positions are the pen
// position on the baseline, in fractional pixels; the rasterizer quantizes them.

import Foundation
import QuireCore
import QuireIngest

public struct Rect: Sendable, Hashable, Codable {
  public var x: Double, y: Double, width: Double, height: Double
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
  public var maxX: Double { x + width }
  public var maxY: Double { y + height }
}

/// Index of a face in the layout's `FontTable`.
public typealias FontID = Int

/// Shaped glyphs in one face at one size and colour.
public struct GlyphRun: Sendable, Hashable {
  public var font: FontID
  /// Pixels per em.
  public var size: Double
  public var color: RGBA
  /// Glyph ids in the face.
  public var glyphs: [UInt32]
  /// Pen positions on the baseline, page pixels, one per glyph.
  public var x: [Float]
  public var y: [Float]
  /// Synthesized styles when the family lacks a bold or italic face.
  public var syntheticBold: Bool
  public var syntheticItalic: Bool

  public init(
    font: FontID, size: Double, color: RGBA, glyphs: [UInt32], x: [Float], y: [Float],
    syntheticBold: Bool = false, syntheticItalic: Bool = false
  ) {
    self.font = font
    self.size = size
    self.color = color
    self.glyphs = glyphs
    self.x = x
    self.y = y
    self.syntheticBold = syntheticBold
    self.syntheticItalic = syntheticItalic
  }
}

public struct ImagePlacement: Sendable, Hashable {
  /// Resolved href; the renderer asks the book's resources for the bytes.
  public var href: String
  public var rect: Rect
  public init(href: String, rect: Rect) {
    self.href = href
    self.rect = rect
  }
}

public enum DisplayItem: Sendable, Hashable {
  case glyphs(GlyphRun)
  case image(ImagePlacement)
  /// A filled rectangle: hr, underline, strike-through, table rules, placeholders.
  case fill(Rect, RGBA)
}

/// One laid-out line, for the manifest's `lines` and for tests.
public struct LineBox: Sendable, Hashable, Codable {
  public enum Role: String, Sendable, Hashable, Codable { case text, folio }
  /// The text as shown, without an inserted hyphen.
  public var text: String
  public var rect: Rect
  /// Index of the source block (paragraph/heading) in reading order within the book.
  public var block: Int
  public var role: Role
  public var hyphenated: Bool
  /// Justification adjustment ratio: 0 natural, + stretched, − shrunk.
  public var ratio: Double
  public var start: Location
  public var end: Location
  /// Word-space width as set, over the natural space (nil: the line has no word space).
  /// Set by the typesetter from the glue it placed, so quality reports need not know the
  /// glue model.
  public var spaceFactor: Double? = nil

  public init(
    text: String, rect: Rect, block: Int, role: Role = .text, hyphenated: Bool = false,
    ratio: Double = 0, start: Location, end: Location
  ) {
    self.text = text
    self.rect = rect
    self.block = block
    self.role = role
    self.hyphenated = hyphenated
    self.ratio = ratio
    self.start = start
    self.end = end
  }
}

/// One page: what to draw and where it came from.
public struct Page: Sendable {
  /// 1-based, in the whole book.
  public var number: Int
  public var spine: Int
  public var href: String
  public var start: Location
  public var end: Location
  public var items: [DisplayItem]
  public var lines: [LineBox]
  public var images: [ImagePlacement]

  public init(
    number: Int, spine: Int, href: String, start: Location, end: Location,
    items: [DisplayItem] = [], lines: [LineBox] = [], images: [ImagePlacement] = []
  ) {
    self.number = number
    self.spine = spine
    self.href = href
    self.start = start
    self.end = end
    self.items = items
    self.lines = lines
    self.images = images
  }
}
