// The OCF container and the OPF package document: which file is the package, what the
// book is called, which files it holds (manifest), in what order they are read (spine).
// Everything here is plain values; nothing is read from the archive but the three XML files.

import Foundation
import QuireCore

struct ManifestItem: Sendable, Hashable {
  var id: String
  /// Resolved, percent-decoded path inside the book (no fragment).
  var path: String
  var mediaType: String
  var properties: [String]
  var fallback: String?
}

struct SpineItem: Sendable, Hashable {
  var idref: String
  var linear: Bool
  /// The itemref's `properties` (rendition overrides, page-spread-*; Rendition.swift).
  var properties: [String] = []
}

struct GuideReference: Sendable, Hashable {
  var type: String
  var title: String
  var href: String
}

struct PackageDocument: Sendable {
  /// Path of the OPF inside the book.
  var path: String
  var version: String
  var metadata: BookMetadata
  /// The dc:identifier named by `unique-identifier` (used for font de-obfuscation).
  var uniqueIdentifier: String?
  var manifest: [ManifestItem]
  var byID: [String: ManifestItem]
  var spine: [SpineItem]
  var pageProgression: TextDirection?
  /// The spine's `toc` attribute (EPUB 2 NCX id).
  var ncxID: String?
  var guide: [GuideReference]
  var warnings: [Diagnostic]
  /// The package-wide rendition properties (Rendition.swift).
  var rendition = Rendition()

  static let contentTypes: Set<String> = [
    "application/xhtml+xml", "text/html", "application/x-dtbook+xml",
  ]

  /// META-INF/container.xml → the first rootfile with the OPF media type (or the first at all).
  static func rootfilePath(_ files: any PackageFiles, limits: IngestLimits) throws(IngestError)
    -> String
  {
    let containerPath = "META-INF/container.xml"
    guard files.contains(containerPath) else {
      throw .badData(file: files.file, reason: "not an EPUB: META-INF/container.xml is missing")
    }
    let tree = try XMLTree.parse(
      try files.read(containerPath), file: "\(files.file): \(containerPath)", limits: limits)
    let rootfiles = tree.descendants(named: "rootfile")
    let chosen =
      rootfiles.first { $0.attribute("media-type") == "application/oebps-package+xml" }
      ?? rootfiles.first
    guard let raw = chosen?.attribute("full-path"), !raw.isEmpty else {
      throw .badData(file: files.file, reason: "\(containerPath) names no rootfile")
    }
    guard case .path(let path, _) = EntryName.normalize(raw.percentDecoded) else {
      throw .badData(
        file: files.file,
        reason: "\(containerPath): rootfile path '\(QuotedInput.elided(raw))' leaves the book")
    }
    guard files.contains(path) else {
      throw .badData(
        file: files.file,
        reason: "\(containerPath) names '\(QuotedInput.elided(path))', which is not in the book")
    }
    return path
  }

  /// Resolves an href written in the file at `base` to a book path and fragment.
  static func resolve(_ href: String, from base: String) -> (path: String, fragment: String?)? {
    if case .resolved(let answer) = resolvePlain(href, from: base) { return answer }
    let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { return nil }
    // Absolute URLs (http:, mailto:, data:) are not inside the book.
    if let colon = trimmed.firstIndex(of: ":"), let slash = trimmed.firstIndex(of: "/"),
      colon < slash
    {
      return nil
    }
    let parts = trimmed.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let pathPart = String(parts[0]).split(
      separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
    let fragment = parts.count > 1 ? String(parts[1]).percentDecoded : nil
    if pathPart.isEmpty { return (base, fragment) }
    guard let path = EntryName.resolve(String(pathPart).percentDecoded, against: base) else {
      return nil
    }
    return (path, fragment)
  }

  /// What `resolvePlain` found.
  enum PlainResolution {
    /// An href or base with white space, control bytes, non-ASCII bytes or escapes.
    case notPlain
    case resolved((path: String, fragment: String?)?)
  }

  /// `resolve` for the common href: printable ASCII without `%`, against an ASCII base, where
  /// characters are bytes and nothing is trimmed or decoded; the same answer in a byte scan
  /// (Character-level splitting and trimming cost ~60,000 instructions an href).
  static func resolvePlain(_ href: String, from base: String) -> PlainResolution {
    let h = Array(href.utf8)
    let b = Array(base.utf8)
    guard !h.isEmpty, h.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x25 }),
      b.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
    else { return .notPlain }
    let colon = h.firstIndex(of: UInt8(ascii: ":"))
    if let colon, let slash = h.firstIndex(of: UInt8(ascii: "/")), colon < slash {
      return .resolved(nil)
    }
    let hash = h.firstIndex(of: UInt8(ascii: "#"))
    let fragment = hash.map { String(decoding: h[($0 + 1)...], as: UTF8.self) }
    let beforeHash = h[..<(hash ?? h.count)]
    let pathPart = beforeHash[..<(beforeHash.firstIndex(of: UInt8(ascii: "?")) ?? hash ?? h.count)]
    if pathPart.isEmpty { return .resolved((base, fragment)) }
    var parts: [ArraySlice<UInt8>] = []
    if pathPart.first != UInt8(ascii: "/") {
      parts = b.split(separator: UInt8(ascii: "/"))
      if !parts.isEmpty { parts.removeLast() }
    }
    for segment in pathPart.split(separator: UInt8(ascii: "/")) {
      if segment.elementsEqual(".".utf8) { continue }
      if segment.elementsEqual("..".utf8) {
        if parts.isEmpty { return .resolved(nil) }
        parts.removeLast()
        continue
      }
      parts.append(segment)
    }
    if parts.isEmpty { return .resolved(nil) }
    let path = String(decoding: Array(parts.joined(separator: [UInt8(ascii: "/")])), as: UTF8.self)
    return .resolved((path, fragment))
  }

  init(data: Data, path: String, book: String, limits: IngestLimits) throws(IngestError) {
    let tree = try XMLTree.parse(data, file: "\(book): \(path)", limits: limits)
    guard tree.name == "package" else {
      throw .badData(file: book, reason: "\(path): root element is <\(tree.name)>, not <package>")
    }
    var warnings: [Diagnostic] = []
    self.path = path
    self.version = tree.attribute("version") ?? ""

    // Manifest.
    var manifest: [ManifestItem] = []
    var byID: [String: ManifestItem] = [:]
    for item in tree.first("manifest")?.elements(named: "item") ?? [] {
      guard let id = item.attribute("id"), let href = item.attribute("href") else {
        warnings.append(
          Diagnostic(.manifestItem, file: path, message: "manifest item without id or href skipped")
        )
        continue
      }
      guard let resolved = Self.resolve(href, from: path) else {
        warnings.append(
          Diagnostic(
            .manifestItem,
            file: path,
            message:
              "manifest item '\(QuotedInput.elided(id))': href '\(QuotedInput.elided(href))' is outside the book"
          ))
        continue
      }
      if byID[id] != nil {
        warnings.append(
          Diagnostic(
            .manifestItem, file: path,
            message: "duplicate manifest id '\(QuotedInput.elided(id))': the first is used"))
        continue
      }
      let entry = ManifestItem(
        id: id, path: resolved.path, mediaType: (item.attribute("media-type") ?? "").lowercased(),
        properties: (item.attribute("properties") ?? "").split(separator: " ").map(String.init),
        fallback: item.attribute("fallback"))
      byID[id] = entry
      manifest.append(entry)
    }
    self.manifest = manifest
    self.byID = byID

    // Spine.
    let spineElement = tree.first("spine")
    self.spine = (spineElement?.elements(named: "itemref") ?? []).compactMap(SpineItem.init)
    switch spineElement?.attribute("page-progression-direction")?.lowercased() {
    case "rtl": pageProgression = .rtl
    case "ltr": pageProgression = .ltr
    default: pageProgression = nil
    }
    self.ncxID = spineElement?.attribute("toc")

    // Guide (EPUB 2).
    self.guide = (tree.first("guide")?.elements(named: "reference") ?? []).compactMap { r in
      guard let href = r.attribute("href"), let resolved = Self.resolve(href, from: path) else {
        return nil
      }
      return GuideReference(
        type: r.attribute("type") ?? "", title: r.attribute("title") ?? "",
        href: resolved.path + (resolved.fragment.map { "#\($0)" } ?? ""))
    }

    // Metadata (dc: elements by local name; EPUB 2 `opf:` attributes tolerated).
    let meta =
      tree.first("metadata")
      ?? XMLElement(name: "metadata", namespace: "", attributes: [:], children: [])
    let dc = "http://purl.org/dc/elements/1.1/"
    func values(_ name: String) -> [XMLElement] {
      meta.elements.filter { $0.name == name && ($0.namespace == dc || $0.namespace.isEmpty) }
    }
    func first(_ name: String) -> String? {
      values(name).lazy.map(\.text).first { !$0.isEmpty }
    }
    let identifiers = values("identifier")
    let uniqueID = tree.attribute("unique-identifier")
    let unique =
      identifiers.first { uniqueID != nil && $0.attribute("id") == uniqueID } ?? identifiers.first
    self.uniqueIdentifier = unique.map { raw in
      // Keep the raw text (whitespace matters for the obfuscation key; it is removed there).
      var s = ""
      for case .text(let t) in raw.children { s += t }
      return s.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    var cover: String? = manifest.first { $0.properties.contains("cover-image") }?.path
    if cover == nil {
      let coverID = meta.elements(named: "meta").first { $0.attribute("name") == "cover" }?
        .attribute("content")
      cover = coverID.flatMap { byID[$0]?.path }
    }
    let language = first("language")
    // EPUB 3: among several dc:title, the one refined with title-type "main" wins.
    let mainIDs = Set(
      meta.elements(named: "meta").filter {
        $0.attribute("property") == "title-type" && $0.text == "main"
      }.compactMap { $0.attribute("refines").map { String($0.drop { $0 == "#" }) } })
    let mainTitle = values("title").first { t in
      t.attribute("id").map { mainIDs.contains($0) } ?? false
    }
    self.metadata = BookMetadata(
      title: mainTitle?.text ?? first("title") ?? "",
      creators: values("creator").map(\.text).filter { !$0.isEmpty },
      language: language,
      identifier: uniqueIdentifier,
      date: first("date"),
      publisher: first("publisher"),
      description: first("description"),
      coverHref: cover,
      direction: Self.direction(pageProgression, language: language))
    metadata.declaredProgression = pageProgression
    metadata.setDirections(tree, mainTitle ?? values("title").first, values("creator"))
    self.rendition = Rendition.package(meta, file: path, warnings: &warnings)
    metadata.rendition = rendition
    self.warnings = warnings
  }

  /// Spine page-progression-direction, else rtl for Arabic, Hebrew, Persian and Urdu, else ltr.
  static func direction(_ progression: TextDirection?, language: String?) -> TextDirection {
    if let progression { return progression }
    let primary =
      (language ?? "").lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? ""
    return ["ar", "he", "iw", "fa", "ur", "yi", "ps", "syr", "dv"].contains(String(primary))
      ? .rtl : .ltr
  }

  /// Follows an item's fallback chain to the first content document (XHTML/HTML) or image.
  /// Cycles and dead ends give nil and a warning.
  func contentItem(for item: ManifestItem, warnings: inout [Diagnostic]) -> ManifestItem? {
    var current = item
    var visited: Set<String> = []
    while true {
      if Self.contentTypes.contains(current.mediaType) || Self.isPageImage(current.mediaType) {
        return current  // an image is a page of its own (PackagePages.swift)
      }
      visited.insert(current.id)
      guard let next = current.fallback else {
        warnings.append(
          Diagnostic(
            .spineItem,
            file: path,
            message:
              "spine item '\(QuotedInput.elided(item.id))' (\(item.mediaType)) is not a content document and has no usable fallback"
          ))
        return nil
      }
      if visited.contains(next) {
        warnings.append(
          Diagnostic(
            .spineItem,
            file: path,
            message:
              "fallback cycle at '\(QuotedInput.elided(next))' for spine item '\(QuotedInput.elided(item.id))'"
          ))
        return nil
      }
      guard let nextItem = byID[next] else {
        warnings.append(
          Diagnostic(
            .spineItem,
            file: path,
            message:
              "fallback '\(QuotedInput.elided(next))' of '\(QuotedInput.elided(current.id))' is not in the manifest"
          ))
        return nil
      }
      current = nextItem
    }
  }
}
