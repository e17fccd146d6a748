// A `ComputedStyle` resolved to pixels and a face, once per distinct style in a chapter.
//
// Automatic hyphenation (`autoHyphens`): the reader's `--hyphenate auto` hyphenates text
// whose `hyphens` is `manual` (the initial value: the publisher said nothing) or `auto`;
// `hyphens: none` always wins, and so does `--hyphenate off` (soft hyphens still break).
// The user-agent sheet gives `hyphens: none` to headings and to code (`pre`, `code`, `kbd`,
// `samp`, `tt`, `var`), so they are hyphenated only when the publisher's CSS says
// `hyphens: auto` on them. Text whose white space is preserved (`pre`, `pre-wrap`) or that
// must not wrap (`nowrap`) is never hyphenated, whatever `hyphens` says; addresses in
// running text (URLs, e-mail addresses, paths) are not either (`AddressSpans`).
//
// Letter spacing (CSS `letter-spacing`) is added after every grapheme cluster of a piece
// and to word spaces, except in cursive scripts (Arabic, Syriac, …), whose letters join;
// it turns optional ligatures off (CSS Text 3 §8.2) and replaces the engine's own
// letter-stretch glue. Word spacing adds to every word space's natural width, not to its
// stretch or shrink.

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
  /// Automatic hyphenation applies (see the file comment).
  var autoHyphens = false
  /// CSS letter and word spacing, px (0 for `normal`).
  var letterSpacing = 0.0
  var wordSpacing = 0.0
  /// Extra OpenType features for `ShapeStyle.features`, interned.
  var features = FeatureList.none
  var wordBreak = WordBreak.normal
  /// `text-autospace`: the ¼ em between CJK and Latin letters / digits.
  var autospace = Autospace.normal
  /// `line-break`: strict kinsoku or the normal set.
  var strictLineBreak = false
  /// `line-break: loose` (CJK/LooseLineBreak.swift).
  var looseLineBreak = false
  /// The primary face's decoration metrics, em.
  var decoration: DecorationMetrics
  /// `tab-size` in spaces.
  var tabSize = 8
  /// CSS `text-decoration-thickness` and `text-underline-offset`, px (nil: the font's).
  var decorationThickness: Double? = nil
  var underlineOffset: Double? = nil
  /// The decorated inline boxes the style's runs sit in, outermost first
  /// (InlineBoxEdges.swift).
  var inlineBoxes: [ResolvedInlineBox] = []
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
    if let i = recentStyles.index(of: style) { return i }
    if let i = styleIndex[style] {
      recentStyles.remember(style, i)
      return i
    }
    let resolved: ResolvedStyle
    if let known = styleMemo?.styles[style] {
      resolved = known
    } else {
      resolved = resolveNew(style)
      styleMemo?.remember(style, resolved)
    }
    styles.append(resolved)
    styleIndex[style] = styles.count - 1
    recentStyles.remember(style, styles.count - 1)
    if resolved.features == .unshared {
      // The process-wide table is full: this style keeps its list (FeatureList.swift).
      unsharedFeatures[styles.count - 1] = Self.features(
        resolved, face: fonts.faces[resolved.choice.face])
    }
    return styles.count - 1
  }

  /// `style` in pixels and faces, computed (what `resolve` adds for a style it has not met).
  mutating func resolveNew(_ style: ComputedStyle) -> ResolvedStyle {
    let choice = fonts.choose(style, publisherFonts: options.publisherStyles)
    let face = fonts.faces[choice.face]
    let size = min(min(max(style.fontSize, 0.2), 8) * options.fontSize, pageHeight / 2)
    var shift = 0.0
    switch style.verticalAlign {
    case .baseline: break
    // `vertical-align` moves the box, it does not resize the text (the user-agent sheet's
    // `font-size: smaller` on sup/sub does): by a third and a fifth of the parent's size
    // plus a CSS px, as browsers raise and lower them (the parent's size is taken as
    // `smaller`'s 1.2 × this one; styles are resolved without their parents).
    case .super: shift = size * 0.4 + options.fontSize / 16
    case .sub: shift = -(size * 0.24 + options.fontSize / 16)
    }
    var lh: Double
    switch style.lineHeight {
    case .normal: lh = options.lineHeight * size
    case .factor(let f): lh = f * size
    case .length(let l): lh = px(l, of: textWidth)
    }
    lh = min(max(lh, size * 0.5), size * 8, pageHeight)
    if let v = style.text.verticalShift {
      shift = textShift(v, size: size, lineHeight: lh, face: face)
    }
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
      ).advance / face.upem * size, decoration: face.decoration)
    var resolved = r
    refine(&resolved, face: face)
    return resolved
  }
}

extension ChapterFlow {
  /// The text properties of `TextStyle` in pixels and features (see the file comment).
  func refine(_ r: inout ResolvedStyle, face: Face) {
    let style = r.style
    let t = style.text
    let wraps = style.whiteSpace == .normal || style.whiteSpace == .preLine
    r.autoHyphens = options.hyphenate == .auto && style.hyphens != .none && wraps
    r.letterSpacing = t.letterSpacing.map { max(-r.size, min(r.size * 2, px($0, of: 0))) } ?? 0
    r.wordSpacing = t.wordSpacing.map { max(-r.size, min(r.size * 4, px($0, of: 0))) } ?? 0
    r.features = FeatureList(Self.features(r, face: face))
    r.wordBreak = t.wordBreak
    r.autospace = t.autospace
    r.strictLineBreak = t.lineBreak == .strict
    r.looseLineBreak = t.lineBreak == .loose
    r.tabSize = Int(max(0, min(64, t.tabSize.rounded())))
    r.decorationThickness = t.decorationThickness.map { px($0, of: 0) }
    r.underlineOffset = t.underlineOffset.map { px($0, of: 0) }
    r.inlineBoxes = resolveInlineBoxes(style, face: face)
  }

  /// The OpenType features `r` is shaped with beyond kern, liga and smcp (its letter
  /// spacing must be resolved).
  static func features(_ r: ResolvedStyle, face: Face) -> [UInt64] {
    let t = r.style.text
    var features = t.variantFeatures.map(Self.feature)
    if r.letterSpacing != 0 {
      features += ["liga", "clig", "dlig", "hlig"].map { Self.feature(FontFeature($0, 0)) }
    }
    if t.allSmallCaps && face.hasSmallCaps { features.append(Self.feature(FontFeature("c2sc"))) }
    features += t.featureSettings.map(Self.feature)
    return features
  }

  /// A feature as `ShapeStyle.features` holds it (`tag << 32 | value`).
  static func feature(_ f: FontFeature) -> UInt64 {
    var tag: UInt32 = 0
    for b in f.tag.utf8.prefix(4) { tag = tag << 8 | UInt32(b) }
    return UInt64(tag) << 32 | UInt64(f.value)
  }
}

/// The styles a layout worker has resolved, for the chapters it lays out next: a style is
/// resolved the same way in every chapter laid out with the same fonts, options and writing
/// mode (its face, sizes and features depend on nothing else), and most of a book's chapters
/// share their styles. Choosing the face, measuring the hyphen and refining the text
/// properties again in each chapter cost ~30 K instructions a style, 744 times on
/// moby-dick's 144 chapters (`resolve`: 40.3 → 25.7 M; Benchmarks/paginate-cost.md
/// "Session 17"). Indices stay the
/// chapter's own (`ChapterFlow.styles`); only the values are shared. A class: the flows of
/// a chapter's tables and inline blocks share it with their chapter without copying it.
final class StyleMemo: @unchecked Sendable {
  // @unchecked: used by one layout worker at a time (as `Typesetter.Worker`).
  /// What the styles were resolved with (the fonts held: compared by identity).
  let fonts: FontSet
  let options: LayoutOptions
  let vertical: Bool
  private(set) var styles: [ComputedStyle: ResolvedStyle] = [:]
  /// At most this many styles are kept (a hostile book's thousands of styles are resolved
  /// chapter by chapter, as before).
  static let capacity = 4096

  init(fonts: FontSet, options: LayoutOptions, vertical: Bool) {
    self.fonts = fonts
    self.options = options
    self.vertical = vertical
  }

  /// Whether the styles were resolved as a flow with these fonts, options and mode would.
  func matches(fonts: FontSet, options: LayoutOptions, vertical: Bool) -> Bool {
    self.fonts === fonts && self.options == options && self.vertical == vertical
  }

  func remember(_ style: ComputedStyle, _ resolved: ResolvedStyle) {
    if styles.count < Self.capacity { styles[style] = resolved }
  }
}

/// The styles `ChapterFlow.resolve` answered last, with their indices: a paragraph's block
/// style and its runs' styles are nearly always among them, and `==` on the same style is
/// cheap (equal arrays and strings share storage), where the dictionary hashes every field
/// of the style (~6 K instructions, 9 K times on moby-dick). The same index as the
/// dictionary's: it maps each distinct style (`==`) to one index.
struct RecentStyles {
  private var entries: [(style: ComputedStyle, index: Int)] = []
  private var next = 0
  static let capacity = 4

  func index(of style: ComputedStyle) -> Int? {
    for e in entries where e.style == style { return e.index }
    return nil
  }

  mutating func remember(_ style: ComputedStyle, _ index: Int) {
    if entries.count < Self.capacity {
      entries.append((style, index))
    } else {
      entries[next] = (style, index)
      next = (next + 1) % Self.capacity
    }
  }
}
