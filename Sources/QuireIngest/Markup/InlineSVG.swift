// Inline `<svg>` in XHTML: the subtree is serialized by libxml2 (`xmlNodeDump`) while the C
// tree still exists — the Swift tree has lower-cased names (`viewbox`, `lineargradient`),
// which SVG cannot survive — and becomes an in-memory image of the chapter. The raster
// stage draws it with librsvg like any SVG file (QuireRaster/SVGRasterizer.swift).
//
// Naming. Each inline SVG gets a resource href in its chapter's folder,
// "<chapter path>.svg-<n>.svg", so the references inside it (`<image href="pic.png">`)
// resolve against the chapter's folder exactly as they were written. The chapter carries the
// bytes (`Chapter.inlineImages`); the Document's resource store serves them before the
// book's files (`InlineImageStore`).
//
// Namespaces. `xmlNodeDump` writes the declarations made on the subtree only; a document
// that declared the SVG or XLink namespace on `<html>` gets them added to the root tag, so
// the serialized document stands alone. HTML-parsed documents (text/html) have no
// namespaces and lower-cased names: their `<svg>` keeps the old treatment (a wrapped
// `<image>` is drawn, anything else is not).
//
// Bounds: only outermost `<svg>` elements are serialized (nested ones travel inside), so the
// bytes serialized are at most the chapter's; each is capped at `maxBytes`.

import CLibXML2
import Foundation

enum InlineSVG {
  static let namespace = "http://www.w3.org/2000/svg"
  static let xlink = "http://www.w3.org/1999/xlink"
  /// Largest inline SVG kept, bytes of markup.
  static let maxBytes = 8 << 20

  /// The resource href of a chapter's `n`th inline SVG.
  static func href(chapter: String, index: Int) -> String { "\(chapter).svg-\(index).svg" }

  /// The element serialized as a standalone SVG document, nil when libxml2 fails or it is
  /// over `maxBytes`.
  static func serialize(_ node: xmlNodePtr) -> String? {
    guard let buffer = xmlBufferCreate() else { return nil }
    defer { xmlBufferFree(buffer) }
    let written = xmlNodeDump(buffer, node.pointee.doc, node, 0, 0)
    guard written > 0, written <= maxBytes, let content = xmlBufferContent(buffer) else {
      return nil
    }
    var prefix = ""
    if let ns = node.pointee.ns, let p = ns.pointee.prefix { prefix = String(cString: p) }
    return standalone(String(cString: content), prefix: prefix)
  }

  /// `markup` with the SVG (and XLink, when used) namespace declared on its root tag.
  static func standalone(_ markup: String, prefix: String) -> String {
    guard let close = markup.firstIndex(of: ">") else { return markup }
    let tag = markup[..<close]
    var declarations = ""
    let own = prefix.isEmpty ? "xmlns=" : "xmlns:\(prefix)="
    if !tag.contains(own) { declarations += " \(own)\"\(namespace)\"" }
    if markup.contains("xlink:"), !tag.contains("xmlns:xlink=") {
      declarations += " xmlns:xlink=\"\(xlink)\""
    }
    guard !declarations.isEmpty else { return markup }
    let nameEnd = tag.firstIndex { $0.isWhitespace || $0 == "/" } ?? close
    return String(markup[..<nameEnd]) + declarations + String(markup[nameEnd...])
  }
}

/// The book's resources, with the chapters' inline SVGs served first.
struct InlineImageStore: ResourceStore {
  var base: any ResourceStore
  var images: [String: Data]

  func data(forHref href: String) -> Data? { images[href] ?? base.data(forHref: href) }

  /// `base`, wrapped when any chapter holds inline images.
  static func wrap(_ base: any ResourceStore, chapters: [Chapter]) -> any ResourceStore {
    var images: [String: Data] = [:]
    for c in chapters { images.merge(c.inlineImages) { a, _ in a } }
    if images.isEmpty { return base }
    if let wrapped = base as? InlineImageStore {
      return InlineImageStore(base: wrapped.base, images: images)
    }
    return InlineImageStore(base: base, images: images)
  }
}
