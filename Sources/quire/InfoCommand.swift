import Foundation
import Quire

/// `quire info BOOK [--json]`.
enum InfoCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let a = try Arguments(words, valued: ["--encoding"], switches: ["--json", "--strict"])
    let path = try singleBook(a, command: "info")
    let reading = try readingOptions(a)
    let report = try withFlagNames(book: path) { () throws(QuireError) in
      try BookReport.read(fileURL(path), reading: reading, strict: a.flag("--strict"))
    }
    if a.flag("--json") {
      let enc = JSONEncoder()
      enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      Terminal.out(String(decoding: try enc.encode(report), as: UTF8.self))
      return 0
    }
    Terminal.out(text(report))
    return 0
  }

  /// `text` in a bidi isolate of its declared direction (RLI/LRI … PDI) followed by the
  /// direction, so an RTL title shows in its order on an LTR line; as is when none is given.
  static func isolated(_ text: String, _ direction: String?) -> String {
    switch direction {
    case "rtl": return "\u{2067}\(text)\u{2069} (rtl)"
    case "ltr": return "\u{2066}\(text)\u{2069} (ltr)"
    default: return text
    }
  }

  static func text(_ r: BookReport) -> String {
    var s = ""
    s += "title:      \(isolated(r.title, r.titleDirection))\n"
    if !r.creators.isEmpty {
      let shown = r.creators.enumerated().map { i, c in
        isolated(c, i < r.creatorDirections.count ? r.creatorDirections[i] : nil)
      }
      s += "creators:   \(shown.joined(separator: "; "))\n"
    }
    s += "format:     \(r.format)\n"
    if let l = r.language { s += "language:   \(l)\n" }
    s += "direction:  \(r.direction)\n"
    if let i = r.identifier { s += "identifier: \(i)\n" }
    if let d = r.date { s += "date:       \(d)\n" }
    if let p = r.publisher { s += "publisher:  \(p)\n" }
    if let c = r.cover { s += "cover:      \(c)\n" }
    s += "spine:      \(r.spine.count) items\n"
    if let p = r.rendition {
      s += "rendition:  \(p.layout), orientation \(p.orientation), spread \(p.spread)\n"
    }
    for c in r.spine {
      s +=
        "  \(c.index + 1). \(c.href)  \(c.mediaType)  \(c.size) bytes\(c.linear ? "" : "  (non-linear)")\n"
      if let layout = c.layout {
        let size = c.viewport.map { "  \(Int($0[0]))x\(Int($0[1]))" } ?? ""
        let side = c.pageSpread.map { "  page-spread-\($0)" } ?? ""
        let own = c.overrides.map { "  overrides: " + $0.joined(separator: " ") } ?? ""
        s += "     \(layout)\(size)\(side)\(own)\n"
      }
    }
    s += "toc:\n"
    func walk(_ es: [BookReport.TOCEntry], _ depth: Int) {
      for e in es {
        let at = e.spine.map { "  → spine \($0 + 1) @\(e.offset ?? 0)" } ?? "  (unresolved)"
        s += String(repeating: "  ", count: depth + 1) + e.title + at + "\n"
        walk(e.children, depth + 1)
      }
    }
    walk(r.toc, 0)
    s += "fonts:      \(r.fonts.count)\n"
    for f in r.fonts {
      s +=
        "  \(f.family) \(f.weight)\(f.italic ? " italic" : "")  \(f.href)\(f.deobfuscated ? "  (de-obfuscated)" : "")\n"
    }
    s += "images:     \(r.images.count)\n"
    for w in r.warnings {
      s += "warning: \(w.file): \(w.message)\(w.count > 1 ? " (\(w.count) times)" : "")\n"
    }
    return s
  }
}
