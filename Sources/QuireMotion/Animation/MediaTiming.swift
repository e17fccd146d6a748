import Foundation

/// How an animation behaves outside its active interval (CAMediaTimingFillMode).
package enum FillMode: String, Sendable, Hashable, Codable {
  case removed, forwards, backwards, both
}

/// The timing of an animation (CAMediaTiming), all in seconds of the parent's time.
/// Local time = (parentTime − beginTime) · speed, active while 0 ≤ local < active duration,
/// where the active duration is repeatDuration if > 0, else max(repeatCount, 1)-fold the
/// cycle (duration, twice it when autoreversing). timeOffset shifts the phase inside the
/// active interval (wrapping), as in Core Animation.
package struct MediaTiming: Sendable, Hashable {
  package var beginTime = 0.0
  package var duration = 0.0
  package var speed = 1.0
  package var timeOffset = 0.0
  package var repeatCount = 0.0
  package var repeatDuration = 0.0
  package var autoreverses = false
  package var fillMode = FillMode.removed

  package init() {}

  var cycle: Double { duration * (autoreverses ? 2 : 1) }

  /// The active duration in local time (may be infinite).
  package var activeDuration: Double {
    if repeatDuration > 0 { return repeatDuration }
    return max(repeatCount, 1) * cycle
  }

  /// Parent time at which the active interval ends (infinite for speed ≤ 0 or endless repeats).
  package var endTime: Double {
    guard speed > 0 else { return .infinity }
    return beginTime + activeDuration / speed
  }

  /// Simple-duration time (0…duration) at parent time `t`, or nil when the animation has no
  /// effect then (outside the active interval without a matching fill mode).
  package func simpleTime(at t: Double) -> Double? {
    guard duration > 0, duration.isFinite else { return nil }
    let active = activeDuration
    let local = (t - beginTime) * speed
    var phase: Double
    if local < 0 {
      guard fillMode == .backwards || fillMode == .both else { return nil }
      phase = timeOffset
    } else if local >= active {
      guard fillMode == .forwards || fillMode == .both else { return nil }
      phase = active + timeOffset
      if timeOffset == 0 { return endPhase(active) }
    } else {
      phase = local + timeOffset
    }
    if active.isFinite && active > 0 && (phase < 0 || phase >= active) {
      phase = phase.truncatingRemainder(dividingBy: active)
      if phase < 0 { phase += active }
    }
    return fold(phase)
  }

  private func fold(_ phase: Double) -> Double {
    let c = cycle
    var f = phase - (phase / c).rounded(.down) * c
    if autoreverses && f > duration { f = 2 * duration - f }
    return min(max(f, 0), duration)
  }

  /// Where a finished animation rests: the end of its last (possibly partial) cycle.
  private func endPhase(_ active: Double) -> Double {
    let c = cycle
    let r = active - (active / c).rounded(.down) * c
    if r < 1e-12 { return autoreverses ? 0 : duration }
    return fold(r)
  }
}
