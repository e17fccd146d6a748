// The box properties of one element (CSS 2.1 §8 and §10, CSS Backgrounds and Borders 3,
// CSS Sizing 3, CSS 2.1 §9.5 floats, §17 tables): borders, corner radii, background,
// sizes, float/clear, overflow, table border model.
//
// None of these inherit, and text runs never need them, so they live on `Block` (and on an
// image's `ImageRef`), not in `ComputedStyle`: a chapter with a million runs does not carry
// a million copies. Lengths follow Document.swift's units (root ems or percentages of the
// containing block's width); `nil` sizes are `auto` (`none` for the max- sizes).

import Foundation
import QuireCore

/// `border-*-style` (CSS Backgrounds 3 §4.2). `hidden` behaves as `none` except in collapsed
/// table borders, where it wins.
package enum BorderStyle: String, Sendable, Hashable, Codable {
  case none, hidden, solid, dashed, dotted, double, groove, ridge, inset, outset
  /// Whether the side draws and takes space.
  package var isVisible: Bool { self != .none && self != .hidden }
}

/// One side of a border.
package struct BorderSide: Sendable, Hashable, Codable {
  /// The used width is 0 when `style` is not visible (CSS Backgrounds 3 §4.3).
  package var width: Length = .rem(3.0 / 16)
  package var style: BorderStyle = .none
  /// nil: `currentColor` (the element's `color`).
  package var color: RGBA? = nil
  package init(width: Length = .rem(3.0 / 16), style: BorderStyle = .none, color: RGBA? = nil) {
    self.width = width
    self.style = style
    self.color = color
  }
  /// The width that takes space: 0 for an invisible style.
  package var usedWidth: Length { style.isVisible ? width : .zero }
}

package struct BorderSides: Sendable, Hashable, Codable {
  package var top = BorderSide(), right = BorderSide(), bottom = BorderSide(), left = BorderSide()
  package init() {}
  package var isVisible: Bool {
    top.style.isVisible || right.style.isVisible || bottom.style.isVisible
      || left.style.isVisible
  }
}

/// Corner radii (CSS Backgrounds 3 §5); one value per corner (elliptical radii use their
/// horizontal value).
package struct CornerRadii: Sendable, Hashable, Codable {
  package var topLeft: Length = .zero, topRight: Length = .zero
  package var bottomRight: Length = .zero, bottomLeft: Length = .zero
  package init() {}
  package var isZero: Bool {
    [topLeft, topRight, bottomRight, bottomLeft].allSatisfy { $0 == .zero }
  }
}

package enum BoxSizing: String, Sendable, Hashable, Codable { case contentBox, borderBox }
package enum FloatSide: String, Sendable, Hashable, Codable { case none, left, right }

/// `initial-letter` (CSS Inline 3 §7): the letter is sized to span `size` lines and sunk
/// `sink` lines into the paragraph.
package struct InitialLetter: Sendable, Hashable, Codable {
  /// Lines tall (at most `maxLines`: a hostile 1000 would be a letter taller than any page).
  package static let maxLines = 12
  package var size: Double
  package var sink: Int
  package init(size: Double, sink: Int) {
    self.size = size
    self.sink = sink
  }
}
package enum ClearSide: String, Sendable, Hashable, Codable { case none, left, right, both }

/// How an image's content fills its box when both sizes are given (CSS `object-fit`).
package enum ObjectFit: String, Sendable, Hashable, Codable {
  case fill, contain, cover, none
  case scaleDown = "scale-down"
}

/// The background of a box: its colour and image layers (CSS Backgrounds 3 §3).
package struct BoxBackground: Sendable, Hashable, Codable {
  /// Transparent when nil.
  package var color: RGBA? = nil
  /// Image layers, first on top, as written (`background-image` and the shorthand);
  /// parsed further by the box painter's owner.
  package var layers: [BackgroundLayer] = []
  package init() {}
  package var isEmpty: Bool { (color == nil || color?.a == 0) && layers.isEmpty }
}

/// One `background-image` layer with its placement properties.
package struct BackgroundLayer: Sendable, Hashable, Codable {
  package enum Source: Sendable, Hashable, Codable {
    /// Resolved href inside the book.
    case url(String)
    /// `linear-gradient(…)` as written inside the parentheses (tokens joined), for the
    /// gradient parser.
    case linearGradient(String)
  }
  package var source: Source
  /// `background-repeat` (`repeat`, `repeat-x`, `no-repeat`, `space`, `round`…) as written.
  package var repeatValue: String = "repeat"
  /// `background-position` as written.
  package var position: String = "0% 0%"
  /// `background-size` as written.
  package var size: String = "auto"
  package init(source: Source) { self.source = source }
}

/// `position` (CSS 2.1 §9.3.1).
package enum BoxPosition: String, Sendable, Hashable, Codable {
  case `static`, relative, absolute, fixed, sticky
  /// Absolute and fixed boxes leave the flow.
  package var isOutOfFlow: Bool { self == .absolute || self == .fixed }
}

/// The box properties of one element; the defaults are CSS's initial values.
package struct BoxStyle: Sendable, Hashable, Codable {
  package var border = BorderSides()
  package var radius = CornerRadii()
  package var background = BoxBackground()
  package var width: Length? = nil
  package var height: Length? = nil
  package var minWidth: Length? = nil
  package var maxWidth: Length? = nil
  package var minHeight: Length? = nil
  package var maxHeight: Length? = nil
  package var boxSizing: BoxSizing = .contentBox
  /// `margin-left: auto` / `margin-right: auto` (the `ComputedStyle.margin` side is 0 then).
  package var marginLeftAuto = false
  package var marginRightAuto = false
  /// `margin-top: auto` / `margin-bottom: auto` (0 in `ComputedStyle.margin`; used by
  /// absolutely positioned boxes, CSS 2.1 §10.6.4).
  package var marginTopAuto = false
  package var marginBottomAuto = false
  package var float: FloatSide = .none
  package var clear: ClearSide = .none
  /// `initial-letter` on a `::first-letter` (nil: `normal`).
  package var initialLetter: InitialLetter? = nil
  /// `overflow: hidden` or `clip` (content is clipped to the padding box).
  package var clipsOverflow = false
  /// `text-overflow: ellipsis`: a line that may not wrap and is cut at an overflow-clipping
  /// block's edge ends in "…" (CSS Overflow 3 §3.2).
  package var textOverflowEllipsis = false
  /// `box-decoration-break: clone`: each page fragment of the box has its own borders,
  /// padding and corners (CSS Fragmentation 3 §5.4); `slice` (false) cuts them.
  package var decorationClone = false
  /// `display: inline-block` (the element stays inline but lays out its content as a block).
  package var isInlineBlock = false
  /// `display: inline-table`: the inline block is a table (CSS 2.1 §17.2).
  package var isInlineTable = false
  /// Tables: `border-collapse: collapse` (inherited in CSS; copied to each table element).
  package var collapsesBorders = false
  /// Replaced elements (images): `object-fit` and `object-position` as fractions of the
  /// free space (0 = left/top, 0.5 = centre).
  package var objectFit: ObjectFit = .fill
  package var objectPositionX: Double = 0.5
  package var objectPositionY: Double = 0.5
  /// Tables: `border-spacing` horizontal and vertical (separated borders only; inherited).
  package var borderSpacingX: Length = .zero
  package var borderSpacingY: Length = .zero
  /// `position` and its offsets (`auto`: nil), `z-index` (`auto`: nil) and `transform`, for
  /// fixed-layout pages (Style/PositionProperties.swift, Style/TransformProperties.swift).
  package var position: BoxPosition = .static
  package var top: Length? = nil
  package var right: Length? = nil
  package var bottom: Length? = nil
  package var left: Length? = nil
  package var zIndex: Int? = nil
  /// `transform` (`none`: nil).
  package var transform: BoxTransform? = nil
  /// `transform-origin` x and y: lengths or percentages of the border box (50% 50%).
  package var transformOriginX = Length.percent(50)
  package var transformOriginY = Length.percent(50)
  /// `transform` had functions that are not drawn (3-D ones).
  package var transformDropped = false
  /// `column-*` (Document/ColumnStyle.swift).
  package var columns = ColumnStyle()

  package init() {}

  /// True when no size was set (the common case for images: sizes come from the image).
  package var sizesAreAuto: Bool {
    width == nil && height == nil && minWidth == nil && minHeight == nil && maxWidth == nil
      && maxHeight == nil
  }

  /// Whether anything is drawn for the box itself (borders or background).
  package var isPainted: Bool { border.isVisible || !background.isEmpty }
}
