// A block's page-break wishes, turned into split flags on the flow entries it produced
// (the page splitter reads them; Pagination/PageSplitter.swift has the costs):
//
//   keep together   headings, figures (image + caption), table rows and `break-inside:
//                   avoid` blocks: every entry of the block shares one group, so the
//                   splitter breaks inside only when the block is taller than a page;
//   keep with next  headings and `break-after: avoid`: the block's last entry keeps with
//                   the next entry and the first `orphans` lines of the block after it;
//   avoid before    `break-before: avoid`: no break before the block's first entry.
//
// Forced breaks (`break-before/after: page|always|left|right|recto|verso`) are the flow's
// `pendingBreak`. A group's id is the index of its first entry: unique in the chapter, and
// an enclosing block, finished later, overwrites its children's groups with its own.

import QuireIngest

extension ChapterFlow {
  /// Marks the entries `first..<entries.count` that `block` produced.
  mutating func applyBreaks(_ block: Block, from first: Int) {
    guard first >= 0, first < entries.count else { return }
    let st = block.style
    var heading = false
    // `avoid-column` avoids the breaks between columns, page breaks in a set included.
    let inColumns = columnSet != nil
    let avoid = { (r: BreakRule) in r == .avoid || (r == .avoidColumn && inColumns) }
    var together = avoid(st.breakInside)
    switch block.kind {
    case .heading:
      heading = true
      together = true
    case .figure, .tableRow: together = true
    default: break
    }
    if together && entries.count - first > 1 {
      for i in first..<entries.count { entries[i].group = first }
    }
    if heading || avoid(st.breakAfter) { entries[entries.count - 1].avoidBreakAfter = true }
    if avoid(st.breakBefore) { entries[first].avoidBreakBefore = true }
  }

  /// Whether a block's lines may be hyphenated automatically: headings only when their CSS
  /// says `hyphens: auto` (a split title word reads badly and gains nothing).
  static func autoHyphenation(_ block: Block) -> Bool {
    if case .heading = block.kind { return block.style.hyphens == .auto }
    return true
  }
}
