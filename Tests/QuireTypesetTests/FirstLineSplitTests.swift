// `FirstLine.applied` and `FirstLine.holdsMore` (Inline/FirstLine.swift) against the plain
// definitions they shortcut: every run's scalars counted, the cut walked to again.

import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

@Suite struct FirstLineSplitTests {
  /// A paragraph of plain, first-line-styled, generated and non-ASCII runs and a line break.
  func block() -> Block {
    var b = DocumentBuilder()
    var own = ComputedStyle()
    own.fontSize = 1
    var first = own
    first.fontSize = 1.25
    own.firstLine = .style(first)
    var inlines = [
      b.run("Call me Ishmael. ", own), b.run("Some years ago—", own), b.run("né", own),
      b.lineBreak(), b.run("plain", ComputedStyle()), b.run("ëa", own),
    ]
    // Generated text (a `::before`) at the offset of the run after it, counting no scalars.
    var marker = TextRun(text: "“", style: own, location: Location(spine: 0, offset: 32))
    marker.generated = true
    inlines.insert(.text(marker), at: 3)
    return b.block(.paragraph, own, inlines: inlines)
  }

  /// The definition `applied` shortcuts: each run's scalars counted, the cut walked to.
  func reference(_ block: Block, upTo end: Int) -> [(String, Double, Int)] {
    var out: [(String, Double, Int)] = []
    for inline in block.inlines {
      guard case .text(var run) = inline, let first = run.style.firstLine?.style else {
        if case .text(let run) = inline {
          out.append((run.text, run.style.fontSize, run.location.offset))
        }
        continue
      }
      run.style.firstLine = nil
      let start = run.location.offset
      let count = run.generated ? 0 : run.text.unicodeScalars.count
      if start >= end {
        out.append((run.text, run.style.fontSize, start))
      } else if start + count <= end {
        out.append((run.text, first.fontSize, start))
      } else {
        let s = run.text.unicodeScalars
        let cut = s.index(s.startIndex, offsetBy: end - start)
        out.append((String(s[..<cut]), first.fontSize, start))
        out.append((String(s[cut...]), run.style.fontSize, end))
      }
    }
    return out
  }

  @Test func appliedSplitsAsTheDefinition() {
    let block = block()
    let total = FirstLine.scalars(block)
    for end in [Int.min, -1, Int.max] + Array(0...(total + 3)) {
      let got = FirstLine.applied(block, upTo: end)
      #expect(!got.hasFirstLine)
      let runs: [(String, Double, Int, Bool)] = got.inlines.compactMap {
        guard case .text(let r) = $0 else { return nil }
        return (r.text, r.style.fontSize, r.location.offset, r.style.firstLine == nil)
      }
      let want = reference(block, upTo: end)
      #expect(runs.map(\.0) == want.map(\.0), "end \(end)")
      #expect(runs.map(\.1) == want.map(\.1), "end \(end)")
      #expect(runs.map(\.2) == want.map(\.2), "end \(end)")
      let plain = runs.allSatisfy { $0.3 }
      #expect(plain, "no first-line style left, end \(end)")
    }
  }

  @Test func holdsMoreCountsScalarsNotBytes() {
    let block = block()
    let total = FirstLine.scalars(block)
    for limit in [-1, 0, 1, total - 1, total, total + 1, 10 * total] {
      #expect(FirstLine.holdsMore(block, than: limit) == (total > limit), "limit \(limit)")
    }
  }
}
