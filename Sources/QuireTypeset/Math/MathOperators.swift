// The operator dictionary: for an `mo`'s text and form, its spacing and properties.
//
// Source: the MathML Core operator dictionary (W3C MathML Core, appendix "Operator
// Dictionary"), which groups every entry into categories that share one form, one
// lspace/rspace pair (in 1/18 em) and one set of properties. This table is written from those
// categories for the operators books use (arrows, relations, binary operators, fences,
// integrals, n-ary sums and products, accents and braces, punctuation); it is not the whole
// dictionary. Anything not listed gets MathML Core's default: 5/18 em on both sides and no
// properties. The lookup takes the form asked for, then infix, postfix, prefix (MathML Core
// §"Dictionary-based attributes"), so "(" between two letters (`f(x)`) is unspaced as in
// TeX; Chromium spaces it wider (Benchmarks/mathml.md).
//
// Rejected: the MathML 3 dictionary with its per-entry priorities (Core dropped them) and
// reading the dictionary from a data file at run time (one more file to find and trust).

/// An operator's dictionary values.
struct MathOperator: Hashable, Sendable {
  enum Form: Hashable, Sendable { case prefix, infix, postfix }
  var form: Form
  /// Space before and after, in em.
  var lspace: Double
  var rspace: Double
  var stretchy = false
  var symmetric = false
  var largeop = false
  var movablelimits = false

  static let defaultSpacing = 5.0 / 18
}

enum MathOperators {
  private struct Category {
    var form: MathOperator.Form
    var lspace: Double
    var rspace: Double
    var stretchy = false, symmetric = false, largeop = false, movablelimits = false
    var members: String
  }

  private static let categories: [Category] = [
    // A: stretchy arrows.
    Category(
      form: .infix, lspace: 5, rspace: 5, stretchy: true,
      members: "←↑→↓↔↕↖↗↘↙↚↛↤↥↦↧⇐⇑⇒⇓⇔⇕⟵⟶⟷⟸⟹⟺⟼↼⇀↽⇁⇋⇌"),
    // B: relations.
    Category(
      form: .infix, lspace: 5, rspace: 5,
      members: "=<>≠≤≥≦≧≪≫≈≃≅≡≢∼∽≍≐∝∈∉∋∌⊂⊃⊆⊇⊄⊅⊈⊉⊊⊋≺≻≼≽⊏⊐⊑⊒⊢⊣⊨∣∤∥∦⟂≔:"),
    // C: binary operators.
    Category(
      form: .infix, lspace: 4, rspace: 4, members: "+-−±∓×÷⋅∘∗∙∪∩⊕⊖⊗⊘⊙∧∨∖⊎⊓⊔⋆★⋄⨯/"),
    // D: prefix operators.
    Category(form: .prefix, lspace: 0, rspace: 0, members: "¬+-−±∓∂∇√∛∜"),
    // E: postfix operators.
    Category(form: .postfix, lspace: 0, rspace: 0, members: "!′″‴⁗°%'"),
    // F: opening fences.
    Category(
      form: .prefix, lspace: 0, rspace: 0, stretchy: true, symmetric: true, members: "([{|‖⌈⌊⟨⟦⟮⦃"),
    // G: closing fences.
    Category(
      form: .postfix, lspace: 0, rspace: 0, stretchy: true, symmetric: true, members: ")]}|‖⌉⌋⟩⟧⟯⦄"),
    // H: integrals.
    Category(
      form: .prefix, lspace: 3, rspace: 3, symmetric: true, largeop: true, members: "∫∬∭∮∯∰∱∲∳⨌"),
    // J: n-ary operators with movable limits.
    Category(
      form: .prefix, lspace: 3, rspace: 3, symmetric: true, largeop: true, movablelimits: true,
      members: "∑∏∐⋀⋁⋂⋃⨀⨁⨂⨄⨆"),
    // I: stretchy accents, bars and braces (over and under scripts).
    Category(form: .postfix, lspace: 0, rspace: 0, stretchy: true, members: "‾¯_^ˆ~˜ˇ⏜⏝⏞⏟⎴⎵⃗"),
    // K: invisible operators.
    Category(form: .infix, lspace: 0, rspace: 0, members: "\u{2061}\u{2062}\u{2063}\u{2064}"),
    // M: separators.
    Category(form: .infix, lspace: 0, rspace: 3, members: ",;"),
  ]

  private static let table: [String: MathOperator] = {
    var t: [String: MathOperator] = [:]
    for c in categories {
      let op = MathOperator(
        form: c.form, lspace: c.lspace / 18, rspace: c.rspace / 18, stretchy: c.stretchy,
        symmetric: c.symmetric, largeop: c.largeop, movablelimits: c.movablelimits)
      for ch in c.members.unicodeScalars where t[key(String(ch), c.form)] == nil {
        t[key(String(ch), c.form)] = op
      }
    }
    return t
  }()

  private static func key(_ text: String, _ form: MathOperator.Form) -> String {
    switch form {
    case .prefix: return "p" + text
    case .infix: return "i" + text
    case .postfix: return "s" + text
    }
  }

  /// The entry for `text` in `form`, falling back to the other forms, then the default.
  static func lookup(_ text: String, form: MathOperator.Form) -> MathOperator {
    for f in [form, .infix, .postfix, .prefix] {
      if var op = table[key(text, f)] {
        op.form = form
        return op
      }
    }
    return MathOperator(
      form: form, lspace: MathOperator.defaultSpacing, rspace: MathOperator.defaultSpacing)
  }
}
