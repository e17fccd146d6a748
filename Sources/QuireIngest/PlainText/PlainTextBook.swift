// Plain text → Document.
//
// Decoding: TextDecoding.swift (BOM, UTF-8, else GB18030 via glibc iconv; forced names).
//
// Paragraphs: a blank line separates paragraphs; hard-wrapped lines are joined (between two
// CJK characters without a space, otherwise with one space). A line that starts with an
// ideographic space (U+3000) starts a paragraph and keeps its indent in the text (Chinese
// typesetting indents paragraphs and verse that way). A line indented with ASCII spaces
// (title pages, centred lines) is a paragraph of its own; deeply indented ones are centred.
//
// Headings: a line alone between blank lines that looks like a chapter title (`第…回`,
// `第…章`, `CHAPTER …`, `Chapter N`, or a short all-capitals line) becomes a heading and
// starts a new Chapter with its own spine index, so a 2 MB novel is many chapters. Text
// without headings is still cut at paragraph boundaries every `maxChapterScalars`, so no
// chapter is unbounded; both rules depend only on the text, so the split is deterministic.
//
// Styles come from the user-agent sheet (an h2 and a p), so plain text looks like markup.
//
// Rejected alternative: one paragraph per line (what a naive reader does); it breaks every
// hard-wrapped Project Gutenberg text into fragments and defeats justification.

import Foundation

public enum PlainTextBook {
  static let maxChapterScalars = 200_000

  public static func document(from data: Data, path: String, options: IngestOptions)
    throws(IngestError) -> Document
  {
    let name = (path as NSString).lastPathComponent
    guard data.count <= options.limits.maxEntryBytes else {
      throw .badData(
        file: path, reason: "text file larger than \(options.limits.maxEntryBytes) bytes")
    }
    let decoded = try TextDecoding.decode(data, forced: options.encoding, file: path)
    var warnings: [IngestWarning] = []
    if decoded.replacements > 0 {
      warnings.append(
        IngestWarning(
          file: path,
          message:
            "\(decoded.replacements) invalid byte sequence(s) in \(decoded.encoding) replaced with U+FFFD"
        ))
    }

    let paragraphs = TextParagraphs.split(decoded.text)
    let language = guessLanguage(decoded.text)
    let styles = UAStyles.shared

    // Chapters: cut before every heading, and inside long runs of paragraphs.
    var chapters: [Chapter] = []
    var toc: [TOCEntry] = []
    var current: [TextParagraph] = []
    var currentSize = 0
    func flush() {
      guard !current.isEmpty else { return }
      let spine = chapters.count
      var blocks: [Block] = []
      var offset = 0
      for p in current {
        let loc = Location(spine: spine, offset: offset)
        var style = p.isHeading ? styles.heading : styles.paragraph
        if p.centered { style.textAlign = .center }
        let runStyle = ChapterBuilder.inlineStyle(style)
        blocks.append(
          Block(
            kind: p.isHeading ? .heading(level: 2) : .paragraph, style: style,
            inlines: [.text(TextRun(text: p.text, style: runStyle, location: loc, lang: language))],
            location: loc, element: p.isHeading ? "h2" : "p", lang: language, dir: nil))
        offset += p.text.unicodeScalars.count
      }
      let anchor = "chapter-\(spine)"
      chapters.append(
        Chapter(
          spineIndex: spine, href: name, mediaType: "text/plain", linear: true,
          size: current.reduce(0) { $0 + $1.text.utf8.count },
          language: language, direction: .ltr, blocks: blocks, anchors: [anchor: 0], length: offset)
      )
      if let first = current.first, first.isHeading {
        toc.append(
          TOCEntry(
            title: first.text, href: "\(name)#\(anchor)",
            location: Location(spine: spine, offset: 0)))
      }
      current = []
      currentSize = 0
    }
    for p in paragraphs {
      if p.isHeading || currentSize >= maxChapterScalars { flush() }
      current.append(p)
      currentSize += p.text.unicodeScalars.count
    }
    flush()
    if chapters.isEmpty {
      chapters.append(
        Chapter(
          spineIndex: 0, href: name, mediaType: "text/plain", linear: true, size: 0,
          language: language,
          direction: .ltr, blocks: [], anchors: [:], length: 0))
    }

    var title = titleFromFileName(name)
    if title.isEmpty { title = toc.first?.title ?? name }
    return Document(
      format: .text,
      metadata: BookMetadata(title: title, language: language, direction: .ltr),
      chapters: chapters, toc: toc, fonts: [], images: [], resources: EmptyResourceStore(),
      warnings: warnings)
  }

  /// "xiyouji-journey-to-the-west.gb18030.txt" → "xiyouji-journey-to-the-west".
  static func titleFromFileName(_ name: String) -> String {
    var parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    if parts.count > 1, ["txt", "text"].contains(parts.last!.lowercased()) { parts.removeLast() }
    let encodings: Set<String> = [
      "utf8", "utf-8", "utf16", "utf-16", "gb18030", "gbk", "gb2312", "big5", "latin1", "ascii",
      "sjis", "euc-jp",
    ]
    if parts.count > 1, encodings.contains(parts.last!.lowercased()) { parts.removeLast() }
    return parts.joined(separator: ".")
  }

  /// "zh" when Han characters are most of the letters, else "en".
  static func guessLanguage(_ text: String) -> String {
    var han = 0
    var letters = 0
    for (i, s) in text.unicodeScalars.enumerated() {
      if i > 200_000 { break }
      if s.properties.isAlphabetic {
        letters += 1
        if TextParagraphs.isHan(s) { han += 1 }
      }
    }
    return letters > 0 && han * 2 > letters ? "zh" : "en"
  }
}

/// UA-sheet styles for plain-text blocks, computed once through the cascade.
struct UAStyles: Sendable {
  var paragraph: ComputedStyle
  var heading: ComputedStyle

  static let shared: UAStyles = {
    let html = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><h2>h</h2><p>p</p></body></html>"
    var options = IngestOptions()
    options.publisherStyles = false
    let converted = ChapterConverter(options: options, bookLanguage: nil) { _ in nil }
      .convert(
        ChapterSource(
          spineIndex: 0, href: "t.xhtml", mediaType: "application/xhtml+xml", linear: true,
          data: Data(html.utf8)))
    let body = converted.chapter.blocks.first
    let h = body?.children.first?.style ?? ComputedStyle()
    let p = body?.children.dropFirst().first?.style ?? ComputedStyle()
    return UAStyles(paragraph: p, heading: h)
  }()
}

struct TextParagraph: Sendable, Hashable {
  var text: String
  var isHeading: Bool
  var centered: Bool
}

enum TextParagraphs {
  static func isCJK(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0x1100...0x11FF, 0x2E80...0x2FFF, 0x3000...0x30FF, 0x3100...0x31FF, 0x3200...0x9FFF,
      0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF, 0xFE30...0xFE6F, 0xFF00...0xFFEF,
      0x20000...0x3FFFF:
      return true
    default: return false
    }
  }

  static func isHan(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return true
    default: return false
    }
  }

  static func isBlank(_ line: Substring) -> Bool {
    line.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
  }

  static func isHeading(_ line: String) -> Bool {
    let t = line.trimmingCharacters(in: .whitespaces)
    let scalars = Array(t.unicodeScalars)
    guard !scalars.isEmpty, scalars.count <= 80 else { return false }
    // 第…回 / 第…章 / 第…卷 / 第…節
    if scalars[0] == "第" {
      let numerals = Set("一二三四五六七八九十百千零〇○两兩0123456789０１２３４５６７８９".unicodeScalars)
      var i = 1
      while i < scalars.count, numerals.contains(scalars[i]) { i += 1 }
      if i > 1, i < scalars.count, "回章卷節节篇部".unicodeScalars.contains(scalars[i]) { return true }
    }
    let words = t.split(separator: " ", omittingEmptySubsequences: true)
    if let first = words.first, first == "CHAPTER" || first == "Chapter", words.count >= 2 {
      let n = words[1].trimmingCharacters(in: CharacterSet(charactersIn: ".:]"))
      if !n.isEmpty,
        n.allSatisfy({ $0.isNumber || "IVXLCDM".contains($0) })
          || words.count <= 6 && first == "CHAPTER"
      {
        return true
      }
    }
    // A short line in capitals: at least two letters, no lower-case letter.
    if scalars.count <= 60 {
      let letters = scalars.filter { $0.properties.isAlphabetic && !isCJK($0) }
      if letters.count >= 2, letters.allSatisfy({ !$0.properties.isLowercase }),
        letters.contains(where: { $0.properties.isUppercase })
      {
        return true
      }
    }
    return false
  }

  static func split(_ text: String) -> [TextParagraph] {
    var lines: [Substring] = []
    text.split(separator: "\n", omittingEmptySubsequences: false).forEach { l in
      var l = l
      if l.last == "\r" { l = l.dropLast() }
      lines.append(l)
    }
    var out: [TextParagraph] = []
    var i = 0
    while i < lines.count {
      if isBlank(lines[i]) {
        i += 1
        continue
      }
      // One group of non-blank lines.
      var j = i
      while j < lines.count, !isBlank(lines[j]) { j += 1 }
      let group = lines[i..<j]
      i = j
      if group.count == 1, isHeading(String(group.first!)) {
        out.append(
          TextParagraph(
            text: String(group.first!).trimmingCharacters(in: .whitespaces), isHeading: true,
            centered: false))
        continue
      }
      var current: String? = nil
      var currentOwnLine = false
      func finish() {
        if let c = current {
          out.append(TextParagraph(text: c, isHeading: false, centered: false))
        }
        current = nil
      }
      for raw in group {
        // Trailing white space (ASCII and ideographic) is wrapping residue.
        var line = Substring(raw)
        while let l = line.unicodeScalars.last, l == " " || l == "\t" || l == "\u{3000}" {
          line = Substring(line.unicodeScalars.dropLast())
        }
        let asciiIndent = line.unicodeScalars.prefix { $0 == " " || $0 == "\t" }.count
        if asciiIndent > 0 {
          finish()
          let body = String(line.unicodeScalars.dropFirst(asciiIndent))
          out.append(TextParagraph(text: body, isHeading: false, centered: asciiIndent >= 8))
          currentOwnLine = true
          continue
        }
        if line.unicodeScalars.first == "\u{3000}" || current == nil || currentOwnLine {
          finish()
          current = String(line)
          currentOwnLine = false
          continue
        }
        // Join a hard-wrapped line.
        let prev = current!.unicodeScalars.last!
        let next = line.unicodeScalars.first!
        current! += (isCJK(prev) && isCJK(next)) ? String(line) : " " + line
      }
      finish()
    }
    return out
  }
}
