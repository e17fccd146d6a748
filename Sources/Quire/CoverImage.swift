import Foundation
import QuireCore
import QuireIngest
import QuireRaster

// A book's cover picture, read the cheapest way that gives it.
//
// A shelf needs each book's cover, not its layout. The package names the cover (EPUB 3
// `properties="cover-image"`, EPUB 2 `<meta name="cover">`): that image is decoded straight
// from the archive, no chapter converted, no font opened. A book without one often starts
// with a cover document: an image spine item, or a first spine document that shows one
// image and no text (the EPUB 2 cover page); then the first chapter is converted (parsed
// and styled, not laid out) and its lone image decoded. Only a book whose first document has
// text is laid out, and only through page 1 (pagination stops early), and page 1 is drawn.
//
// `atLeast` lets a JPEG decode at ½, ¼ or ⅛ size inside the DCT (never below the size
// asked for): a shelf draws a 646x902 cover at about 233x350, so it decodes a quarter of
// the pixels. Rejected: opening each book through page 1 (as session 7 did) — it converts
// the first chapters and sets up the typesetter (fontconfig, fonts) for every book only to
// read a file the package names.

/// A book's cover picture: the package's cover image when it decodes, else the lone image
/// of the book's first document, else page 1.
enum Cover {
  /// The cover of an opened book: the manifest's cover image when it decodes, else page 1.
  static func image(of book: PagedBook) throws(QuireError) -> PixelBuffer {
    let document = book.pages.book.document
    if let href = document.metadata.coverHref,
      let data = document.resources.data(forHref: href),
      let decoded = decodeImage(data, href: href)
    {
      return decoded.converted(to: .rgba8)
    }
    return try book.page(1, color: .rgb)
  }

  /// The cover of the book at `path` read without laying it out when the package or its
  /// first document gives a picture; otherwise page 1 at `page` size. JPEG covers may come
  /// back smaller than their full size, never smaller than `atLeast`.
  static func read(
    _ path: String, page: LayoutSettings, atLeast: (width: Int, height: Int)? = nil
  ) throws(QuireError) -> PixelBuffer {
    let loader: ChapterLoader
    do {
      loader = try Book.openLazily(URL(fileURLWithPath: path), options: page.ingestOptions)
    } catch {
      throw QuireError(error)
    }
    if let picture = try packagePicture(loader, atLeast: atLeast) { return picture }
    return try PagedBook(path, layout: page, threads: 1, through: 1).page(1, color: .rgb)
  }

  /// The package's cover image, or the lone image of the first document; nil when neither
  /// decodes.
  private static func packagePicture(
    _ loader: ChapterLoader, atLeast: (width: Int, height: Int)?
  ) throws(QuireError) -> PixelBuffer? {
    func decoded(_ href: String, _ resources: any ResourceStore) -> PixelBuffer? {
      guard let data = resources.data(forHref: href) else { return nil }
      return decodeImage(data, href: href, atLeast: atLeast)?.converted(to: .rgba8)
    }
    do {
      if let href = loader.metadata.coverHref,
        let picture = decoded(href, try loader.prefix(0).resources)
      {
        return picture
      }
      guard loader.count > 0 else { return nil }
      let first = try loader.prefix(1)
      guard let chapter = first.chapters.first, let href = loneImage(chapter.blocks) else {
        return nil
      }
      return decoded(href, first.resources)
    } catch {
      throw QuireError(error)
    }
  }

  /// The href of the one image in `blocks` when they show exactly one image and no text
  /// (white space and generated text aside); nil otherwise. Visits at most 10 000 blocks
  /// (the tree's depth is bounded at ingest).
  static func loneImage(_ blocks: [Block]) -> String? {
    var found: String?
    var count = 0
    var visited = 0
    var text = false
    func visit(_ bs: [Block]) {
      for b in bs {
        visited += 1
        guard visited <= 10_000, !text, count <= 1 else { return }
        if case .image(let ref) = b.kind {
          count += 1
          found = ref.href
        }
        for inline in b.inlines {
          switch inline {
          case .image(let i):
            count += 1
            found = i.image.href
          case .text(let run):
            if !run.generated, run.text.contains(where: { !$0.isWhitespace }) { text = true }
          case .math, .inlineBlock: text = true
          case .lineBreak: break
          }
        }
        visit(b.children)
      }
    }
    visit(blocks)
    return count == 1 && !text && visited <= 10_000 ? found : nil
  }
}
