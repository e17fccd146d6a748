// Annotations beside a line: ruby (CSS Ruby 1, JLREQ §3.3) and emphasis marks (CSS Text
// Decoration 3 §3, JLREQ 圏点). Both are drawn in the line's "over" side — above a
// horizontal line, right of a vertical one (in the logical frame of a vertical chapter,
// Vertical/VerticalPage.swift, that is the same "above") — or the under side when the
// style asks, and neither takes part in line breaking: the base is set as ordinary text,
// and the line's leading is the room the annotation uses (as in JLREQ, where ruby sits in
// the space between lines).
//
// Ruby: the annotation (`WritingStyle.rubyText`, attached by ingest's RubyMarkup) is set at
// half the base size, centred on the stretch of its base placed on this line; a second
// annotation (`rubyOtherText`, from an `<rtc>`) on the other side. A base shorter than its
// annotation was already widened by the shape stage (Inline/RubySpacing.swift), so the
// annotation overhangs only where JLREQ allows. When it is
// shorter than the base it is spread JLREQ's way (group ruby: the free space split 1:2:1,
// half a gap at either end and a whole one between characters, which is what letter
// spacing through `GlyphRunBuilder` gives); when it is longer it overhangs the neighbouring
// characters, evenly or leaning to the side that allows it (`Piece.rubyShift`). At a
// line's start or end the annotation is moved inside the measure (JLREQ §3.3.8: aligned
// with the line's edge), so ruby never protrudes past the line. Marks: one per character of the base that is
// not a space, punctuation or a control (CSS Text Decoration 3 §3.1), centred on the
// character, at half size. The annotation's em box touches the base's em box.
//
// Vertical text: the annotation is shaped upright when its first character stands upright
// (kana, sesame), else it is set sideways like other Latin. Costs: one shaping call per
// annotation or marked style run; nothing at all for lines without annotations.

import CHarfBuzz
import QuireCore
import QuireIngest

/// The ruby annotations and emphasis marks of one line, collected while it is placed.
struct LineAnnotations {
  private struct RubySpan {
    var style: Int
    var text: String
    var x0: Double
    var x1: Double
    /// The second annotation level (`<rtc>`), set on the other side.
    var other = false
    /// How far a longer annotation moves from centred (`Piece.rubyShift`), px.
    var shift = 0.0
  }
  private var ruby: [RubySpan] = []
  /// Centres of emphasised characters, by style.
  private var marks: [(style: Int, x: Double)] = []
  /// Nothing was collected.
  var isEmpty: Bool { ruby.isEmpty && marks.isEmpty }
  /// Emphasis marks one line may carry.
  static let maxMarks = 10_000

  /// Whether text of style `rs` carries an annotation (looked at once per style change).
  static func wants(_ rs: ResolvedStyle) -> Bool {
    let w = rs.style.text.writing
    return w.rubyText != nil || w.rubyOtherText != nil || w.emphasis != nil
  }

  /// Extends the last ruby span of the same base style and text, or starts one.
  private mutating func addRuby(
    _ text: String, other: Bool, style: Int, x0: Double, x1: Double, shift: Float
  ) {
    if let k = ruby.lastIndex(where: { $0.other == other }), ruby[k].style == style,
      ruby[k].text == text
    {
      ruby[k].x1 = x1
    } else {
      ruby.append(
        RubySpan(style: style, text: text, x0: x0, x1: x1, other: other, shift: Double(shift)))
    }
  }

  /// Records piece `piece` (of style `styleIndex`), placed from `x` with `extra` px of
  /// letter spacing; `text` is the paragraph's scalars.
  mutating func add(
    _ piece: Piece, style rs: ResolvedStyle, at x: Double, extra: Double, text: [UInt32],
    fonts: FontSet
  ) {
    let writing = rs.style.text.writing
    if let annotation = writing.rubyText {
      addRuby(
        annotation, other: false, style: piece.style, x0: x, x1: x + piece.width + extra,
        shift: piece.rubyShift)
    }
    if let annotation = writing.rubyOtherText {
      addRuby(
        annotation, other: true, style: piece.style, x0: x, x1: x + piece.width + extra,
        shift: piece.rubyShift)
    }
    guard writing.emphasis != nil, marks.count < Self.maxMarks else { return }
    let scale = piece.size / fonts.faces[piece.face].upem
    let advancing = piece.shaped.glyphs.reduce(0) { $0 + ($1.advance != 0 ? 1 : 0) }
    let gap = extra / Double(max(1, advancing))
    var pen = x + gap / 2
    var lastCluster = -1
    for g in piece.shaped.glyphs where g.advance != 0 {
      let w = Double(g.advance) * scale
      let k = piece.start + Int(g.cluster)
      if Int(g.cluster) != lastCluster, k < text.count, Self.takesMark(text[k]) {
        marks.append((piece.style, pen + w / 2))
      }
      lastCluster = Int(g.cluster)
      pen += w + gap
    }
  }

  /// Whether a character gets an emphasis mark: not a space, punctuation or a control.
  static func takesMark(_ v: UInt32) -> Bool {
    guard let s = Unicode.Scalar(v) else { return false }
    switch s.properties.generalCategory {
    case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format,
      .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
      .initialPunctuation, .finalPunctuation, .otherPunctuation:
      return false
    default: return true
    }
  }

  /// Glyph runs for the collected annotations, around `baseline`; ruby stays within
  /// `edges`, the line's extent (JLREQ §3.3.8: at a line's start or end the annotation is
  /// aligned with the line's edge, never past it).
  func runs(
    baseline: Double, edges: (lo: Double, hi: Double), styles: [ResolvedStyle], fonts: FontSet,
    shaper: inout Shaper
  ) -> [GlyphRun] {
    var out: [GlyphRun] = []
    for span in ruby {
      let rs = styles[span.style]
      let scalars = Array(span.text.unicodeScalars.map(\.value))
      guard let first = scalars.first else { continue }
      let position = rs.style.text.writing.rubyPosition
      let side = span.other ? (position == .over ? .under : .over) : position
      let mark = Annotation(rs: rs, fonts: fonts, baseline: baseline, first: first, side: side)
      let shaped = shaper.shape(mark.key(scalars))
      let width = shaped.advance * mark.scale
      let length = span.x1 - span.x0
      var start = width < length ? span.x0 : span.x0 - (width - length) / 2 + span.shift
      if width <= edges.hi - edges.lo { start = min(max(start, edges.lo), edges.hi - width) }
      var run = mark.emptyRun(color: rs.style.color)
      GlyphRunBuilder(scale: mark.scale, baseline: mark.baseline)
        .append(shaped, at: start, extra: max(0, length - width), to: &run)
      out.append(run)
    }
    var k = 0
    while k < marks.count {
      let style = marks[k].style
      let rs = styles[style]
      guard let emphasis = rs.style.text.writing.emphasis else { break }
      let vertical = rs.style.text.writing.mode.isVertical
      let glyph = Self.markScalar(emphasis, vertical: vertical)
      let mark = Annotation(
        rs: rs, fonts: fonts, baseline: baseline, first: glyph,
        side: vertical ? emphasis.verticalSide : emphasis.side)
      let shaped = shaper.shape(mark.key([glyph]))
      let half = shaped.advance * mark.scale / 2
      var run = mark.emptyRun(color: emphasis.color ?? rs.style.color)
      let builder = GlyphRunBuilder(scale: mark.scale, baseline: mark.baseline)
      while k < marks.count, marks[k].style == style {
        builder.append(shaped, at: marks[k].x - half, to: &run)
        k += 1
      }
      out.append(run)
    }
    return out
  }

  /// The character an emphasis style draws (CSS Text Decoration 3 §3.1's table).
  static func markScalar(_ e: EmphasisMark, vertical: Bool) -> UInt32 {
    if e.isString { return e.shape.unicodeScalars.first?.value ?? 0x25CF }
    let shape = e.shape.isEmpty ? (vertical ? "sesame" : "circle") : e.shape
    switch shape {
    case "dot": return e.open ? 0x25E6 : 0x2022
    case "double-circle": return e.open ? 0x25CE : 0x25C9
    case "triangle": return e.open ? 0x25B3 : 0x25B2
    case "sesame": return e.open ? 0xFE46 : 0xFE45
    default: return e.open ? 0x25CB : 0x25CF
    }
  }
}

/// Where and how one annotation of a base style is set: half size, its em box against the
/// base's on `side`.
struct Annotation {
  let face: Int
  let size: Double
  let scale: Double
  let baseline: Double
  let form: VerticalForm
  let script: hb_script_t

  init(
    rs: ResolvedStyle, fonts: FontSet, baseline line: Double, first: UInt32, side: AnnotationSide
  ) {
    script = Scripts.script(first)
    face = fonts.face(for: first, choice: rs.choice, script: script) ?? rs.choice.face
    size = rs.size / 2
    scale = size / fonts.faces[face].upem
    let vertical = rs.style.text.writing.mode.isVertical
    form = vertical && VerticalOrientation.isUpright(first) ? .upright : .none
    let baseFace = fonts.faces[rs.choice.face]
    let baseCentre =
      line - rs.shift - VerticalShaping.emBox(baseFace).centre * rs.size / baseFace.upem
    let offset = (rs.size + size) / 2
    let centre = side == .over ? baseCentre - offset : baseCentre + offset
    baseline = centre + VerticalShaping.emBox(fonts.faces[face]).centre * scale
  }

  func key(_ scalars: [UInt32]) -> ShapeKey {
    var key = ShapeKey(
      text: scalars, face: face, smallCaps: false, rtl: false, script: script.rawValue,
      language: "")
    key.style.vertical = form
    return key
  }

  func emptyRun(color: RGBA) -> GlyphRun {
    var run = GlyphRun(font: face, size: size, color: color, glyphs: [], x: [], y: [])
    if form != .none { run.orientation = .upright }
    return run
  }
}
