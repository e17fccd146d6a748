import Foundation

/// A 4×4 homogeneous transform with Core Animation's conventions: points are ROW vectors
/// (p' = p · M), so the translation lives in m41…m43 and the perspective term in m34
/// (m34 = −1/d puts the eye at distance d in front of the z = 0 plane).
/// `a.concatenating(b)` applies `a` first, then `b` (CATransform3DConcat(a, b)).
/// `rotated`, `translated`, `scaled` prepend the new operation like CATransform3DRotate & co:
/// the new operation happens first, then the existing transform — so
/// `Transform3D.perspective(800).rotated(by: a, y: 1)` rotates and THEN projects.
package struct Transform3D: Sendable, Hashable {
  package var m11 = 1.0, m12 = 0.0, m13 = 0.0, m14 = 0.0
  package var m21 = 0.0, m22 = 1.0, m23 = 0.0, m24 = 0.0
  package var m31 = 0.0, m32 = 0.0, m33 = 1.0, m34 = 0.0
  package var m41 = 0.0, m42 = 0.0, m43 = 0.0, m44 = 1.0

  package init() {}
  package static let identity = Transform3D()

  /// Row-major entries m11, m12, …, m44.
  package init(_ e: [Double]) {
    precondition(e.count == 16, "Transform3D needs 16 entries")
    (m11, m12, m13, m14) = (e[0], e[1], e[2], e[3])
    (m21, m22, m23, m24) = (e[4], e[5], e[6], e[7])
    (m31, m32, m33, m34) = (e[8], e[9], e[10], e[11])
    (m41, m42, m43, m44) = (e[12], e[13], e[14], e[15])
  }

  package var entries: [Double] {
    [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
  }

  package var isIdentity: Bool { self == .identity }

  package static func translation(x: Double, y: Double, z: Double = 0) -> Transform3D {
    var t = Transform3D()
    (t.m41, t.m42, t.m43) = (x, y, z)
    return t
  }

  package static func scale(x: Double, y: Double, z: Double = 1) -> Transform3D {
    var t = Transform3D()
    (t.m11, t.m22, t.m33) = (x, y, z)
    return t
  }

  /// Rotation by `angle` radians about the axis (x, y, z) (normalised here), with
  /// CATransform3DMakeRotation's sign: about z, positive turns +x toward +y (clockwise on a
  /// y-down screen); about y, positive turns +x toward −z (away from the viewer).
  package static func rotation(_ angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
    let len = (x * x + y * y + z * z).squareRoot()
    guard len > 0 else { return .identity }
    let (ax, ay, az) = (x / len, y / len, z / len)
    let c = cos(angle)
    let s = sin(angle)
    let k = 1 - c
    var t = Transform3D()
    t.m11 = ax * ax * k + c
    t.m12 = ax * ay * k + az * s
    t.m13 = ax * az * k - ay * s
    t.m21 = ay * ax * k - az * s
    t.m22 = ay * ay * k + c
    t.m23 = ay * az * k + ax * s
    t.m31 = az * ax * k + ay * s
    t.m32 = az * ay * k - ax * s
    t.m33 = az * az * k + c
    return t
  }

  /// The identity with m34 = −1/distance: a pinhole eye `distance` points in front of z = 0.
  package static func perspective(_ distance: Double) -> Transform3D {
    var t = Transform3D()
    if distance > 0 { t.m34 = -1 / distance }
    return t
  }

  /// self · other: apply self, then other.
  package func concatenating(_ o: Transform3D) -> Transform3D {
    let a = entries
    let b = o.entries
    var r = [Double](repeating: 0, count: 16)
    for i in 0..<4 {
      for j in 0..<4 {
        var s = 0.0
        for k in 0..<4 { s += a[i * 4 + k] * b[k * 4 + j] }
        r[i * 4 + j] = s
      }
    }
    return Transform3D(r)
  }

  package func translated(x: Double, y: Double, z: Double = 0) -> Transform3D {
    Transform3D.translation(x: x, y: y, z: z).concatenating(self)
  }
  package func scaled(x: Double, y: Double, z: Double = 1) -> Transform3D {
    Transform3D.scale(x: x, y: y, z: z).concatenating(self)
  }
  package func rotated(by angle: Double, x: Double = 0, y: Double = 0, z: Double = 0)
    -> Transform3D
  {
    Transform3D.rotation(angle, x: x, y: y, z: z).concatenating(self)
  }

  /// Homogeneous image of (x, y, z, 1): returns (X, Y, Z, W); divide by W to project.
  package func apply(x: Double, y: Double, z: Double = 0) -> (
    x: Double, y: Double, z: Double, w: Double
  ) {
    (
      x * m11 + y * m21 + z * m31 + m41, x * m12 + y * m22 + z * m32 + m42,
      x * m13 + y * m23 + z * m33 + m43, x * m14 + y * m24 + z * m34 + m44
    )
  }

  /// The projected 2-D point (after the perspective divide).
  package func project(x: Double, y: Double) -> LayerPoint {
    let p = apply(x: x, y: y)
    return LayerPoint(x: p.x / p.w, y: p.y / p.w)
  }
}

// MARK: - Decomposition and interpolation

/// Transform interpolation: both ends are decomposed into perspective, translation, scale,
/// skew and a rotation quaternion (the CSS Transforms "unmatrix" scheme, written for our
/// row-vector layout), the parts are interpolated (quaternions by slerp along the shorter
/// arc) and recomposed. A rigid rotation therefore stays rigid mid-way instead of shrinking
/// as a component-wise blend of sines and cosines would. Limits: a decomposed rotation never
/// turns more than 180° between the ends — to animate a half turn or more, animate a
/// `transform.rotation.{x,y,z}` key path, whose value is a plain angle. If either end cannot
/// be decomposed (a singular matrix) the entries are blended component-wise.
struct DecomposedTransform: Equatable {
  var perspective: (Double, Double, Double, Double) = (0, 0, 0, 1)
  var translation: (Double, Double, Double) = (0, 0, 0)
  var scale: (Double, Double, Double) = (1, 1, 1)
  var skew: (Double, Double, Double) = (0, 0, 0)  // xy, xz, yz
  var quaternion: (Double, Double, Double, Double) = (0, 0, 0, 1)

  static func == (a: DecomposedTransform, b: DecomposedTransform) -> Bool {
    a.perspective == b.perspective && a.translation == b.translation && a.scale == b.scale
      && a.skew == b.skew && a.quaternion == b.quaternion
  }
}

private typealias Vec3 = (Double, Double, Double)
private func dot3(_ a: Vec3, _ b: Vec3) -> Double { a.0 * b.0 + a.1 * b.1 + a.2 * b.2 }
private func cross3(_ a: Vec3, _ b: Vec3) -> Vec3 {
  (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
}
private func sub3(_ a: Vec3, _ b: Vec3, _ k: Double) -> Vec3 {
  (a.0 - b.0 * k, a.1 - b.1 * k, a.2 - b.2 * k)
}
private func scale3(_ a: Vec3, _ k: Double) -> Vec3 { (a.0 * k, a.1 * k, a.2 * k) }

/// Inverse of a 3×3 matrix given as rows; nil when singular.
private func invert3(_ m: [[Double]]) -> [[Double]]? {
  let a = m[0][0]
  let b = m[0][1]
  let c = m[0][2]
  let d = m[1][0]
  let e = m[1][1]
  let f = m[1][2]
  let g = m[2][0]
  let h = m[2][1]
  let i = m[2][2]
  let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
  guard abs(det) > 1e-12 else { return nil }
  return [
    [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
    [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
    [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
  ]
}

extension Transform3D {
  func decomposed() -> DecomposedTransform? {
    guard abs(m44) > 1e-12 else { return nil }
    var e = entries.map { $0 / m44 }
    var out = DecomposedTransform()
    // Perspective: M = N · P with N affine (column 3 = 0,0,0,1) and P = I with column 3 = p.
    let n3 = [[e[0], e[1], e[2]], [e[4], e[5], e[6]], [e[8], e[9], e[10]]]
    guard let inv = invert3(n3) else { return nil }
    if e[3] != 0 || e[7] != 0 || e[11] != 0 {
      // N = [[A, 0], [t, 1]]; N·p = rhs ⇒ A·p3 = rhs3, t·p3 + p4 = rhs4.
      let rhs = (e[3], e[7], e[11], e[15])
      let p0 = inv[0][0] * rhs.0 + inv[0][1] * rhs.1 + inv[0][2] * rhs.2
      let p1 = inv[1][0] * rhs.0 + inv[1][1] * rhs.1 + inv[1][2] * rhs.2
      let p2 = inv[2][0] * rhs.0 + inv[2][1] * rhs.1 + inv[2][2] * rhs.2
      let p3 = rhs.3 - (e[12] * p0 + e[13] * p1 + e[14] * p2)
      out.perspective = (p0, p1, p2, p3)
      e[3] = 0
      e[7] = 0
      e[11] = 0
      e[15] = 1
    }
    out.translation = (e[12], e[13], e[14])
    var r0: Vec3 = (e[0], e[1], e[2])
    var r1: Vec3 = (e[4], e[5], e[6])
    var r2: Vec3 = (e[8], e[9], e[10])
    var sx = dot3(r0, r0).squareRoot()
    guard sx > 1e-12 else { return nil }
    r0 = scale3(r0, 1 / sx)
    var kxy = dot3(r0, r1)
    r1 = sub3(r1, r0, kxy)
    var sy = dot3(r1, r1).squareRoot()
    guard sy > 1e-12 else { return nil }
    r1 = scale3(r1, 1 / sy)
    kxy /= sy
    var kxz = dot3(r0, r2)
    r2 = sub3(r2, r0, kxz)
    var kyz = dot3(r1, r2)
    r2 = sub3(r2, r1, kyz)
    var sz = dot3(r2, r2).squareRoot()
    guard sz > 1e-12 else { return nil }
    r2 = scale3(r2, 1 / sz)
    kxz /= sz
    kyz /= sz
    if dot3(r0, cross3(r1, r2)) < 0 {
      sx = -sx
      sy = -sy
      sz = -sz
      r0 = scale3(r0, -1)
      r1 = scale3(r1, -1)
      r2 = scale3(r2, -1)
    }
    out.scale = (sx, sy, sz)
    out.skew = (kxy, kxz, kyz)
    // Rows r0…r2 form R (row-vector form), i.e. the transpose of the column-form rotation.
    var qx = 0.5 * max(1 + r0.0 - r1.1 - r2.2, 0).squareRoot()
    var qy = 0.5 * max(1 - r0.0 + r1.1 - r2.2, 0).squareRoot()
    var qz = 0.5 * max(1 - r0.0 - r1.1 + r2.2, 0).squareRoot()
    let qw = 0.5 * max(1 + r0.0 + r1.1 + r2.2, 0).squareRoot()
    if r1.2 - r2.1 < 0 { qx = -qx }
    if r2.0 - r0.2 < 0 { qy = -qy }
    if r0.1 - r1.0 < 0 { qz = -qz }
    out.quaternion = (qx, qy, qz, qw)
    return out
  }

  init(_ d: DecomposedTransform) {
    let (x, y, z, w) = d.quaternion
    var r = Transform3D()
    // Row-vector form: the transpose of the usual column-vector quaternion matrix.
    r.m11 = 1 - 2 * (y * y + z * z)
    r.m21 = 2 * (x * y - z * w)
    r.m31 = 2 * (x * z + y * w)
    r.m12 = 2 * (x * y + z * w)
    r.m22 = 1 - 2 * (x * x + z * z)
    r.m32 = 2 * (y * z - x * w)
    r.m13 = 2 * (x * z - y * w)
    r.m23 = 2 * (y * z + x * w)
    r.m33 = 1 - 2 * (x * x + y * y)
    var s = Transform3D.scale(x: d.scale.0, y: d.scale.1, z: d.scale.2)
    var k = Transform3D()
    k.m21 = d.skew.0
    k.m31 = d.skew.1
    k.m32 = d.skew.2
    s = s.concatenating(k).concatenating(r)
    s = s.concatenating(
      .translation(x: d.translation.0, y: d.translation.1, z: d.translation.2))
    var p = Transform3D()
    (p.m14, p.m24, p.m34, p.m44) = d.perspective
    self = s.concatenating(p)
  }

  /// Interpolates from `self` (t = 0) to `to` (t = 1); see `DecomposedTransform`.
  package func interpolated(to: Transform3D, _ t: Double) -> Transform3D {
    if t == 0 { return self }
    if t == 1 { return to }
    guard let a = decomposed(), let b = to.decomposed() else {
      let ea = entries
      let eb = to.entries
      return Transform3D((0..<16).map { ea[$0] + (eb[$0] - ea[$0]) * t })
    }
    func l(_ p: Double, _ q: Double) -> Double { p + (q - p) * t }
    var m = DecomposedTransform()
    m.perspective = (
      l(a.perspective.0, b.perspective.0), l(a.perspective.1, b.perspective.1),
      l(a.perspective.2, b.perspective.2), l(a.perspective.3, b.perspective.3)
    )
    m.translation = (
      l(a.translation.0, b.translation.0), l(a.translation.1, b.translation.1),
      l(a.translation.2, b.translation.2)
    )
    m.scale = (l(a.scale.0, b.scale.0), l(a.scale.1, b.scale.1), l(a.scale.2, b.scale.2))
    m.skew = (l(a.skew.0, b.skew.0), l(a.skew.1, b.skew.1), l(a.skew.2, b.skew.2))
    // Slerp along the shorter arc.
    var q = b.quaternion
    var cosHalf =
      a.quaternion.0 * q.0 + a.quaternion.1 * q.1 + a.quaternion.2 * q.2 + a.quaternion.3 * q.3
    if cosHalf < 0 {
      q = (-q.0, -q.1, -q.2, -q.3)
      cosHalf = -cosHalf
    }
    var wa = 1 - t
    var wb = t
    if cosHalf < 0.9999 {
      let theta = acos(min(1, cosHalf))
      let s = sin(theta)
      wa = sin((1 - t) * theta) / s
      wb = sin(t * theta) / s
    }
    let qa = a.quaternion
    var qi = (
      qa.0 * wa + q.0 * wb, qa.1 * wa + q.1 * wb, qa.2 * wa + q.2 * wb, qa.3 * wa + q.3 * wb
    )
    let n = (qi.0 * qi.0 + qi.1 * qi.1 + qi.2 * qi.2 + qi.3 * qi.3).squareRoot()
    if n > 0 { qi = (qi.0 / n, qi.1 / n, qi.2 / n, qi.3 / n) }
    m.quaternion = qi
    return Transform3D(m)
  }
}
