// Block-level images (an img alone in its block, a figure's image, an SVG cover): sized by
// `ImageSizing` (CSS px at 96 dpi, never upscaled unless the CSS asks, scaled down to the
// column and the page), then placed in the column.
//
// Where: in a chapter with a publisher style sheet, by its CSS as a browser places it
// (CSS 2.1 §16.2: the image is inline content of its block, aligned by the block's
// `text-align`): at the start edge for `start` (the initial value) and `justify` (the
// last line of a block is not justified), centred for `center` or when the image's own
// side margins are both `auto` (the `display: block; margin: 0 auto` idiom), at the right
// for `right`, the end edge for `end`, on the line the block's `text-indent` opens. The
// publisher laid the book out for a browser engine; where their CSS leaves an image at the
// start edge, so does Quire. In a chapter
// without one (a bare XHTML or plain text file, or `--publisher-styles off`), centring is
// the reader's user-agent default for an illustration alone in its block, as e-readers
// present unstyled pictures; `left`/`right`/`end` set by the document (a `style`
// attribute, the UA sheet) still apply. A fixed-layout page is always drawn as a browser
// does. One flow entry whose height is the image's; the page splitter never cuts it.
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

  /// The left edge of a block image `width` px wide in the column `left`…`right` (the rule
  /// in the essay above).
  func blockImageLeft(
    _ ref: ImageRef, style: ComputedStyle, width: Double, left: Double, right: Double
  ) -> Double {
    let rtl = style.direction == .rtl
    if ref.box.marginLeftAuto && ref.box.marginRightAuto {
      return left + (right - left - width) / 2
    }
    guard authorStyles || positioned.enabled else {
      switch style.textAlign {
      case .left: return left
      case .right: return right - width
      case .end: return rtl ? left : right - width
      default: return left + (right - left - width) / 2
      }
    }
    // The image is the first (only) line of its block: the block's `text-indent` opens it
    // on the start side (CSS Text 3 §8.1), as in a browser.
    let indent = min(max(0, px(style.textIndent, of: right - left)), right - left)
    let (l, r) = rtl ? (left, right - indent) : (left + indent, right)
    switch style.textAlign {
    case .left: return l
    case .right: return r - width
    case .center: return l + (r - l - width) / 2
    case .end: return rtl ? l : r - width
    case .start, .justify: return rtl ? r - width : l
    }
  }

  mutating func blockImage(
    _ ref: ImageRef, style: ComputedStyle, left: Double, right: Double, location: Location
  ) {
    let avail = max(1, right - left)
    let size = imageSizing(available: avail).resolve(ref, natural: naturalSize(ref))
    let x = blockImageLeft(ref, style: style, width: size.width, left: left, right: right)
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
