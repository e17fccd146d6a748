// The canvas background (CSS 2.1 §14.2): the root element's background, or — when the root
// has none — the body's, fills the whole page, margins included, behind everything. Quire
// lays out chapter by chapter, so every page of a chapter gets that chapter's background;
// the body's box then paints only its borders. The image positioning area is the page.

import QuireCore
import QuireIngest

extension ChapterFlow {
  /// The chapter's body block: a top-level block named "body" (ingest opens no block for
  /// `html`, so the body is at the top when present).
  static func body(of chapter: Chapter) -> Block? {
    chapter.blocks.first { $0.element == "body" }
  }

  /// The background the chapter's pages are painted with, or nil for plain paper.
  static func canvasBackground(of chapter: Chapter) -> BoxBackground? {
    if let root = chapter.rootBackground, !root.isEmpty { return root }
    if let body = body(of: chapter), !body.box.background.isEmpty { return body.box.background }
    return nil
  }

  /// Gives every page of the chapter its canvas background.
  func paintPageBackground(_ chapter: Chapter, on pages: inout [Page]) {
    guard let bg = Self.canvasBackground(of: chapter) else { return }
    let paint = BoxPaint(
      rect: Rect(x: 0, y: 0, width: Double(options.width), height: Double(options.height)),
      backgroundColor: bg.color, backgroundLayers: bg.layers)
    for i in pages.indices { pages[i].background = paint }
  }
}
