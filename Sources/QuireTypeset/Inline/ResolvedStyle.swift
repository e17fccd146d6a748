// A `ComputedStyle` resolved to pixels and a face, once per distinct style in a chapter.

import CHarfBuzz
import Foundation
import QuireIngest

struct ResolvedStyle {
  var style: ComputedStyle
  var choice: FaceChoice
  /// Font size in px (sup/sub already reduced).
  var size: Double
  /// Baseline shift in px, positive up.
  var shift: Double
  var lineHeight: Double
  /// Ascent/descent of the primary face with half-leading, px (the CSS strut).
  var above: Double
  var below: Double
  /// Small caps wanted but the face lacks `smcp`: uppercase scaled down instead.
  var fakeSmallCaps: Bool
  /// Small caps through the face's `smcp` feature.
  var smallCapsFeature: Bool
  var spaceWidth: Double
  /// Width of the hyphen shown at a hyphenated line end.
  var hyphenWidth: Double
}

extension ChapterFlow {
  func px(_ l: Length, of width: Double) -> Double {
    switch l {
    case .rem(let v): return bound(v * options.fontSize)
    case .percent(let p): return bound(p / 100 * width)
    }
  }

  private func bound(_ v: Double) -> Double {
    guard v.isFinite else { return 0 }
    return min(max(v, -10_000), 10_000)
  }

  mutating func resolve(_ style: ComputedStyle) -> Int {
    if let i = styleIndex[style] { return i }
    let choice = fonts.choose(style, publisherFonts: options.publisherStyles)
    let face = fonts.faces[choice.face]
    var size = min(min(max(style.fontSize, 0.2), 8) * options.fontSize, pageHeight / 2)
    var shift = 0.0
    switch style.verticalAlign {
    case .baseline: break
    case .super:
      shift = size * 0.35
      size *= 0.8
    case .sub:
      shift = -size * 0.2
      size *= 0.8
    }
    var lh: Double
    switch style.lineHeight {
    case .normal: lh = options.lineHeight * size
    case .factor(let f): lh = f * size
    case .length(let l): lh = px(l, of: textWidth)
    }
    lh = min(max(lh, size * 0.5), size * 8, pageHeight)
    let a = face.ascent * size
    let d = face.descent * size
    let half = (lh - (a + d)) / 2
    let r = ResolvedStyle(
      style: style, choice: choice, size: size, shift: shift, lineHeight: lh,
      above: a + half + shift,
      below: d + half - shift, fakeSmallCaps: style.smallCaps && !face.hasSmallCaps,
      smallCapsFeature: style.smallCaps && face.hasSmallCaps,
      spaceWidth: face.spaceAdvance / face.upem * size,
      hyphenWidth: shaper.shape(
        ShapeKey(
          text: [0x2D], face: choice.face, smallCaps: false, rtl: false,
          script: HB_SCRIPT_LATIN.rawValue, language: "")
      ).advance / face.upem * size)
    styles.append(r)
    styleIndex[style] = styles.count - 1
    return styles.count - 1
  }
}
