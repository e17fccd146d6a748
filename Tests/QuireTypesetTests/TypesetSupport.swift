// Hand-built Documents for the typesetter's tests (until ingest lands), and the line dump.

import Foundation
import QuireIngest
import QuireTestSupport

@testable import QuireTypeset

extension Corpus {
  /// The path of `name` when the corpus holds it.
  static func existingPath(_ name: String) -> String? { has(name) ? path(name) : nil }
}

/// Builds a Document chapter by chapter, keeping Locations consistent.
struct DocumentBuilder {
  var chapters: [Chapter] = []
  private var blocks: [Block] = []
  private var offset = 0
  var language: String? = "en"

  func style(_ f: (inout ComputedStyle) -> Void = { _ in }) -> ComputedStyle {
    var s = ComputedStyle()
    f(&s)
    return s
  }

  private mutating func loc() -> Location { Location(spine: chapters.count, offset: offset) }

  mutating func run(_ text: String, _ style: ComputedStyle = ComputedStyle()) -> Inline {
    let r = TextRun(text: text, style: style, location: loc())
    offset += text.unicodeScalars.count
    return .text(r)
  }

  mutating func lineBreak() -> Inline {
    defer { offset += 1 }
    return .lineBreak(loc())
  }

  mutating func block(
    _ kind: BlockKind, _ style: ComputedStyle, inlines: [Inline], element: String = "p"
  ) -> Block {
    let start: Location
    switch inlines.first {
    case .text(let r): start = r.location
    case .lineBreak(let l): start = l
    case .image(let i): start = i.location
    case .math(let m): start = m.location
    case .inlineBlock(let b): start = b.location
    case nil: start = loc()
    }
    return Block(kind: kind, style: style, inlines: inlines, location: start, element: element)
  }

  mutating func paragraph(_ text: String, _ style: ComputedStyle? = nil) {
    let st = style ?? self.style { $0.textIndent = .rem(1.5) }
    let r = run(text, st)
    blocks.append(block(.paragraph, st, inlines: [r]))
  }

  mutating func heading(_ text: String, level: Int = 2) {
    let st = style {
      $0.fontSize = 1.5
      $0.fontWeight = 700
      $0.margin = EdgeLengths(top: .rem(1.5), bottom: .rem(1))
      $0.textAlign = .center
    }
    let r = run(text, st)
    blocks.append(block(.heading(level: level), st, inlines: [r], element: "h\(level)"))
  }

  mutating func add(_ b: Block) { blocks.append(b) }

  mutating func endChapter(href: String? = nil, linear: Bool = true) {
    let i = chapters.count
    chapters.append(
      Chapter(
        spineIndex: i, href: href ?? "ch\(i).xhtml", mediaType: "application/xhtml+xml",
        linear: linear,
        size: offset, language: language, direction: nil, blocks: blocks, anchors: [:],
        length: offset))
    blocks = []
    offset = 0
  }

  func document(title: String = "Test", language: String? = "en", direction: TextDirection = .ltr)
    -> Document
  {
    Document(
      format: .html,
      metadata: BookMetadata(
        title: title, language: language, identifier: "test:\(title)", direction: direction),
      chapters: chapters, toc: [], fonts: [], images: [], resources: EmptyResourceStore(),
      warnings: [])
  }

  /// A plain-text novel: chapters at lines starting with "CHAPTER", paragraphs at blank lines.
  static func plainText(_ path: String, chapters maxChapters: Int, skipFront: Bool = true)
    -> Document?
  {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let text = String(decoding: data, as: UTF8.self)
    var b = DocumentBuilder()
    var para: [String] = []
    var started = !skipFront
    func flushPara(_ b: inout DocumentBuilder) {
      let t = para.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(
        separator: " ")
      para = []
      if !t.isEmpty { b.paragraph(t) }
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("CHAPTER ") {
        flushPara(&b)
        if started { b.endChapter() }
        if b.chapters.count >= maxChapters { return b.document(title: path) }
        started = true
        b.heading(trimmed)
        continue
      }
      guard started else { continue }
      if trimmed.isEmpty { flushPara(&b) } else { para.append(trimmed) }
    }
    flushPara(&b)
    if started { b.endChapter() }
    return b.document(title: path)
  }
}

/// Readable dump of pages: one line per LineBox.
func dump(_ pages: [Page], includeItems: Bool = false) -> String {
  var out = ""
  func f(_ v: Double) -> String { String(format: "%.1f", v) }
  for p in pages {
    out += "== page \(p.number) spine \(p.spine) [\(p.start.offset)..<\(p.end.offset)]\n"
    for l in p.lines {
      out +=
        "\(f(l.rect.y)) \(f(l.rect.x))+\(f(l.rect.width)) h\(f(l.rect.height)) b\(l.block) r\(String(format: "%.2f", l.ratio))"
      out += l.hyphenated ? " -" : ""
      out += " |\(l.text)|\n"
    }
    for i in p.images {
      out +=
        "image \(i.href) \(f(i.rect.x)),\(f(i.rect.y)) \(f(i.rect.width))x\(f(i.rect.height))\n"
    }
  }
  return out
}

/// Compares `actual` with the golden file, or rewrites it under QUIRE_BLESS=1.
func matchesGolden(_ name: String, _ actual: String) -> Bool {
  let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Goldens")
  let url = dir.appendingPathComponent(name)
  if ProcessInfo.processInfo.environment["QUIRE_BLESS"] == "1" {
    try? actual.write(to: url, atomically: true, encoding: .utf8)
    return true
  }
  guard let expected = try? String(contentsOf: url, encoding: .utf8) else { return false }
  if expected != actual {
    try? actual.write(
      to: URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(name),
      atomically: true, encoding: .utf8)
  }
  return expected == actual
}
