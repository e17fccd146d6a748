import Foundation

/// The gutter shadow of an open book: where two pages meet at the spine the paper curves down
/// into the binding and catches less light, so both pages darken softly toward the spine (as
/// Apple Books draws its spreads).
///
/// Profile. A pixel whose centre lies d pixels from the spine is darkened by
/// α(d) = strength · (1 − d / reach)² for d < reach, where reach is `widthFraction` of that
/// page's width (at least one pixel): quadratic, so the darkness is concentrated at the fold
/// and the text block (inside the page's margin in any book) is barely touched. Both sides
/// use the same profile (symmetric about the spine; each side's reach follows its own width).
/// Colour channels are multiplied by 1 − α and rounded once; alpha is kept.
///
/// Where it applies. It is a property of a page's place in a spread, not of the page: the
/// pages of a spread are shaded before anything is drawn (`SpreadPages.withSpineShading`), so
/// a turning leaf carries its gutter shadow with it, the page revealed under it already has
/// its own, frame 0 is the shaded current spread and the last frame the shaded next spread —
/// the same pixels as the static spread images `quire render --spreads` writes, which are
/// shaded by the same function.
package enum SpineShading {
  /// Darkness right at the spine (0…1).
  package static let strength = 0.18
  /// How far the shadow reaches into each page, as a fraction of that page's width.
  package static let widthFraction = 0.05

  /// The darkening factor 1 − α for a pixel whose centre is `distance` px from the spine on a
  /// page `pageWidth` px wide.
  package static func factor(distance: Double, pageWidth: Int) -> Double {
    let reach = Swift.max(1, (widthFraction * Double(pageWidth)).rounded())
    guard distance < reach else { return 1 }
    let k = 1 - distance / reach
    return 1 - strength * k * k
  }

  /// Shades `image` (gray8 or RGBA8) in place about the spine at column `spine`: columns
  /// left of it belong to a page `leftWidth` wide, columns from it to a page `rightWidth` wide.
  package static func apply(
    to image: inout PixelBuffer, spine: Int, leftWidth: Int, rightWidth: Int
  ) {
    let channels = image.format.channels
    let colours = channels == 4 ? 3 : channels
    let w = image.width
    let h = image.height
    // One factor per affected column (at most a few % of the width on each side).
    var columns: [(x: Int, k: Double)] = []
    let reachL = Int(Swift.max(1, (widthFraction * Double(leftWidth)).rounded()))
    let reachR = Int(Swift.max(1, (widthFraction * Double(rightWidth)).rounded()))
    for x in Swift.max(0, spine - reachL)..<Swift.max(0, Swift.min(w, spine)) {
      columns.append((x, factor(distance: Double(spine - x) - 0.5, pageWidth: leftWidth)))
    }
    for x in Swift.max(0, spine)..<Swift.min(w, spine + reachR) {
      columns.append((x, factor(distance: Double(x - spine) + 0.5, pageWidth: rightWidth)))
    }
    image.pixels.withUnsafeMutableBufferPointer { px in
      for (x, k) in columns where k < 1 {
        for y in 0..<h {
          let o = (y * w + x) * channels
          for c in 0..<colours {
            px[o + c] = UInt8((Double(px[o + c]) * k).rounded())
          }
        }
      }
    }
  }

  /// A copy of `page` shaded as the left page of a spread (the spine at its right edge).
  package static func leftPage(_ page: PixelBuffer) -> PixelBuffer {
    var out = page
    apply(to: &out, spine: page.width, leftWidth: page.width, rightWidth: page.width)
    return out
  }

  /// A copy of `page` shaded as the right page of a spread (the spine at its left edge).
  package static func rightPage(_ page: PixelBuffer) -> PixelBuffer {
    var out = page
    apply(to: &out, spine: 0, leftWidth: page.width, rightWidth: page.width)
    return out
  }
}

extension SpreadPages {
  /// The four pages with the gutter shadow of their place in the spread (`SpineShading`):
  /// left pages toward their right edge, right pages toward their left edge.
  package func withSpineShading() -> SpreadPages {
    SpreadPages(
      leftCurrent: SpineShading.leftPage(leftCurrent),
      rightCurrent: SpineShading.rightPage(rightCurrent),
      leftNext: SpineShading.leftPage(leftNext),
      rightNext: SpineShading.rightPage(rightNext))
  }
}
