// The table of contents: the EPUB 3 navigation document (nav epub:type="toc", nested
// ol/li/a), else the EPUB 2 NCX (navMap/navPoint). Targets are resolved to book paths here;
// `Book` turns them into Locations once the chapters (and their anchors) exist.

import Foundation
import QuireCore

/// A TOC entry before Locations are known: `path` and `fragment` inside the book.
struct RawTOCEntry: Sendable, Hashable {
  var title: String
  var path: String?
  var fragment: String?
  var children: [RawTOCEntry]
}

enum TableOfContents {
  /// Reads the nav document (EPUB 3) or the NCX (EPUB 2). Failures degrade to warnings.
  static func read(
    package opf: PackageDocument, files: any PackageFiles, limits: IngestLimits,
    warnings: inout [Diagnostic]
  ) -> [RawTOCEntry] {
    if let nav = opf.manifest.first(where: { $0.properties.contains("nav") }),
      files.contains(nav.path)
    {
      do {
        let tree = try XMLTree.parse(
          try files.read(nav.path), file: "\(files.file): \(nav.path)", limits: limits)
        let entries = fromNav(tree, base: nav.path, limit: limits.maxDepth)
        if !entries.isEmpty { return entries }
      } catch {
        warnings.append(
          Diagnostic(
            .tableOfContents, file: nav.path, message: "navigation document unreadable: \(error)"))
      }
    }
    let ncx =
      opf.ncxID.flatMap { opf.byID[$0] }
      ?? opf.manifest.first { $0.mediaType == "application/x-dtbncx+xml" }
    if let ncx, files.contains(ncx.path) {
      do {
        let tree = try XMLTree.parse(
          try files.read(ncx.path), file: "\(files.file): \(ncx.path)", limits: limits)
        guard let navMap = tree.first("navMap") else { return [] }
        return fromNCX(navMap, base: ncx.path, depth: 0, limit: limits.maxDepth)
      } catch {
        warnings.append(
          Diagnostic(.tableOfContents, file: ncx.path, message: "NCX unreadable: \(error)"))
      }
    }
    return []
  }

  /// EPUB 3 nav `landmarks` (each `a` carries its epub:type), else the OPF guide.
  static func landmarks(
    package opf: PackageDocument, files: any PackageFiles, limits: IngestLimits
  ) -> [(type: String, entry: RawTOCEntry)] {
    if let nav = opf.manifest.first(where: { $0.properties.contains("nav") }),
      files.contains(nav.path),
      let data = try? files.read(nav.path),
      let tree = try? XMLTree.parse(data, file: "\(files.file): \(nav.path)", limits: limits),
      let list = tree.descendants(named: "nav").first(where: { navTypes($0).contains("landmarks") }
      )?
      .descendants(named: "ol").first
    {
      let found = list.elements(named: "li").compactMap { li -> (String, RawTOCEntry)? in
        guard let a = li.first("a") else { return nil }
        let target = a.attribute("href").flatMap { PackageDocument.resolve($0, from: nav.path) }
        return (
          navTypes(a).joined(separator: " "),
          RawTOCEntry(title: a.text, path: target?.path, fragment: target?.fragment, children: [])
        )
      }
      if !found.isEmpty { return found }
    }
    return opf.guide.map { g in
      let target = PackageDocument.resolve(g.href, from: "")
      return (
        g.type,
        RawTOCEntry(title: g.title, path: target?.path, fragment: target?.fragment, children: [])
      )
    }
  }

  static func navTypes(_ e: XMLElement) -> [Substring] {
    (e.attribute("epub:type") ?? e.attribute("type") ?? "").split(separator: " ")
  }

  static func fromNav(_ tree: XMLElement, base: String, limit: Int) -> [RawTOCEntry] {
    let navs = tree.descendants(named: "nav")
    func types(_ e: XMLElement) -> [Substring] {
      (e.attribute("epub:type") ?? e.attribute("type") ?? "").split(separator: " ")
    }
    guard let toc = navs.first(where: { types($0).contains("toc") }) ?? navs.first,
      let list = toc.descendants(named: "ol").first
    else { return [] }
    return fromList(list, base: base, depth: 0, limit: limit)
  }

  private static func fromList(_ ol: XMLElement, base: String, depth: Int, limit: Int)
    -> [RawTOCEntry]
  {
    guard depth < limit else { return [] }
    var out: [RawTOCEntry] = []
    for li in ol.elements(named: "li") {
      let label = li.first("a") ?? li.first("span")
      let title = label?.tocLabel ?? ""
      let target = label?.attribute("href").flatMap { PackageDocument.resolve($0, from: base) }
      let children =
        li.first("ol").map { fromList($0, base: base, depth: depth + 1, limit: limit) } ?? []
      if title.isEmpty && target == nil && children.isEmpty { continue }
      out.append(
        RawTOCEntry(
          title: title, path: target?.path, fragment: target?.fragment, children: children))
    }
    return out
  }

  static func fromNCX(_ parent: XMLElement, base: String, depth: Int, limit: Int)
    -> [RawTOCEntry]
  {
    guard depth < limit else { return [] }
    var points = parent.elements(named: "navPoint")
    // Keep playOrder when every point has one; otherwise document order.
    let orders = points.map { Int($0.attribute("playOrder") ?? "") }
    if orders.allSatisfy({ $0 != nil }) {
      points = zip(points, orders).enumerated().sorted {
        ($0.element.1!, $0.offset) < ($1.element.1!, $1.offset)
      }
      .map(\.element.0)
    }
    return points.map { p in
      let title =
        p.first("navLabel").map { l in
          let t = l.first("text")?.tocLabel ?? ""
          return t.isEmpty ? l.tocLabel : t
        } ?? ""
      let target = p.first("content")?.attribute("src").flatMap {
        PackageDocument.resolve($0, from: base)
      }
      return RawTOCEntry(
        title: title, path: target?.path, fragment: target?.fragment,
        children: fromNCX(p, base: base, depth: depth + 1, limit: limit))
    }
  }
}
