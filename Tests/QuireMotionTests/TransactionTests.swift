import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

private func sceneWithLayer() -> (Scene, Layer) {
  let scene = Scene()
  let l = Layer(frame: LayerRect(x: 0, y: 0, width: 100, height: 100))
  scene.root.addSublayer(l)
  return (scene, l)
}

@Test func colourChangeInOneSecondTransactionIsHalfwayAtHalfSecond() {
  let (scene, l) = sceneWithLayer()
  scene.transaction(disableActions: true) { l.backgroundColor = .red }
  scene.transaction(duration: 1) { l.backgroundColor = .blue }
  #expect(l.backgroundColor == .blue)  // the model changes at once
  let mid = l.presentation(at: 0.5).backgroundColor
  // Halfway is 127.5 per channel; the core's 8-bit colour rounds it once, to 128.
  #expect(mid == RGBA(r: 128, g: 0, b: 128))
  #expect(l.presentation(at: 0).backgroundColor == .red)
}

@Test func completionFiresOnceAtEndAndTheRotationItSetsAnimates() {
  let (scene, l) = sceneWithLayer()
  var fired: [Double] = []
  let quarter = Transform3D.rotation(Double.pi / 2, x: 0, y: 1, z: 0)
  let completion = {
    fired.append(scene.time)
    scene.transaction(duration: 1) { l.transform = quarter }
  }
  scene.transaction(duration: 1, completion: completion) { l.opacity = 0.5 }
  scene.advance(to: 0.5)
  #expect(fired.isEmpty)
  scene.advance(to: 1.5)  // jumps past the end: fires with the clock at exactly 1.0
  #expect(fired == [1.0])
  // The rotation began at 1.0 and lasts 1 s: at 1.5 it is a rigid 45° turn about y.
  let mid = l.presentation(at: 1.5).transform
  let expected = Transform3D.rotation(Double.pi / 4, x: 0, y: 1, z: 0)
  for (a, b) in zip(mid.entries, expected.entries) { #expect(abs(a - b) < 1e-9) }
  scene.advance(to: 3)
  #expect(fired == [1.0])
  #expect(l.presentation(at: 3).transform == quarter)
}

@Test func pushFromLeftInActionsReplacesDefaultFade() {
  let (scene, l) = sceneWithLayer()
  let red = Synthetic.solid(width: 100, height: 100, (255, 0, 0, 255))
  let blue = Synthetic.solid(width: 100, height: 100, (0, 0, 255, 255))
  scene.transaction(disableActions: true) { l.contents = red }
  // Default: a fade.
  scene.transaction(duration: 1) { l.contents = blue }
  let fade = l.animation(forKey: "contents") as? Transition
  #expect(fade?.type == .fade)
  scene.advance(to: 2)
  scene.transaction(disableActions: true) { l.contents = red }
  l.actions["contents"] = .animation(Transition(type: .push, subtype: .fromLeft))
  scene.transaction(duration: 1) { l.contents = blue }
  let push = l.animation(forKey: "contents") as? Transition
  #expect(push?.type == .push && push?.subtype == .fromLeft)
  // Rendered at the midpoint: the new (blue) content occupies the left half, the old (red)
  // the right half.
  let frame = Compositor(width: 100, height: 100).render(scene.root, at: 2.5)
  #expect(pixel(frame, 25, 50) == [0, 0, 255, 255])
  #expect(pixel(frame, 75, 50) == [255, 0, 0, 255])
}

@Test func presentationDiffersMidAnimationAndEqualsModelAfter() {
  let (scene, l) = sceneWithLayer()
  scene.transaction(duration: 2, timingFunction: .easeInEaseOut) {
    l.position = LayerPoint(x: 250, y: 50)
  }
  let mid = l.presentation(at: 1).position
  #expect(mid != l.position)
  #expect(abs(mid.x - 150) < 1e-9)  // symmetric curve: exactly halfway at half time
  scene.advance(to: 2)
  #expect(l.presentation(at: scene.time).position == l.position)
  #expect(l.animationKeys.isEmpty)  // removed on completion
}

private final class Vetoer: LayerDelegate {
  func action(for layer: Layer, forKey key: String) -> LayerAction? {
    key == "opacity" ? LayerAction.none : nil
  }
}

@Test func actionLookupOrderAndDisabling() {
  let (scene, l) = sceneWithLayer()
  let delegate = Vetoer()
  l.delegate = delegate
  l.actions["opacity"] = .animation(BasicAnimation(keyPath: "opacity"))
  scene.transaction { l.opacity = 0 }
  #expect(l.animation(forKey: "opacity") == nil)  // the delegate's .none wins
  l.delegate = nil
  l.actions["cornerRadius"] = LayerAction.none
  scene.transaction { l.cornerRadius = 4 }
  #expect(l.animation(forKey: "cornerRadius") == nil)
  scene.transaction(disableActions: true) { l.zPosition = 3 }
  #expect(l.animation(forKey: "zPosition") == nil)
  scene.transaction { l.zPosition = 5 }
  #expect(l.animation(forKey: "zPosition") != nil)
  // A layer outside any scene never animates implicitly.
  let loose = Layer()
  loose.opacity = 0.3
  #expect(loose.animationKeys.isEmpty)
}

@Test func nestedTransactionsInheritAndOuterCompletionWaitsForInner() {
  let (scene, l) = sceneWithLayer()
  var outerFired = 0
  var innerFired = 0
  let outer = scene.begin()
  outer.duration = 1
  outer.completion = { outerFired += 1 }
  l.opacity = 0.5
  let inner = scene.begin()
  #expect(inner.duration == 1)
  inner.duration = 3
  inner.completion = { innerFired += 1 }
  l.cornerRadius = 10
  scene.commit()
  scene.commit()
  scene.advance(to: 1.5)
  #expect(outerFired == 0 && innerFired == 0)
  scene.advance(to: 3)
  #expect(outerFired == 1 && innerFired == 1)
  scene.advance(to: 10)
  #expect(outerFired == 1 && innerFired == 1)
}

@Test func implicitChangeOutsideTransactionAnimatesWithDefaults() {
  let (scene, l) = sceneWithLayer()
  l.opacity = 0
  let a = l.animation(forKey: "opacity")
  #expect(a?.duration == 0.25)
  #expect(abs(l.presentation(at: 0.125).opacity - 0.5) < 1e-12)
  _ = scene
}

@Test func rotationKeyPathSetInTransactionAnimatesFromOldAngle() {
  let (scene, l) = sceneWithLayer()
  scene.transaction(disableActions: true) { l.transform = .perspective(800) }
  scene.transaction(duration: 1) {
    l.setValue(.double(-Double.pi * 0.9), forKeyPath: "transform.rotation.y")
  }
  let mid = l.presentation(at: 0.5).transform
  let expected = Transform3D.perspective(800).rotated(by: -Double.pi * 0.45, y: 1)
  for (a, b) in zip(mid.entries, expected.entries) { #expect(abs(a - b) < 1e-9) }
}

@Test func moveInAndRevealTransitions() {
  let red = Synthetic.solid(width: 100, height: 100, (255, 0, 0, 255))
  let blue = Synthetic.solid(width: 100, height: 100, (0, 0, 255, 255))
  let c = Compositor(width: 100, height: 100)
  for (type, left, right) in [
    (TransitionType.moveIn, [UInt8]([255, 0, 0, 255]), [UInt8]([0, 0, 255, 255])),
    (.reveal, [255, 0, 0, 255], [0, 0, 255, 255]),
  ] {
    let l = Layer(frame: LayerRect(x: 0, y: 0, width: 100, height: 100))
    l.contents = red
    l.add(Transition(type: type, subtype: .fromRight, duration: 1), forKey: "t")
    l.contents = blue
    let f = c.render(l, at: 0.5)
    // moveIn: blue slides over the right half; reveal: red slides left off the blue.
    #expect(pixel(f, 25, 50) == left, "\(type)")
    #expect(pixel(f, 75, 50) == right, "\(type)")
    #expect(c.render(l, at: 1) == blue)
    #expect(c.render(l, at: 0) == red)
  }
}

@Test func keyframeTransformAnimationThroughScene() {
  let (scene, l) = sceneWithLayer()
  let k = KeyframeAnimation(
    keyPath: "transform.rotation.z", values: [.double(0), .double(Double.pi), .double(0)],
    duration: 2)
  l.add(k, forKey: "spin")
  let half = l.presentation(at: 1).transform
  let expected = Transform3D.rotation(Double.pi, x: 0, y: 0, z: 1)
  for (a, b) in zip(half.entries, expected.entries) { #expect(abs(a - b) < 1e-9) }
  scene.advance(to: 2.5)
  #expect(l.animation(forKey: "spin") == nil)
}
