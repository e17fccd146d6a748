// One enormous paragraph (a 20 MB `<p>`) laid out in parts, so inline layout holds the
// arrays of one part at a time, not of the whole paragraph: every stage keeps a few flat
// arrays per scalar (~400 bytes per word in all), which for 20 MB of text was gigabytes.
//
// A block whose inlines hold more than `InlineCaps.maxParagraphScalars` scalars is cut into
// consecutive blocks of at most that many, at a space near the limit when there is one
// (else at the limit: an emergency break in the middle of a word). Each part is laid out as
// a paragraph of its own; later parts have no text indent. What a reader sees: a short
// line every `maxParagraphScalars` characters (every ~60 pages). The fast path — every
// real paragraph — is one comparison of UTF-8 byte counts (bytes ≥ scalars).

import QuireIngest

enum ParagraphParts {
  /// Whether `block` is laid out whole: its inlines hold at most `limit` UTF-8 bytes
  /// (an object counts one).
  static func fits(_ block: Block, limit: Int) -> Bool {
    var bytes = 0
    for inline in block.inlines {
      if case .text(let run) = inline { bytes += run.text.utf8.count } else { bytes += 1 }
    }
    return bytes <= limit
  }

  /// `block` itself when it is small enough, else its parts in order.
  static func split(_ block: Block, limit: Int) -> [Block] {
    guard !fits(block, limit: limit) else { return [block] }
    var parts: [Block] = []
    var current: [Inline] = []
    var room = limit
    func close() {
      defer {
        current = []
        room = limit
      }
      guard !current.isEmpty else { return }
      var part = block
      part.inlines = current
      if !parts.isEmpty { part.style.textIndent = .zero }
      if case .text(let r) = current[0] { part.location = r.location }
      parts.append(part)
    }
    for inline in block.inlines {
      guard case .text(var run) = inline else {
        if room <= 0 { close() }
        current.append(inline)
        room -= 1
        continue
      }
      while true {
        let (head, tail) = cut(run, room: room)
        if let head {
          current.append(.text(head))
          room -= head.text.unicodeScalars.count
        }
        guard let tail else { break }
        close()
        run = tail
      }
    }
    close()
    return parts.isEmpty ? [block] : parts
  }

  /// `run` cut to fit `room` scalars: the part that fits (nil if none) and the rest (nil if
  /// it all fits). The cut follows the last space in the final tenth of the room, if any.
  static func cut(_ run: TextRun, room: Int) -> (TextRun?, TextRun?) {
    let scalars = run.text.unicodeScalars
    guard room > 0 else { return (nil, run) }
    guard let end = scalars.index(scalars.startIndex, offsetBy: room, limitedBy: scalars.endIndex),
      end < scalars.endIndex
    else { return (run, nil) }
    var at = end
    var count = room
    var probe = end
    var steps = 0
    while probe > scalars.startIndex && steps < room / 10 {
      let before = scalars.index(before: probe)
      if scalars[before] == " " {
        at = probe
        count = room - steps
        break
      }
      probe = before
      steps += 1
    }
    var head = run
    head.text = String(scalars[..<at])
    var tail = run
    tail.text = String(scalars[at...])
    tail.location.offset += run.generated ? 0 : count
    return (count > 0 ? head : nil, tail)
  }
}
