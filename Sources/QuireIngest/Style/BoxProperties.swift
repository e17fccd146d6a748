// Box properties → `BoxStyle` (see Document/BoxStyle.swift): borders and their shorthands,
// corner radii, backgrounds, sizes, `box-sizing`, `margin: auto`, float/clear, overflow,
// `display: inline-block` and the table border model. Each parser takes the declaration's
// tokens without white space and leaves the style untouched when the value is invalid, as
// CSS requires ("ignored declaration"), so one bad value never resets a good earlier one.
//
// Background image layers are kept as written (`BackgroundLayer`): sizes and positions
// depend on the box and the image, which the painter knows.

import Foundation
import QuireCore

/// URL tokens of a declaration, resolved against the sheet or document they came from, so
/// the cascade hands the painter hrefs inside the book. `data:` URLs stay as written.
enum CSSURL {
  static func resolving(_ decls: [CSSDeclaration], against base: String) -> [CSSDeclaration] {
    decls.map { d in
      guard
        d.value.contains(where: { $0.kind == .url || ($0.kind == .function && $0.text == "url") })
      else { return d }
      var d = d
      d.value = resolving(d.value, against: base)
      return d
    }
  }

  /// `url(x)` and `url("x")` become one `.url` token holding the resolved href.
  static func resolving(_ tokens: [CSSToken], against base: String) -> [CSSToken] {
    var out: [CSSToken] = []
    var i = 0
    while i < tokens.count {
      let t = tokens[i]
      if t.kind == .url {
        out.append(CSSToken(kind: .url, text: resolve(t.text, base)))
      } else if t.kind == .function, t.text.lowercased() == "url",
        let s = tokens[(i + 1)...].first(where: { !$0.isWhitespace }), s.kind == .string,
        let close = tokens[(i + 1)...].firstIndex(where: { $0.kind == .closeParen })
      {
        out.append(CSSToken(kind: .url, text: resolve(s.text, base)))
        i = close
      } else {
        out.append(t)
      }
      i += 1
    }
    return out
  }

  private static func resolve(_ url: String, _ base: String) -> String {
    let u = url.trimmingCharacters(in: .whitespaces)
    if u.lowercased().hasPrefix("data:") || u.isEmpty { return u }
    return PathResolver.resolve(u, against: base)
  }
}

extension StyleComputer {
  /// Applies a box property; false when `d` is not one (the caller tries other groups).
  static func applyBox(_ d: CSSDeclaration, _ v: [CSSToken], _ s: inout ElementStyle) -> Bool {
    let fs = s.computed.fontSize
    let k = keyword(v)
    let name = d.name
    if name.hasPrefix("border") && applyBorder(name, v, fs, &s.box) { return true }
    if name.hasPrefix("background") { return applyBackground(name, v, &s.box.background) }
    if mentionsColumn(name) || name == "gap", applyColumns(name, v, fs, &s) { return true }
    switch name {
    case "margin", "margin-left", "margin-right", "margin-top", "margin-bottom":
      return applyMarginAuto(name, v, fs, &s)
    case "width": if case .valid(let l) = size(v, fs, none: "auto") { s.box.width = l }
    case "height": if case .valid(let l) = size(v, fs, none: "auto") { s.box.height = l }
    case "min-width": if case .valid(let l) = size(v, fs, none: "auto") { s.box.minWidth = l }
    case "min-height": if case .valid(let l) = size(v, fs, none: "auto") { s.box.minHeight = l }
    case "max-width": if case .valid(let l) = size(v, fs, none: "none") { s.box.maxWidth = l }
    case "max-height": if case .valid(let l) = size(v, fs, none: "none") { s.box.maxHeight = l }
    case "box-sizing", "-webkit-box-sizing", "-moz-box-sizing":
      if k == "border-box" { s.box.boxSizing = .borderBox }
      if k == "content-box" { s.box.boxSizing = .contentBox }
    case "float":
      if let k, let f = FloatSide(rawValue: k) { s.box.float = f }
    case "clear":
      if let k, let c = ClearSide(rawValue: k) { s.box.clear = c }
    case "initial-letter", "-webkit-initial-letter":
      if k == "normal" { s.box.initialLetter = nil }
      if let l = InitialLetter.parse(v) { s.box.initialLetter = l }
    case "overflow", "overflow-x", "overflow-y":
      if let k { s.box.clipsOverflow = ["hidden", "clip", "scroll", "auto"].contains(k) }
    case "box-decoration-break", "-webkit-box-decoration-break":
      if k == "clone" { s.box.decorationClone = true }
      if k == "slice" { s.box.decorationClone = false }
    case "text-overflow":
      // CSS Overflow 3 §3.2: one keyword (a string or the two-value form is not supported).
      if k == "ellipsis" { s.box.textOverflowEllipsis = true }
      if k == "clip" { s.box.textOverflowEllipsis = false }
    case "border-collapse":
      if k == "collapse" { s.box.collapsesBorders = true }
      if k == "separate" { s.box.collapsesBorders = false }
    default:
      return false
    }
    return true
  }

  /// Whether a property name holds "column", by a walk over its bytes. `String.contains(_:)`
  /// resolves to Foundation's here, a CFString search of ~5,000 instructions per
  /// declaration (2 % of a paginate of moby-dick); the generic `firstRange(of:)` of the
  /// standard library was slower still (~27,000).
  static func mentionsColumn(_ name: String) -> Bool {
    let pattern = ("column" as StaticString).utf8Start
    var matched = 0
    for b in name.utf8 {
      if b == pattern[matched] {
        matched += 1
        if matched == 6 { return true }
      } else {
        // "c" occurs only first in the pattern: a mismatch restarts at it or before it.
        matched = b == pattern[0] ? 1 : 0
      }
    }
    return false
  }

  private enum SizeValue {
    /// A length, or nil for `auto`/`none`.
    case valid(Length?)
    case invalid
  }

  private static func size(_ v: [CSSToken], _ fs: Double, none: String) -> SizeValue {
    guard v.count == 1 else { return .invalid }
    if keyword(v) == none { return .valid(nil) }
    guard let l = length(v[0], fontSize: fs) else { return .invalid }
    if case .rem(let r) = l, r < 0 { return .invalid }
    if case .percent(let p) = l, p < 0 { return .invalid }
    return .valid(l)
  }

  /// `margin` and `margin-left/right/top/bottom` with `auto`: the auto sides are flagged and
  /// their lengths are 0. Without `auto` the flags reset and the caller sets the lengths
  /// (false). Vertical auto margins matter to absolutely positioned boxes only.
  private static func applyMarginAuto(
    _ name: String, _ v: [CSSToken], _ fs: Double, _ s: inout ElementStyle
  ) -> Bool {
    func isAuto(_ t: CSSToken) -> Bool { t.kind == .ident && t.text.lowercased() == "auto" }
    guard v.contains(where: isAuto) else {
      if name == "margin" || name == "margin-left" { s.box.marginLeftAuto = false }
      if name == "margin" || name == "margin-right" { s.box.marginRightAuto = false }
      if name == "margin" || name == "margin-top" { s.box.marginTopAuto = false }
      if name == "margin" || name == "margin-bottom" { s.box.marginBottomAuto = false }
      return false
    }
    let lengths = v.map { isAuto($0) ? Length.zero : length($0, fontSize: fs) }
    guard lengths.allSatisfy({ $0 != nil }) else { return true }
    switch name {
    case "margin-left":
      s.computed.margin.left = .zero
      s.box.marginLeftAuto = true
    case "margin-right":
      s.computed.margin.right = .zero
      s.box.marginRightAuto = true
    case "margin-top":
      s.computed.margin.top = .zero
      s.box.marginTopAuto = true
    case "margin-bottom":
      s.computed.margin.bottom = .zero
      s.box.marginBottomAuto = true
    default:
      guard let e = fourSides(lengths.map { $0! }), let autos = fourSides(v.map(isAuto)) else {
        return true
      }
      s.computed.margin = EdgeLengths(top: e[0], right: e[1], bottom: e[2], left: e[3])
      s.box.marginTopAuto = autos[0]
      s.box.marginRightAuto = autos[1]
      s.box.marginBottomAuto = autos[2]
      s.box.marginLeftAuto = autos[3]
    }
    return true
  }

  // MARK: borders

  static func borderWidth(_ t: CSSToken, _ fs: Double) -> Length? {
    if t.kind == .ident {
      switch t.text.lowercased() {
      case "thin": return .rem(1.0 / 16)
      case "medium": return .rem(3.0 / 16)
      case "thick": return .rem(5.0 / 16)
      default: return nil
      }
    }
    guard let l = length(t, fontSize: fs), case .rem(let r) = l, r >= 0 else { return nil }
    return l
  }

  /// `border`, `border-<side>`: width, style and colour in any order, each optional;
  /// omitted ones reset to their initial values.
  static func borderSide(_ v: [CSSToken], _ fs: Double) -> BorderSide? {
    var side = BorderSide()
    var sawStyle = false
    var sawWidth = false
    var sawColor = false
    for part in colorAwareParts(v) {
      if !sawStyle, part.count == 1, part[0].kind == .ident,
        let st = BorderStyle(rawValue: part[0].text.lowercased())
      {
        side.style = st
        sawStyle = true
      } else if !sawWidth, part.count == 1, let w = borderWidth(part[0], fs) {
        side.width = w
        sawWidth = true
      } else if !sawColor, let c = color(part) {
        side.color = c
        sawColor = true
      } else if part.count == 1, part[0].kind == .ident,
        part[0].text.lowercased() == "currentcolor", !sawColor
      {
        sawColor = true
      } else {
        return nil
      }
    }
    return v.isEmpty ? nil : side
  }

  /// Splits a value into its components, keeping a function (`rgb(…)`) and its arguments in
  /// one part.
  static func colorAwareParts(_ v: [CSSToken]) -> [[CSSToken]] {
    var parts: [[CSSToken]] = []
    var depth = 0
    for t in v {
      if depth > 0 {
        parts[parts.count - 1].append(t)
      } else {
        parts.append([t])
      }
      if t.kind == .function || t.kind == .openParen { depth += 1 }
      if t.kind == .closeParen { depth = max(0, depth - 1) }
    }
    return parts
  }

  /// 1–4 values → top, right, bottom, left (CSS's box shorthand rule).
  static func fourSides<T>(_ values: [T]) -> [T]? {
    switch values.count {
    case 1: return [values[0], values[0], values[0], values[0]]
    case 2: return [values[0], values[1], values[0], values[1]]
    case 3: return [values[0], values[1], values[2], values[1]]
    case 4: return values
    default: return nil
    }
  }

  private static func applyBorder(
    _ name: String, _ v: [CSSToken], _ fs: Double, _ box: inout BoxStyle
  ) -> Bool {
    let sides: [WritableKeyPath<BorderSides, BorderSide>] = [\.top, \.right, \.bottom, \.left]
    let sideNames = ["top", "right", "bottom", "left"]
    switch name {
    case "border":
      if let side = borderSide(v, fs) { for p in sides { box.border[keyPath: p] = side } }
      return true
    case "border-width":
      let ws = v.compactMap { borderWidth($0, fs) }
      if ws.count == v.count, let w = fourSides(ws) {
        for (p, x) in zip(sides, w) { box.border[keyPath: p].width = x }
      }
      return true
    case "border-style":
      let st = v.compactMap {
        $0.kind == .ident ? BorderStyle(rawValue: $0.text.lowercased()) : nil
      }
      if st.count == v.count, let st = fourSides(st) {
        for (p, x) in zip(sides, st) { box.border[keyPath: p].style = x }
      }
      return true
    case "border-color":
      let parts = colorAwareParts(v)
      let cs = parts.compactMap { color($0) }
      if cs.count == parts.count, let cs = fourSides(cs) {
        for (p, x) in zip(sides, cs) { box.border[keyPath: p].color = x }
      }
      return true
    case "border-radius", "-webkit-border-radius", "-moz-border-radius":
      let horizontal = v.split(whereSeparator: { $0.kind == .delim && $0.text == "/" }).first ?? []
      let rs = horizontal.compactMap { radius($0, fs) }
      if rs.count == horizontal.count, let rs = fourSides(rs) {
        box.radius.topLeft = rs[0]
        box.radius.topRight = rs[1]
        box.radius.bottomRight = rs[2]
        box.radius.bottomLeft = rs[3]
      }
      return true
    case "border-top-left-radius", "border-top-right-radius", "border-bottom-right-radius",
      "border-bottom-left-radius":
      guard let first = v.first, let r = radius(first, fs) else { return true }
      switch name {
      case "border-top-left-radius": box.radius.topLeft = r
      case "border-top-right-radius": box.radius.topRight = r
      case "border-bottom-right-radius": box.radius.bottomRight = r
      default: box.radius.bottomLeft = r
      }
      return true
    case "border-spacing":
      let ls = v.compactMap { length($0, fontSize: fs) }
      guard ls.count == v.count, (1...2).contains(ls.count) else { return true }
      box.borderSpacingX = ls[0]
      box.borderSpacingY = ls.count == 2 ? ls[1] : ls[0]
      return true
    default:
      break
    }
    for (p, side) in zip(sides, sideNames) where name.hasPrefix("border-\(side)") {
      switch name.dropFirst("border-\(side)".count) {
      case "":
        if let b = borderSide(v, fs) { box.border[keyPath: p] = b }
      case "-width":
        if v.count == 1, let w = borderWidth(v[0], fs) { box.border[keyPath: p].width = w }
      case "-style":
        if let k = keyword(v), let st = BorderStyle(rawValue: k) {
          box.border[keyPath: p].style = st
        }
      case "-color":
        if let c = color(v) { box.border[keyPath: p].color = c }
      default:
        return false
      }
      return true
    }
    return false
  }

  private static func radius(_ t: CSSToken, _ fs: Double) -> Length? {
    guard let l = length(t, fontSize: fs) else { return nil }
    switch l {
    case .rem(let r) where r >= 0, .percent(let r) where r >= 0: return l
    default: return nil
    }
  }

  // MARK: backgrounds

  /// `background-color`, `background-image`, `-repeat`, `-position`, `-size` and the
  /// `background` shorthand (its last layer's colour and every layer's image).
  private static func applyBackground(
    _ name: String, _ v: [CSSToken], _ bg: inout BoxBackground
  ) -> Bool {
    switch name {
    case "background-color":
      if let c = color(v) { bg.color = c }
    case "background":
      var fresh = BoxBackground()
      for layer in layers(v) {
        let parts = colorAwareParts(layer)
        if let l = backgroundLayer(parts) { fresh.layers.append(l) }
        for p in parts {
          if let c = color(p) { fresh.color = c }
        }
      }
      bg = fresh
    case "background-image":
      if keyword(v) == "none" {
        bg.layers = []
      } else {
        let layers = layers(v).compactMap {
          backgroundLayer(colorAwareParts(Array($0)))
        }
        if !layers.isEmpty { bg.layers = layers }
      }
    case "background-repeat", "background-position", "background-size":
      let values = layers(v).map { written(Array($0)) }
      for i in bg.layers.indices where !values.isEmpty {
        let value = values[i % values.count]
        switch name {
        case "background-repeat": bg.layers[i].repeatValue = value
        case "background-position": bg.layers[i].position = value
        default: bg.layers[i].size = value
        }
      }
    default:
      return false
    }
    return true
  }

  /// The image of one shorthand or `background-image` layer, with the shorthand's repeat,
  /// position and size words kept as written.
  private static func backgroundLayer(_ parts: [[CSSToken]]) -> BackgroundLayer? {
    var layer: BackgroundLayer? = nil
    var rest: [CSSToken] = []
    for p in parts {
      if p.count == 1, p[0].kind == .url, !p[0].text.isEmpty {
        layer = BackgroundLayer(source: .url(p[0].text))
      } else if p.first?.kind == .function,
        ["linear-gradient", "-webkit-linear-gradient", "-moz-linear-gradient"].contains(
          p[0].text.lowercased())
      {
        layer = BackgroundLayer(source: .linearGradient(written(Array(p.dropFirst().dropLast()))))
      } else if color(p) == nil {
        rest += p
      }
    }
    guard var layer else { return nil }
    let words = rest.map { $0 }
    let repeats = ["repeat", "repeat-x", "repeat-y", "no-repeat", "space", "round"]
    let rep = words.filter { $0.kind == .ident && repeats.contains($0.text.lowercased()) }
    if !rep.isEmpty { layer.repeatValue = written(rep) }
    let placement = words.filter { !($0.kind == .ident && repeats.contains($0.text.lowercased())) }
    let slash = placement.split(
      maxSplits: 1, omittingEmptySubsequences: false,
      whereSeparator: { $0.kind == .delim && $0.text == "/" })
    let position = slash.first.map { Array($0) } ?? []
    let scrollWords = ["scroll", "fixed", "local", "border-box", "padding-box", "content-box"]
    let pos = position.filter { !($0.kind == .ident && scrollWords.contains($0.text.lowercased())) }
    if !pos.isEmpty { layer.position = written(pos) }
    if slash.count == 2 {
      let size = slash[1].filter {
        !($0.kind == .ident && scrollWords.contains($0.text.lowercased()))
      }
      if !size.isEmpty { layer.size = written(size) }
    }
    return layer
  }

  /// The comma-separated layers of a value; commas inside functions do not separate.
  static func layers(_ v: [CSSToken]) -> [[CSSToken]] {
    var out: [[CSSToken]] = [[]]
    for part in colorAwareParts(v) {
      if part.count == 1, part[0].kind == .comma {
        out.append([])
      } else {
        out[out.count - 1] += part
      }
    }
    return out.filter { !$0.isEmpty }
  }

  /// Tokens back to text, one space between components (for values kept as written).
  static func written(_ tokens: [CSSToken]) -> String {
    tokens.map { t -> String in
      switch t.kind {
      case .number: return format(t.number)
      case .percentage: return format(t.number) + "%"
      case .dimension: return format(t.number) + t.unit
      case .function: return t.text + "("
      case .closeParen: return ")"
      case .comma: return ","
      case .hash: return "#" + t.text
      case .url: return "url(" + t.text + ")"
      case .string: return "\"" + t.text + "\""
      default: return t.text
      }
    }.joined(separator: " ")
  }

  private static func format(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
  }
}

extension InitialLetter {
  /// `<number> [<integer> | drop | raise]?` (CSS Inline 3 §7.2); nil when invalid. The size
  /// is at least 1 and at most `maxLines`, the sink at least 1 and at most the size's lines.
  static func parse(_ v: [CSSToken]) -> InitialLetter? {
    guard let first = v.first, first.kind == .number, first.number >= 1, first.number.isFinite,
      v.count <= 2
    else { return nil }
    let size = min(Double(maxLines), first.number)
    let drop = Int(size.rounded(.down))
    var sink = drop
    if v.count == 2 {
      let t = v[1]
      switch t.kind {
      case .number where t.number >= 1 && t.number == t.number.rounded() && t.number.isFinite:
        sink = Int(min(Double(maxLines), t.number))
      case .ident where t.text.lowercased() == "drop": sink = drop
      case .ident where t.text.lowercased() == "raise": sink = 1
      default: return nil
      }
    }
    return InitialLetter(size: size, sink: max(1, sink))
  }
}
