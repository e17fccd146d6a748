// Ruby (HTML `<ruby>`, `<rb>`, `<rt>`, `<rp>`, `<rtc>`; CSS Ruby 1): annotations are never
// running text. While the tree is walked, each element inside a `<ruby>` is marked in its
// style (`WritingStyle.ruby`): base text (the ruby's own text and `<rb>`) or annotation
// (`<rt>`, `<rtc>`), with the ruby element's node index as the group, the `<rb>`/`<rt>`
// element's node index as the segment, and the annotation level (0 for `<rt>`, 1 inside an
// `<rtc>`); `<rp>` (the parentheses for readers without ruby) is dropped like
// `display: none`. When a block's inlines are final, `attach` moves each annotation onto the
// base runs before it in the same ruby (since that ruby's previous annotation) and removes
// the annotation runs: the typesetter sets the base as ordinary text and draws the
// annotation beside it (Typeset Inline/LineAnnotations.swift).
//
// Pairing (CSS Ruby 1 §2.3): when the bases are n `<rb>` elements and each level has n
// `<rt>` segments, the i-th annotation goes to the i-th base (jukugo ruby: one reading per
// character, `<ruby><rb>漢</rb><rb>字</rb><rt>かん</rt><rt>じ</rt></ruby>`); otherwise each
// level's text spans all the bases (group ruby) and the bases are made one segment. Level 0
// becomes `WritingStyle.rubyText` (the `ruby-position` side); level 1, an `<rtc>` after the
// first annotations, becomes `rubyOtherText`, set on the other side (CSS Ruby 1 §3.1,
// `alternate`). A ruby whose only annotations are in an `<rtc>` has them as level 0.
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
    case ("ruby", _): return .base(group: node, segment: -1)
    case ("rb", .base(let g, _)), ("rb", .annotation(let g, _, _)):
      return .base(group: g, segment: node)
    case ("rt", .base(let g, _)): return .annotation(group: g, level: 0, segment: node)
    case ("rt", .annotation(let g, let level, _)):
      return .annotation(group: g, level: level, segment: node)
    case ("rtc", .base(let g, _)), ("rtc", .annotation(let g, _, _)):
      return .annotation(group: g, level: 1, segment: node)
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
    var pending = PendingRuby()
    for inline in inlines {
      switch inline.rubyPart {
      case .annotation(let g, let level, let segment):
        if g != pending.group { pending.bases = [] }
        pending.group = g
        if case .text(let run) = inline { pending.add(run.text, level: level, segment: segment) }
      case .base(let g, _):
        pending.flush(&out)
        if g != pending.group { pending.bases = [] }
        pending.group = g
        if case .text = inline { pending.bases.append(out.count) }
        out.append(inline)
      case .none:
        pending.flush(&out)
        pending.bases = []
        out.append(inline)
      }
    }
    pending.flush(&out)
    inlines = out
  }
}

/// The base runs of one ruby waiting for their annotations, and the annotations so far.
private struct PendingRuby {
  /// Indices (in the output) of the base runs.
  var bases: [Int] = []
  var group = -1
  /// Per level: the annotation segments in order, each with its text.
  var levels: [[(segment: Int, text: String)]] = [[], []]
  var scalars = 0

  mutating func add(_ text: String, level: Int, segment: Int) {
    let level = min(max(level, 0), 1)
    let room = RubyMarkup.maxAnnotation - scalars
    guard room > 0 else { return }
    let kept = String(String.UnicodeScalarView(text.unicodeScalars.prefix(room)))
    scalars += kept.unicodeScalars.count
    if let last = levels[level].last, last.segment == segment {
      levels[level][levels[level].count - 1].text += kept
    } else {
      levels[level].append((segment, kept))
    }
  }

  /// Gives the waiting bases their annotations (paired or spanning) and starts afresh.
  mutating func flush(_ out: inout [Inline]) {
    defer {
      levels = [[], []]
      scalars = 0
    }
    if levels[0].isEmpty { levels.swapAt(0, 1) }
    guard !bases.isEmpty, !levels[0].isEmpty else { return }
    var segments: [Int] = []
    for k in bases {
      guard case .text(let run) = out[k], case .base(_, let s) = run.style.text.writing.ruby
      else { continue }
      if s >= 0 && segments.last != s { segments.append(s) }
    }
    let paired =
      segments.count >= 2 && levels[0].count == segments.count
      && (levels[1].isEmpty || levels[1].count == segments.count)
    for k in bases {
      guard case .text(var run) = out[k], case .base(let g, let s) = run.style.text.writing.ruby
      else { continue }
      let index = paired ? segments.firstIndex(of: s) : nil
      if !paired { run.style.text.writing.ruby = .base(group: g, segment: -1) }
      run.style.text.writing.rubyText = text(level: 0, index: index)
      run.style.text.writing.rubyOtherText = text(level: 1, index: index)
      out[k] = .text(run)
    }
    bases = []
  }

  /// A level's annotation for base `index` (paired with as many segments), else all of it.
  func text(level: Int, index: Int?) -> String? {
    let parts = levels[level]
    guard !parts.isEmpty else { return nil }
    if let index, parts.count > 1 {
      return index < parts.count && !parts[index].text.isEmpty ? parts[index].text : nil
    }
    let whole = parts.map(\.text).joined()
    return whole.isEmpty ? nil : whole
  }
}

extension Inline {
  fileprivate var rubyPart: RubyPart {
    if case .text(let run) = self { return run.style.text.writing.ruby }
    return .none
  }
}
