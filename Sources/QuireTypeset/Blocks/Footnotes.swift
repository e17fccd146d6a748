// Footnotes in the flow (`LayoutOptions.footnotes`; Ingest marks the notes, see QuireIngest's
// Document/Note.swift).
//
//   inline  notes stay where the book put them (the behaviour before notes were known);
//   foot    a note referenced in its own chapter leaves the running text and is set at the
//           foot of the page that refers to it, smaller, below a short rule
//           (Pagination/FootnoteSplit.swift places it; a long note continues on the next
//           page's foot);
//   end     the same notes are gathered at the end of the chapter, after a short rule, in
//           the order of their first references.
//
// Width: a note keeps the content edges of the block it sat in (the body's margins, a
// section's padding), as its text would have had in place and as a browser sets it, so the
// notes line up with the running text's column. A note found inside a table cell, a float
// or an inline block gets the text area instead: a page-foot note as narrow as a cell would
// not be the page's notes area.
//
// Size: a note is set at 0.8 of its size unless the book already made it smaller (its first
// text is below 0.95 rem): then the book's CSS decides. Notes keep their Locations; their
// lines have the role `.note`, so the source-order invariant checks running text and notes
// each in their own order, and a page's start/end range covers its running text only.
// A note referenced only from another chapter (an endnotes file) stays where it is: moving
// it would make a chapter's layout depend on another's, which Typeset.swift rules out.

import QuireIngest

/// Where notes go; see the file comment.
package enum FootnoteMode: String, Sendable, Hashable, Codable, CaseIterable {
  case foot, end, inline
}

/// The notes a chapter moves out of its running text.
struct ChapterNotes {
  /// Note id → the first reference's location, for the notes this chapter moves.
  var references: [String: Location] = [:]
  /// The notes taken out of the flow, in document order. A reference shared by the copies
  /// of the flow (a table row's trial layout is one), so a note taken in a trial is not
  /// lost when the trial is kept, nor taken twice when the row is laid out again.
  final class Taken {
    var blocks: [Block] = []
    var ids: [String: Location] = [:]
    /// Note id → the left and right content edges of the block the note sat in (page px).
    var edges: [String: (left: Double, right: Double)] = [:]
  }
  var taken = Taken()
  var moved: [Block] { taken.blocks }
  /// Most notes a chapter moves; the rest stay inline.
  static let maxNotes = 20_000

  /// The chapter's notes that have a reference in it (none when `placement` is inline).
  init(_ chapter: Chapter, placement: FootnoteMode) {
    guard placement != .inline else { return }
    var ids = Set<String>()
    Self.noteIDs(chapter.blocks, into: &ids)
    guard !ids.isEmpty else { return }
    let prefix = chapter.href + "#"
    Self.references(chapter.blocks, prefix: prefix, ids: ids, into: &references)
  }

  init() {}

  /// `notes` sorted by their first reference (stable).
  func inReferenceOrder(_ notes: [Block]) -> [Block] {
    notes.enumerated().sorted {
      let a = references[$0.element.note?.id ?? ""] ?? $0.element.location
      let b = references[$1.element.note?.id ?? ""] ?? $1.element.location
      return a != b ? a < b : $0.offset < $1.offset
    }.map(\.element)
  }

  private static func noteIDs(_ blocks: [Block], into ids: inout Set<String>) {
    for b in blocks {
      if let m = b.note, !m.id.isEmpty {
        if ids.count < maxNotes { ids.insert(m.id) }
        continue  // a note inside a note stays with it
      }
      noteIDs(b.children, into: &ids)
    }
  }

  private static func references(
    _ blocks: [Block], prefix: String, ids: Set<String>, into refs: inout [String: Location]
  ) {
    for b in blocks {
      for case .text(let run) in b.inlines {
        guard let link = run.link, link.hasPrefix(prefix) else { continue }
        let id = String(link.dropFirst(prefix.count))
        if ids.contains(id), refs[id].map({ run.location < $0 }) ?? true {
          refs[id] = run.location
        }
      }
      references(b.children, prefix: prefix, ids: ids, into: &refs)
    }
  }
}

/// Notes laid out for the foot of the page: each note's entries and the main-flow entry that
/// refers to it, in reference order.
struct FootNotes {
  var entries: [[FlowEntry]] = []
  var anchors: [Int] = []
  var isEmpty: Bool { entries.isEmpty }
}

extension ChapterFlow {
  /// Takes `block` out of the flow when it is a note this chapter moves; true when taken.
  /// `left`/`right` are the content edges of the block it sits in.
  mutating func takeNote(_ block: Block, left: Double, right: Double) -> Bool {
    guard let m = block.note, footnotes.references[m.id] != nil else { return false }
    // A second element with the same id (bad markup) stays in the text.
    if let at = footnotes.taken.ids[m.id] { return at == block.location }
    footnotes.taken.ids[m.id] = block.location
    footnotes.taken.blocks.append(block)
    if tableNesting == 0, floatNesting == 0, inlineBoxNesting == 0, right > left {
      footnotes.taken.edges[m.id] = (left, right)
    }
    return true
  }

  /// Lays out the moved notes once the running text is done: appended after a rule for
  /// `end`, returned with their anchors for `foot`.
  mutating func finishNotes() -> FootNotes {
    guard !footnotes.moved.isEmpty else { return FootNotes() }
    let notes = footnotes.inReferenceOrder(footnotes.moved)
    let main = entries
    let saved = lastLocation
    let references = footnotes.references
    footnotes.references = [:]  // a note inside a note stays in it
    entries = []
    var laid: [[FlowEntry]] = []
    for note in notes { laid.append(layoutNote(note)) }
    entries = main
    lastLocation = saved
    footnotes.references = references
    if options.footnotes == .end {
      entries.append(noteRule(spaceBefore: options.fontSize * 1.5))
      for note in laid { entries += note }
      return FootNotes()
    }
    return FootNotes(entries: laid, anchors: anchors(of: notes))
  }

  /// One note's entries, smaller, with tight spacing and the `.note` role.
  mutating func layoutNote(_ note: Block) -> [FlowEntry] {
    pendingSpace = 0
    marginPos = 0
    marginNeg = 0
    pendingBreak = false
    pendingMarker = nil
    var block = note
    block.note = nil
    let first = Self.firstTextSize(block) ?? block.style.fontSize
    if first >= 0.95 { Self.scale(&block, by: 0.8) }
    let area = (left: options.margins.left, right: Double(options.width) - options.margins.right)
    let edges = note.note.flatMap { footnotes.taken.edges[$0.id] } ?? area
    layout(block, left: edges.left, right: edges.right, depth: 1)
    var out = entries
    entries = []
    let gap = options.fontSize * 0.25
    for i in out.indices {
      out[i].spaceBefore = i == 0 ? 0 : min(out[i].spaceBefore, gap)
      out[i].forcedBreakBefore = false
      for j in out[i].lines.indices { out[i].lines[j].role = .note }
      for j in out[i].blockBoxes.indices { out[i].blockBoxes[j].note = true }
    }
    return out
  }

  /// A short rule (a third of the text width) above the notes, as an entry.
  func noteRule(spaceBefore: Double) -> FlowEntry {
    let h = max(1, (options.fontSize / 16).rounded())
    let width = Double(options.width) - options.margins.left - options.margins.right
    let x = direction == .rtl ? options.margins.left + width * 2 / 3 : options.margins.left
    var e = FlowEntry(
      spaceBefore: spaceBefore, height: h + options.fontSize * 0.5, start: lastLocation,
      end: lastLocation)
    e.items = [.fill(Rect(x: x, y: 0, width: width / 3, height: h), .black)]
    return e
  }

  /// For each note (in `notes` order), the last main entry starting at or before its first
  /// reference.
  func anchors(of notes: [Block]) -> [Int] {
    var out: [Int] = []
    var k = 0
    for note in notes {
      let loc = footnotes.references[note.note?.id ?? ""] ?? note.location
      while k + 1 < entries.count && entries[k + 1].start <= loc { k += 1 }
      out.append(k)
    }
    return out
  }

  static func firstTextSize(_ b: Block, depth: Int = 0) -> Double? {
    for case .text(let run) in b.inlines { return run.style.fontSize }
    guard depth < 64 else { return nil }
    for c in b.children { if let s = firstTextSize(c, depth: depth + 1) { return s } }
    return nil
  }

  /// Scales a style's font size and its decorated inline boxes' (whose content areas
  /// follow their own font size, InlineBoxEdges.swift).
  static func scale(_ style: inout ComputedStyle, by factor: Double) {
    style.fontSize *= factor
    for k in style.text.inlineBoxes.indices { style.text.inlineBoxes[k].fontSize *= factor }
  }

  static func scale(_ b: inout Block, by factor: Double, depth: Int = 0) {
    b.style.fontSize *= factor
    for i in b.inlines.indices {
      switch b.inlines[i] {
      case .text(var run):
        scale(&run.style, by: factor)
        b.inlines[i] = .text(run)
      case .image(var img):
        img.style.fontSize *= factor
        b.inlines[i] = .image(img)
      case .math(var m):
        m.style.fontSize *= factor
        b.inlines[i] = .math(m)
      case .inlineBlock(var ib):
        ib.style.fontSize *= factor
        if depth < 64 { scale(&ib.block, by: factor, depth: depth + 1) }
        b.inlines[i] = .inlineBlock(ib)
      case .lineBreak: break
      }
    }
    guard depth < 64 else { return }
    for i in b.children.indices { scale(&b.children[i], by: factor, depth: depth + 1) }
  }
}

extension Chapter {
  /// The notes `placement` takes out of this chapter's running text, in the order their
  /// lines appear on the pages (first reference first): what the source-order invariants
  /// check note lines against.
  package func movedNotes(_ placement: FootnoteMode) -> [Block] {
    let notes = ChapterNotes(self, placement: placement)
    guard !notes.references.isEmpty else { return [] }
    var out: [Block] = []
    var seen = Set<String>()
    func walk(_ blocks: [Block]) {
      for b in blocks {
        if let m = b.note, notes.references[m.id] != nil, seen.insert(m.id).inserted {
          out.append(b)
        } else {
          walk(b.children)
        }
      }
    }
    walk(blocks)
    return notes.inReferenceOrder(out)
  }
}
