// Reading a `<math>` element of the parsed markup into a `MathFormula`.
//
// Colour: every element's style is computed with the book's CSS (selectors, `style`
// attributes) and MathML's presentational hints (`mathcolor` = `color`, `mathbackground` =
// `background-color`, below author rules); an element whose colour differs from its
// parent's, or that has a background, carries it to layout as a `#rrggbbaa` attribute.
//
// Presentation MathML only: `semantics` and `maction` render their first child,
// `annotation`/`annotation-xml` are dropped, and an element layout does not know becomes an
// `mrow` of its children, reported once per element name (`unknown`). Token elements keep
// their text with white space collapsed (MathML Core trims and collapses it too).
//
// Bounds (`MathLimits`): below `maxDepth` an element becomes an `mtext` of its text content
// (read with an explicit stack), after `maxNodes` elements the rest of the formula is
// dropped, and a token keeps at most `maxTokenScalars` scalars — so a 10,000-deep nesting
// or a 100,000-cell table costs linear time and a bounded tree.

import Foundation
import QuireCore

struct MathMarkup {
  static let namespace = "http://www.w3.org/1998/Math/MathML"
  let tree: MarkupTree
  /// Element names read as `mrow` because layout does not know them.
  private(set) var unknown: Set<String> = []
  /// Whether the node cap cut the formula short.
  private(set) var truncated = false
  private var nodes = 0

  init(tree: MarkupTree) { self.tree = tree }

  /// Whether node `n` is a `<math>` element (the MathML namespace, or no namespace in a
  /// document the HTML parser read).
  static func isMath(_ node: MarkupNode) -> Bool {
    node.kind == .element && node.name == "math"
      && (node.namespace == namespace || node.namespace.isEmpty)
  }

  /// The formula of `<math>` element `n`, whose own style is `style`; `styler` computes an
  /// element's style from its parent's (the book's CSS and the `mathcolor`/`mathbackground`
  /// hints, `hints(_:)`).
  mutating func formula(
    _ n: Int, displayBlock: Bool, style: ElementStyle = ElementStyle(),
    styler: (Int, ElementStyle) -> ElementStyle = { $1 }
  ) -> MathFormula {
    let node = tree.nodes[n]
    let display = displayBlock || node.attribute("display")?.lowercased() == "block"
    var root = MathNode(kind: .mrow, children: children(of: n, depth: 1, style, styler))
    if let v = node.attribute("displaystyle") { root.attributes["displaystyle"] = v }
    root.attributes["displaystyle"] =
      root.attributes["displaystyle"] ?? (display ? "true" : "false")
    return MathFormula(root: root, display: display, alttext: node.attribute("alttext") ?? "")
  }

  private static let kept: Set<String> = [
    "mathvariant", "displaystyle", "scriptlevel", "linethickness", "form", "stretchy",
    "symmetric", "largeop", "movablelimits", "accent", "accentunder", "lspace", "rspace", "width",
    "height", "depth", "voffset", "notation", "columnalign", "columnspan", "rowspan",
    "mathsize", "minsize", "maxsize", "lquote", "rquote", "columnspacing", "rowspacing", "side",
  ]
  private static let transparent: Set<String> = ["semantics", "maction"]
  private static let dropped: Set<String> = ["annotation", "annotation-xml", "none-ignored"]

  /// MathML Core's presentational hints: `mathcolor` is CSS `color`, `mathbackground` is
  /// `background-color` (below every author rule, as HTML's hints are).
  static func hints(_ node: MarkupNode) -> [CSSDeclaration] {
    var css = ""
    for (attribute, property) in [("mathcolor", "color"), ("mathbackground", "background-color")] {
      guard let v = node.attribute(attribute), !v.contains(";"), !v.contains("}") else { continue }
      css += "\(property): \(v.prefix(64));"
    }
    return css.isEmpty ? [] : CSSRuleParser.styleAttribute(css, baseHref: "")
  }

  /// `#rrggbbaa`, the form the color attributes of a math node carry to layout.
  static func hex(_ c: RGBA) -> String {
    "#" + [c.r, c.g, c.b, c.a].map { String(format: "%02x", $0) }.joined()
  }

  private mutating func children(
    of n: Int, depth: Int, _ parent: ElementStyle, _ styler: (Int, ElementStyle) -> ElementStyle
  ) -> [MathNode] {
    var out: [MathNode] = []
    for c in tree.nodes[n].children where tree.nodes[c].kind == .element {
      if let node = element(c, depth: depth, parent, styler) { out.append(node) }
    }
    return out
  }

  /// Element `n` as a math node; nil when it is dropped. Its colour (when it differs from
  /// its parent's) and background travel as the `mathcolor`/`mathbackground` attributes,
  /// resolved to `#rrggbbaa`.
  private mutating func element(
    _ n: Int, depth: Int, _ parent: ElementStyle, _ styler: (Int, ElementStyle) -> ElementStyle
  ) -> MathNode? {
    let node = tree.nodes[n]
    if Self.dropped.contains(node.name) { return nil }
    guard nodes < MathLimits.maxNodes else {
      truncated = true
      return nil
    }
    nodes += 1
    if Self.transparent.contains(node.name) {
      guard let first = tree.nodes[n].children.first(where: { tree.nodes[$0].kind == .element })
      else { return nil }
      return element(first, depth: depth, parent, styler)
    }
    if depth >= MathLimits.maxDepth {
      truncated = true
      return MathNode(kind: .mtext, text: Self.token(tree.textContent(of: n)))
    }
    var attributes: [String: String] = [:]
    for a in node.attributes where Self.kept.contains(a.name) { attributes[a.name] = a.value }
    let style = styler(n, parent)
    if style.computed.color != parent.computed.color {
      attributes["mathcolor"] = Self.hex(style.computed.color)
    }
    if let bg = style.box.background.color, bg.a > 0 { attributes["mathbackground"] = Self.hex(bg) }
    guard let kind = MathNode.Kind(rawValue: node.name) else {
      if unknown.count < 64 { unknown.insert(node.name) }
      return MathNode(
        kind: .mrow, attributes: attributes,
        children: children(of: n, depth: depth + 1, style, styler))
    }
    var out = MathNode(kind: kind, attributes: attributes)
    if out.isToken {
      out.text = Self.token(tree.textContent(of: n))
    } else {
      out.children = children(of: n, depth: depth + 1, style, styler)
    }
    return out
  }

  /// Token text: white space collapsed and trimmed, capped.
  static func token(_ s: String) -> String {
    var out = String.UnicodeScalarView()
    var space = false
    var count = 0
    for v in s.unicodeScalars {
      if count >= MathLimits.maxTokenScalars { break }
      if v == " " || v == "\n" || v == "\t" || v == "\r" {
        space = !out.isEmpty
        continue
      }
      if space {
        out.append(" ")
        count += 1
        space = false
      }
      out.append(v)
      count += 1
    }
    return String(out)
  }
}

extension MathMarkup {
  /// What a chapter's MathML reading found worth a warning.
  struct Report {
    /// Element names read as `mrow`.
    var unknown: Set<String> = []
    /// Formulas cut by `MathLimits`.
    var truncated = 0

    /// Reads `<math>` element `n`, noting unknown elements and truncation.
    mutating func read(
      _ n: Int, tree: MarkupTree, displayBlock: Bool, style: ElementStyle = ElementStyle(),
      styler: (Int, ElementStyle) -> ElementStyle = { $1 }
    ) -> MathFormula {
      var reader = MathMarkup(tree: tree)
      let f = reader.formula(n, displayBlock: displayBlock, style: style, styler: styler)
      if unknown.count < 64 { unknown.formUnion(reader.unknown) }
      if reader.truncated { truncated += 1 }
      return f
    }

    /// One diagnostic per unknown element name, and one for truncated formulas.
    func diagnostics(file: String, spine: Int) -> [Diagnostic] {
      var out = unknown.sorted().map {
        Diagnostic(
          .mathMarkup, file: file, spine: spine,
          message: "MathML element <\($0)> is not supported; laid out as <mrow>")
      }
      if truncated > 0 {
        out.append(
          Diagnostic(
            .mathLimit, file: file, spine: spine,
            message:
              "\(truncated) formula(s) nested deeper than \(MathLimits.maxDepth) or larger than \(MathLimits.maxNodes) elements were cut"
          ))
      }
      return out
    }
  }
}

extension Diagnostic.Kind {
  /// MathML that layout does not know, read as `mrow`.
  package static let mathMarkup = Diagnostic.Kind("mathMarkup")
  /// Formulas nested deeper or larger than `MathLimits` allow were cut.
  package static let mathLimit = Diagnostic.Kind("mathLimit")
}
