// The initial containing block of a pre-paginated XHTML document: its viewport `<meta>`
// (EPUB 3.3 §8.2.2.1 and appendix "Viewport meta tag syntax").
//
//   <meta name="viewport" content="width=1200, height=1600"/>
//
// The syntax: properties `name = value`, separated by `,` or `;`, white space allowed around
// names, `=` and separators; names are case-insensitive. Quire also reads what real books
// write besides: white space alone as a separator, a `px` unit, decimal values. A value that
// is not a positive number (`device-width`, an empty value, 0, a negative or huge number) is
// no size. Only the first viewport meta counts, and the first `width` and `height` in it;
// every deviation is one warning. With no usable width and height the ICB falls back in
// Typeset (the first image's size, else the output page), with a warning from here.
//
// Bounded: the content is read up to 1 KB, at most 32 properties.

import QuireCore

extension ViewportSize {
  /// Side lengths outside this range are not a usable ICB (px).
  static let sides = 1.0...20_000.0

  /// Parses a viewport meta `content`; `problems` gets one line per deviation.
  static func parse(_ content: String, problems: inout [String]) -> ViewportSize? {
    var width: Double?
    var height: Double?
    let text = String(content.prefix(1024))
    let parts = text.split(whereSeparator: { $0 == "," || $0 == ";" })
    var count = 0
    for part in parts {
      for property in properties(in: String(part)) {
        count += 1
        if count > 32 { break }
        guard let eq = property.firstIndex(of: "=") else {
          problems.append("'\(QuotedInput.elided(property))' has no '='")
          continue
        }
        let name = property[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
        let value = property[property.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        guard name == "width" || name == "height" else { continue }
        if (name == "width" ? width : height) != nil {
          problems.append("\(name) is given more than once; the first is used")
          continue
        }
        guard let n = length(value, problems: &problems) else {
          problems.append("\(name) '\(QuotedInput.elided(value))' is not a size in px")
          continue
        }
        if name == "width" { width = n } else { height = n }
      }
    }
    guard let width, let height else {
      problems.append("no usable width and height")
      return nil
    }
    return ViewportSize(width: width, height: height)
  }

  /// Splits `width=600 height=800` (white space as separator) while keeping `width = 600`.
  private static func properties(in part: String) -> [String] {
    let words = part.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
      .map(String.init)
    var out: [String] = []
    for w in words {
      // A word that starts with '=' or follows a word ending in '=' continues the property.
      if let last = out.last, w.hasPrefix("=") || last.hasSuffix("=") {
        out[out.count - 1] = last + w
      } else {
        out.append(w)
      }
    }
    return out
  }

  /// A positive number of px, `px` tolerated.
  private static func length(_ value: String, problems: inout [String]) -> Double? {
    var v = value.lowercased()
    if v.hasSuffix("px") {
      v.removeLast(2)
      problems.append("'\(QuotedInput.elided(value))' has a unit; viewport sizes are plain numbers")
    }
    guard v.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let n = Double(v),
      n.isFinite, sides.contains(n)
    else { return nil }
    return n
  }
}

extension MarkupTree {
  /// The viewport of a pre-paginated document, from its first `<meta name="viewport">`;
  /// `problems` says what was wrong with it (or that it is missing). Walks at most 10 000
  /// nodes (the meta lives in the head, at the top).
  func viewport(problems: inout [String]) -> ViewportSize? {
    var stack = [root]
    var visited = 0
    while let n = stack.popLast(), visited < 10_000 {
      visited += 1
      let node = nodes[n]
      guard node.kind == .element else { continue }
      if node.name == "meta", node.attribute("name")?.lowercased() == "viewport" {
        return ViewportSize.parse(node.attribute("content") ?? "", problems: &problems)
      }
      if node.name == "body" { break }
      stack.append(contentsOf: node.children.reversed())
    }
    problems.append("no viewport meta")
    return nil
  }
}

extension ChapterConverter {
  /// The source's rendition with the document's viewport read, for pre-paginated items; a
  /// missing or bad viewport is one warning naming what was wrong.
  func rendition(of source: ChapterSource, tree: MarkupTree, warnings: inout [Diagnostic])
    -> Rendition?
  {
    guard var rendition = source.rendition else { return nil }
    guard rendition.isFixed else { return rendition }
    var problems: [String] = []
    rendition.viewport = tree.viewport(problems: &problems)
    if !problems.isEmpty {
      let fallback = rendition.viewport == nil ? "; the page takes its first image's size" : ""
      warnings.append(
        Diagnostic(
          .rendition, file: source.href, spine: source.spineIndex,
          message: "viewport meta: " + problems.prefix(4).joined(separator: "; ") + fallback))
    }
    return rendition
  }

  /// An image item's chapter with the source's rendition (its ICB is the image's size).
  func withRendition(_ converted: ConvertedChapter, _ source: ChapterSource) -> ConvertedChapter {
    var converted = converted
    converted.chapter.rendition = source.rendition
    return converted
  }
}
