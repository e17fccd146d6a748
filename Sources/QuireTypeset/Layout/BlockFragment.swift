// One block box's piece on one page, for the `--boxes` manifest and for tests: the border
// box and the content box in page pixels. A box split across pages has one fragment per
// page; a continuation starts at the page's content top and a fragment that continues ends
// at the page's content bottom, without the border and padding of the cut side.

import Foundation

/// A block box's fragment on one page.
package struct BlockFragment: Sendable, Hashable {
  /// The block's position in its chapter's block tree, pre-order from 0.
  package var index: Int
  /// Element name ("p", "div"); empty for an anonymous block.
  package var tag: String
  /// The block's number in `LineBox.block` when it holds text.
  package var textBlock: Int?
  /// The border box, page pixels.
  package var border: Rect
  /// The content box (the border box less border and padding), page pixels.
  package var content: Rect

  package init(index: Int, tag: String, textBlock: Int?, border: Rect, content: Rect) {
    self.index = index
    self.tag = tag
    self.textBlock = textBlock
    self.border = border
    self.content = content
  }
}
