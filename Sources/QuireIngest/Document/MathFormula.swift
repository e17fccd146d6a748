// A formula of presentation MathML as the Document carries it: a small tree of MathML
// elements (`MathNode`), whether it is display or inline math, and a linear text form.
//
// Ingest keeps MathML's own vocabulary (element names, the attributes layout reads) instead
// of a TeX-like atom list: the typesetter (QuireTypeset/Math) lays the tree out by the
// MathML Core rules element by element, and a dump or a test reads like the source.
// Rejected: flattening into TextRuns (what this replaced: `a + b²` became "a + b 2"), and
// serializing the MathML for a renderer (there is no MathML renderer among our C libraries).
//
// The formula is one inline object: it counts as one character (U+FFFC) at its location, like
// an inline image, and its characters never enter the running text. Bounds are set at ingest
// (`MathLimits`): depth, node count, token length, so every consumer may recurse.

import Foundation

/// Caps on one formula, applied while it is read (Markup/MathMarkup.swift).
package enum MathLimits {
  /// Deeper elements become an `mtext` of their text content.
  package static let maxDepth = 40
  /// Elements kept per formula; later ones are dropped.
  package static let maxNodes = 20_000
  /// Unicode scalars kept per token element.
  package static let maxTokenScalars = 2_000
  /// Columns of an `mtable` row that are laid out.
  package static let maxColumns = 200
}

/// One MathML element of a formula.
package struct MathNode: Sendable, Hashable {
  /// The MathML elements layout distinguishes; anything else is read as `mrow`.
  package enum Kind: String, Sendable, Hashable, CaseIterable {
    case mrow, mi, mn, mo, mtext, ms, mspace, mpadded, mphantom, mstyle, merror
    case mfrac, msqrt, mroot, msub, msup, msubsup, mmultiscripts, mprescripts, none
    case munder, mover, munderover, mtable, mtr, mlabeledtr, mtd, menclose
  }
  package var kind: Kind
  /// A token element's text, white space collapsed and trimmed; empty for the others.
  package var text: String
  /// The attributes layout reads (names lower-cased).
  package var attributes: [String: String]
  package var children: [MathNode]

  package init(
    kind: Kind, text: String = "", attributes: [String: String] = [:], children: [MathNode] = []
  ) {
    self.kind = kind
    self.text = text
    self.attributes = attributes
    self.children = children
  }

  /// Whether this is a token element (its content is text).
  package var isToken: Bool { [.mi, .mn, .mo, .mtext, .ms].contains(kind) }
}

/// A whole `<math>` element.
package struct MathFormula: Sendable, Hashable {
  /// The formula's content as one `mrow` (the `math` element's children).
  package var root: MathNode
  /// `display="block"` (or a block display from CSS): a centred block of its own.
  package var display: Bool
  /// The `alttext` attribute, empty when absent.
  package var alttext: String
  package init(root: MathNode, display: Bool, alttext: String) {
    self.root = root
    self.display = display
    self.alttext = alttext
  }

  /// What the manifest shows: the alttext when given, else the linear form.
  package var text: String { alttext.isEmpty ? MathFormula.linear(root) : alttext }

  /// A linear text form: `a^2`, `(a)/(b)`, `√(x)`, `[a, b; c, d]`.
  package static func linear(_ n: MathNode) -> String {
    let c = n.children.map(linear)
    func at(_ i: Int) -> String { i < c.count ? c[i] : "" }
    func group(_ s: String) -> String { s.unicodeScalars.count <= 1 ? s : "(" + s + ")" }
    switch n.kind {
    case .mi, .mn, .mo, .mtext: return n.text
    case .ms: return "\"" + n.text + "\""
    case .mspace, .mprescripts, .none: return ""
    case .mfrac: return group(at(0)) + "/" + group(at(1))
    case .msqrt: return "√(" + c.joined() + ")"
    case .mroot: return "√[" + at(1) + "](" + at(0) + ")"
    case .msub, .munder: return at(0) + "_" + group(at(1))
    case .msup, .mover: return at(0) + "^" + group(at(1))
    case .msubsup, .munderover: return at(0) + "_" + group(at(1)) + "^" + group(at(2))
    case .mtable: return "[" + c.joined(separator: "; ") + "]"
    case .mtr, .mlabeledtr: return c.joined(separator: ", ")
    default:
      // A space between a script or fraction and what follows but an operator: `∑_(k=1)^n k`.
      var out = ""
      for (i, child) in n.children.enumerated() {
        out += c[i]
        if i + 1 < c.count, !child.isToken, child.kind != .mspace,
          ![.mo, .mspace].contains(n.children[i + 1].kind)
        {
          out += " "
        }
      }
      return out
    }
  }
}

/// A formula in a paragraph: one atomic inline box.
package struct InlineMath: Sendable {
  package var formula: MathFormula
  package var style: ComputedStyle
  /// Counts as one character (U+FFFC) at its location.
  package var location: Location
  package init(formula: MathFormula, style: ComputedStyle, location: Location) {
    self.formula = formula
    self.style = style
    self.location = location
  }
}
