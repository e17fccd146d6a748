// Image sizes: CSS 2.1 §10.3.2/§10.6.2 for replaced elements, with the page as the limit.
//
// Units. An image's intrinsic pixel is one CSS px (96 dpi), and a CSS px is what the cascade
// calls 1/16 rem, so on the page it is `fontSize / 16` page px — the same scale every other
// publisher length gets (at the default 16 px font one image px is one page px). An image is
// never drawn larger than that unless the publisher's CSS (or a width/height attribute, a
// presentational hint) asks; it is scaled down, keeping its aspect ratio, to fit the content
// width and the page's text height.
//
// Order: the specified width/height (CSS, else the attributes; a missing one follows the
// intrinsic ratio), then `min-`/`max-` limits (ratio kept unless both sizes were given),
// then the fit to the page (both sides scaled by one factor). With both sizes given the
// image content is placed in its box by `object-fit`/`object-position`; what spills out of
// the box (cover, none) is clipped to it.
//
// Rejected: the old rule "scale to the column, at most 2×" — a 243-px portrait became
// 340 px wide and a 100×50 image 200×100, unlike any browser.

import QuireIngest

/// Resolves an image's box and drawn rectangle on the page.
struct ImageSizing: Sendable {
  /// Page px per CSS px (`fontSize / 16`).
  var cssPixel: Double
  /// The containing block's width, px (the limit, and the base of width percentages).
  var available: Double
  /// The page's text height, px (the limit, and the base of height percentages).
  var pageHeight: Double
  /// The chapter is vertical: sizes are asked and given in the logical frame
  /// (Vertical/VerticalPage.swift), where the image lies on its side — its physical width
  /// is the logical height. The image is sized upright (CSS `width` is its physical width)
  /// and fitted to the column's height (`available`), then turned back.
  var vertical = false
  /// `vertical-rl`: the logical y runs from the page's right edge to its left, so a
  /// physical `object-position` x (0 = left) is reversed on that axis.
  var rightToLeft = false

  /// The size of the image's box and where its content is drawn relative to the box's
  /// top-left corner. `natural` is the decoded size in image px, nil when unknown.
  struct Result: Equatable {
    var width: Double
    var height: Double
    /// The content's rectangle, relative to the box (equal to the box unless object-fit).
    var content: Rect
    /// True when `content` spills out of the box and must be clipped to it.
    var clipped: Bool {
      content.x < -0.01 || content.y < -0.01 || content.maxX > width + 0.01
        || content.maxY > height + 0.01
    }
  }

  func resolve(_ ref: ImageRef, natural: (width: Double, height: Double)?) -> Result {
    guard vertical else { return upright(ref, natural: natural) }
    var turned = ref
    (turned.width, turned.height) = (ref.height, ref.width)
    (turned.box.width, turned.box.height) = (ref.box.height, ref.box.width)
    (turned.box.minWidth, turned.box.minHeight) = (ref.box.minHeight, ref.box.minWidth)
    (turned.box.maxWidth, turned.box.maxHeight) = (ref.box.maxHeight, ref.box.maxWidth)
    // `object-position` is physical (CSS Images 3 §5.4): its y runs down the column (the
    // logical x); its x across the columns, the logical y, which `vertical-rl` reverses.
    (turned.box.objectPositionX, turned.box.objectPositionY) =
      (ref.box.objectPositionY, rightToLeft ? 1 - ref.box.objectPositionX : ref.box.objectPositionX)
    return upright(turned, natural: natural.map { ($0.height, $0.width) })
  }

  /// `resolve` in a frame whose axes are the image's own.
  private func upright(_ ref: ImageRef, natural: (width: Double, height: Double)?) -> Result {
    let box = ref.box
    let nat = natural.map { (width: $0.width * cssPixel, height: $0.height * cssPixel) }
    var w = length(box.width, base: available) ?? ref.width.map(attribute)
    var h = length(box.height, base: pageHeight) ?? ref.height.map(attribute)
    let both = w != nil && h != nil
    let ratio = aspectRatio(nat, ref)
    switch (w, h) {
    case (let fw?, nil): h = fw / ratio
    case (nil, let fh?): w = fh * ratio
    case (nil, nil):
      let fallback = nat ?? (available / 2, available / 2 / ratio)
      w = fallback.width
      h = fallback.height
    default: break
    }
    var size = (width: w ?? 1, height: h ?? 1)
    size = limited(size, box: box, keepRatio: !both, ratio: ratio)
    // Fit the page: one factor for both sides, never above 1.
    let s = min(1, available / max(size.width, 1e-9), pageHeight / max(size.height, 1e-9))
    size = (max(1, size.width * s), max(1, size.height * s))
    let content = fitted(nat.map { ($0.width * s, $0.height * s) }, in: size, box: box, both: both)
    return Result(width: size.width, height: size.height, content: content)
  }

  /// An attribute's number (CSS px) in page px.
  func attribute(_ v: Double) -> Double { bounded(v * cssPixel) }

  func length(_ l: Length?, base: Double) -> Double? {
    switch l {
    case .rem(let r)?: return bounded(r * 16 * cssPixel)
    case .percent(let p)?: return bounded(p / 100 * base)
    case nil: return nil
    }
  }

  private func bounded(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 100_000) : 0 }

  /// Width over height: the image's own, else the attributes', else square.
  private func aspectRatio(_ nat: (width: Double, height: Double)?, _ ref: ImageRef) -> Double {
    if let n = nat, n.width > 0, n.height > 0 { return n.width / n.height }
    if let aw = ref.width, let ah = ref.height, aw > 0, ah > 0 { return aw / ah }
    return 1
  }

  /// `min-`/`max-width` and `-height`: with one size given (or none) the ratio is kept.
  private func limited(
    _ size: (width: Double, height: Double), box: BoxStyle, keepRatio: Bool, ratio: Double
  ) -> (width: Double, height: Double) {
    var (w, h) = size
    let minW = length(box.minWidth, base: available) ?? 0
    let minH = length(box.minHeight, base: pageHeight) ?? 0
    let maxW = max(minW, length(box.maxWidth, base: available) ?? .infinity)
    let maxH = max(minH, length(box.maxHeight, base: pageHeight) ?? .infinity)
    if keepRatio {
      if w > maxW { (w, h) = (maxW, maxW / ratio) }
      if h > maxH { (w, h) = (maxH * ratio, maxH) }
      if w < minW { (w, h) = (minW, minW / ratio) }
      if h < minH { (w, h) = (minH * ratio, minH) }
    }
    return (min(max(w, minW), maxW), min(max(h, minH), maxH))
  }

  /// The content rectangle inside a box of `size` (object-fit and object-position).
  private func fitted(
    _ nat: (width: Double, height: Double)?, in size: (width: Double, height: Double),
    box: BoxStyle, both: Bool
  ) -> Rect {
    let whole = Rect(x: 0, y: 0, width: size.width, height: size.height)
    guard both, let nat, nat.width > 0, nat.height > 0 else { return whole }
    let contain = min(size.width / nat.width, size.height / nat.height)
    let scale: Double
    switch box.objectFit {
    case .fill: return whole
    case .contain: scale = contain
    case .cover: scale = max(size.width / nat.width, size.height / nat.height)
    case .none: scale = 1
    case .scaleDown: scale = min(1, contain)
    }
    let dw = nat.width * scale
    let dh = nat.height * scale
    return Rect(
      x: (size.width - dw) * box.objectPositionX, y: (size.height - dh) * box.objectPositionY,
      width: dw,
      height: dh)
  }
}
