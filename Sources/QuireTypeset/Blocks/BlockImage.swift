// Block-level images (an img alone in its block, a figure's image, an SVG cover): sized by
// `ImageSizing` (CSS px at 96 dpi, never upscaled unless the CSS asks, scaled down to the
// column and the page), then placed in the column by the block's `text-align`: centred by
// default (and for `center`/`justify`), at the right edge for `right`/`end`, at the left for
// `left` — centring is what readers expect of an unstyled illustration, and the common
// `margin: 0 auto` idiom cannot be told from margin 0 at this point. One flow entry whose
// height is the image's; the page splitter never cuts it.
//
// Inline images go through the same sizing (InlineLayout's shape stage), without
// object-fit: their box is their content.

import QuireIngest

extension ChapterFlow {
  /// The image's decoded size in image px, nil when the book lacks it or it is unreadable.
  func naturalSize(_ ref: ImageRef) -> (width: Double, height: Double)? {
    guard let data = resources.data(forHref: ref.href), let s = ImageSize.of(data),
      s.width > 0, s.height > 0, s.width.isFinite, s.height.isFinite
    else { return nil }
    return s
  }

  /// The sizing rules for a containing block `available` px wide.
  func imageSizing(available: Double) -> ImageSizing {
    var sizing = ImageSizing(
      cssPixel: options.fontSize / 16, available: max(1, available), pageHeight: pageHeight)
    sizing.vertical = vertical
    sizing.rightToLeft = verticalRL
    return sizing
  }

  mutating func blockImage(
    _ ref: ImageRef, style: ComputedStyle, left: Double, right: Double, location: Location
  ) {
    let avail = max(1, right - left)
    let size = imageSizing(available: avail).resolve(ref, natural: naturalSize(ref))
    let x: Double
    switch style.textAlign {
    case .left: x = left
    case .right, .end: x = right - size.width
    // A fixed-layout page is drawn as a browser does: a block image starts at the left.
    case _ where positioned.enabled && style.textAlign != .center: x = left
    default: x = left + (avail - size.width) / 2
    }
    let box = Rect(x: x, y: 0, width: size.width, height: size.height)
    let content = Rect(
      x: x + size.content.x, y: size.content.y, width: size.content.width,
      height: size.content.height)
    var drawn = ImagePlacement(href: ref.href, rect: content)
    if size.clipped { drawn.clip = box }
    var e = FlowEntry(
      spaceBefore: 0, height: size.height, start: location,
      end: Location(spine: spine, offset: location.offset + 1))
    e.items = [.image(drawn)]
    e.images = [ImagePlacement(href: ref.href, rect: box)]
    append(e)
  }
}
