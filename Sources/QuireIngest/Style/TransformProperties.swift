// `transform` and `transform-origin` (CSS Transforms 1 §7, §13; CSS Values 4 for angles).
//
// `transform` is a list of functions read in order into `BoxTransform`: translate,
// translateX/Y (lengths or percentages of the border box), scale, scaleX/Y (numbers or
// percentages), rotate (deg, rad, turn, grad; a bare 0), skew, skewX/Y, matrix(a, b, c, d,
// e, f), and the 3-D functions that are 2-D in effect (translate3d and scale3d with the z
// part ignored, rotateZ). Other 3-D functions cannot be drawn on a flat page: they are
// skipped and `transformDropped` is set, which Typeset reports. A function with bad
// arguments makes the whole declaration invalid (the previous value stays), as in CSS.
// At most 32 functions are read; numbers are clamped to ±100 000.
//
// `transform-origin`: one to three values (the third, z, is ignored); keywords left, center,
// right, top, bottom, lengths and percentages; a lone vertical keyword sets y and centres x.

extension StyleComputer {
  /// Reads a `transform` list onto `s.box` (unchanged when the list is invalid).
  static func applyTransform(_ v: [CSSToken], _ fs: Double, _ s: inout ElementStyle) {
    if keyword(v) == "none" {
      s.box.transform = nil
      s.box.transformDropped = false
      return
    }
    var functions: [TransformFunction] = []
    var dropped = false
    var i = 0
    while i < v.count {
      guard v[i].kind == .function, functions.count < 32 else { return }
      let name = v[i].text.lowercased()
      var args: [CSSToken] = []
      var j = i + 1
      while j < v.count, v[j].kind != .closeParen {
        if v[j].kind != .comma { args.append(v[j]) }
        j += 1
      }
      guard j < v.count else { return }  // unclosed
      i = j + 1
      switch transformFunction(name, args, fs) {
      case .function(let f): functions.append(f)
      case .flat: break
      case .dropped: dropped = true
      case .invalid: return
      }
    }
    guard !functions.isEmpty || dropped else { return }
    s.box.transform = BoxTransform(functions: functions)
    s.box.transformDropped = dropped
  }

  /// What one function of a `transform` list gives.
  private enum TransformStep {
    case function(TransformFunction)
    /// A 3-D function with no 2-D effect (rotateX(0), perspective…): nothing to apply.
    case flat
    /// A 3-D function that would change the picture.
    case dropped
    case invalid
  }

  private static func transformFunction(_ name: String, _ a: [CSSToken], _ fs: Double)
    -> TransformStep
  {
    func len(_ k: Int) -> Length? { k < a.count ? length(a[k], fontSize: fs) : nil }
    func num(_ k: Int) -> Double? { k < a.count ? transformNumber(a[k]) : nil }
    func ang(_ k: Int) -> Double? { k < a.count ? angle(a[k]) : nil }
    switch (name, a.count) {
    case ("translate", 1), ("translatex", 1):
      return len(0).map { .function(.translate($0, .zero)) } ?? .invalid
    case ("translate", 2), ("translate3d", 3):
      guard let x = len(0), let y = len(1) else { return .invalid }
      return .function(.translate(x, y))
    case ("translatey", 1): return len(0).map { .function(.translate(.zero, $0)) } ?? .invalid
    case ("scale", 1): return num(0).map { .function(.scale($0, $0)) } ?? .invalid
    case ("scale", 2), ("scale3d", 3):
      guard let x = num(0), let y = num(1) else { return .invalid }
      return .function(.scale(x, y))
    case ("scalex", 1): return num(0).map { .function(.scale($0, 1)) } ?? .invalid
    case ("scaley", 1): return num(0).map { .function(.scale(1, $0)) } ?? .invalid
    case ("rotate", 1), ("rotatez", 1): return ang(0).map { .function(.rotate($0)) } ?? .invalid
    case ("skew", 1), ("skewx", 1): return ang(0).map { .function(.skew($0, 0)) } ?? .invalid
    case ("skew", 2):
      guard let x = ang(0), let y = ang(1) else { return .invalid }
      return .function(.skew(x, y))
    case ("skewy", 1): return ang(0).map { .function(.skew(0, $0)) } ?? .invalid
    case ("matrix", 6):
      let n = (0..<4).compactMap { num($0) }
      guard n.count == 4, a[0].kind == .number, a[1].kind == .number, a[2].kind == .number,
        a[3].kind == .number, let e = num(4), let f = num(5)
      else { return .invalid }
      return .function(
        .matrix(a: n[0], b: n[1], c: n[2], d: n[3], e: .rem(e / 16), f: .rem(f / 16)))
    case ("rotatex", 1), ("rotatey", 1), ("perspective", 1), ("translatez", 1),
      ("scalez", 1), ("rotate3d", 4), ("matrix3d", 16):
      return a.allSatisfy({ $0.kind == .number || $0.kind == .dimension })
        ? (a.allSatisfy { $0.number == 0 } || name == "scalez" || name == "translatez"
          ? .flat : .dropped) : .invalid
    default: return .invalid
    }
  }

  /// A number (or percentage, as a fraction) of scale and matrix, clamped.
  private static func transformNumber(_ t: CSSToken) -> Double? {
    guard t.number.isFinite else { return nil }
    switch t.kind {
    case .number: return max(-100_000, min(100_000, t.number))
    case .percentage: return max(-1_000, min(1_000, t.number / 100))
    default: return nil
    }
  }

  /// An angle in radians (CSS Values 4 §7.1): deg, rad, grad, turn, or a bare 0.
  static func angle(_ t: CSSToken) -> Double? {
    guard t.number.isFinite else { return nil }
    let n = max(-1_000_000, min(1_000_000, t.number))
    switch t.kind {
    case .number: return n == 0 ? 0 : nil
    case .dimension:
      switch t.unit {
      case "deg": return n * .pi / 180
      case "rad": return n
      case "grad": return n * .pi / 200
      case "turn": return n * 2 * .pi
      default: return nil
      }
    default: return nil
    }
  }

  /// Reads `transform-origin` onto `s.box` (unchanged when invalid).
  static func applyTransformOrigin(_ v: [CSSToken], _ fs: Double, _ s: inout ElementStyle) {
    guard (1...3).contains(v.count) else { return }
    // Each value: its kind (x or y keyword, c for center, l for a length) and its length.
    var values: [(kind: Character, length: Length)] = []
    for t in v.prefix(2) {
      if t.kind == .ident {
        switch t.text.lowercased() {
        case "left": values.append(("x", .percent(0)))
        case "right": values.append(("x", .percent(100)))
        case "top": values.append(("y", .percent(0)))
        case "bottom": values.append(("y", .percent(100)))
        case "center": values.append(("c", .percent(50)))
        default: return
        }
      } else if let l = length(t, fontSize: fs) {
        values.append(("l", l))
      } else {
        return
      }
    }
    var x = Length.percent(50)
    var y = Length.percent(50)
    if values.count == 1 {
      if values[0].kind == "y" { y = values[0].length } else { x = values[0].length }
    } else {
      let (a, b) = (values[0], values[1])
      if a.kind == "y" || b.kind == "x" {
        // Two keywords may come in either order (`top left`); lengths are x then y.
        guard a.kind != "l", b.kind != "l", a.kind != "x", b.kind != "y" else { return }
        (x, y) = (b.length, a.length)
      } else {
        (x, y) = (a.length, b.length)
      }
    }
    s.box.transformOriginX = x
    s.box.transformOriginY = y
  }
}
