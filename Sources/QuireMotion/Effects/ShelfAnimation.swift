import Foundation

/// Where one book lies in a scattered shelf: its centre in canvas pixels and its rotation
/// in degrees (clockwise on screen).
package struct ShelfPlacement: Sendable, Hashable, Codable {
  package var x: Double
  package var y: Double
  package var angle: Double
  package init(x: Double, y: Double, angle: Double) {
    self.x = x
    self.y = y
    self.angle = angle
  }
}

package enum ShelfLayoutError: Error, Sendable, Equatable, CustomStringConvertible {
  case unreadable(file: String, reason: String)
  package var description: String {
    switch self {
    case .unreadable(let file, let reason): return "\(file): cannot read shelf layout: \(reason)"
    }
  }
}

extension ShelfPlacement {
  /// Reads a scatter layout: JSON `[{"x":…,"y":…,"angle":deg}]`, or the classic bookshelf
  /// property list (XML or binary): an array with, per book, a dictionary holding a
  /// "center" string "{x, y}" (or numbers "x" and "y") and an "angle" in degrees.
  /// At most 10 000 entries are read.
  package static func parseLayout(_ data: Data, file: String = "layout") throws -> [ShelfPlacement]
  {
    guard data.count <= 16 << 20 else {
      throw ShelfLayoutError.unreadable(file: file, reason: "larger than 16 MiB")
    }
    let head = data.prefix(64)
    let text = String(decoding: head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    if text.hasPrefix("[") {
      do {
        return Array(try JSONDecoder().decode([ShelfPlacement].self, from: data).prefix(10_000))
      } catch {
        throw ShelfLayoutError.unreadable(file: file, reason: "not valid JSON")
      }
    }
    let plist: Any
    do {
      plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    } catch {
      throw ShelfLayoutError.unreadable(file: file, reason: "not a valid property list")
    }
    var items: [Any] = []
    if let a = plist as? [Any] {
      items = a
    } else if let d = plist as? [String: Any], let a = (d["books"] ?? d["items"]) as? [Any] {
      items = a
    } else {
      throw ShelfLayoutError.unreadable(file: file, reason: "expected an array of books")
    }
    var out: [ShelfPlacement] = []
    for (i, item) in items.prefix(10_000).enumerated() {
      guard let d = item as? [String: Any] else {
        throw ShelfLayoutError.unreadable(file: file, reason: "entry \(i) is not a dictionary")
      }
      func number(_ k: String) -> Double? {
        if let n = d[k] as? Double { return n }
        if let n = d[k] as? Int { return Double(n) }
        if let n = d[k] as? NSNumber { return n.doubleValue }
        if let s = d[k] as? String { return Double(s.trimmingCharacters(in: .whitespaces)) }
        return nil
      }
      var point: (Double, Double)?
      if let c = d["center"] as? String { point = parsePointString(c) }
      if point == nil, let x = number("x"), let y = number("y") { point = (x, y) }
      guard let (x, y) = point, x.isFinite, y.isFinite else {
        throw ShelfLayoutError.unreadable(file: file, reason: "entry \(i) has no centre")
      }
      let angle = number("angle") ?? 0
      out.append(ShelfPlacement(x: x, y: y, angle: angle.isFinite ? angle : 0))
    }
    return out
  }

  /// "{x, y}" → (x, y).
  static func parsePointString(_ s: String) -> (Double, Double)? {
    let inner = s.trimmingCharacters(in: CharacterSet(charactersIn: "{} \t\n"))
    let parts = inner.split(separator: ",").map {
      Double($0.trimmingCharacters(in: CharacterSet(charactersIn: "{} \t\n")))
    }
    guard parts.count == 2, let x = parts[0], let y = parts[1] else { return nil }
    return (x, y)
  }
}

/// `quire shelf`: book covers on a shelf — a grid, four per row, with drop shadows — moving
/// to a scattered layout (and back). `front` rotates the order so that book K (0-based)
/// comes first: the first grid cell, and the top of the scattered pile. Optional
/// download-progress badges draw a bar along the bottom of a cover.
/// frame(at: 0) is the grid, frame(at: 1) the scatter; `returning` plays it backwards.
package struct ShelfAnimation: Sendable {
  package var covers: [PixelBuffer]
  package var canvasWidth: Int
  package var canvasHeight: Int
  /// nil: a built-in, fixed pseudo-random pile; empty: no scatter (the books stay in the
  /// grid, for `--layout grid`); else placements for display slots 0, 1, … (cycled).
  package var scatter: [ShelfPlacement]?
  package var front: Int?
  /// Per book (in the original order) a fraction 0…1 to show as a progress bar, or nil.
  package var progress: [Double?]
  package var background: RGBA
  package var columns = 4

  package init(
    covers: [PixelBuffer], canvas: (width: Int, height: Int), scatter: [ShelfPlacement]? = nil,
    front: Int? = nil, progress: [Double?] = [],
    background: RGBA = RGBA(red: 0.36, green: 0.25, blue: 0.16)
  ) {
    self.covers = covers
    canvasWidth = canvas.width
    canvasHeight = canvas.height
    self.scatter = scatter
    self.front = front
    self.progress = progress
    self.background = background
  }

  /// The display order: original indices, rotated so `front` is first.
  package var order: [Int] {
    let n = covers.count
    guard n > 0 else { return [] }
    let k = ((front ?? 0) % n + n) % n
    return (0..<n).map { (k + $0) % n }
  }

  /// Grid cell centre and cover size for display slot i.
  func gridSlot(_ i: Int) -> (center: LayerPoint, size: LayerSize) {
    let cw = Double(canvasWidth) / Double(columns)
    let coverW = cw * 0.72
    let coverH = coverW * 1.5
    let rowH = coverH + cw * 0.28
    let col = i % columns
    let row = i / columns
    return (
      LayerPoint(x: cw * (Double(col) + 0.5), y: rowH * (Double(row) + 0.5) + cw * 0.1),
      LayerSize(width: coverW, height: coverH)
    )
  }

  /// The scattered placement of display slot i (given, or a fixed pseudo-random pile).
  func scatterSlot(_ i: Int) -> ShelfPlacement {
    if let s = scatter {
      if s.isEmpty {
        let g = gridSlot(i).center
        return ShelfPlacement(x: g.x, y: g.y, angle: 0)
      }
      return s[i % s.count]
    }
    // A small linear congruential sequence: the same pile on every run.
    var state = UInt64(i) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    let w = Double(canvasWidth)
    let h = Double(canvasHeight)
    return ShelfPlacement(
      x: w * (0.25 + 0.5 * next()), y: h * (0.25 + 0.5 * next()),
      angle: -30 + 60 * next())
  }

  package func frame(at t: Double, returning: Bool = false) -> PixelBuffer {
    let p = min(max(returning ? 1 - t : t, 0), 1)
    let root = Layer(
      frame: LayerRect(x: 0, y: 0, width: Double(canvasWidth), height: Double(canvasHeight)))
    let ord = order
    for (slot, book) in ord.enumerated().prefix(1_000) {
      let g = gridSlot(slot)
      let s = scatterSlot(slot)
      let image = covers[book]
      let layer = Layer()
      // Keep the cover's aspect inside the grid size.
      let aspect = image.height > 0 ? Double(image.width) / Double(image.height) : 1
      var size = g.size
      if aspect > size.width / size.height {
        size.height = size.width / aspect
      } else {
        size.width = size.height * aspect
      }
      layer.bounds = LayerRect(origin: .zero, size: size)
      layer.position = LayerPoint(
        x: g.center.x + (s.x - g.center.x) * p,
        y: g.center.y + (s.y - g.center.y) * p)
      layer.transform = .rotation(s.angle * Double.pi / 180 * p, x: 0, y: 0, z: 1)
      layer.contents = image
      layer.backgroundColor = .white
      layer.shadowOpacity = 0.55
      layer.shadowRadius = 8
      layer.shadowOffset = LayerSize(width: 0, height: 5)
      // Earlier slots lie on top of the pile.
      layer.zPosition = Double(ord.count - slot)
      if book < progress.count, let f = progress[book] {
        let frac = min(max(f, 0), 1)
        let barH = max(4, size.height * 0.05)
        let inset = size.width * 0.08
        let track = Layer(
          frame: LayerRect(
            x: inset, y: size.height - barH * 2.2, width: size.width - 2 * inset,
            height: barH))
        track.backgroundColor = RGBA(red: 0, green: 0, blue: 0, alpha: 0.55)
        track.cornerRadius = barH / 2
        let fill = Layer(
          frame: LayerRect(x: 0, y: 0, width: track.bounds.width * frac, height: barH))
        fill.backgroundColor = RGBA(red: 0.25, green: 0.6, blue: 1)
        fill.cornerRadius = barH / 2
        track.addSublayer(fill)
        layer.addSublayer(track)
      }
      root.addSublayer(layer)
    }
    return Compositor(width: canvasWidth, height: canvasHeight, background: background)
      .render(presentation: root)
  }
}
