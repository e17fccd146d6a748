// Resuming the shape stage from another walk's items (`::first-line`, FirstLine.swift).
//
// The first-line search shapes one paragraph head several times; from pass to pass only the
// style of the text before the first line's end changes, and the text after it — most of
// the head — is collected, itemized and shaped alike every time. The first pass records
// its walk (`ShapeResume`): its items before the emergency breaks of wide runs (a pass over
// the whole paragraph, run again on the result), and at each word start after a word space
// with nothing open (no piece, no decorated inline box) how many items and pieces were
// out and the script a script-neutral word takes. A later walk over text whose scalars,
// styles, faces, scripts, levels and break opportunities agree with the recorded one's from
// scalar `from` on stops at the first such word start at or after `from` where it stands as
// the recorded walk stood, and takes the recorded items from there: each step of the walk
// reads the text at and after its own scalar only (a space reads the scalar before it, a
// word start's is a space), and everything else it keeps is a cache of the style.
//
// Rejected: caching shaped pieces by source offset across passes (a piece's items depend on
// what is before it — letter-spacing glue, a collapsed space — and every pass would still
// walk the whole head).

import CHarfBuzz

/// A recorded walk of the shape stage, or one to take items from (see above).
struct ShapeResume {
  /// A word start after a word space with nothing open: the items and pieces out before it.
  struct Point {
    var index: Int
    var items: Int
    var pieces: Int
    var runScript: hb_script_t
  }

  /// Recording (the first walk) or resuming (the walks after it).
  var recording: Bool
  var points: [Point] = []
  /// The recorded walk's output, before the emergency breaks of wide runs.
  var out = ShapedParagraph()
  /// The first scalar from which the resuming walk's input agrees with the recorded one's.
  var from = Int.max
  /// The first point not yet passed.
  var cursor = 0
  /// The walk took the recorded items.
  var resumed = false
}

extension PieceShaper {
  /// At scalar `i` with no piece open: records a resume point there, or takes the recorded
  /// walk's items from it when this walk stands there as the recorded one stood. True when
  /// the walk is done.
  mutating func watch(_ i: Int) -> Bool {
    guard resume != nil, i > 0, text[i - 1] == 0x20, text[i] != 0x20,
      openBoxes.open.isEmpty, openBoxes.cloneLeft == 0, openBoxes.cloneRight == 0,
      case .space? = out.sources.last, case .glue? = out.items.last
    else { return false }
    if resume!.recording {
      resume!.points.append(
        .init(index: i, items: out.items.count, pieces: out.pieces.count, runScript: runScript))
      return false
    }
    guard var r = resume.take() else { return false }
    defer { resume = r }
    while r.cursor < r.points.count, r.points[r.cursor].index < i { r.cursor += 1 }
    guard r.cursor < r.points.count, r.points[r.cursor].index == i,
      r.points[r.cursor].runScript == runScript
    else { return false }
    let point = r.points[r.cursor]
    let shift = out.pieces.count - point.pieces
    out.pieces += r.out.pieces[point.pieces...]
    out.items += r.out.items[point.items...]
    for source in r.out.sources[point.items...] {
      switch source {
      case .piece(let p): out.sources.append(.piece(p + shift))
      case .letter(let p): out.sources.append(.letter(p + shift))
      default: out.sources.append(source)
      }
    }
    r.resumed = true
    return true
  }
}
