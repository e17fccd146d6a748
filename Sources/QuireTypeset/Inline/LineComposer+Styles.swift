// Compose, the styles half: what placing a line reads of a style — its glyph style, the
// decoration lines and background band it draws, whether it carries annotations or inline
// boxes — made once per style and line box and kept across the paragraph's lines.
//
// Why: `styles[i]` copies the whole resolved style (~700 bytes, a dozen references) and
// `place` read two per line (the block's style and the word spaces'), then derived the same
// decorations and band again; on moby-dick that was ~45 M instructions (copies, memcpy and
// destroys; Benchmarks/paginate-cost.md, session 17). The derived values depend on the
// style, on whether it is taken as set on the line (`lineStyle`: text aligned with the line
// box is shifted by its baseline and height) and on the baseline (decorations, bands), so
// the cache holds one line box's entries and starts afresh when the box changes.

import QuireCore
import QuireIngest

/// What placing a line reads of one style (`LineComposer.place`).
struct PlaceStyle {
  /// The style's number, and whether it is taken as resolved (`raw`: the block's style
  /// before a piece changes it) rather than as set on the line (`LineComposer.lineStyle`).
  var index: Int
  var raw: Bool
  var glyph: GlyphStyle
  /// Font size, px (an inserted hyphen's).
  var size: Double
  var decorations: [DecorationLine]
  var band: BackgroundBand?
  var annotated: Bool
  var inlineBoxes: [ResolvedInlineBox]
  /// Only glyphs: no decoration, background band, annotation or inline box to record.
  var plain: Bool
}

/// The place styles of one line box (baseline and height), kept across a paragraph's lines.
/// Entries are only appended while a line is placed (slots stay valid); a lookup scans the
/// last `window` entries, so it is bounded whatever the number of styles.
struct PlaceStyles {
  /// Entries scanned by a lookup, and kept from one line to the next.
  static let window = 32
  private(set) var entries: [PlaceStyle] = []
  private var baseline = Double.nan
  private var height = Double.nan

  /// Starts placing a line: the entries stay when its box is the same as the last line's
  /// (NaN never is) and they are not more than `window`.
  mutating func startLine(baseline: Double, height: Double) {
    if baseline != self.baseline || height != self.height || entries.count > Self.window {
      entries.removeAll(keepingCapacity: true)
      self.baseline = baseline
      self.height = height
    }
  }

  /// The slot of style `index` (`raw` or as set on the line), nil when not made yet.
  func find(_ index: Int, raw: Bool) -> Int? {
    var k = entries.count
    let stop = max(0, k - Self.window)
    while k > stop {
      k -= 1
      if entries[k].index == index && entries[k].raw == raw { return k }
    }
    return nil
  }

  /// Adds `style`, returning its slot.
  mutating func add(_ style: PlaceStyle) -> Int {
    entries.append(style)
    return entries.count - 1
  }
}

extension LineComposer {
  /// The slot in `cache` of style `i` on `line` (`raw`: as resolved), made when missing.
  @inline(__always)
  func slot(_ i: Int, raw: Bool, on line: ComposedLine, in cache: inout PlaceStyles) -> Int {
    if let k = cache.find(i, raw: raw) { return k }
    return cache.add(placeStyle(i, raw: raw, on: line))
  }

  /// What placing reads of style `i` on `line` (`raw`: the style as resolved, else as set on
  /// the line).
  func placeStyle(_ i: Int, raw: Bool, on line: ComposedLine) -> PlaceStyle {
    let rs = raw ? styles[i] : lineStyle(i, on: line)
    let face = fonts.faces[rs.choice.face]
    let decorations = LineDecorations.lines(rs, face: face, baseline: line.baseline)
    let band = BackgroundBand.of(rs, face: face, baseline: line.baseline)
    let annotated = LineAnnotations.wants(rs)
    return PlaceStyle(
      index: i, raw: raw, glyph: GlyphStyle(rs), size: rs.size, decorations: decorations,
      band: band, annotated: annotated, inlineBoxes: rs.inlineBoxes,
      plain: decorations.isEmpty && band == nil && !annotated && rs.inlineBoxes.isEmpty)
  }
}

/// The run a text piece's glyphs last went into, when it holds glyphs: a later piece with
/// the same style, face, size and form joins that run (`LineComposer.placeGlyphs`), so on a
/// page that is not drawn it adds nothing and `place` need not call `placeGlyphs`.
struct OpenRun: Equatable {
  var style: Int
  var face: Int
  var size: Double
  var form: VerticalForm
}
