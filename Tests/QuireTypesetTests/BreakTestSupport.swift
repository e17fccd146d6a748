import Testing

@testable import QuireTypeset

/// Builds a paragraph from text with a monospace "font": every character `charWidth` px,
/// spaces as glue (width, stretch, shrink). A "-" inside a word marks a hyphen point
/// (flagged penalty, hyphen width = charWidth) and is not itself set. "\n" is a forced
/// break. The paragraph ends with fil glue and a forced break.
func paragraph(
  _ text: String, charWidth: Double = 10, space: (Double, Double, Double) = (10, 5, 3),
  end: Bool = true
) -> [BreakItem] {
  var items: [BreakItem] = []
  for (li, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    if li > 0 {
      items += BreakItem.paragraphEnd
    }
    for (wi, word) in line.split(separator: " ").enumerated() {
      if wi > 0 { items.append(.glue(width: space.0, stretch: space.1, shrink: space.2)) }
      for (pi, part) in word.split(separator: "-").enumerated() {
        if pi > 0 { items.append(.hyphen(width: charWidth)) }
        items.append(.box(width: Double(part.count) * charWidth))
      }
    }
  }
  if end { items += BreakItem.paragraphEnd }
  return items
}

/// The text of each line (words joined by spaces, "-" where a line ends hyphenated),
/// rebuilt from the paragraph text and the breaks, for readable expectations.
func lineTexts(_ text: String, _ items: [BreakItem], _ breaks: [LineBreak]) -> [String] {
  // Map each box back to its text fragment and each glue to a space.
  var fragments: [String] = []
  for (li, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    if li > 0 { fragments += ["", ""] }
    for (wi, word) in line.split(separator: " ").enumerated() {
      if wi > 0 { fragments.append(" ") }
      for (pi, part) in word.split(separator: "-").enumerated() {
        if pi > 0 { fragments.append("-") }
        fragments.append(String(part))
      }
    }
  }
  fragments += ["", ""]
  let ranges = LineBreak.lineRanges(breaks, in: items)
  return zip(ranges, breaks).map { range, b in
    var s = ""
    for i in range {
      let f = fragments[i]
      if f == "-" {
        if i == b.index { s += "-" }
      } else {
        s += f
      }
    }
    return s
  }
}

/// Checks the structural validity of breaks: strictly increasing legal indices, covering
/// the paragraph to its last item (or to trailing discardable material).
func expectValidBreaks(
  _ breaks: [LineBreak], _ items: [BreakItem], sourceLocation: SourceLocation = #_sourceLocation
) {
  if items.isEmpty {
    #expect(breaks.isEmpty, sourceLocation: sourceLocation)
    return
  }
  var previous = -1
  for b in breaks {
    #expect(b.index > previous, sourceLocation: sourceLocation)
    #expect(ParagraphMeasure.isLegalBreak(b.index, in: items), sourceLocation: sourceLocation)
    #expect(b.ratio >= -1, sourceLocation: sourceLocation)
    previous = b.index
  }
  if let last = breaks.last {
    #expect(
      ParagraphMeasure.lineStart(afterBreak: last.index, in: items) == items.count,
      sourceLocation: sourceLocation)
  }
  // Every forced break is a break.
  let set = Set(breaks.map(\.index))
  for (i, item) in items.enumerated() where item.isForcedBreak {
    #expect(set.contains(i), "forced break \(i) not taken", sourceLocation: sourceLocation)
  }
}
