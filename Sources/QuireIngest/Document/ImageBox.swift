// The CSS box of a replaced element (an image): `width`, `height`, their `min-`/`max-`
// limits, `object-fit` and `object-position`, as the publisher wrote them. The typesetter
// resolves them against the page (Blocks/ImageSizing.swift); Ingest only parses.
//
// Units: lengths are `Length`s like every other computed length — root ems (CSS px / 16) or
// percentages. A width percentage is of the containing block's width; a height percentage
// (and `vh`) is of the page's text height, as e-readers treat it (a browser would ignore a
// percentage height in an auto-height parent; a cover's `height: 100%` means "the page").
//
// Why a separate value carried on `ImageRef` instead of fields on `ComputedStyle`: inline
// runs share ComputedStyles and merge when equal; sizes that only images act on would
// split runs for nothing. The cascade keeps the box on the element's style and the builder
// copies it onto the image it makes.

/// How an image's content fills its box when both sizes are given (CSS `object-fit`).
package enum ObjectFit: String, Sendable, Hashable, Codable {
  case fill, contain, cover, none
  case scaleDown = "scale-down"
}

/// The publisher's sizes for one image; nil means `auto` (or `none` for the limits).
package struct ImageBox: Sendable, Hashable, Codable {
  package var width: Length? = nil
  package var height: Length? = nil
  package var minWidth: Length? = nil
  package var minHeight: Length? = nil
  package var maxWidth: Length? = nil
  package var maxHeight: Length? = nil
  package var fit: ObjectFit = .fill
  /// `object-position` as fractions of the free space (0 = left/top, 0.5 = centre).
  package var positionX: Double = 0.5
  package var positionY: Double = 0.5

  package init() {}

  /// True when nothing was set (the common case: sizes come from the image itself).
  package var isAuto: Bool { self == ImageBox() }
}
