// FaceMatching: CSS Fonts 4 §5.2 step 4, the font style matching algorithm, over the faces of
// one family.
//
// The candidates are narrowed three times, each time to the faces nearest the request by one
// property, ties kept: first `font-stretch` (a request at or below 100% looks at narrower
// faces first, then wider; above 100% the other way), then `font-style` (italic → oblique →
// normal for an italic request; oblique → italic → normal for an oblique one, positive angles
// before negative; normal → oblique → italic for a normal one), then `font-weight` (a request
// between 400 and 500 takes weights up to 500 first, then lighter, then heavier than 500; one
// below 400 lighter first, then heavier; one above 500 heavier first, then lighter). A
// descriptor range that contains the request is an exact match. Each step is a distance whose
// smallest value wins, so the whole match is three linear passes.
//
// Faces left after all three steps share their descriptors and differ only in
// `unicode-range`: together they act as one composite face (`FontSet` picks among them per
// character, the last defined first). The match never fails while the family has a face;
// what it could not match — bold or italic — the rasterizer synthesizes.

import QuireIngest

/// The style a run of text asks for, in the units of the descriptors.
struct FontRequest: Sendable, Hashable {
  enum Slant: Sendable, Hashable {
    case normal
    case italic
    /// Degrees.
    case oblique(Double)
  }
  var weight: Double = 400
  var slant: Slant = .normal
  /// Percent.
  var stretch: Double = 100
}

enum FaceMatching {
  /// The candidates (indices into `descriptors`) that match `request` best, in their order.
  static func best(
    _ candidates: [Int], _ descriptors: (Int) -> FontFaceDescriptors, _ request: FontRequest
  ) -> [Int] {
    var pool = candidates
    pool = nearest(pool) { stretchDistance(descriptors($0).stretch, request.stretch) }
    pool = nearest(pool) { slantDistance(descriptors($0).slant, request.slant) }
    pool = nearest(pool) { weightDistance(descriptors($0).weight, request.weight) }
    return pool
  }

  private static func nearest(_ pool: [Int], _ distance: (Int) -> Double) -> [Int] {
    let d = pool.map(distance)
    guard let m = d.min() else { return pool }
    return zip(pool, d).filter { $0.1 == m }.map(\.0)
  }

  /// How far a face's stretch range is from the request, in the order the spec checks.
  static func stretchDistance(_ r: ClosedRange<Double>, _ want: Double) -> Double {
    if r.contains(want) { return 0 }
    if want <= 100 {
      return r.upperBound < want ? want - r.upperBound : 1000 + r.lowerBound - want
    }
    return r.lowerBound > want ? r.lowerBound - want : 1000 + want - r.upperBound
  }

  /// How far a face's weight range is from the request, in the order the spec checks.
  static func weightDistance(_ r: ClosedRange<Double>, _ want: Double) -> Double {
    if r.contains(want) { return 0 }
    if want >= 400 && want <= 500 {
      if r.lowerBound > want && r.lowerBound <= 500 { return r.lowerBound - want }
      if r.upperBound < want { return 1000 + want - r.upperBound }
      return 2000 + r.lowerBound - want
    }
    if want < 400 {
      return r.upperBound < want ? want - r.upperBound : 1000 + r.lowerBound - want
    }
    return r.lowerBound > want ? r.lowerBound - want : 1000 + want - r.upperBound
  }

  /// The italic request's angle, for ordering oblique faces against it.
  static let italicAngle = 14.0

  /// How far a face's slant is from the request: tiers of 1000, the angle within a tier.
  /// Oblique faces slanted the other way than asked come after italic and normal faces.
  static func slantDistance(_ face: FontFaceSlant, _ want: FontRequest.Slant) -> Double {
    switch (want, face) {
    case (.italic, .italic), (.normal, .normal): return 0
    case (.italic, .oblique(let r)):
      let d = obliqueDistance(r, italicAngle)
      return d < otherSide ? 1000 + d : 6000 + d
    case (.italic, .normal): return 5000
    case (.oblique(let angle), .oblique(let r)):
      let d = obliqueDistance(r, angle)
      return d < otherSide ? d : 6000 + d
    case (.oblique(let angle), .italic): return angle >= 0 ? 3000 : 5500
    case (.oblique(let angle), .normal): return angle >= 0 ? 4000 : 3000
    case (.normal, .oblique(let r)):
      if r.contains(0) { return 0 }
      let d = obliqueDistance(r, 0)
      return 1000 + d
    case (.normal, .italic): return 3000
    }
  }

  /// Oblique angles at or above this are matched towards steeper faces first (§5.2).
  static let steepAngle = 11.0
  /// `obliqueDistance` values from here on are faces slanted the other way.
  static let otherSide = 600.0

  /// Oblique faces against a requested angle on its side of 0: a steep request (≥ 11deg)
  /// takes steeper faces in ascending order, then shallower ones descending; a shallow one
  /// the reverse. Below 600; faces on the other side of 0 from 600 up.
  static func obliqueDistance(_ r: ClosedRange<Double>, _ angle: Double) -> Double {
    if r.contains(angle) { return 0 }
    let sign: Double = angle < 0 ? -1 : 1
    let lo = min(r.lowerBound * sign, r.upperBound * sign)
    let hi = max(r.lowerBound * sign, r.upperBound * sign)
    let a = abs(angle)
    if hi < 0 || (hi == 0 && a > 0 && lo < 0) { return otherSide + abs(hi) }
    let steeper = lo > a ? lo - a : nil
    let shallower = hi < a ? a - hi : nil
    if a >= steepAngle || a == 0 {
      if let steeper { return steeper }
      return 200 + (shallower ?? 0)
    }
    if let shallower { return shallower }
    return 200 + (steeper ?? 0)
  }
}

extension FaceMatching {
  /// The face for `request` among a family's `members`, with the synthesis it needs: bold
  /// when a weight of 600 or more is asked of a face lighter than 600, a slant when italic
  /// or oblique is asked of an upright face. Of a composite the member that covers "a" (else
  /// the first) stands for it.
  static func choice(
    _ members: [Int], faces: [Face], composites: [[Int]], request: FontRequest
  ) -> FaceChoice {
    let matched = best(members, { faces[$0].descriptors }, request)
    let group = composites[matched[0]]
    let chosen = group.first { faces[$0].descriptors.covers(0x61) } ?? matched[0]
    let d = faces[chosen].descriptors
    let slanted = request.slant != .normal
    return FaceChoice(
      face: chosen, syntheticBold: request.weight >= 600 && d.weight.upperBound < 600,
      syntheticItalic: slanted && d.slant == .normal)
  }

  /// Per face, the faces of its family sharing its weight, style and stretch descriptors,
  /// the last defined first: the composite that `unicode-range` splits by character.
  static func composites(_ faces: [Face], families: [String: [Int]]) -> [[Int]] {
    var out = faces.indices.map { [$0] }
    for members in families.values where members.count > 1 {
      var groups: [[Int]] = []
      for m in members {
        let d = faces[m].descriptors
        if let g = groups.firstIndex(where: { same(faces[$0[0]].descriptors, d) }) {
          groups[g].append(m)
        } else {
          groups.append([m])
        }
      }
      for g in groups where g.count > 1 {
        let ordered = g.sorted(by: >)
        for m in g { out[m] = ordered }
      }
    }
    return out
  }

  private static func same(_ a: FontFaceDescriptors, _ b: FontFaceDescriptors) -> Bool {
    a.weight == b.weight && a.slant == b.slant && a.stretch == b.stretch
  }
}

extension FontSet {
  /// The member of `face`'s composite that may draw `scalar` (its `unicode-range` covers it
  /// and it has the glyph), the last defined first; nil when none.
  @inline(__always)
  func composite(for scalar: UInt32, _ face: Int) -> Int? {
    if plainFaces[face] { return faces[face].hasGlyph(scalar) ? face : nil }
    return rangedComposite(for: scalar, face)
  }

  /// `composite(for:_:)` for a face with a `unicode-range` or composite partners.
  private func rangedComposite(for scalar: UInt32, _ face: Int) -> Int? {
    for m in composites[face] where faces[m].descriptors.covers(scalar) && faces[m].hasGlyph(scalar)
    {
      return m
    }
    return nil
  }
}
