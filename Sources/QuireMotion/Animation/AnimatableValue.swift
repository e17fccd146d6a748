import Foundation

/// A value an animation can interpolate. Values of different kinds do not blend: the
/// interpolation then switches at t = 0.5 (a discrete step), like Core Animation does for
/// non-interpolable properties.
package enum AnimatableValue: Sendable, Hashable {
  case double(Double)
  case point(LayerPoint)
  case size(LayerSize)
  case rect(LayerRect)
  case color(RGBA)
  case transform(Transform3D)

  package static func interpolate(_ a: AnimatableValue, _ b: AnimatableValue, _ t: Double)
    -> AnimatableValue
  {
    func l(_ p: Double, _ q: Double) -> Double { p + (q - p) * t }
    switch (a, b) {
    case (.double(let p), .double(let q)): return .double(l(p, q))
    case (.point(let p), .point(let q)): return .point(LayerPoint(x: l(p.x, q.x), y: l(p.y, q.y)))
    case (.size(let p), .size(let q)):
      return .size(LayerSize(width: l(p.width, q.width), height: l(p.height, q.height)))
    case (.rect(let p), .rect(let q)):
      return .rect(
        LayerRect(
          x: l(p.minX, q.minX), y: l(p.minY, q.minY), width: l(p.width, q.width),
          height: l(p.height, q.height)))
    case (.color(let p), .color(let q)): return .color(RGBA.mix(p, q, t))
    case (.transform(let p), .transform(let q)): return .transform(p.interpolated(to: q, t))
    default: return t < 0.5 ? a : b
    }
  }

  /// a + b (component-wise; transforms concatenate: a then b). Nil when kinds differ.
  package static func add(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
    switch (a, b) {
    case (.double(let p), .double(let q)): return .double(p + q)
    case (.point(let p), .point(let q)): return .point(LayerPoint(x: p.x + q.x, y: p.y + q.y))
    case (.size(let p), .size(let q)):
      return .size(LayerSize(width: p.width + q.width, height: p.height + q.height))
    case (.rect(let p), .rect(let q)):
      return .rect(
        LayerRect(
          x: p.minX + q.minX, y: p.minY + q.minY, width: p.width + q.width,
          height: p.height + q.height))
    case (.color(let p), .color(let q)):
      return .color(p + q)
    case (.transform(let p), .transform(let q)): return .transform(p.concatenating(q))
    default: return nil
    }
  }

  /// a − b, the inverse of `add` where it exists (transforms: nil).
  static func subtract(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
    switch (a, b) {
    case (.double(let p), .double(let q)): return .double(p - q)
    case (.point(let p), .point(let q)): return .point(LayerPoint(x: p.x - q.x, y: p.y - q.y))
    case (.size(let p), .size(let q)):
      return .size(LayerSize(width: p.width - q.width, height: p.height - q.height))
    case (.rect(let p), .rect(let q)):
      return .rect(
        LayerRect(
          x: p.minX - q.minX, y: p.minY - q.minY, width: p.width - q.width,
          height: p.height - q.height))
    case (.color(let p), .color(let q)):
      return .color(p - q)
    default: return nil
    }
  }

  /// A distance for paced keyframes (Euclidean over the components).
  static func distance(_ a: AnimatableValue, _ b: AnimatableValue) -> Double {
    func h(_ xs: [Double]) -> Double { xs.reduce(0) { $0 + $1 * $1 }.squareRoot() }
    switch (a, b) {
    case (.double(let p), .double(let q)): return abs(p - q)
    case (.point(let p), .point(let q)): return h([p.x - q.x, p.y - q.y])
    case (.size(let p), .size(let q)): return h([p.width - q.width, p.height - q.height])
    case (.rect(let p), .rect(let q)):
      return h([p.minX - q.minX, p.minY - q.minY, p.width - q.width, p.height - q.height])
    case (.color(let p), .color(let q)):
      return h([p.red - q.red, p.green - q.green, p.blue - q.blue, p.alpha - q.alpha])
    case (.transform(let p), .transform(let q)):
      return h(zip(p.entries, q.entries).map { $0 - $1 })
    default: return 1
    }
  }

  package var doubleValue: Double? {
    if case .double(let d) = self { return d }
    return nil
  }
}

// MARK: - Key paths

/// Key paths with Core Animation's names. "transform.rotation.{x,y,z}" (and
/// "transform.rotation" = z), "transform.scale[.{x,y,z}]" and "transform.translation.{x,y,z}"
/// read the component from the transform (rotation about one axis by atan2, exact for a
/// transform whose rotation is about that axis) and write it by prepending the difference, so
/// the layer's perspective and other parts are kept: setting "transform.rotation.y" on
/// R_y(a)·P gives R_y(b)·P. A rotation angle written this way may exceed ±π.
extension LayerState {
  func value(forKeyPath key: String) -> AnimatableValue? {
    switch key {
    case "bounds": return .rect(bounds)
    case "bounds.size": return .size(bounds.size)
    case "bounds.size.width": return .double(bounds.width)
    case "bounds.size.height": return .double(bounds.height)
    case "bounds.origin": return .point(bounds.origin)
    case "position": return .point(position)
    case "position.x": return .double(position.x)
    case "position.y": return .double(position.y)
    case "anchorPoint": return .point(anchorPoint)
    case "zPosition": return .double(zPosition)
    case "transform": return .transform(transform)
    case "sublayerTransform": return .transform(sublayerTransform)
    case "opacity": return .double(opacity)
    case "backgroundColor": return .color(backgroundColor)
    case "cornerRadius": return .double(cornerRadius)
    case "borderWidth": return .double(borderWidth)
    case "borderColor": return .color(borderColor)
    case "shadowColor": return .color(shadowColor)
    case "shadowOpacity": return .double(shadowOpacity)
    case "shadowOffset": return .size(shadowOffset)
    case "shadowRadius": return .double(shadowRadius)
    default:
      if key.hasPrefix("transform.") {
        return transformComponent(transform, String(key.dropFirst("transform.".count)))
          .map { .double($0) }
      }
      return nil
    }
  }

  /// Writes a value; false when the key or the value's kind is unknown.
  @discardableResult
  mutating func set(_ v: AnimatableValue, forKeyPath key: String) -> Bool {
    switch (key, v) {
    case ("bounds", .rect(let r)): bounds = r
    case ("bounds.size", .size(let s)): bounds.size = s
    case ("bounds.size.width", .double(let d)): bounds.size.width = d
    case ("bounds.size.height", .double(let d)): bounds.size.height = d
    case ("bounds.origin", .point(let p)): bounds.origin = p
    case ("position", .point(let p)): position = p
    case ("position.x", .double(let d)): position.x = d
    case ("position.y", .double(let d)): position.y = d
    case ("anchorPoint", .point(let p)): anchorPoint = p
    case ("zPosition", .double(let d)): zPosition = d
    case ("transform", .transform(let t)): transform = t
    case ("sublayerTransform", .transform(let t)): sublayerTransform = t
    case ("opacity", .double(let d)): opacity = d
    case ("backgroundColor", .color(let c)): backgroundColor = c
    case ("cornerRadius", .double(let d)): cornerRadius = d
    case ("borderWidth", .double(let d)): borderWidth = d
    case ("borderColor", .color(let c)): borderColor = c
    case ("shadowColor", .color(let c)): shadowColor = c
    case ("shadowOpacity", .double(let d)): shadowOpacity = d
    case ("shadowOffset", .size(let s)): shadowOffset = s
    case ("shadowRadius", .double(let d)): shadowRadius = d
    case (_, .double(let d)) where key.hasPrefix("transform."):
      guard
        let t = settingTransformComponent(
          transform, String(key.dropFirst("transform.".count)), d)
      else { return false }
      transform = t
    default: return false
    }
    return true
  }
}

private func transformComponent(_ t: Transform3D, _ sub: String) -> Double? {
  switch sub {
  case "rotation", "rotation.z": return atan2(t.m12, t.m11)
  case "rotation.y": return atan2(-t.m13, t.m11)
  case "rotation.x": return atan2(t.m23, t.m22)
  case "scale", "scale.x": return (t.m11 * t.m11 + t.m12 * t.m12 + t.m13 * t.m13).squareRoot()
  case "scale.y": return (t.m21 * t.m21 + t.m22 * t.m22 + t.m23 * t.m23).squareRoot()
  case "scale.z": return (t.m31 * t.m31 + t.m32 * t.m32 + t.m33 * t.m33).squareRoot()
  case "translation.x": return t.m41
  case "translation.y": return t.m42
  case "translation.z": return t.m43
  default: return nil
  }
}

private func settingTransformComponent(_ t: Transform3D, _ sub: String, _ v: Double)
  -> Transform3D?
{
  guard let cur = transformComponent(t, sub) else { return nil }
  func ratio() -> Double { cur == 0 ? 1 : v / cur }
  switch sub {
  case "rotation", "rotation.z": return t.rotated(by: v - cur, z: 1)
  case "rotation.y": return t.rotated(by: v - cur, y: 1)
  case "rotation.x": return t.rotated(by: v - cur, x: 1)
  case "scale": return t.scaled(x: ratio(), y: ratio(), z: ratio())
  case "scale.x": return t.scaled(x: ratio(), y: 1)
  case "scale.y": return t.scaled(x: 1, y: ratio())
  case "scale.z": return t.scaled(x: 1, y: 1, z: ratio())
  case "translation.x":
    var r = t
    r.m41 = v
    return r
  case "translation.y":
    var r = t
    r.m42 = v
    return r
  case "translation.z":
    var r = t
    r.m43 = v
    return r
  default: return nil
  }
}

extension Layer {
  /// The model value at a key path (see the key path list on `LayerState`).
  package func value(forKeyPath key: String) -> AnimatableValue? {
    state.value(forKeyPath: key)
  }

  /// Sets a model value by key path, running the action lookup under the key path name.
  /// Returns false (and changes nothing) for an unknown key or a value of the wrong kind.
  @discardableResult
  package func setValue(_ v: AnimatableValue, forKeyPath key: String) -> Bool {
    var probe = state
    guard probe.set(v, forKeyPath: key) else { return false }
    change(key) { $0.set(v, forKeyPath: key) }
    return true
  }

  func setPresentationValue(_ v: AnimatableValue, forKeyPath key: String) {
    state.set(v, forKeyPath: key)
  }
}
