import Foundation
import Testing

@testable import QuireMotion

/// An independent reference: bisection only, 200 steps, on the same Bézier definition.
private func reference(_ f: TimingFunction, _ x: Double) -> Double {
  func bez(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
    3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
  }
  var lo = 0.0
  var hi = 1.0
  for _ in 0..<200 {
    let mid = (lo + hi) / 2
    if bez(mid, f.x1, f.x2) < x { lo = mid } else { hi = mid }
  }
  return bez((lo + hi) / 2, f.y1, f.y2)
}

@Test func timingFunctionControlPointsMatchCoreAnimation() {
  #expect(TimingFunction.easeIn == TimingFunction(0.42, 0, 1, 1))
  #expect(TimingFunction.easeOut == TimingFunction(0, 0, 0.58, 1))
  #expect(TimingFunction.easeInEaseOut == TimingFunction(0.42, 0, 0.58, 1))
  #expect(TimingFunction.default == TimingFunction(0.25, 0.1, 0.25, 1))
}

@Test func timingFunctionKnownValues() {
  // Symmetric curve: exactly ½ at ½.
  #expect(abs(TimingFunction.easeInEaseOut(0.5) - 0.5) < 1e-9)
  // CSS "ease" at ½ is 0.8024033877… (widely tabulated).
  #expect(abs(TimingFunction.default(0.5) - 0.802_403_387_7) < 1e-6)
  // easeIn and easeOut are mirror images: easeOut(x) = 1 − easeIn(1 − x).
  for x in stride(from: 0.0, through: 1.0, by: 0.05) {
    #expect(abs(TimingFunction.easeOut(x) - (1 - TimingFunction.easeIn(1 - x))) < 1e-6)
  }
  #expect(TimingFunction.linear(0.37) == 0.37)
  #expect(TimingFunction.easeIn(0) == 0 && TimingFunction.easeIn(1) == 1)
}

@Test func timingFunctionAccuracyAgainstBisection() {
  let curves: [TimingFunction] = [
    .easeIn, .easeOut, .easeInEaseOut, .default, TimingFunction(0.1, 0.7, 1.0, 0.1),
    TimingFunction(0, 1.5, 1, -0.5), TimingFunction(0.9, 0, 0.1, 1),
  ]
  // Not cubic-bezier(1, 0, 0, 1): x′(½) = 0 there, so x(s) − ½ ∝ (s − ½)³ and no double
  // solver can pin s closer than ∛ε ≈ 6e-6 — the curve itself is ill-conditioned.
  for f in curves {
    var worst = 0.0
    for i in 0...1000 {
      let x = Double(i) / 1000
      worst = max(worst, abs(f(x) - reference(f, x)))
    }
    #expect(worst < 1e-6, "\(f): max error \(worst)")
  }
}

@Test func timingFunctionParsing() {
  #expect(TimingFunction(parsing: "easeIn") == .easeIn)
  #expect(TimingFunction(parsing: "ease-in-out") == .easeInEaseOut)
  #expect(TimingFunction(parsing: "easeInEaseOut") == .easeInEaseOut)
  #expect(TimingFunction(parsing: "linear") == .linear)
  #expect(
    TimingFunction(parsing: "cubic-bezier(0.1,0.7,1.0,0.1)") == TimingFunction(0.1, 0.7, 1.0, 0.1))
  #expect(TimingFunction(parsing: " cubic-bezier( 0.25 , 0.1, 0.25, 1 ) ") == .default)
  #expect(TimingFunction(parsing: "cubic-bezier(1.5,0,0,1)") == nil)
  #expect(TimingFunction(parsing: "cubic-bezier(0,0,1)") == nil)
  #expect(TimingFunction(parsing: "bounce") == nil)
  #expect(TimingFunction(parsing: "cubic-bezier(nan,0,1,1)") == nil)
}
