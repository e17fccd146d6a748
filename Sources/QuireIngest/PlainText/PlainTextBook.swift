// Plain text → Document.
//
// Decoding: TextDecoding.swift (BOM, UTF-8, else a legacy encoding guessed by uchardet and
// checked on a sample, EncodingDetection.swift; all through glibc iconv; forced names).
//
// Lines end at LF, CRLF, CR, NEL or U+2028, found on Unicode scalars (CRLF is one Swift
// `Character`). Paragraphs: a blank line separates paragraphs; hard-wrapped lines are joined
// (between two CJK characters without a space, otherwise with one space). A line that
// starts with an ideographic space (U+3000) starts a paragraph and keeps its indent in the
// text (Chinese typesetting indents paragraphs and verse that way). A line indented with
// ASCII spaces (title pages, centred lines) is a paragraph of its own; deeply indented ones
// are centred; in CJK text a small ASCII indent starts a paragraph that later lines join.
// A line that begins with a character no line may begin with (closing brackets, 。、！？…,
// small kana: UAX #14 classes CL, CP, EX, IN, NS) in CJK context continues the previous
// line, whatever else it looks like: the wrap was made where no break may fall.
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
import QuireCore

package enum PlainTextBook {
  static let maxChapterScalars = 200_000

  package static func document(from data: Data, path: String, options: IngestOptions)
    throws(IngestError) -> Document
  {
    let name = (path as NSString).lastPathComponent
    guard data.count <= options.limits.maxEntryBytes else {
      throw .limitExceeded(
        file: path, limit: .entryBytes,
        reason:
          "text file is \(data.count) bytes, over maxEntryBytes=\(options.limits.maxEntryBytes)")
    }
    let decoded = try TextDecoding.decode(data, forced: options.encoding, file: path)
    var warnings: [Diagnostic] = []
    if decoded.isUncertain, let guess = decoded.guess {
      warnings.append(
        Diagnostic(
          .guessedEncoding,
          file: path,
          message:
            "no byte-order mark and not UTF-8; read as \(decoded.encoding), a guess from \(guess.evidence) non-ASCII byte(s); name the encoding to be sure"
        ))
    }
    if decoded.replacements > 0 {
      warnings.append(
        Diagnostic(
          .invalidText,
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
    if parts.count > 1, let ext = parts.last, ["txt", "text"].contains(ext.lowercased()) {
      parts.removeLast()
    }
    let encodings: Set<String> = [
      "utf8", "utf-8", "utf16", "utf-16", "gb18030", "gbk", "gb2312", "big5", "latin1", "ascii",
      "sjis", "euc-jp",
    ]
    if parts.count > 1, let label = parts.last, encodings.contains(label.lowercased()) {
      parts.removeLast()
    }
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

  /// Whether a line break between `last` (the end of a line) and `first` (the start of the
  /// next) sits where CJK typesetting never breaks: before a character of a class that may
  /// not begin a line, in CJK context (either side East Asian).
  static func isCJKWrap(after last: Unicode.Scalar, before first: Unicode.Scalar) -> Bool {
    forbidsLineStart(first) && (isCJK(last) || isCJK(first))
  }

  /// Characters a line may not begin with: the UAX #14 line-break classes CL (closing
  /// punctuation: 」』）】》、。，), CP (`)` `]`), EX (！？), IN (… ‥) and NS (ー 々 ・ ：；
  /// ゝ, with the small kana of class CJ, as CSS `line-break: strict` treats them), plus the
  /// closing quotation marks ’ ” that CJK typography sets as closing brackets.
  static func forbidsLineStart(_ s: Unicode.Scalar) -> Bool {
    if s.properties.generalCategory == .closePunctuation { return true }  // CL, CP
    switch s.value {
    // CL beyond the close punctuation category.
    case 0x3001, 0x3002, 0xFE11, 0xFE12, 0xFE50, 0xFE52, 0xFF0C, 0xFF0E, 0xFF61, 0xFF64:
      return true
    // EX.
    case 0x21, 0x3F, 0x5C6, 0x61B, 0x61D...0x61F, 0x6D4, 0x7F9, 0xF0D...0xF11, 0xF14, 0x1802,
      0x1803, 0x1808, 0x1809, 0x1944, 0x1945, 0x2762, 0x2763, 0x2CF9, 0x2CFE, 0xA60E, 0xA876,
      0xA877, 0xFE15, 0xFE16, 0xFE56, 0xFE57, 0xFF01, 0xFF1F:
      return true
    // IN.
    case 0x2024...0x2026, 0x22EF, 0xFE19:
      return true
    // NS.
    case 0x17D6, 0x203C, 0x203D, 0x2047...0x2049, 0x3005, 0x301C, 0x303B, 0x303C,
      0x309B...0x309E, 0x30A0, 0x30FB, 0x30FD, 0x30FE, 0xA015, 0xFE54, 0xFE55, 0xFF1A, 0xFF1B,
      0xFF65, 0xFF9E, 0xFF9F:
      return true
    // CJ: small kana and the prolonged sound mark.
    case 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095,
      0x3096, 0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE,
      0x30F5, 0x30F6, 0x30FC, 0x31F0...0x31FF, 0xFF67...0xFF70:
      return true
    // Closing quotation marks (QU, set as closing brackets in CJK text).
    case 0x2019, 0x201D:
      return true
    default:
      return false
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

  /// The text's lines. Line ends are LF, CRLF, CR, NEL and U+2028, found on Unicode
  /// scalars (CRLF is one `Character`, so a split on "\n" would never see it); U+2029, the
  /// paragraph separator, also ends the paragraph (a blank line follows it).
  static func lines(_ text: String) -> [Substring] {
    let scalars = text.unicodeScalars
    var lines: [Substring] = []
    var start = scalars.startIndex
    var i = start
    while i < scalars.endIndex {
      let s = scalars[i]
      var next = scalars.index(after: i)
      switch s {
      case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
        lines.append(Substring(scalars[start..<i]))
        if s == "\u{2029}" { lines.append("") }
        if s == "\r", next < scalars.endIndex, scalars[next] == "\n" {
          next = scalars.index(after: next)
        }
        start = next
      default:
        break
      }
      i = next
    }
    lines.append(Substring(scalars[start..<scalars.endIndex]))
    return lines
  }

  static func split(_ text: String) -> [TextParagraph] {
    let lines = lines(text)
    var out: [TextParagraph] = []
    var i = 0
    while i < lines.count {
      if isBlank(lines[i]) {
        i += 1
        continue
      }
      var j = i
      while j < lines.count, !isBlank(lines[j]) { j += 1 }
      out += paragraphs(group: lines[i..<j])
      i = j
    }
    return out
  }

  /// The paragraphs of one group of non-blank lines (a group that is one heading-like line
  /// is a heading).
  static func paragraphs(group: ArraySlice<Substring>) -> [TextParagraph] {
    if group.count == 1, let only = group.first, isHeading(String(only)) {
      return [
        TextParagraph(
          text: only.trimmingCharacters(in: .whitespaces), isHeading: true, centered: false)
      ]
    }
    var out: [TextParagraph] = []
    // Whether the last paragraph takes a following plain line: not after a line indented
    // with ASCII spaces (title pages, verse), except in CJK text, where a small indent marks
    // a paragraph's start whatever space character makes it.
    var open = false
    for raw in group {
      // Trailing white space (ASCII and ideographic) is wrapping residue.
      var line = Substring(raw)
      while let l = line.unicodeScalars.last, l == " " || l == "\t" || l == "\u{3000}" {
        line = Substring(line.unicodeScalars.dropLast())
      }
      let asciiIndent = line.unicodeScalars.prefix { $0 == " " || $0 == "\t" }.count
      let body = Substring(line.unicodeScalars.dropFirst(asciiIndent))
      guard let first = body.unicodeScalars.first else { continue }
      let last = out.last?.text.unicodeScalars.last
      // A line that begins with closing punctuation was cut where no line may break: it
      // continues the previous line, whatever else it looks like.
      if let last, isCJKWrap(after: last, before: first) {
        out[out.count - 1].text += body
        continue
      }
      if asciiIndent > 0 {
        out.append(TextParagraph(text: String(body), isHeading: false, centered: asciiIndent >= 8))
        open = asciiIndent < 8 && isCJK(body.unicodeScalars.last ?? " ")
        continue
      }
      guard let last, open, first != "\u{3000}" else {
        out.append(TextParagraph(text: String(line), isHeading: false, centered: false))
        open = true
        continue
      }
      // Join a hard-wrapped line: nothing between two CJK characters, else one space.
      out[out.count - 1].text += (isCJK(last) && isCJK(first)) ? String(line) : " " + line
      open = true
    }
    return out
  }
}
