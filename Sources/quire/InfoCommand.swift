import Foundation
import Quire

/// `quire info BOOK [--json]`.
enum InfoCommand {
  struct Report: Encodable {
    struct Spine: Encodable {
      var index: Int, href: String, mediaType: String, linear: Bool, size: Int, characters: Int
    }
    struct TOC: Encodable {
      var title: String, href: String, spine: Int?, offset: Int?, children: [TOC]
    }
    struct Font: Encodable {
      var family: String, weight: Int, italic: Bool, href: String, bytes: Int, deobfuscated: Bool
    }
    var format: String
    var title: String
    var creators: [String]
    var language: String?
    var identifier: String?
    var date: String?
    var publisher: String?
    var description: String?
    var cover: String?
    var direction: String
    var spine: [Spine]
    var toc: [TOC]
    var fonts: [Font]
    var images: [ImageResource]
    var warnings: [String]
  }

  static func run(_ words: [String]) throws -> Int32 {
    let a = try Arguments(words, valued: ["--encoding"], switches: ["--json", "--strict"])
    let path = try singleBook(a, command: "info")
    let doc: Document
    do {
      doc = try Book.open(URL(fileURLWithPath: path), options: try ingestOptions(a))
    } catch let e as IngestError {
      throw QuireError.ingest(e)
    }
    if a.flag("--strict"), let w = doc.warnings.first { throw QuireError.strict("\(path): \(w)") }
    let m = doc.metadata
    func toc(_ e: TOCEntry) -> Report.TOC {
      Report.TOC(
        title: e.title, href: e.href, spine: e.location?.spine, offset: e.location?.offset,
        children: e.children.map(toc))
    }
    let report = Report(
      format: doc.format.rawValue, title: m.title, creators: m.creators, language: m.language,
      identifier: m.identifier, date: m.date, publisher: m.publisher, description: m.description,
      cover: m.coverHref, direction: m.direction.rawValue,
      spine: doc.chapters.map {
        .init(
          index: $0.spineIndex, href: $0.href, mediaType: $0.mediaType, linear: $0.linear,
          size: $0.size, characters: $0.length)
      },
      toc: doc.toc.map(toc),
      fonts: doc.fonts.map {
        .init(
          family: $0.family, weight: $0.weight, italic: $0.italic, href: $0.href,
          bytes: $0.data.count, deobfuscated: $0.wasObfuscated)
      },
      images: doc.images, warnings: doc.warnings.map(\.description))
    if a.flag("--json") {
      let enc = JSONEncoder()
      enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      Terminal.out(String(decoding: try enc.encode(report), as: UTF8.self))
      return 0
    }
    var s = ""
    s += "title:      \(m.title)\n"
    if !m.creators.isEmpty { s += "creators:   \(m.creators.joined(separator: "; "))\n" }
    s += "format:     \(doc.format.rawValue)\n"
    if let l = m.language { s += "language:   \(l)\n" }
    s += "direction:  \(m.direction.rawValue)\n"
    if let i = m.identifier { s += "identifier: \(i)\n" }
    if let d = m.date { s += "date:       \(d)\n" }
    if let p = m.publisher { s += "publisher:  \(p)\n" }
    if let c = m.coverHref { s += "cover:      \(c)\n" }
    s += "spine:      \(doc.chapters.count) items\n"
    for c in doc.chapters {
      s +=
        "  \(c.spineIndex + 1). \(c.href)  \(c.mediaType)  \(c.size) bytes\(c.linear ? "" : "  (non-linear)")\n"
    }
    s += "toc:\n"
    func walk(_ es: [TOCEntry], _ depth: Int) {
      for e in es {
        let at = e.location.map { "  → spine \($0.spine + 1) @\($0.offset)" } ?? "  (unresolved)"
        s += String(repeating: "  ", count: depth + 1) + e.title + at + "\n"
        walk(e.children, depth + 1)
      }
    }
    walk(doc.toc, 0)
    s += "fonts:      \(doc.fonts.count)\n"
    for f in doc.fonts {
      s +=
        "  \(f.family) \(f.weight)\(f.italic ? " italic" : "")  \(f.href)\(f.wasObfuscated ? "  (de-obfuscated)" : "")\n"
    }
    s += "images:     \(doc.images.count)\n"
    for w in doc.warnings { s += "warning: \(w)\n" }
    Terminal.out(s)
    return 0
  }
}
