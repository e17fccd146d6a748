// Page splitting with footnotes at the foot of the page (`--footnotes foot`), the way
// crengine does it: a note is set at the foot of the page holding the line that refers to
// it, below a short rule; a note that does not fit there continues at the foot of the next
// page(s).
//
// Model. The body lines are the usual `SplitLine`s. The notes' lines form one second
// sequence, notes in the order of their references, each note's lines consecutive, and
// every note line names its anchor: the body line that refers to its note (anchors never
// decrease along the sequence). So each page's foot is a contiguous range of note lines,
// and the foot text of the chapter reads in order across pages.
//
// Per page: first the lines carried over from the previous page's foot (at most half the
// page while body lines remain, at least one line), then body lines are added greedily; a
// body line fits when it fits together with the lines its notes must bring along — a note
// of up to 3 lines whole, a longer one its first 2 lines, and every note line before them
// (a foot is contiguous) — unless older notes fill the foot so that not even their first
// line could join them: then they follow later. The running text has priority, as in TeX's
// insertions: a long
// note does not push the text off its page, it continues on the next. When a line does not
// fit, the page ends at the cheapest break as in `split` (breaking earlier only removes
// notes). The foot then takes every note line of the page's anchors that still fits. Every page takes at least one body or note line, so the
// loop ends; after the last body line, pages of notes only follow until all are placed.
//
// Cost: prefix sums over both sequences; the greedy scan and the foot scan move forward, so
// a chapter costs O(body + notes) plus the usual look-back of `pageEnd`.

/// One page of a chapter split with footnotes: its body lines and its foot's note lines.
package struct FootedPage: Sendable, Hashable {
  package var body: Range<Int>
  package var foot: Range<Int>
  package init(body: Range<Int>, foot: Range<Int>) {
    self.body = body
    self.foot = foot
  }
}

extension PageSplitter {
  /// Splits `lines` into pages whose feet hold `notes` (see the file comment). `anchors[k]`
  /// is the body line that refers to note line k (non-decreasing); `separator` is the
  /// height of the rule and its spacing above the first note line of a page.
  package func split(
    _ lines: [SplitLine], notes: [SplitLine], anchors: [Int], separator: Double,
    pageHeight: (Int) -> Double
  ) -> [FootedPage] {
    let n = lines.count
    let m = min(notes.count, anchors.count)
    guard m > 0 else {
      return split(lines, pageHeight: pageHeight).map { FootedPage(body: $0, foot: 0..<0) }
    }
    let costs = costs(lines)
    let top = Self.tops(lines)
    let noteTop = Self.tops(Array(notes.prefix(m)))
    let anchor = (0..<m).map { max(0, min(anchors[$0], n - 1)) }
    let sep = separator.isFinite ? max(0, separator) : 0
    let mustEnd = Self.mustEnds(Array(notes.prefix(m)))
    // Height of note lines a..<b on a foot (the last line counts its height only).
    func foot(_ a: Int, _ b: Int) -> Double {
      b <= a ? 0 : sep + noteTop[b - 1] - noteTop[a] + max(0, notes[b - 1].height)
    }
    var pages: [FootedPage] = []
    var s = 0
    var f = 0
    var older = 0  // the first note line anchored at or after s
    while s < n || f < m {
      let limit = pageHeight(pages.count) + 1e-9
      // Carried note lines: at least one, at most half the page while body lines remain.
      var carried = f
      while carried < m && (anchor[carried] < s || s >= n)
        && (carried == f || foot(f, carried + 1) <= (s < n ? limit / 2 : limit))
      {
        carried += 1
      }
      if s >= n {
        pages.append(FootedPage(body: s..<s, foot: f..<carried))
        f = carried
        continue
      }
      while older < m && anchor[older] < s { older += 1 }
      // Greedy body fill: g = end of the note lines anchored before line e, req = end of
      // the note lines that must go on this page with them.
      var e = s
      var g = carried
      var req = carried
      while e < n && (e == s || costs[e] != Cost.always) {
        var h = g
        while h < m && anchor[h] <= e { h += 1 }
        let body = top[e] + max(0, lines[e].height) - top[s]
        // New notes must come along unless older notes ahead of them (a long one carried
        // over) leave no room for even their first line: then they wait their turn.
        var r = req
        let firstNew = max(g, older)
        if h > firstNew && foot(f, firstNew + 1) + max(0, lines[s].height) <= limit {
          r = max(req, mustEnd[h - 1])
        }
        if body + foot(f, r) <= limit {
          e += 1
          g = h
          req = r
          continue
        }
        if e == s { e += 1 }  // a page takes at least one body line
        break
      }
      var end = e
      if e < n && costs[e] != Cost.always {
        end = pageEnd(s, e, lines, costs)
      }
      // The foot: carried lines, then whatever of the page's notes fits (fewer carried
      // lines than planned only when a lone body line is taller than planned for).
      let bodyHeight = top[end - 1] + max(0, lines[end - 1].height) - top[s]
      var last = f
      while last < m && anchor[last] < end && bodyHeight + foot(f, last + 1) <= limit {
        last += 1
      }
      pages.append(FootedPage(body: s..<end, foot: f..<last))
      s = end
      f = last
    }
    return pages
  }

  /// For each note line, the end of its note's lines that must share the anchor's page:
  /// a note of up to 3 lines whole, a longer one its first 2 (the rest may carry over).
  /// A note's lines share `block`.
  static func mustEnds(_ notes: [SplitLine]) -> [Int] {
    var out = [Int](repeating: 0, count: notes.count)
    var a = 0
    while a < notes.count {
      var b = a + 1
      while b < notes.count && notes[b].block != nil && notes[b].block == notes[a].block { b += 1 }
      let must = a + (b - a <= 3 ? b - a : 2)
      for k in a..<b { out[k] = must }
      a = b
    }
    return out
  }

  /// y of each line's top when stacked from 0 (advances summed; n + 1 values).
  static func tops(_ lines: [SplitLine]) -> [Double] {
    var top = [Double](repeating: 0, count: lines.count + 1)
    for i in lines.indices { top[i + 1] = top[i] + max(0, lines[i].advance) }
    return top
  }
}
