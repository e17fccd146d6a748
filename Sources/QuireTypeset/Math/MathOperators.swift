// The operator dictionary: for an `mo`'s text and form, its spacing and properties.
//
// Source: the whole MathML Core operator dictionary (W3C MathML Core, appendix B), generated
// into MathOperatorDictionary.swift by scripts/make-operator-dictionary.py from the spec's
// compact form. Every entry belongs to one category (A–M) that fixes its form, its lspace and
// rspace (in 1/18 em) and its properties (stretchy, symmetric, largeop, movablelimits); an
// operator not in the dictionary gets the default 5/18 em on both sides and no properties —
// which is how relations (=, <, ≤, ∈ …) get their thick spaces. MathML Core's dictionary has
// no accent, fence or separator property: they do not change layout there (the `accent`
// attribute of munder/mover is read from the element itself).
//
// Lookup (MathML Core §"Dictionary-based attributes"): the content is one character, a
// character followed by U+0338 or U+20D2 (looked up as that character) or two ASCII
// characters; with the form given by the `form` attribute only that form is tried, with an
// inferred form (MathLayout.row: prefix first, postfix last) the other forms follow in the
// order infix, postfix, prefix. So "(" between two letters (`f(x)`) is unspaced, as in
// Chromium.
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
  /// The dictionary's categories; `forceDefault` is the spec's entry for infix "|" and "∼",
  /// which have the default values but stop the lookup of other forms.
  enum Category: Hashable, Sendable {
    case a, b, c, d, e, f, g, h, i, j, k, l, m, forceDefault
  }

  /// One dictionary row: a code-point range, or a two-character `text`, in one form.
  struct Entry: Sendable {
    var first: UInt32
    var last: UInt32
    var text = ""
    var form: MathOperator.Form
    var category: Category

    init(_ first: UInt32, _ last: UInt32, _ form: MathOperator.Form, _ category: Category) {
      (self.first, self.last, self.form, self.category) = (first, last, form, category)
    }

    init(_ text: String, _ form: MathOperator.Form, _ category: Category) {
      (self.first, self.last, self.text, self.form, self.category) = (0, 0, text, form, category)
    }
  }

  /// The spacing (in 1/18 em) and properties of a category (MathML Core, "Operator
  /// dictionary categories values").
  static func values(_ category: Category, form: MathOperator.Form) -> MathOperator {
    func op(_ l: Double, _ r: Double) -> MathOperator {
      MathOperator(form: form, lspace: l / 18, rspace: r / 18)
    }
    var o: MathOperator
    switch category {
    case .a:
      o = op(5, 5)
      o.stretchy = true
    case .b: o = op(4, 4)
    case .c, .h, .j: o = op(3, 3)
    case .d, .e, .k, .f, .g, .i: o = op(0, 0)
    case .l: o = op(3, 0)
    case .m: o = op(0, 3)
    case .forceDefault: o = op(5, 5)
    }
    o.stretchy = o.stretchy || [.f, .g, .i].contains(category)
    o.symmetric = [.f, .g, .h, .j].contains(category)
    o.largeop = [.h, .j].contains(category)
    o.movablelimits = category == .j
    return o
  }

  /// The category of `text` in `form`, or nil when the dictionary has no such entry.
  static func category(_ text: String, form: MathOperator.Form) -> Category? {
    let scalars = Array(text.unicodeScalars.prefix(3)).map(\.value)
    if scalars.count == 2, scalars[1] == 0x0338 || scalars[1] == 0x20D2 {
      return category(scalars[0], form: form)
    }
    if scalars.count == 1 { return category(scalars[0], form: form) }
    if scalars.count == 2, scalars.allSatisfy({ $0 < 0x80 }) {
      return pairs.first { $0.text == text && $0.form == form }?.category
    }
    return nil
  }

  /// The category of one code point in `form`: the spec's special entries, then the table.
  static func category(_ cp: UInt32, form: MathOperator.Form) -> Category? {
    switch (form, cp) {
    case (.infix, 0x007C), (.infix, 0x223C): return .forceDefault
    case (.prefix, 0x2145...0x2146), (.prefix, 0x2202), (.prefix, 0x221A...0x221C): return .l
    case (.infix, 0x002C), (.infix, 0x003A), (.infix, 0x003B): return .m
    case (.postfix, 0x1EEF0...0x1EEF1): return .i
    default: break
    }
    let key = (rank(form), cp)
    var lo = 0
    var hi = ranges.count
    while lo < hi {  // the last entry whose (form, first) ≤ key
      let mid = (lo + hi) / 2
      if (rank(ranges[mid].form), ranges[mid].first) <= key { lo = mid + 1 } else { hi = mid }
    }
    guard lo > 0 else { return nil }
    let e = ranges[lo - 1]
    return e.form == form && cp <= e.last ? e.category : nil
  }

  private static func rank(_ form: MathOperator.Form) -> Int {
    switch form {
    case .infix: return 0
    case .prefix: return 1
    case .postfix: return 2
    }
  }

  /// The entry for `text` in `form`. An inferred form (`explicit` false) falls back to the
  /// other forms in the order infix, postfix, prefix; then the default values.
  static func lookup(_ text: String, form: MathOperator.Form, explicit: Bool = false)
    -> MathOperator
  {
    let order: [MathOperator.Form] = explicit ? [form] : [form, .infix, .postfix, .prefix]
    for f in order {
      if let c = category(text, form: f) { return values(c, form: form) }
    }
    return MathOperator(
      form: form, lspace: MathOperator.defaultSpacing, rspace: MathOperator.defaultSpacing)
  }
}
