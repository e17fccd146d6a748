// Compose, the placing half: a line's items in visual order → glyph runs, decoration fills,
// images, and the inserted hyphen. Pieces of one face, size, colour and synthetic style that
// follow each other join one glyph run.

import CHarfBuzz
import QuireCore
import QuireIngest

extension LineComposer {
  /// Places the items of `order` (visual order) from `line.start`, filling `line`'s runs,
  /// fills, images, source range and end pen.
  func place(_ order: [Int], ratio: Double, into line: inout ComposedLine, shaper: inout Shaper) {
    var x = line.start
    let baseline = line.baseline
    var rsIndex = blockStyle
    var rs = styles[blockStyle]
    let letters = LetterExtras(order, items: items, sources: sources, ratio: ratio)
    for k in order {
      switch (items[k], sources[k]) {
      case (.box, .piece(let p)):
        let piece = pieces[p]
        // `styles[i]` copies (and retains) the whole computed style: once per style run.
        if piece.style != rsIndex {
          rsIndex = piece.style
          rs = styles[piece.style]
        }
        let extra = letters[p]
        if var img = piece.image {
          img.rect.x = x
          img.rect.y = baseline - img.rect.height
          line.images.append(img)
        } else {
          placeGlyphs(piece, style: rs, at: x, extra: extra, into: &line)
        }
        line.firstSource = min(line.firstSource, src[piece.start])
        line.lastSource = max(line.lastSource, src[piece.end - 1])
        x += piece.width + extra
      case (.glue, .letter): break  // spread over its piece's glyphs
      case (.glue(let w, let st, let sh), _):
        x += adjusted(w, st, sh, ratio)
      case (.penalty(let w, _, _), .soft(_, let si)):
        // The inserted hyphen: drawn, not part of the line's text.
        let rs = styles[si]
        let hy = shaper.shape(
          ShapeKey(
            text: [0x2D], face: rs.choice.face, smallCaps: false, rtl: false,
            script: HB_SCRIPT_LATIN.rawValue, language: ""))
        if let g = hy.glyphs.first {
          let builder = GlyphRunBuilder(
            scale: rs.size / fonts.faces[rs.choice.face].upem, baseline: baseline - rs.shift)
          line.runs.append(
            builder.run(
              ShapedText(glyphs: [g], advance: 0), face: rs.choice, size: rs.size,
              color: rs.style.color, at: x))
        }
        x += w
      default: break
      }
    }
    line.end = x
  }

  /// One text piece's glyphs (joining the line's last run when they can) and its
  /// underline or strike-through.
  @inline(__always)
  func placeGlyphs(
    _ piece: Piece, style rs: ResolvedStyle, at x: Double, extra: Double,
    into line: inout ComposedLine
  ) {
    let face = fonts.faces[piece.face]
    let choice =
      piece.face == rs.choice.face
      ? rs.choice
      : FaceChoice(
        face: piece.face, syntheticBold: rs.style.fontWeight >= 600 && face.weight < 600,
        syntheticItalic: rs.style.italic && !face.italic)
    let joins =
      line.runs.last.map {
        $0.font == piece.face && $0.size == piece.size && $0.color == rs.style.color
          && $0.syntheticBold == choice.syntheticBold
          && $0.syntheticItalic == choice.syntheticItalic
      } ?? false
    if !joins {
      line.runs.append(
        GlyphRun(
          font: piece.face, size: piece.size, color: rs.style.color, glyphs: [], x: [], y: [],
          syntheticBold: choice.syntheticBold, syntheticItalic: choice.syntheticItalic))
    }
    // The run is moved out while its glyphs are appended (and back after), so each
    // append touches one uniquely held array instead of going through `runs[r]`.
    var run = line.runs.removeLast()
    GlyphRunBuilder(scale: piece.size / face.upem, baseline: line.baseline - rs.shift)
      .append(piece.shaped, at: x, extra: extra, to: &run)
    line.runs.append(run)
    let thick = max(1, piece.size / 16)
    let baseline = line.baseline
    if rs.style.underline {
      line.fills.append(
        .fill(
          Rect(
            x: x, y: baseline - rs.shift + piece.size * 0.12, width: piece.width + extra,
            height: thick), rs.style.color))
    }
    if rs.style.lineThrough {
      line.fills.append(
        .fill(
          Rect(
            x: x, y: baseline - rs.shift - piece.size * 0.3, width: piece.width + extra,
            height: thick), rs.style.color))
    }
  }
}

/// Letter-spacing glue's width, by piece, spread over that piece's glyphs. A line's pieces
/// are a contiguous run of piece indices, so a flat array over that span replaces a per-line
/// dictionary (its hashing and growth were a few % of layout).
struct LetterExtras {
  private var low = Int.max
  private var high = Int.min
  private var extras: [Double] = []

  init(_ order: [Int], items: [BreakItem], sources: [ItemSource], ratio: Double) {
    for k in order {
      if case .letter(let p) = sources[k] {
        low = min(low, p)
        high = max(high, p)
      }
    }
    guard low <= high else { return }
    extras = Array(repeating: 0, count: high - low + 1)
    for k in order {
      if case .letter(let p) = sources[k], case .glue(let w, let st, let sh) = items[k] {
        extras[p - low] = adjusted(w, st, sh, ratio)
      }
    }
  }

  /// The extra width of piece `p` (0 without letter spacing).
  @inline(__always) subscript(_ p: Int) -> Double {
    p >= low && p <= high ? extras[p - low] : 0
  }
}
