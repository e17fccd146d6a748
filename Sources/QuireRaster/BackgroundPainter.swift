// Background image layers (CSS Backgrounds 3 §3): `url()` images and `linear-gradient()`s,
// the last layer painted first. The positioning area is the padding box and the painting
// area the border box (the initial `background-origin` and `background-clip`), rounded by
// the border radii. `background-size` (auto, cover, contain, one or two lengths or
// percentages), `background-position` (1–4 values: keywords, percentages, lengths, edge
// offsets such as `right 10px bottom 20%`) and `background-repeat` (repeat, repeat-x/y,
// no-repeat, space, round; one value or two) give a tile size, an origin and a spacing; the
// image is decoded once at the tile size and every pixel of the painting area looks up its
// tile by modular arithmetic, so a tiny tile costs no more than a big one.
//
// Gradients follow CSS Images 3 §3.1: the gradient line through the centre at the given
// angle, long enough that the corners get the end colours; stops without positions spread
// evenly, positions never go backwards; colours are interpolated in premultiplied RGBA.
//
// Lengths in these properties are CSS px (em and rem as 16 px: the painter does not know the
// element's font size).

import Foundation
import QuireCore
import QuireIngest
import QuireTypeset

/// What the painter needs from the image store.
struct BackgroundImages {
  var size: (String) -> (width: Double, height: Double)?
  var scaled: (String, Int, Int) -> ScaledImage?
  static var none: BackgroundImages {
    BackgroundImages(size: { _ in nil }, scaled: { _, _, _ in nil })
  }
}

enum BackgroundPainter {
  /// Paints the layers of `box`, bottom layer first, clipped to `clip`.
  static func paint(
    _ box: BoxPaint, clip: RoundedRect, images: BackgroundImages, on canvas: inout Canvas
  ) {
    let area = box.paddingBox
    guard area.width > 0, area.height > 0 else { return }
    for layer in box.backgroundLayers.prefix(16).reversed() {
      switch layer.source {
      case .url(let href):
        guard let natural = images.size(href), natural.width > 0, natural.height > 0 else {
          continue
        }
        let tiling = Tiling(layer, area: area, natural: natural)
        guard let tile = tiling.tileSize,
          let img = images.scaled(href, tile.width, tile.height)
        else { continue }
        canvas.shade(clip.rect) { x, y in
          let coverage = BoxSampling.coverage(of: clip, x, y)
          guard coverage > 0, let p = tiling.pixel(img, x, y) else { return nil }
          return BoxSampling.scale(p, coverage)
        }
      case .linearGradient(let text):
        guard let g = LinearGradientValue.parse(text) else { continue }
        let ramp = GradientRamp(g, area: area)
        canvas.shade(clip.rect) { x, y in
          let coverage = BoxSampling.coverage(of: clip, x, y)
          guard coverage > 0 else { return nil }
          return BoxSampling.scale(ramp.color(Double(x) + 0.5, Double(y) + 0.5), coverage)
        }
      }
    }
  }
}

/// One image layer's tile geometry on its positioning area.
struct Tiling {
  /// Tile size, px (fractional before rounding).
  var width: Double
  var height: Double
  /// The origin of one tile, page px.
  var x: Double
  var y: Double
  /// Tile period along each axis (tile plus spacing); nil: the axis does not repeat.
  var periodX: Double?
  var periodY: Double?

  init(_ layer: BackgroundLayer, area: Rect, natural: (width: Double, height: Double)) {
    let (w, h) = Self.size(layer.size, area: area, natural: natural)
    let words = layer.repeatValue.lowercased().split(separator: " ").map(String.init)
    var rx = words.first ?? "repeat"
    var ry = words.count > 1 ? words[1] : rx
    if rx == "repeat-x" { (rx, ry) = ("repeat", "no-repeat") }
    if rx == "repeat-y" { (rx, ry) = ("no-repeat", "repeat") }
    width = w
    height = h
    if rx == "round" { width = area.width / max(1, (area.width / w).rounded()) }
    if ry == "round" { height = area.height / max(1, (area.height / h).rounded()) }
    // One rounded axis with an auto other dimension keeps the image's ratio.
    let oneValue = !layer.size.trimmingCharacters(in: .whitespaces).contains(" ")
    if rx == "round", ry != "round", oneValue { height = h * width / w }
    if ry == "round", rx != "round", layer.size == "auto" { width = w * height / h }
    let (px, py) = Self.position(layer.position, area: area, tile: (width, height))
    x = area.x + px
    y = area.y + py
    periodX = Self.period(rx, extent: area.width, tile: width, origin: &x, start: area.x)
    periodY = Self.period(ry, extent: area.height, tile: height, origin: &y, start: area.y)
  }

  /// The decoded tile's size in whole pixels, nil when it is empty or beyond the limits.
  var tileSize: (width: Int, height: Int)? {
    let w = Int(width.rounded())
    let h = Int(height.rounded())
    guard w >= 1, h >= 1, w <= 8192, h <= 8192, w * h <= 16 << 20 else { return nil }
    return (w, h)
  }

  /// The tile pixel covering page pixel (x, y), premultiplied; nil outside every tile.
  func pixel(_ img: ScaledImage, _ px: Int, _ py: Int) -> Premultiplied? {
    guard let u = Self.coordinate(Double(px) + 0.5 - x, period: periodX, tile: width),
      let v = Self.coordinate(Double(py) + 0.5 - y, period: periodY, tile: height)
    else { return nil }
    let i = min(img.width - 1, Int(u * Double(img.width) / width))
    let j = min(img.height - 1, Int(v * Double(img.height) / height))
    guard i >= 0, j >= 0 else { return nil }
    let o = 4 * (j * img.width + i)
    let p = img.premultiplied
    return Premultiplied(r: Int32(p[o]), g: Int32(p[o + 1]), b: Int32(p[o + 2]), a: Int32(p[o + 3]))
  }

  private static func coordinate(_ d: Double, period: Double?, tile: Double) -> Double? {
    var d = d
    if let period {
      d = d.truncatingRemainder(dividingBy: period)
      if d < 0 { d += period }
    }
    return d >= 0 && d < tile ? d : nil
  }

  /// The repeat period of one axis; `space` moves the origin to the area's start.
  private static func period(
    _ rule: String, extent: Double, tile: Double, origin: inout Double, start: Double
  ) -> Double? {
    switch rule {
    case "no-repeat": return nil
    case "space":
      let n = (extent / tile).rounded(.down)
      guard n >= 2 else { return nil }
      origin = start
      return tile + (extent - n * tile) / (n - 1)
    default: return tile
    }
  }

  /// `background-size` against the positioning area.
  static func size(_ value: String, area: Rect, natural: (width: Double, height: Double))
    -> (Double, Double)
  {
    let words = value.lowercased().split(separator: " ").map(String.init)
    let ratio = natural.width / natural.height
    switch words.first ?? "auto" {
    case "cover", "contain":
      let sx = area.width / natural.width
      let sy = area.height / natural.height
      let s = words.first == "cover" ? max(sx, sy) : min(sx, sy)
      return (natural.width * s, natural.height * s)
    default:
      let w = words.first.flatMap { length($0, of: area.width) }
      let h = words.count > 1 ? length(words[1], of: area.height) : nil
      switch (w, h) {
      case (let w?, let h?): return (w, h)
      case (let w?, nil): return (w, w / ratio)
      case (nil, let h?): return (h * ratio, h)
      default: return natural
      }
    }
  }

  /// `background-position` as the offset of the tile from the area's top-left corner.
  static func position(_ value: String, area: Rect, tile: (Double, Double)) -> (Double, Double) {
    let words = value.lowercased().split(separator: " ").map(String.init).prefix(4)
    let freeX = area.width - tile.0
    let freeY = area.height - tile.1
    func keyword(_ w: String) -> Double? {
      ["left": 0, "top": 0, "center": 0.5, "right": 1, "bottom": 1][w]
    }
    var x: Double? = nil
    var y: Double? = nil
    // Values that take the first free axis: lengths, percentages and `center`.
    var pending: [(Double) -> Double] = []
    var i = 0
    while i < words.count {
      let w = words[words.startIndex + i]
      let next = i + 1 < words.count ? words[words.startIndex + i + 1] : nil
      if w == "center" {
        pending.append { 0.5 * $0 }
      } else if let k = keyword(w) {
        let isY = w == "top" || w == "bottom"
        let free = isY ? freeY : freeX
        var v = k * free
        // Edge offsets exist only in the 3- and 4-value syntax.
        if words.count >= 3, let next, keyword(next) == nil, let d = length(next, of: free) {
          v = k == 1 ? free - d : d
          i += 1
        }
        if isY { y = v } else { x = v }
      } else if length(w, of: 1) != nil {
        pending.append { length(w, of: $0) ?? 0 }
      }
      i += 1
    }
    for f in pending {
      if x == nil { x = f(freeX) } else if y == nil { y = f(freeY) }
    }
    return (x ?? 0, y ?? 0.5 * freeY)
  }

  /// A length or percentage in CSS px (percentages of `base`); nil for `auto` and junk.
  static func length(_ w: String, of base: Double) -> Double? {
    let units: [(String, Double)] = [
      ("%", -1), ("px", 1), ("rem", 16), ("em", 16), ("pt", 4.0 / 3),
    ]
    for (unit, scale) in units where w.hasSuffix(unit) {
      guard let v = Double(w.dropLast(unit.count)), v.isFinite, abs(v) < 1e6 else { return nil }
      return scale < 0 ? v / 100 * base : v * scale
    }
    if let v = Double(w), v == 0 { return 0 }
    return nil
  }
}

/// A linear gradient resolved against its box: the line's start, direction and length, and
/// the stops as fractions of it.
struct GradientRamp {
  var startX: Double, startY: Double
  var dx: Double, dy: Double
  var length: Double
  var stops: [(t: Double, color: Premultiplied)]

  init(_ g: LinearGradientValue, area: Rect) {
    var angle: Double
    switch g.direction {
    case .angle(let a): angle = a
    case .corner(let x, let y):
      if x == 0 {
        angle = y < 0 ? 0 : 180
      } else if y == 0 {
        angle = x > 0 ? 90 : 270
      } else {
        // Perpendicular to the diagonal between the two other corners (CSS Images 3).
        let a = atan2(area.width, area.height) * 180 / .pi
        angle = y < 0 ? (x > 0 ? a : 360 - a) : (x > 0 ? 180 - a : 180 + a)
      }
    }
    let rad = angle * .pi / 180
    dx = sin(rad)
    dy = -cos(rad)
    length = abs(area.width * sin(rad)) + abs(area.height * cos(rad))
    let cx = area.x + area.width / 2
    let cy = area.y + area.height / 2
    startX = cx - dx * length / 2
    startY = cy - dy * length / 2
    stops = Self.resolve(g.stops, length: max(length, 1e-6))
  }

  /// Positions for every stop (CSS Images 3 §3.5.3): ends default to 0 and 1, positions
  /// never decrease, unpositioned stops spread evenly between positioned neighbours.
  static func resolve(_ stops: [LinearGradientValue.Stop], length: Double)
    -> [(t: Double, color: Premultiplied)]
  {
    var t: [Double?] = stops.map {
      switch $0.position {
      case .fraction(let f)?: return f
      case .pixels(let p)?: return p / length
      case nil: return nil
      }
    }
    guard !t.isEmpty else { return [] }
    if t[0] == nil { t[0] = 0 }
    if t[t.count - 1] == nil { t[t.count - 1] = 1 }
    var last = t[0] ?? 0
    for i in t.indices {
      if let v = t[i] {
        last = max(last, v)
        t[i] = last
      }
    }
    var i = 0
    while i < t.count {
      if t[i] == nil {
        let a = i - 1
        var b = i
        while t[b] == nil { b += 1 }
        let from = t[a] ?? 0
        let to = t[b] ?? 1
        for k in i..<b { t[k] = from + (to - from) * Double(k - a) / Double(b - a) }
        i = b
      }
      i += 1
    }
    return zip(t, stops).map { ($0 ?? 0, Premultiplied($1.color)) }
  }

  /// The colour at page point (x, y).
  func color(_ x: Double, _ y: Double) -> Premultiplied {
    let t = ((x - startX) * dx + (y - startY) * dy) / max(length, 1e-6)
    guard let first = stops.first, let last = stops.last else {
      return Premultiplied(r: 0, g: 0, b: 0, a: 0)
    }
    if t <= first.t { return first.color }
    if t >= last.t { return last.color }
    var k = 1
    while k < stops.count - 1 && stops[k].t < t { k += 1 }
    let a = stops[k - 1]
    let b = stops[k]
    let span = b.t - a.t
    let f = span <= 0 ? 1 : (t - a.t) / span
    func mix(_ p: Int32, _ q: Int32) -> Int32 {
      Int32((Double(p) + (Double(q) - Double(p)) * f).rounded())
    }
    return Premultiplied(
      r: mix(a.color.r, b.color.r), g: mix(a.color.g, b.color.g), b: mix(a.color.b, b.color.b),
      a: mix(a.color.a, b.color.a))
  }
}
