// `linear-gradient()` arguments (CSS Images 3 §3.1) parsed from the text Ingest keeps on a
// background layer: a direction (an angle, or `to` a side or corner) and colour stops with
// optional positions. Parsing lives here, beside the colour parser, so the painter gets
// plain numbers; positions that cannot be resolved without the box (lengths) stay lengths.
//
// Bounds: at most `maxStops` stops (the rest are dropped); unknown syntax gives nil, and the
// layer is then not painted, as a browser drops an invalid declaration.

import Foundation
import QuireCore

/// A parsed `linear-gradient()`.
package struct LinearGradientValue: Sendable, Hashable {
  /// Where the gradient line points.
  package enum Direction: Sendable, Hashable {
    /// CSS degrees: 0 points up, 90 to the right.
    case angle(Double)
    /// `to` a side or corner: x −1 left, +1 right, 0 neither; y −1 top, +1 bottom.
    case corner(x: Int, y: Int)
  }
  /// A stop position along the gradient line.
  package enum StopPosition: Sendable, Hashable {
    /// Fraction of the gradient line (50% is 0.5).
    case fraction(Double)
    /// CSS px from the line's start.
    case pixels(Double)
  }
  package struct Stop: Sendable, Hashable {
    package var color: RGBA
    package var position: StopPosition?
  }

  package var direction: Direction
  package var stops: [Stop]

  package static let maxStops = 64

  /// Parses the text inside `linear-gradient(…)`; nil when it is not a valid gradient.
  package static func parse(_ text: String) -> LinearGradientValue? {
    let tokens = CSSTokenizer.tokenize(text).filter { !$0.isWhitespace }
    var parts: [[CSSToken]] = [[]]
    var depth = 0
    for t in tokens.prefix(4096) {
      switch t.kind {
      case .function, .openParen: depth += 1
      case .closeParen: depth = max(0, depth - 1)
      default: break
      }
      if t.kind == .comma && depth == 0 {
        parts.append([])
      } else {
        parts[parts.count - 1].append(t)
      }
    }
    var direction = Direction.angle(180)
    if let first = parts.first, let d = Self.direction(first) {
      direction = d
      parts.removeFirst()
    }
    var stops: [Stop] = []
    for part in parts.prefix(maxStops) {
      guard let stop = Self.stop(part) else { return nil }
      stops += stop
    }
    guard stops.count >= 2 else { return nil }
    return LinearGradientValue(direction: direction, stops: stops)
  }

  private static func direction(_ part: [CSSToken]) -> Direction? {
    if part.count == 1,
      part[0].kind == .dimension || (part[0].kind == .number && part[0].number == 0)
    {
      let t = part[0]
      let v = t.number
      switch t.unit {
      case "deg", "": return v.isFinite ? .angle(v) : nil
      case "rad": return .angle(v * 180 / .pi)
      case "turn": return .angle(v * 360)
      case "grad": return .angle(v * 0.9)
      default: return nil
      }
    }
    guard part.first?.kind == .ident, part.first?.text.lowercased() == "to", part.count <= 3
    else { return nil }
    var x = 0
    var y = 0
    for t in part.dropFirst() {
      switch t.text.lowercased() {
      case "left": x = -1
      case "right": x = 1
      case "top": y = -1
      case "bottom": y = 1
      default: return nil
      }
    }
    return x == 0 && y == 0 ? nil : .corner(x: x, y: y)
  }

  /// One colour stop; two positions give two stops of the same colour.
  private static func stop(_ part: [CSSToken]) -> [Stop]? {
    var positions: [StopPosition] = []
    var colorTokens = part
    while let last = colorTokens.last, colorTokens.count > 1,
      last.kind == .percentage || last.kind == .dimension
        || (last.kind == .number && last.number == 0)
    {
      if last.kind == .percentage {
        positions.insert(.fraction(last.number / 100), at: 0)
      } else if last.unit == "px" || last.kind == .number {
        positions.insert(.pixels(last.number), at: 0)
      } else if last.unit == "em" || last.unit == "rem" {
        positions.insert(.pixels(last.number * 16), at: 0)
      } else {
        return nil
      }
      colorTokens.removeLast()
    }
    guard positions.count <= 2, let color = StyleComputer.color(colorTokens) else { return nil }
    if positions.isEmpty { return [Stop(color: color, position: nil)] }
    return positions.map { Stop(color: color, position: $0) }
  }
}
