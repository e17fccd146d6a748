import Foundation

/// A cubic Bézier easing curve from (0, 0) to (1, 1) with control points (x1, y1), (x2, y2)
/// (CAMediaTimingFunction / CSS cubic-bezier). Evaluating solves x(s) = t for the curve
/// parameter s by Newton's method, falling back to bisection when the slope is flat, until the
/// parameter has converged (|Δs| < 1e-13), then returns y(s): error in y < 1e-6 even where
/// x(s) is flat.
public struct TimingFunction: Sendable, Hashable, CustomStringConvertible {
  /// The first control point's x (time), 0…1.
  public var x1: Double
  /// The first control point's y (progress); may leave 0…1 (overshoot).
  public var y1: Double
  /// The second control point's x (time), 0…1.
  public var x2: Double
  /// The second control point's y (progress); may leave 0…1 (overshoot).
  public var y2: Double

  /// x1 and x2 are clamped to 0…1 so that x(s) is monotonic (y may overshoot).
  public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    self.x1 = min(max(x1, 0), 1)
    self.y1 = y1
    self.x2 = min(max(x2, 0), 1)
    self.y2 = y2
  }

  /// Constant speed.
  public static let linear = TimingFunction(0, 0, 1, 1)
  /// Starts slowly, ends at full speed (CSS "ease-in").
  public static let easeIn = TimingFunction(0.42, 0, 1, 1)
  /// Starts at full speed, ends slowly (CSS "ease-out").
  public static let easeOut = TimingFunction(0, 0, 0.58, 1)
  /// Slow at both ends (CSS "ease-in-out").
  public static let easeInEaseOut = TimingFunction(0.42, 0, 0.58, 1)
  /// Core Animation's kCAMediaTimingFunctionDefault (CSS "ease").
  public static let `default` = TimingFunction(0.25, 0.1, 0.25, 1)

  /// Parses "linear", "easeIn", "easeOut", "easeInEaseOut", "default" (and the CSS names
  /// "ease", "ease-in", "ease-out", "ease-in-out") or "cubic-bezier(a, b, c, d)".
  /// Returns nil for anything else, including control x values outside 0…1.
  public init?(parsing text: String) {
    let s = text.trimmingCharacters(in: .whitespaces)
    switch s.lowercased() {
    case "linear": self = .linear
    case "easein", "ease-in": self = .easeIn
    case "easeout", "ease-out": self = .easeOut
    case "easeineaseout", "ease-in-out", "easeinout": self = .easeInEaseOut
    case "default", "ease": self = .default
    default:
      let lower = s.lowercased()
      guard lower.hasPrefix("cubic-bezier("), lower.hasSuffix(")"), s.count < 200 else {
        return nil
      }
      let inner = s.dropFirst("cubic-bezier(".count).dropLast()
      let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map {
        Double($0.trimmingCharacters(in: .whitespaces))
      }
      guard parts.count == 4, let a = parts[0], let b = parts[1], let c = parts[2],
        let d = parts[3], a.isFinite, b.isFinite, c.isFinite, d.isFinite,
        (0...1).contains(a), (0...1).contains(c)
      else { return nil }
      self.init(a, b, c, d)
    }
  }

  /// The CSS form, "cubic-bezier(x1, y1, x2, y2)".
  public var description: String { "cubic-bezier(\(x1), \(y1), \(x2), \(y2))" }

  private func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
    // 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³, in Horner form.
    ((1 + 3 * p1 - 3 * p2) * s + (3 * p2 - 6 * p1)) * s * s + 3 * p1 * s
  }
  private func slope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
    3 * (1 + 3 * p1 - 3 * p2) * s * s + 2 * (3 * p2 - 6 * p1) * s + 3 * p1
  }

  /// The curve parameter s with x(s) = x.
  func parameter(forX x: Double) -> Double {
    // Newton from s = x; accept only when the step has converged in s (a flat x(s) makes a
    // small x residual a poor guide to the error in y).
    var s = x
    for _ in 0..<10 {
      let err = bezier(s, x1, x2) - x
      if err == 0 { return s }
      let d = slope(s, x1, x2)
      if abs(d) < 1e-6 { break }
      let next = s - err / d
      if next < 0 || next > 1 { break }
      if abs(next - s) < 1e-13 { return next }
      s = next
    }
    // Bisection: x(s) is monotonic because x1, x2 ∈ [0, 1].
    var lo = 0.0
    var hi = 1.0
    while hi - lo > 1e-13 {
      let mid = (lo + hi) / 2
      if bezier(mid, x1, x2) < x { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
  }

  /// The eased progress for linear progress t (t outside 0…1 is clamped).
  public func callAsFunction(_ t: Double) -> Double {
    if t <= 0 { return 0 }
    if t >= 1 { return 1 }
    if x1 == y1 && x2 == y2 { return t }
    return bezier(parameter(forX: t), y1, y2)
  }
}
