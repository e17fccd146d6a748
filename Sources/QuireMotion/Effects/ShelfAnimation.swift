import Foundation

/// Where one book lies in a scattered shelf: its centre in canvas pixels and its rotation
/// in degrees (clockwise on screen).
package struct ShelfPlacement: Sendable, Hashable, Codable {
  package var x: Double
  package var y: Double
  package var angle: Double
  /// The book's size there (the bookshelf plist's "size"); nil: the grid's cover size.
  package var size: LayerSize?
  package init(x: Double, y: Double, angle: Double, size: LayerSize? = nil) {
    self.x = x
    self.y = y
    self.angle = angle
    self.size = size
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
  /// Reads a scatter layout: JSON (`[{"x":…,"y":…,"angle":deg}]`, or nested objects) or the
  /// bookshelf app's property list (XML or binary): per book a dictionary, at any depth,
  /// holding a "center" ("{x, y}", or x and y) with an "angle" in degrees and an optional
  /// "size" ("{w, h}"). At most 10 000 entries are read.
  package static func parseLayout(_ data: Data, file: String = "layout") throws -> [ShelfPlacement]
  {
    guard data.count <= 16 << 20 else {
      throw ShelfLayoutError.unreadable(file: file, reason: "larger than 16 MiB")
    }
    let head = data.prefix(64)
    let text = String(decoding: head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let plist: Any
    if text.hasPrefix("[") || text.hasPrefix("{") {
      do { plist = try JSONSerialization.jsonObject(with: data) } catch {
        throw ShelfLayoutError.unreadable(file: file, reason: "not valid JSON")
      }
    } else {
      do {
        plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
      } catch {
        throw ShelfLayoutError.unreadable(file: file, reason: "not a valid property list")
      }
    }
    let entries = placementDictionaries(plist)
    guard !entries.isEmpty else {
      throw ShelfLayoutError.unreadable(file: file, reason: "no book with a center in it")
    }
    var out: [ShelfPlacement] = []
    for (i, d) in entries.enumerated() {
      guard let placement = placement(d) else {
        throw ShelfLayoutError.unreadable(file: file, reason: "entry \(i) has no centre")
      }
      out.append(placement)
    }
    return out
  }

  /// The dictionaries that describe a book ("center", or "x" and "y"), found at any depth
  /// (at most 16) of arrays and dictionaries — the bookshelf app nests them under keys such
  /// as "books" or per-book names; dictionary keys are visited in numeric-aware order, so
  /// "book2" comes before "book10". At most 10 000.
  static func placementDictionaries(_ value: Any) -> [[String: Any]] {
    var out: [[String: Any]] = []
    func visit(_ v: Any, _ depth: Int) {
      guard depth <= 16, out.count < 10_000 else { return }
      if let d = v as? [String: Any] {
        if d["center"] != nil || (d["x"] != nil && d["y"] != nil) {
          out.append(d)
          return
        }
        let keys = d.keys.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        for k in keys { visit(d[k]!, depth + 1) }
      } else if let a = v as? [Any] {
        for item in a { visit(item, depth + 1) }
      }
    }
    visit(value, 0)
    return out
  }

  /// One book's placement: "center" "{x, y}" (or numbers x, y, or a nested dictionary with
  /// x and y), "angle" in degrees, optional "size" "{w, h}" (or width/height numbers).
  static func placement(_ d: [String: Any]) -> ShelfPlacement? {
    func number(_ v: Any?) -> Double? {
      if let n = v as? NSNumber { return n.doubleValue }
      if let s = v as? String { return Double(s.trimmingCharacters(in: .whitespaces)) }
      return nil
    }
    func pair(_ v: Any?, _ a: String, _ b: String) -> (Double, Double)? {
      if let s = v as? String { return parsePointString(s) }
      if let n = v as? [String: Any], let x = number(n[a]), let y = number(n[b]) { return (x, y) }
      if let n = v as? [Any], n.count == 2, let x = number(n[0]), let y = number(n[1]) {
        return (x, y)
      }
      return nil
    }
    var point = pair(d["center"], "x", "y")
    if point == nil, let x = number(d["x"]), let y = number(d["y"]) { point = (x, y) }
    guard let (x, y) = point, x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else {
      return nil
    }
    let angle = number(d["angle"]) ?? 0
    var size: LayerSize?
    if let (w, h) = pair(d["size"], "width", "height") ?? pair(d["size"], "w", "h"),
      w.isFinite, h.isFinite, w >= 1, h >= 1, w < 1e5, h < 1e5
    {
      size = LayerSize(width: w, height: h)
    }
    return ShelfPlacement(
      x: x, y: y, angle: angle.isFinite ? angle.truncatingRemainder(dividingBy: 360) : 0,
      size: size)
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

/// Where the books of a shelf lie: in the grid, or scattered in a pile.
package enum ShelfArrangement: String, Sendable, Hashable, Codable {
  case grid, scatter
}

/// `quire shelf`: book covers on a shelf — a grid, four per row — and a scattered pile, with
/// drop shadows, as the bookshelf app animates them.
///
/// Every frame is a blend of two poses per book (centre, angle, size, stacking): where it
/// lies in `start` with the books in their own order, and where it lies in `end` with book
/// `front` (0-based) brought to the front — the first grid cell or the top of the pile —
/// and the others after it in order. Grid ⇄ scatter goes either way (`start`, `end`); with
/// `start == end` only the bring-to-front moves (the book lifts, scaled up to 1.08 mid-way,
/// above the others, and settles in its new place while they shift by one). Badges: a ring
/// with the percentage (`ShelfBadge`), drawn once per book.
///
/// The built-in pile and the placements of a layout file are centred on the canvas (their
/// bounding box's centre is the canvas centre); a file's "size" sets a book's size there.
/// frame(at: 0) is `start`, frame(at: 1) is `end`; `returning` plays it backwards.
package struct ShelfAnimation: Sendable {
  package var covers: [PixelBuffer]
  package var canvasWidth: Int
  package var canvasHeight: Int
  /// nil (or empty): a built-in, fixed pseudo-random pile; else placements for display
  /// slots 0, 1, … (cycled).
  package var scatter: [ShelfPlacement]?
  package var front: Int?
  /// Per book (in the original order) a fraction 0…1 to show as a progress badge, or nil.
  package var progress: [Double?]
  package var background: RGBA
  package var columns = 4
  /// Where the books lie at t = 0.
  package var start = ShelfArrangement.grid
  /// Where the books lie at t = 1.
  package var end = ShelfArrangement.scatter
  /// Draws the badges' percentages; nil: rings without text.
  package var labeler: BadgeLabeler?
  /// Per book its badge, drawn once by `drawBadges()`; empty: drawn per frame.
  package var badges: [PixelBuffer?] = []

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

  /// The display order at the end: original indices with `front` first, the rest in order.
  package var order: [Int] {
    let n = covers.count
    guard n > 0 else { return [] }
    guard let front else { return Array(0..<n) }
    let k = (front % n + n) % n
    return [k] + (0..<n).filter { $0 != k }
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

  /// The scattered placements of display slots 0 ..< count, centred on the canvas.
  func pile(count: Int) -> [ShelfPlacement] {
    let raw = (0..<count).map(rawScatterSlot)
    guard let minX = raw.map(\.x).min(), let maxX = raw.map(\.x).max(),
      let minY = raw.map(\.y).min(), let maxY = raw.map(\.y).max()
    else { return [] }
    let dx = Double(canvasWidth) / 2 - (minX + maxX) / 2
    let dy = Double(canvasHeight) / 2 - (minY + maxY) / 2
    return raw.map { ShelfPlacement(x: $0.x + dx, y: $0.y + dy, angle: $0.angle, size: $0.size) }
  }

  /// The scattered placement of display slot i before centring (given, or a fixed
  /// pseudo-random pile).
  private func rawScatterSlot(_ i: Int) -> ShelfPlacement {
    if let s = scatter, !s.isEmpty { return s[i % s.count] }
    // A small linear congruential sequence: the same pile on every run.
    var state = UInt64(i) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    let w = Double(canvasWidth)
    let h = Double(canvasHeight)
    return ShelfPlacement(
      x: w * (0.3 + 0.4 * next()), y: h * (0.3 + 0.4 * next()), angle: -30 + 60 * next())
  }

  /// A book's pose: centre, angle (radians), size.
  struct Pose {
    var center: LayerPoint
    var angle: Double
    var size: LayerSize
  }

  func pose(slot: Int, in arrangement: ShelfArrangement, pile: [ShelfPlacement], cover: PixelBuffer)
    -> Pose
  {
    let g = gridSlot(slot)
    var size = g.size
    var center = g.center
    var angle = 0.0
    if arrangement == .scatter, slot < pile.count {
      let s = pile[slot]
      center = LayerPoint(x: s.x, y: s.y)
      angle = s.angle * Double.pi / 180
      if let given = s.size { size = given }
    }
    // Keep the cover's aspect inside the size.
    let aspect = cover.height > 0 ? Double(cover.width) / Double(cover.height) : 1
    if aspect > size.width / size.height {
      size.height = size.width / aspect
    } else {
      size.width = size.height * aspect
    }
    return Pose(center: center, angle: angle, size: size)
  }

  package func frame(at t: Double, returning: Bool = false) -> PixelBuffer {
    let p = min(max(returning ? 1 - t : t, 0), 1)
    let root = Layer(
      frame: LayerRect(x: 0, y: 0, width: Double(canvasWidth), height: Double(canvasHeight)))
    let n = min(covers.count, 1_000)
    let endOrder = order
    var endSlot = [Int](repeating: 0, count: covers.count)
    for (slot, book) in endOrder.enumerated() { endSlot[book] = slot }
    let pile = pile(count: n)
    let lifted = front.map { (($0 % max(n, 1)) + max(n, 1)) % max(n, 1) }
    for book in 0..<n {
      let a = pose(slot: book, in: start, pile: pile, cover: covers[book])
      let b = pose(slot: endSlot[book], in: end, pile: pile, cover: covers[book])
      func l(_ u: Double, _ v: Double) -> Double { u + (v - u) * p }
      let lift = book == lifted ? 1 + 0.08 * sin(Double.pi * p) : 1
      let layer = Layer()
      layer.bounds = LayerRect(
        x: 0, y: 0, width: l(a.size.width, b.size.width) * lift,
        height: l(a.size.height, b.size.height) * lift)
      layer.position = LayerPoint(x: l(a.center.x, b.center.x), y: l(a.center.y, b.center.y))
      layer.transform = .rotation(l(a.angle, b.angle), x: 0, y: 0, z: 1)
      layer.contents = covers[book]
      layer.backgroundColor = .white
      layer.shadowOpacity = 0.55
      layer.shadowRadius = 8 * lift
      layer.shadowOffset = LayerSize(width: 0, height: 5 * lift)
      // Earlier slots lie on top of the pile; the book coming to the front is on top.
      let slot = p < 0.5 ? book : endSlot[book]
      layer.zPosition = book == lifted ? Double(n + 1) : Double(n - slot)
      if book < progress.count, let f = progress[book] {
        let badge = book < badges.count ? badges[book] : nil
        layer.addSublayer(
          badgeLayer(
            badge ?? badgeImage(fraction: f, book: book), bookSize: layer.bounds.size))
      }
      root.addSublayer(layer)
    }
    return Compositor(width: canvasWidth, height: canvasHeight, background: background)
      .render(presentation: root)
  }

  /// The ring badge in the cover's lower right corner, a third of the cover wide.
  private func badgeLayer(_ badge: PixelBuffer, bookSize: LayerSize) -> Layer {
    let d = max(16, min(bookSize.width, bookSize.height) * 0.34)
    let m = d * 0.12
    let layer = Layer(
      frame: LayerRect(
        x: bookSize.width - d - m, y: bookSize.height - d - m, width: d, height: d))
    layer.contents = badge
    return layer
  }

  /// Book `book`'s badge drawn at its grid size (frames scale it with the cover).
  func badgeImage(fraction: Double, book: Int) -> PixelBuffer {
    let size = gridSlot(0).size
    let d = max(16, min(size.width, size.height) * 0.34)
    return ShelfBadge.image(fraction: fraction, size: Int(d.rounded()), labeler: labeler)
  }

  /// Reduces every cover once to the largest size it is drawn at (its grid and scattered
  /// sizes, lifted by up to 1.08), so that frames sample a texture of about the drawn size
  /// (averaged once, no aliasing, cache-friendly) instead of the full-size picture. Call after
  /// setting `start`, `end` and `scatter`.
  package mutating func reduceCovers() {
    let n = min(covers.count, 1_000)
    let endOrder = order
    let pile = pile(count: n)
    for book in 0..<n {
      let slots = [book, endOrder.firstIndex(of: book) ?? book]
      var w = 0.0
      var h = 0.0
      for slot in slots {
        for side in [start, end] {
          let size = pose(slot: slot, in: side, pile: pile, cover: covers[book]).size
          w = max(w, size.width * 1.08)
          h = max(h, size.height * 1.08)
        }
      }
      guard w.isFinite, h.isFinite, w < 16_384, h < 16_384 else { continue }
      covers[book] = covers[book].reduced(
        toFit: Int(w.rounded(.up)) + 1, Int(h.rounded(.up)) + 1)
    }
  }

  /// The largest box a cover of `count` books is fitted into, lifted by 1.08 (whatever its
  /// aspect, a cover is never drawn larger): what a cover must be decoded at, at least. Nil
  /// when it is out of bounds. Call after setting `start`, `end` and `scatter`.
  package func largestCoverBox(count: Int) -> (width: Int, height: Int)? {
    let n = min(max(count, 0), 1_000)
    var w = gridSlot(0).size.width
    var h = gridSlot(0).size.height
    if start == .scatter || end == .scatter {
      for s in pile(count: n) {
        w = max(w, s.size?.width ?? 0)
        h = max(h, s.size?.height ?? 0)
      }
    }
    w *= 1.08
    h *= 1.08
    guard w.isFinite, h.isFinite, w >= 1, h >= 1, w < 16_384, h < 16_384 else { return nil }
    return (Int(w.rounded(.up)) + 1, Int(h.rounded(.up)) + 1)
  }

  /// Draws every badge once (call after setting `progress` and `labeler`): frames then only
  /// composite them.
  package mutating func drawBadges() {
    badges = (0..<covers.count).map { book in
      guard book < progress.count, let f = progress[book] else { return nil }
      return badgeImage(fraction: f, book: book)
    }
  }
}
