// Which elements are notes and which links are note references (Document/Note.swift has
// the rules and why).

enum NoteDetection {
  /// The note mark of an element that opens a block, nil when it is not a note (asides come
  /// back as candidates of kind `.aside`, confirmed by `confirm` at the chapter's end).
  static func mark(_ node: MarkupNode) -> NoteMark? {
    let id = node.attribute("id") ?? ""
    let types = tokens(node.attribute("epub:type"))
    let role = node.attribute("role")?.lowercased() ?? ""
    if types.contains("footnote") || types.contains("note") || role == "doc-footnote" {
      return NoteMark(id: id, kind: .footnote)
    }
    if types.contains("endnote") || types.contains("rearnote") || role == "doc-endnote" {
      return NoteMark(id: id, kind: .endnote)
    }
    if node.name == "aside", !id.isEmpty { return NoteMark(id: id, kind: .aside) }
    return nil
  }

  /// The id a noteref link points at within `chapterHref`, nil for other links.
  static func referencedID(_ node: MarkupNode, link: String?, chapterHref: String) -> String? {
    guard node.name == "a" else { return nil }
    let isRef =
      tokens(node.attribute("epub:type")).contains("noteref")
      || node.attribute("role")?.lowercased() == "doc-noteref"
    guard isRef, let link, let hash = link.firstIndex(of: "#") else { return nil }
    guard link[..<hash] == chapterHref[...] else { return nil }
    let id = link[link.index(after: hash)...]
    return id.isEmpty ? nil : String(id.prefix(1_000))
  }

  /// Drops the aside candidates no noteref points at; explicit notes stay.
  static func confirm(_ blocks: inout [Block], referenced: Set<String>, depth: Int = 0) {
    for i in blocks.indices {
      if let m = blocks[i].note, m.kind == .aside, !referenced.contains(m.id) {
        blocks[i].note = nil
      }
      if depth < 256, !blocks[i].children.isEmpty {
        confirm(&blocks[i].children, referenced: referenced, depth: depth + 1)
      }
    }
  }

  private static func tokens(_ s: String?) -> [Substring] {
    guard let s else { return [] }
    return s.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
      .prefix(16).map { $0 }
  }
}
