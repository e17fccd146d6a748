import Foundation

/// An animation attached to a layer (CAAnimation). Reference type like CAAnimation; a layer
/// stores a copy, so changing an animation after adding it has no effect.
/// A `duration` of 0 means "the transaction's duration" for implicit actions (0.25 s by
/// default) and 0.25 s when added explicitly; a nil `timingFunction` means the transaction's
/// (linear when added explicitly).
package class Animation {
  package var timing = MediaTiming()
  package var timingFunction: TimingFunction?
  /// When true (the default) the scene drops the animation once its active interval ends.
  package var isRemovedOnCompletion = true

  package init() {}

  package var beginTime: Double {
    get { timing.beginTime }
    set { timing.beginTime = newValue }
  }
  package var duration: Double {
    get { timing.duration }
    set { timing.duration = newValue }
  }
  package var speed: Double {
    get { timing.speed }
    set { timing.speed = newValue }
  }
  package var timeOffset: Double {
    get { timing.timeOffset }
    set { timing.timeOffset = newValue }
  }
  package var repeatCount: Double {
    get { timing.repeatCount }
    set { timing.repeatCount = newValue }
  }
  package var repeatDuration: Double {
    get { timing.repeatDuration }
    set { timing.repeatDuration = newValue }
  }
  package var autoreverses: Bool {
    get { timing.autoreverses }
    set { timing.autoreverses = newValue }
  }
  package var fillMode: FillMode {
    get { timing.fillMode }
    set { timing.fillMode = newValue }
  }

  func makeCopy() -> Animation { Animation() }

  package func copy() -> Animation {
    let c = makeCopy()
    c.timing = timing
    c.timingFunction = timingFunction
    c.isRemovedOnCompletion = isRemovedOnCompletion
    return c
  }

  var effectiveTiming: MediaTiming {
    var t = timing
    if t.duration == 0 { t.duration = 0.25 }
    return t
  }

  /// Parent time at which this animation stops having an active effect.
  package var endTime: Double { effectiveTiming.endTime }

  /// Applies the animation's value at parent time `time` to a presentation copy.
  func apply(to layer: Layer, at time: Double) {
    let t = effectiveTiming
    guard let st = t.simpleTime(at: time) else { return }
    let p = (timingFunction ?? .linear)(st / t.duration)
    apply(progress: p, simpleTime: st, to: layer)
  }

  func apply(progress: Double, simpleTime: Double, to layer: Layer) {}
}

/// An animation of one key path (CAPropertyAnimation).
package class PropertyAnimation: Animation {
  package var keyPath: String
  /// When true the animated value is added to the underlying (model) value.
  package var isAdditive = false

  package init(keyPath: String) {
    self.keyPath = keyPath
    super.init()
  }

  override func makeCopy() -> Animation { PropertyAnimation(keyPath: keyPath) }
  package override func copy() -> Animation {
    let c = super.copy()
    (c as? PropertyAnimation)?.isAdditive = isAdditive
    return c
  }

  func write(_ v: AnimatableValue, base: AnimatableValue?, to layer: Layer) {
    var out = v
    if isAdditive, let base, let sum = AnimatableValue.add(base, v) { out = sum }
    layer.setPresentationValue(out, forKeyPath: keyPath)
  }
}

/// Interpolates one key path between from/to/by values (CABasicAnimation). The pairs mean:
/// from+to: from → to; from+by: from → from+by; by+to: to−by → to; from: from → current;
/// to: current → to; by: current → current+by; none: no change. "Current" is the value the
/// layer would have without this animation.
package final class BasicAnimation: PropertyAnimation {
  package var fromValue: AnimatableValue?
  package var toValue: AnimatableValue?
  package var byValue: AnimatableValue?

  package init(
    keyPath: String, from: AnimatableValue? = nil, to: AnimatableValue? = nil,
    by: AnimatableValue? = nil, duration: Double = 0
  ) {
    fromValue = from
    toValue = to
    byValue = by
    super.init(keyPath: keyPath)
    self.duration = duration
  }

  /// A new BasicAnimation with this one's own fields; `copy()` adds the shared ones.
  override func makeCopy() -> Animation {
    let c = BasicAnimation(keyPath: keyPath)
    c.fromValue = fromValue
    c.toValue = toValue
    c.byValue = byValue
    return c
  }

  override func apply(progress p: Double, simpleTime: Double, to layer: Layer) {
    let current = layer.value(forKeyPath: keyPath)
    var a: AnimatableValue?
    var b: AnimatableValue?
    switch (fromValue, toValue, byValue) {
    case (let f?, let t?, _):
      (a, b) = (f, t)
    case (let f?, nil, let by?):
      (a, b) = (f, AnimatableValue.add(f, by))
    case (nil, let t?, let by?):
      (a, b) = (AnimatableValue.subtract(t, by), t)
    case (let f?, nil, nil):
      (a, b) = (f, current)
    case (nil, let t?, nil):
      (a, b) = (current, t)
    case (nil, nil, let by?):
      (a, b) = (current, current.flatMap { AnimatableValue.add($0, by) })
    default:
      return
    }
    guard let a, let b else { return }
    write(AnimatableValue.interpolate(a, b, p), base: current, to: layer)
  }
}

/// How keyframe values are spread over the duration (CAAnimationCalculationMode).
package enum CalculationMode: String, Sendable, Hashable, Codable {
  case linear, discrete, paced
}

/// Steps a key path through `values` at `keyTimes` (CAKeyframeAnimation). keyTimes are
/// fractions of the duration, ascending from 0 to 1, one per value (evenly spaced when
/// nil or mismatched); `paced` ignores them and spaces values by their distance. With
/// `discrete`, value i holds from keyTimes[i] until the next key time. `timingFunctions`
/// (one per segment) ease each segment.
package final class KeyframeAnimation: PropertyAnimation {
  package var values: [AnimatableValue] = []
  package var keyTimes: [Double]?
  package var calculationMode = CalculationMode.linear
  package var timingFunctions: [TimingFunction]?

  package init(
    keyPath: String, values: [AnimatableValue] = [], keyTimes: [Double]? = nil,
    duration: Double = 0
  ) {
    self.values = values
    self.keyTimes = keyTimes
    super.init(keyPath: keyPath)
    self.duration = duration
  }

  /// A new KeyframeAnimation with this one's own fields; `copy()` adds the shared ones.
  override func makeCopy() -> Animation {
    let c = KeyframeAnimation(keyPath: keyPath)
    c.values = values
    c.keyTimes = keyTimes
    c.calculationMode = calculationMode
    c.timingFunctions = timingFunctions
    return c
  }

  func times() -> [Double] {
    let n = values.count
    if calculationMode == .paced && n > 1 {
      var acc = [0.0]
      for i in 1..<n { acc.append(acc[i - 1] + AnimatableValue.distance(values[i - 1], values[i])) }
      let total = acc[n - 1]
      if total > 0 { return acc.map { $0 / total } }
    }
    if let k = keyTimes, k.count == n { return k }
    return n > 1 ? (0..<n).map { Double($0) / Double(n - 1) } : [0]
  }

  /// The value at eased progress p.
  package func value(at p: Double) -> AnimatableValue? {
    guard let first = values.first else { return nil }
    if values.count == 1 { return first }
    let k = times()
    if p <= k[0] { return values[0] }
    if p >= k[k.count - 1] { return values[values.count - 1] }
    var i = 0
    while i + 1 < k.count && p >= k[i + 1] { i += 1 }
    if calculationMode == .discrete { return values[i] }
    let span = k[i + 1] - k[i]
    var f = span > 0 ? (p - k[i]) / span : 1
    if let tf = timingFunctions, i < tf.count { f = tf[i](f) }
    return AnimatableValue.interpolate(values[i], values[i + 1], f)
  }

  override func apply(progress p: Double, simpleTime: Double, to layer: Layer) {
    guard let v = value(at: p) else { return }
    write(v, base: layer.value(forKeyPath: keyPath), to: layer)
  }
}

/// Plays several animations on one layer with a shared clock (CAAnimationGroup). The
/// children's times are relative to the group's local time; a child with duration 0 takes
/// the group's duration. Children are cut off by the group's active interval.
package final class AnimationGroup: Animation {
  package var animations: [Animation] = []

  package init(_ animations: [Animation] = [], duration: Double = 0) {
    self.animations = animations
    super.init()
    self.duration = duration
  }

  /// A new AnimationGroup with this one's own fields; `copy()` adds the shared ones.
  override func makeCopy() -> Animation {
    let c = AnimationGroup()
    c.animations = animations.map { $0.copy() }
    return c
  }

  override func apply(progress p: Double, simpleTime: Double, to layer: Layer) {
    let local = p * effectiveTiming.duration
    for child in animations {
      let c = child.copy()
      if c.duration == 0 { c.duration = effectiveTiming.duration }
      c.apply(to: layer, at: local)
    }
  }
}

/// The kind of a transition (CATransitionType).
package enum TransitionType: String, Sendable, Hashable, Codable {
  case fade, push, moveIn, reveal
}

/// Where the new content comes from (CATransitionSubtype).
package enum TransitionSubtype: String, Sendable, Hashable, Codable {
  case fromLeft, fromRight, fromTop, fromBottom
}

/// Animates a layer from how it looked when the transition was added (the outgoing state,
/// captured then) to its current state (CATransition). fade: the new state fades in over
/// the old (an exact cross-dissolve for opaque content); push: both slide, the new one in
/// from `subtype`'s side; moveIn: the new one slides in over the old; reveal: the old one
/// slides out (toward the side opposite `subtype`), uncovering the new one.
/// The slide distance is the layer's bounds width (or height); nothing is clipped unless
/// the superlayer masks to its bounds.
package final class Transition: Animation {
  package var type: TransitionType
  package var subtype: TransitionSubtype
  /// The outgoing state (a presentation copy), captured when the transition is added.
  var snapshot: Layer?

  package init(type: TransitionType, subtype: TransitionSubtype = .fromLeft, duration: Double = 0) {
    self.type = type
    self.subtype = subtype
    super.init()
    self.duration = duration
  }

  /// A new Transition with this one's own fields; `copy()` adds the shared ones.
  override func makeCopy() -> Animation {
    let c = Transition(type: type, subtype: subtype)
    c.snapshot = snapshot
    return c
  }

  override func apply(progress p: Double, simpleTime: Double, to layer: Layer) {
    guard let old = snapshot?.presentation(at: 0) else { return }
    let w = layer.bounds.width
    let h = layer.bounds.height
    // Offset of the incoming state at p = 0 (it moves to 0 at p = 1).
    let (ix, iy): (Double, Double)
    switch subtype {
    case .fromRight: (ix, iy) = (w, 0)
    case .fromLeft: (ix, iy) = (-w, 0)
    case .fromTop: (ix, iy) = (0, -h)
    case .fromBottom: (ix, iy) = (0, h)
    }
    func shift(_ l: Layer, _ dx: Double, _ dy: Double) {
      if dx != 0 || dy != 0 {
        l.state.transform = Transform3D.translation(x: dx, y: dy).concatenating(l.state.transform)
      }
    }
    switch type {
    case .fade:
      layer.state.opacity *= p
      layer.transitionBelow = old
    case .push:
      shift(layer, ix * (1 - p), iy * (1 - p))
      shift(old, -ix * p, -iy * p)
      layer.transitionBelow = old
    case .moveIn:
      shift(layer, ix * (1 - p), iy * (1 - p))
      layer.transitionBelow = old
    case .reveal:
      shift(old, -ix * p, -iy * p)
      layer.transitionAbove = old
    }
  }
}
