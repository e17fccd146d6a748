// The paginator's half of `--footnotes foot`: the body entries and the notes' entries are
// split together (PageSplitter's footnote split, Pagination/FootnoteSplit.swift), then each
// page's foot is stacked upwards from the bottom of the text area: a short rule, then the
// note lines, the last one ending at the text area's bottom. Note entries do not widen a
// page's start/end range (that covers the running text; Blocks/Footnotes.swift).

import QuireIngest

/// Where the note lines of a chapter go: one spot per note entry (notes flattened in
/// reference order) and the rule above each page's foot.
struct FootPlacement {
  var spots: [(page: Int, y: Double)] = []
  var rules: [(page: Int, y: Double)] = []
}

extension Paginator {
  /// Height of the rule and its spacing above a page's first note line.
  var footSeparator: Double { options.fontSize * 0.8 }

  /// Places the body entries (as `place(_:)` does) and the notes at the pages' feet.
  func place(_ entries: [FlowEntry], notes: FootNotes) -> (
    [(page: Int, y: Double)], FootPlacement
  ) {
    let height = pageHeight
    let lead = lead(entries)
    let lines = splitLines(entries)
    var noteLines: [SplitLine] = []
    var anchors: [Int] = []
    let gap = options.fontSize * 0.25
    for (k, note) in notes.entries.enumerated() where k < notes.anchors.count {
      for (j, e) in note.enumerated() {
        let next = j + 1 < note.count ? note[j + 1].spaceBefore : gap
        noteLines.append(SplitLine(height: e.height, advance: e.height + next, block: k))
        anchors.append(notes.anchors[k])
      }
    }
    let cut = PageSplitter(orphans: 2, widows: 2, keepWithNextLines: 2).split(
      lines, notes: noteLines, anchors: anchors, separator: footSeparator
    ) { k in k == 0 ? height - lead : height }
    var spots: [(page: Int, y: Double)] = []
    spots.reserveCapacity(entries.count)
    var foot = FootPlacement()
    for (p, page) in cut.enumerated() {
      var y = p == 0 ? lead : 0
      for i in page.body {
        spots.append((p, y))
        y += lines[i].advance
      }
      guard let last = page.foot.last else { continue }
      let notesHeight = page.foot.dropLast().reduce(0) { $0 + noteLines[$1].advance }
      var fy = height - footSeparator - notesHeight - noteLines[last].height
      foot.rules.append((p, fy + options.fontSize * 0.3))
      fy += footSeparator
      for i in page.foot {
        foot.spots.append((p, fy))
        fy += noteLines[i].advance
      }
    }
    return (spots, foot)
  }

  /// `parts` moved `dy` down the page (each one's `rect`).
  static func lowered<Part>(_ parts: [Part], by dy: Double, _ rect: WritableKeyPath<Part, Rect>)
    -> [Part]
  {
    parts.map {
      var part = $0
      part[keyPath: rect].y += dy
      return part
    }
  }

  /// Moves the note entries onto their pages and draws each foot's rule, which starts
  /// where the page's notes do (their column: Blocks/Footnotes.swift).
  func addFeet(_ pages: inout [Page], foot: FootPlacement, notes: [[FlowEntry]]) {
    guard !foot.spots.isEmpty else { return }
    let top = options.margins.top
    var noteLeft: [Int: Double] = [:]
    var k = 0
    for note in notes {
      for e in note where k < foot.spots.count {
        let spot = foot.spots[k]
        k += 1
        guard pages.indices.contains(spot.page) else { continue }
        let dy = top + spot.y
        // The notes' content edge, not their lines' (a first-line indent moves those).
        for x in e.blockBoxes.map(\.rect.x) {
          noteLeft[spot.page] = min(noteLeft[spot.page] ?? x, x)
        }
        pages[spot.page].items += e.items.map { $0.offset(dy: dy) }
        pages[spot.page].lines += Self.lowered(e.lines, by: dy, \.rect)
        pages[spot.page].images += Self.lowered(e.images, by: dy, \.rect)
        pages[spot.page].math += Self.lowered(e.maths, by: dy, \.rect)
        // A note's inline boxes (links, spans with edges) are reported like the body's.
        pages[spot.page].inlineBoxes += Self.lowered(e.inlineBoxes, by: dy, \.rect)
      }
    }
    let width = Double(options.width) - options.margins.left - options.margins.right
    let thickness = max(1, (options.fontSize / 16).rounded())
    let lastX = Double(options.width) - options.margins.right - width / 3
    for r in foot.rules where pages.indices.contains(r.page) {
      let x = min(max(options.margins.left, noteLeft[r.page] ?? 0), lastX)
      pages[r.page].items.append(
        .fill(Rect(x: x, y: top + r.y, width: width / 3, height: thickness), .black))
    }
  }
}
