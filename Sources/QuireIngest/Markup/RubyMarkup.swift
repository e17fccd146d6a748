// Ruby (HTML `<ruby>`, `<rb>`, `<rt>`, `<rp>`, `<rtc>`; CSS Ruby 1): annotations are never
// running text. While the tree is walked, each element inside a `<ruby>` is marked in its
// style (`WritingStyle.ruby`): base text (the ruby's own text and `<rb>`) or annotation
// (`<rt>`, `<rtc>`), with the ruby element's node index as the group; `<rp>` (the
// parentheses for readers without ruby) is dropped like `display: none`. When a block's
// inlines are final, `attach` moves each annotation onto the base runs before it in the
// same ruby (since that ruby's previous annotation) as `WritingStyle.rubyText`, and
// removes the annotation runs: the typesetter sets the base as ordinary text and draws the
// annotation beside it (Typeset Inline/LineAnnotations.swift).
//
// Locations: annotation characters keep their offsets in the chapter (they are source
// text), so the running text's offsets skip them, as they skip a moved note.
// Bounds: one pass over the inlines; annotations are capped at `maxAnnotation` scalars.

import Foundation

enum RubyMarkup {
  static let maxAnnotation = 256

  /// The ruby part an element starts, nil when it starts none.
  static func part(_ name: String, node: Int, inherited: RubyPart) -> RubyPart? {
    switch (name, inherited) {
    case ("ruby", _): return .base(group: node)
    case ("rb", .base(let g)), ("rb", .annotation(let g)): return .base(group: g)
    case ("rt", .base(let g)), ("rt", .annotation(let g)): return .annotation(group: g)
    case ("rtc", .base(let g)), ("rtc", .annotation(let g)): return .annotation(group: g)
    default: return nil
    }
  }

  /// Whether the element is dropped: `<rp>` inside a ruby.
  static func hides(_ name: String, inherited: RubyPart) -> Bool {
    name == "rp" && inherited != .none
  }

  /// Moves annotation runs onto their bases (see the essay).
  static func attach(_ inlines: inout [Inline]) {
    guard inlines.contains(where: { $0.rubyPart != .none }) else { return }
    var out: [Inline] = []
    out.reserveCapacity(inlines.count)
    // Indices in `out` of the base runs waiting for their annotation, and its group.
    var waiting: [Int] = []
    var group = -1
    var annotation = ""
    func flush() {
      guard !waiting.isEmpty, !annotation.isEmpty else { return }
      for k in waiting {
        guard case .text(var run) = out[k] else { continue }
        run.style.text.writing.rubyText = annotation
        out[k] = .text(run)
      }
      waiting = []
      annotation = ""
    }
    for inline in inlines {
      switch inline.rubyPart {
      case .annotation(let g):
        if g != group { waiting = [] }
        group = g
        if case .text(let run) = inline, annotation.unicodeScalars.count < maxAnnotation {
          annotation += String(
            String.UnicodeScalarView(run.text.unicodeScalars.prefix(maxAnnotation)))
        }
      case .base(let g):
        flush()
        if g != group { waiting = [] }
        group = g
        if case .text = inline { waiting.append(out.count) }
        out.append(inline)
      case .none:
        flush()
        waiting = []
        out.append(inline)
      }
    }
    flush()
    inlines = out
  }
}

extension Inline {
  fileprivate var rubyPart: RubyPart {
    if case .text(let run) = self { return run.style.text.writing.ruby }
    return .none
  }
}
