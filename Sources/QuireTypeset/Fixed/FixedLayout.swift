// Fixed layout (EPUB 3.3 §8.2, `rendition:layout` `pre-paginated`): one spine item is one
// page, laid out at its own initial containing block (ICB) and never split.
//
// Units and coordinates: the page's display list is in ICB pixels (one CSS px each: the
// layout runs with a 16 px root font, as a browser's default, so a CSS px is a page px),
// origin at the ICB's top-left, no Quire margins. The raster stage scales that page into
// the output page (`--fit contain|cover`, `--size native`; Raster's FixedPageFit.swift), so
// typesetting never depends on the output size.
//
// The ICB: the item's viewport meta (Ingest's Viewport.swift), else the intrinsic size of
// the item's first image (an image or SVG spine item is its own image; an XHTML page without
// a viewport is usually one scan), else the output page. Sides are kept within the
// typesetter's page range (16…20 000 px).
//
// Layout: the block flow of reflowable chapters (ChapterFlow) with the ICB as the page; the
// flow is then placed on one tall page instead of being cut — forced breaks are dropped and
// notes stay inline — and what falls below the ICB is outside the page (the raster stage
// draws the ICB only), as a reading system clips a fixed page's overflow.
//
// Rejected: laying out at the output size with the content scaled by the fit factor — the
// book's CSS lengths, background sizes and positions are in CSS px and would each need the
// factor; one layout in CSS px and one scale of the pixels treats them all alike.

import QuireIngest

/// What a page is, in the book's rendition terms (EPUB fixed layout and spreads).
package struct PageRendition: Sendable, Hashable {
  /// Reflowable or pre-paginated.
  package var layout: RenditionLayout
  /// The orientation the item wants.
  package var orientation: RenditionOrientation
  /// When the item is shown in a spread.
  package var spread: RenditionSpread
  /// The spread side the item asks for; on the item's first page only.
  package var pageSpread: PageSpread?
  /// The ICB of a pre-paginated page, px: the page's display list covers this rectangle.
  package var viewport: ViewportSize?

  package init(
    layout: RenditionLayout, orientation: RenditionOrientation = .auto,
    spread: RenditionSpread = .auto, pageSpread: PageSpread? = nil,
    viewport: ViewportSize? = nil
  ) {
    self.layout = layout
    self.orientation = orientation
    self.spread = spread
    self.pageSpread = pageSpread
    self.viewport = viewport
  }
}

extension Typesetter {
  /// The ICB of a pre-paginated chapter, nil for a reflowable one.
  func fixedViewport(_ chapter: Chapter) -> ViewportSize? {
    guard let rendition = chapter.rendition, rendition.isFixed else { return nil }
    let size =
      rendition.viewport ?? firstImageSize(chapter)
      ?? ViewportSize(width: Double(options.width), height: Double(options.height))
    func side(_ v: Double) -> Double { min(20_000, max(16, v.rounded())) }
    return ViewportSize(width: side(size.width), height: side(size.height))
  }

  /// The intrinsic size of the chapter's first image (block or inline), CSS px. Looks at
  /// most 2 000 blocks deep into the tree.
  func firstImageSize(_ chapter: Chapter) -> ViewportSize? {
    var stack: [[Block]] = [chapter.blocks]
    var visited = 0
    while let level = stack.popLast(), visited < 2_000 {
      for b in level {
        visited += 1
        var ref: ImageRef?
        if case .image(let r) = b.kind { ref = r }
        for case .image(let i) in b.inlines where ref == nil { ref = i.image }
        if let ref,
          let data = chapter.inlineImages[ref.href]
            ?? document.resources.data(
              forHref: ref.href), let s = ImageSize.of(data), s.width > 0, s.height > 0
        {
          return ViewportSize(width: s.width, height: s.height)
        }
      }
      for b in level.reversed() where !b.children.isEmpty { stack.append(b.children) }
    }
    return nil
  }

  /// The options a pre-paginated chapter is laid out with: the ICB as the page, no margins,
  /// a browser's default font size, notes inline, no folio.
  func fixedOptions(_ viewport: ViewportSize) -> LayoutOptions {
    var o = options
    o.width = Int(viewport.width)
    o.height = Int(viewport.height)
    o.margins = LayoutOptions.Margins(top: 0, right: 0, bottom: 0, left: 0)
    o.fontSize = 16
    o.lineHeight = 1.2
    o.footnotes = .inline
    o.folio = false
    return o
  }

  /// The chapter's flow on one page: forced breaks dropped, a page far taller than any
  /// content so nothing is cut; a page the splitter still made past the first is dropped.
  func fixedPages(
    _ entries: consuming [FlowEntry], options fixed: LayoutOptions, spine: Int, href: String,
    boxes: [FlowBox], layers: [PositionedBoxes.Layer]
  ) -> [Page] {
    var entries = entries
    for i in entries.indices { entries[i].forcedBreakBefore = false }
    var tall = fixed
    tall.height = 10_000_000
    var pages = Paginator(options: tall).pages(
      entries, spine: spine, href: href, fallback: Location(spine: spine, offset: 0),
      boxes: boxes)
    if pages.isEmpty {
      pages = [
        Page(
          number: 1, spine: spine, href: href, start: .init(spine: spine, offset: 0),
          end: .init(spine: spine, offset: 0))
      ]
    }
    pages.removeSubrange(1...)
    pages[0].add(layers)
    return pages
  }

  /// Stamps each page with its rendition (the spread side on the chapter's first page).
  func stampRendition(_ chapter: Chapter, viewport: ViewportSize?, on pages: inout [Page]) {
    guard let r = chapter.rendition else { return }
    for i in pages.indices {
      pages[i].rendition = PageRendition(
        layout: viewport == nil ? .reflowable : .prePaginated, orientation: r.orientation,
        spread: r.spread, pageSpread: i == 0 ? r.pageSpread : nil, viewport: viewport)
    }
  }
}
