import Foundation
import Testing

@testable import QuireMotion

private func opacity(_ l: Layer, _ t: Double) -> Double { l.presentation(at: t).opacity }

@Test func basicAnimationFromToAndFill() {
  let l = Layer()
  l.opacity = 0.2
  let a = BasicAnimation(keyPath: "opacity", from: .double(0), to: .double(1), duration: 2)
  a.beginTime = 1
  l.add(a, forKey: "fade")
  #expect(opacity(l, 0.5) == 0.2)  // before: model value (fill removed)
  #expect(abs(opacity(l, 2) - 0.5) < 1e-12)
  #expect(opacity(l, 3.5) == 0.2)  // after: model value again
  let f = BasicAnimation(keyPath: "opacity", from: .double(0), to: .double(1), duration: 2)
  f.beginTime = 1
  f.fillMode = .both
  l.add(f, forKey: "fade")
  #expect(opacity(l, 0.5) == 0)
  #expect(opacity(l, 3.5) == 1)
}

@Test func basicAnimationByAndPartialValues() {
  let l = Layer()
  l.position = LayerPoint(x: 10, y: 10)
  l.add(BasicAnimation(keyPath: "position", by: .point(LayerPoint(x: 100, y: 0)), duration: 1))
  #expect(l.presentation(at: 0.5).position == LayerPoint(x: 60, y: 10))
  let m = Layer()
  m.opacity = 1
  m.add(BasicAnimation(keyPath: "opacity", to: .double(0), duration: 1))
  #expect(abs(m.presentation(at: 0.25).opacity - 0.75) < 1e-12)
}

@Test func mediaTimingRepeatAutoreverseSpeedOffset() {
  var t = MediaTiming()
  t.duration = 1
  t.repeatCount = 2
  t.autoreverses = true
  #expect(t.activeDuration == 4)
  #expect(t.simpleTime(at: 0.25) == 0.25)
  #expect(t.simpleTime(at: 1.25) == 0.75)  // reversing
  #expect(t.simpleTime(at: 2.25) == 0.25)  // second cycle
  #expect(t.simpleTime(at: 4.5) == nil)
  t.fillMode = .forwards
  #expect(t.simpleTime(at: 4.5) == 0)  // autoreversed: rests at the start
  var s = MediaTiming()
  s.duration = 2
  s.speed = 2
  #expect(s.endTime == 1)
  #expect(s.simpleTime(at: 0.5) == 1)
  var o = MediaTiming()
  o.duration = 3
  o.timeOffset = 1
  #expect(o.simpleTime(at: 0) == 1)
  #expect(o.simpleTime(at: 2.5) == 0.5)  // wrapped
  var r = MediaTiming()
  r.duration = 1
  r.repeatDuration = 2.5
  r.fillMode = .forwards
  #expect(r.simpleTime(at: 2.25) == 0.25)
  #expect(r.simpleTime(at: 3) == 0.5)  // rests mid-cycle where it stopped
}

@Test func keyframeAnimationModes() {
  let k = KeyframeAnimation(
    keyPath: "position.x", values: [.double(0), .double(10), .double(40)],
    keyTimes: [0, 0.5, 1], duration: 1)
  #expect(k.value(at: 0.25) == .double(5))
  #expect(k.value(at: 0.75) == .double(25))
  k.calculationMode = .discrete
  #expect(k.value(at: 0.75) == .double(10))
  k.calculationMode = .paced
  // Paced: 10 of 40 units → key time 0.25.
  #expect(k.value(at: 0.25) == .double(10))
  #expect(k.value(at: 0.625) == .double(25))
  let l = Layer()
  k.calculationMode = .linear
  l.add(k)
  #expect(l.presentation(at: 0.25).position.x == 5)
}

@Test func animationGroupSharesClock() {
  let l = Layer()
  let a = BasicAnimation(keyPath: "opacity", from: .double(0), to: .double(1))
  let b = BasicAnimation(keyPath: "cornerRadius", from: .double(0), to: .double(10), duration: 1)
  b.beginTime = 1
  let g = AnimationGroup([a, b], duration: 2)
  l.add(g)
  let p = l.presentation(at: 1.5)
  #expect(abs(p.opacity - 0.75) < 1e-12)
  #expect(abs(p.cornerRadius - 5) < 1e-12)
}

@Test func rotationKeyPathAnimatesBeyondHalfTurn() {
  let l = Layer()
  l.transform = Transform3D.perspective(500)
  l.add(
    BasicAnimation(
      keyPath: "transform.rotation.y", from: .double(0), to: .double(-Double.pi), duration: 1))
  let mid = l.presentation(at: 0.75).transform
  let expected = Transform3D.perspective(500).rotated(by: -0.75 * Double.pi, y: 1)
  for (x, y) in zip(mid.entries, expected.entries) { #expect(abs(x - y) < 1e-9) }
}

@Test func transformInterpolationStaysRigid() {
  let a = Transform3D.identity
  let b = Transform3D.rotation(Double.pi / 2, x: 0, y: 1, z: 0).concatenating(
    .translation(x: 10, y: 0))
  let m = a.interpolated(to: b, 0.5)
  let expected = Transform3D.rotation(Double.pi / 4, x: 0, y: 1, z: 0).concatenating(
    .translation(x: 5, y: 0))
  for (x, y) in zip(m.entries, expected.entries) { #expect(abs(x - y) < 1e-9) }
  // Decompose/recompose round trip on a general transform with perspective.
  let g = Transform3D.scale(x: 2, y: 0.5).rotated(by: 0.3, x: 1, y: 2, z: 0.5)
    .concatenating(.translation(x: 3, y: -4, z: 5)).concatenating(.perspective(700))
  let r = Transform3D(g.decomposed()!)
  // Homogeneous: equal up to the m44 normalisation.
  for (x, y) in zip(r.entries, g.entries) { #expect(abs(x * g.m44 - y) < 1e-9) }
}
