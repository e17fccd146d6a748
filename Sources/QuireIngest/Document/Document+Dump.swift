// A readable, stable text dump of a Document for goldens and debugging: one line per block
// and per inline, indented by depth, with the block's kind, element, Location, lang/dir and
// the style values that differ from the defaults (for inlines: from their block's style).

import Foundation

extension Document {
  /// The whole book as text: metadata, TOC, then every chapter.
  package func textDump() -> String {
    var out =
      "document format=\(format.rawValue) title=\(quoted(metadata.title)) lang=\(metadata.language ?? "-") dir=\(metadata.direction.rawValue) chapters=\(chapters.count)\n"
    for w in warnings { out += "warning \(w)\n" }
    func dumpTOC(_ entries: [TOCEntry], _ depth: Int) {
      for e in entries {
        let loc = e.location.map { "\($0.spine):\($0.offset)" } ?? "-"
        out +=
          String(repeating: "  ", count: depth) + "toc \(quoted(e.title)) href=\(e.href) @\(loc)\n"
        if depth < 32 { dumpTOC(e.children, depth + 1) }
      }
    }
    dumpTOC(self.toc, 0)
    for c in chapters { out += c.textDump() }
    return out
  }
}

extension Chapter {
  package func textDump() -> String {
    var out =
      "chapter spine=\(spineIndex) href=\(href) lang=\(language ?? "-") dir=\(direction?.rawValue ?? "-") linear=\(linear) length=\(length)\n"
    if !anchors.isEmpty {
      let list = anchors.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map {
        "\($0.key)@\($0.value)"
      }
      out += "anchors " + list.joined(separator: " ") + "\n"
    }
    for b in blocks { b.dump(into: &out, depth: 1) }
    return out
  }

  /// The chapter's text in document order: every run (generated ones aside), a `<br>` as
  /// "\n", an inline image as U+FFFC, an inline block as its own text. Its scalar count equals
  /// `length`.
  package var plainText: String { Self.plainText(of: blocks) }

  static func plainText(of blocks: [Block]) -> String {
    var out = ""
    var stack: [Block] = blocks.reversed()
    while let b = stack.popLast() {
      for i in b.inlines {
        switch i {
        case .text(let r): if !r.generated { out += r.text }
        case .lineBreak: out += "\n"
        case .image: out += "\u{FFFC}"
        case .math: out += "\u{FFFC}"
        case .inlineBlock(let ib): out += Chapter.plainText(of: [ib.block])
        }
      }
      stack.append(contentsOf: b.children.reversed())
    }
    return out
  }
}

extension Block {
  func dump(into out: inout String, depth: Int) {
    let pad = String(repeating: "  ", count: depth)
    var line = pad + kindText + " <\(element.isEmpty ? "anon" : element)> @\(location.offset)"
    if let lang { line += " lang=\(lang)" }
    if let dir { line += " dir=\(dir.rawValue)" }
    let d = style.dumpDiff(from: ComputedStyle())
    if !d.isEmpty { line += " {\(d)}" }
    out += line + "\n"
    for i in inlines {
      switch i {
      case .text(let r):
        var l = pad + (r.generated ? "  generated" : "  text") + " @\(r.location.offset)"
        if let link = r.link { l += " link=\(link)" }
        if let rl = r.lang, rl != lang { l += " lang=\(rl)" }
        let rd = r.style.dumpDiff(from: style, inline: true)
        if !rd.isEmpty { l += " {\(rd)}" }
        out += l + " " + quoted(r.text) + "\n"
      case .lineBreak(let loc):
        out += pad + "  br @\(loc.offset)\n"
      case .image(let img):
        out +=
          pad + "  img @\(img.location.offset) src=\(img.image.href) alt=\(quoted(img.image.alt))\n"
      case .math(let m):
        out += pad + "  math @\(m.location.offset)\(m.formula.display ? " display" : "") "
        out += quoted(m.formula.text) + "\n"
      case .inlineBlock(let ib):
        out += pad + "  inline-block @\(ib.location.offset)..\(ib.end)\n"
        ib.block.dump(into: &out, depth: depth + 2)
      }
    }
    for c in children { c.dump(into: &out, depth: depth + 1) }
  }

  var kindText: String {
    switch kind {
    case .paragraph: return "paragraph"
    case .heading(let l): return "heading(\(l))"
    case .list(let o, let s): return o ? "list(ordered start=\(s))" : "list(unordered)"
    case .listItem(let m): return "item(\(quoted(m)))"
    case .blockquote: return "blockquote"
    case .preformatted: return "pre"
    case .rule: return "rule"
    case .figure: return "figure"
    case .caption: return "caption"
    case .image(let ref):
      var s = "image(src=\(ref.href) alt=\(quoted(ref.alt))"
      if let w = ref.width { s += " w=\(num(w))" }
      if let h = ref.height { s += " h=\(num(h))" }
      return s + ")"
    case .table: return "table"
    case .tableRow: return "row"
    case .tableCell(let h): return h ? "cell(header)" : "cell"
    case .container: return "container"
    }
  }
}

extension ComputedStyle {
  /// `key=value` pairs for the values that differ from `base`, in a fixed order.
  func dumpDiff(from base: ComputedStyle, inline: Bool = false) -> String {
    var p: [String] = []
    if fontFamilies != base.fontFamilies { p.append("font=\(fontFamilies.joined(separator: ","))") }
    if fontSize != base.fontSize { p.append("size=\(num(fontSize))") }
    if italic != base.italic { p.append(italic ? "italic" : "upright") }
    if fontWeight != base.fontWeight { p.append("weight=\(fontWeight)") }
    if smallCaps != base.smallCaps { p.append(smallCaps ? "small-caps" : "no-small-caps") }
    if !inline, textAlign != base.textAlign { p.append("align=\(textAlign.rawValue)") }
    if !inline, textIndent != base.textIndent { p.append("indent=\(textIndent.dump)") }
    if textTransform != base.textTransform { p.append("transform=\(textTransform.rawValue)") }
    if textFullWidth != base.textFullWidth { p.append("full-width") }
    if !inline, margin != base.margin { p.append("margin=\(margin.dump)") }
    if !inline, padding != base.padding { p.append("padding=\(padding.dump)") }
    if lineHeight != base.lineHeight {
      switch lineHeight {
      case .normal: p.append("line-height=normal")
      case .factor(let f): p.append("line-height=\(num(f))")
      case .length(let l): p.append("line-height=\(l.dump)")
      }
    }
    if !inline, breakBefore != base.breakBefore { p.append("break-before=\(breakBefore.rawValue)") }
    if !inline, breakAfter != base.breakAfter { p.append("break-after=\(breakAfter.rawValue)") }
    if !inline, breakInside != base.breakInside { p.append("break-inside=\(breakInside.rawValue)") }
    if whiteSpace != base.whiteSpace { p.append("white-space=\(whiteSpace.rawValue)") }
    if verticalAlign != base.verticalAlign { p.append("valign=\(verticalAlign.rawValue)") }
    if hyphens != base.hyphens { p.append("hyphens=\(hyphens.rawValue)") }
    if !inline, widows != base.widows { p.append("widows=\(widows)") }
    if !inline, orphans != base.orphans { p.append("orphans=\(orphans)") }
    if direction != base.direction { p.append("direction=\(direction?.rawValue ?? "-")") }
    if color != base.color {
      p.append(
        String(format: "color=#%02x%02x%02x", color.r, color.g, color.b)
          + (color.a == 255 ? "" : String(format: "%02x", color.a)))
    }
    if underline != base.underline { p.append(underline ? "underline" : "no-underline") }
    if lineThrough != base.lineThrough {
      p.append(lineThrough ? "line-through" : "no-line-through")
    }
    return p.joined(separator: " ")
  }
}

extension Length {
  var dump: String {
    switch self {
    case .rem(let r): return r == 0 ? "0" : "\(num(r))rem"
    case .percent(let p): return "\(num(p))%"
    }
  }
}

extension EdgeLengths {
  var dump: String { "\(top.dump),\(right.dump),\(bottom.dump),\(left.dump)" }
}

/// Up to four decimals, trailing zeros dropped.
private func num(_ v: Double) -> String {
  var s = String(format: "%.4f", v)
  while s.hasSuffix("0") { s.removeLast() }
  if s.hasSuffix(".") { s.removeLast() }
  return s == "-0" ? "0" : s
}

/// A Swift-style quoted string with control characters, soft hyphens and invisible
/// characters escaped so the dump stays one line per item.
private func quoted(_ s: String) -> String {
  var out = "\""
  for c in s.unicodeScalars {
    switch c {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\t": out += "\\t"
    case "\u{AD}", "\u{A0}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{200E}", "\u{200F}", "\u{FEFF}",
      "\u{2028}", "\u{2029}":
      out += "\\u{\(String(c.value, radix: 16, uppercase: true))}"
    default:
      if c.value < 0x20 || c.value == 0x7F {
        out += "\\u{\(String(c.value, radix: 16, uppercase: true))}"
      } else {
        out.unicodeScalars.append(c)
      }
    }
  }
  return out + "\""
}
