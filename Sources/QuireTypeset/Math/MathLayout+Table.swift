// Tables (mtable/mtr/mlabeledtr/mtd), enclosures, spaces, padding and lengths.
//
// mtable follows Chromium's MathML Core rendering (a CSS table whose cells are padded
// 0.5ex × 0.4em, the whole centred on the math axis); `columnspan`/`rowspan` occupy grid
// slots, and a spanning cell wider (taller) than its slots widens the last column (deepens
// the last row). An mlabeledtr's label (its first cell) goes on its row's baseline at the
// side the table's `side` names (right by default): at the edge of the line, the table
// centred in it, when the display formula is that table and the line has room; otherwise
// 1 em beside the table. Columns are capped at `MathLimits.maxColumns`: a 100,000-column row
// lays out its first columns.

import CHarfBuzz
import Foundation
import QuireCore
import QuireIngest

extension MathLayout {
  private struct Cell {
    var box: MathBox
    var row: Int
    var column: Int
    var rows: Int
    var columns: Int
    var align: String
  }

  func table(_ n: MathNode, _ c: MathContext) -> MathBox {
    var cc = noDisplay(c)
    cc.measure = nil
    let padX = 0.4 * c.size
    let padY = 0.5 * k(HB_OT_MATH_CONSTANT_ACCENT_BASE_HEIGHT, c)
    let tableAligns = (n.attributes["columnalign"] ?? "").split(separator: " ").map(String.init)
    var cells: [Cell] = []
    var labels: [(Int, MathBox)] = []
    var taken: Set<Int> = []  // row * maxColumns + column
    let maxC = MathLimits.maxColumns
    let rows = n.children.map {
      $0.kind == .mtr || $0.kind == .mlabeledtr ? $0 : MathNode(kind: .mtr, children: [$0])
    }
    for (r, rowNode) in rows.enumerated() {
      var entries = rowNode.children
      if rowNode.kind == .mlabeledtr, !entries.isEmpty {
        labels.append((r, layout(entries.removeFirst(), cc)))
      }
      var col = 0
      for cellNode in entries {
        while taken.contains(r * maxC + col) { col += 1 }
        guard col < maxC else { break }
        let span = min(maxC - col, max(1, Int(cellNode.attributes["columnspan"] ?? "") ?? 1))
        let down = min(rows.count - r, max(1, Int(cellNode.attributes["rowspan"] ?? "") ?? 1))
        for dr in 0..<down where down > 1 || span > 1 {
          for dc in 0..<span { taken.insert((r + dr) * maxC + col + dc) }
        }
        let align =
          cellNode.attributes["columnalign"]
          ?? (col < tableAligns.count ? tableAligns[col] : tableAligns.last ?? "center")
        let box = layout(
          cellNode.kind == .mtd ? cellNode : MathNode(kind: .mtd, children: [cellNode]), cc)
        cells.append(Cell(box: box, row: r, column: col, rows: down, columns: span, align: align))
        col += span
      }
    }
    let columnCount = cells.map { $0.column + $0.columns }.max() ?? 0
    var widths = [Double](repeating: 0, count: columnCount)
    var ascents = [Double](repeating: 0, count: rows.count)
    var descents = [Double](repeating: 0, count: rows.count)
    for cell in cells where cell.columns == 1 {
      widths[cell.column] = max(widths[cell.column], cell.box.width + 2 * padX)
    }
    for cell in cells where cell.rows == 1 {
      ascents[cell.row] = max(ascents[cell.row], cell.box.ascent + padY)
      descents[cell.row] = max(descents[cell.row], cell.box.descent + padY)
    }
    for cell in cells where cell.columns > 1 {
      let have = widths[cell.column..<(cell.column + cell.columns)].reduce(0, +)
      let last = cell.column + cell.columns - 1
      widths[last] += max(0, cell.box.width + 2 * padX - have)
    }
    var tops = [Double](repeating: 0, count: rows.count + 1)
    for r in rows.indices { tops[r + 1] = tops[r] + ascents[r] + descents[r] }
    for cell in cells where cell.rows > 1 {
      let have = tops[cell.row + cell.rows] - tops[cell.row]
      let need = cell.box.ascent + cell.box.descent + 2 * padY
      if need > have {
        descents[cell.row + cell.rows - 1] += need - have
        for r in (cell.row + cell.rows - 1)..<rows.count {
          tops[r + 1] = tops[r] + ascents[r] + descents[r]
        }
      }
    }
    var lefts = [Double](repeating: 0, count: columnCount + 1)
    for i in 0..<columnCount { lefts[i + 1] = lefts[i] + widths[i] }
    let height = tops[rows.count]
    let axis = k(HB_OT_MATH_CONSTANT_AXIS_HEIGHT, c)
    let top = axis + height / 2  // above the baseline
    var box = MathBox(width: lefts[columnCount], ascent: top, descent: height - top)
    for cell in cells {
      let x0 = lefts[cell.column]
      let w = lefts[cell.column + cell.columns] - x0
      let x: Double
      switch cell.align {
      case "left": x = x0 + padX
      case "right": x = x0 + w - padX - cell.box.width
      default: x = x0 + (w - cell.box.width) / 2
      }
      let baseline: Double
      if cell.rows == 1 {
        baseline = tops[cell.row] + ascents[cell.row]
      } else {
        let mid = (tops[cell.row] + tops[cell.row + cell.rows]) / 2
        baseline = mid + (cell.box.ascent - cell.box.descent) / 2
      }
      box.place(cell.box, x: x, y: baseline - top)
    }
    return labelled(box, labels.map { ($0.1, tops[$0.0] + ascents[$0.0] - top) }, n, c)
  }

  /// A table with its equation labels (mlabeledtr's first cell) on the side `side` names
  /// (right unless "left"/"leftoverlap"), each on its row's baseline `y`: at the edge of the
  /// line with the table centred in it when the formula is that table and the line is wide
  /// enough, else 1 em beside the table.
  private func labelled(
    _ table: MathBox, _ labels: [(MathBox, Double)], _ n: MathNode, _ c: MathContext
  ) -> MathBox {
    guard let widest = labels.map({ $0.0.width }).max() else { return table }
    let left = (n.attributes["side"]?.lowercased() ?? "right").hasPrefix("left")
    let gap = c.size
    var width = table.width + gap + widest
    var tableX = left ? gap + widest : 0
    if let measure = c.measure, measure >= table.width + 2 * (gap + widest) {
      width = measure
      tableX = (measure - table.width) / 2
    }
    var box = MathBox(width: width)
    box.place(table, x: tableX, y: 0)
    for (label, y) in labels {
      box.place(label, x: left ? 0 : width - label.width, y: y)
    }
    return box
  }

  // MARK: - menclose

  /// menclose (MathML 3 §3.3.9): the content padded by three rule thicknesses on every
  /// side, with each notation drawn around it — frames (box, roundedbox, circle), rules
  /// (top, bottom, left, right, horizontal and vertical strikes; actuarial and madruwb are
  /// two of them), strokes (the diagonal strikes, updiagonalarrow with its head,
  /// phasorangle's slant), longdiv's curved bracket, and radical (the content under a
  /// radical sign). longdiv and phasorangle take room at the left for their strokes.
  func enclose(_ n: MathNode, _ c: MathContext) -> MathBox {
    let notations = Set(
      (n.attributes["notation"] ?? "longdiv").lowercased().split(separator: " ").map(String.init))
    var content = row(n.children, c)
    if notations.contains("radical") { content = radical(content, degree: nil, c) }
    let t = k(HB_OT_MATH_CONSTANT_OVERBAR_RULE_THICKNESS, c)
    let pad = 3 * t
    let height = content.ascent + content.descent + 2 * pad
    // The room longdiv's bracket and phasorangle's slant take at the left.
    let bracket = notations.contains("longdiv") ? 0.3 * c.size + 2 * t : 0
    let slant = notations.contains("phasorangle") ? height / 2 : 0
    let left = max(bracket, slant)
    var box = MathBox(width: left + content.width + 2 * pad)
    box.place(content, x: left + pad, y: 0)
    box.ascent = content.ascent + pad
    box.descent = content.descent + pad
    let outer = Rect(x: 0, y: -box.ascent, width: box.width, height: box.ascent + box.descent)
    encloseFrames(notations, outer, t, c, into: &box)
    encloseRules(notations, outer, t, c, into: &box)
    encloseStrokes(notations, outer, left: left, t, c, into: &box)
    return box
  }

  private func encloseFrames(
    _ notations: Set<String>, _ outer: Rect, _ t: Double, _ c: MathContext, into box: inout MathBox
  ) {
    if notations.contains("box") {
      box.frames.append(MathFrame(rect: outer, thickness: t, radius: 0))
    }
    if notations.contains("roundedbox") {
      box.frames.append(MathFrame(rect: outer, thickness: t, radius: 0.25 * c.size))
    }
    if notations.contains("circle") {
      box.frames.append(
        MathFrame(rect: outer, thickness: t, radius: min(outer.width, outer.height) / 2))
    }
  }

  private func encloseRules(
    _ notations: Set<String>, _ outer: Rect, _ t: Double, _ c: MathContext,
    into box: inout MathBox
  ) {
    let (x0, y0, w, h) = (outer.x, outer.y, outer.width, outer.height)
    let top = Rect(x: x0, y: y0, width: w, height: t)
    let right = Rect(x: outer.maxX - t, y: y0, width: t, height: h)
    let bottom = Rect(x: x0, y: outer.maxY - t, width: w, height: t)
    let axis = k(HB_OT_MATH_CONSTANT_AXIS_HEIGHT, c)
    let rules: [(String, Rect)] = [
      ("top", top), ("bottom", bottom), ("left", Rect(x: x0, y: y0, width: t, height: h)),
      ("right", right), ("actuarial", top), ("actuarial", right), ("madruwb", right),
      ("madruwb", bottom), ("longdiv", top), ("phasorangle", bottom),
      ("horizontalstrike", Rect(x: x0, y: -axis - t / 2, width: w, height: t)),
      ("verticalstrike", Rect(x: x0 + (w - t) / 2, y: y0, width: t, height: h)),
    ]
    for (name, rect) in rules where notations.contains(name) {
      box.rules.append(MathRule(rect: rect))
    }
  }

  private func encloseStrokes(
    _ notations: Set<String>, _ outer: Rect, left: Double, _ t: Double, _ c: MathContext,
    into box: inout MathBox
  ) {
    let (x0, y0, x1, y1) = (outer.x, outer.y, outer.maxX, outer.maxY)
    typealias P = FilledPath.Point
    func stroke(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
      box.shapes.append(MathShape(contours: [FilledPath.stroke(a, b, c, d, width: t)]))
    }
    if notations.contains("updiagonalstrike") { stroke(x0, y1, x1, y0) }
    if notations.contains("downdiagonalstrike") { stroke(x0, y0, x1, y1) }
    if notations.contains("updiagonalarrow") || notations.contains("northeastarrow") {
      // The shaft stops where the head starts; the head's tip is the top-right corner.
      let len = ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot()
      let head = min(0.3 * c.size, len / 2)
      let (ux, uy) = ((x1 - x0) / len, (y0 - y1) / len)
      let (bx, by) = (x1 - ux * head, y0 - uy * head)
      let half = 0.4 * head
      stroke(x0, y1, bx + ux * t, by + uy * t)
      box.shapes.append(
        MathShape(contours: [
          [P(x1, y0), P(bx - uy * half, by + ux * half), P(bx + uy * half, by - ux * half)]
        ]))
    }
    if notations.contains("phasorangle") { stroke(x0, y1 - t / 2, x0 + left, y0) }
    if notations.contains("longdiv") {
      // A closing parenthesis spanning the box, its top meeting the bar: two cubic curves t
      // apart, one down and one back up.
      let (a, bulge, h) = (x0 + t, 0.3 * c.size, y1 - y0)
      box.shapes.append(
        MathShape(contours: [
          [
            P(a, y0), P(a + bulge, y0 + h / 4, onCurve: false),
            P(a + bulge, y1 - h / 4, onCurve: false), P(a, y1), P(a - t, y1),
            P(a + bulge - t, y1 - h / 4, onCurve: false),
            P(a + bulge - t, y0 + h / 4, onCurve: false), P(a - t, y0),
          ]
        ]))
    }
  }

  // MARK: - mspace, mpadded, lengths

  func space(_ n: MathNode, _ c: MathContext) -> MathBox {
    func len(_ name: String) -> Double {
      n.attributes[name].flatMap { length($0, c, percentOf: 0) } ?? 0
    }
    return MathBox(
      width: max(0, len("width")), ascent: max(0, len("height")), descent: max(0, len("depth")))
  }

  func padded(_ n: MathNode, _ c: MathContext) -> MathBox {
    let content = row(n.children, c)
    func value(_ name: String, _ current: Double) -> Double {
      guard var s = n.attributes[name]?.trimmingCharacters(in: .whitespaces), !s.isEmpty else {
        return current
      }
      var sign = 0.0
      if s.hasPrefix("+") {
        sign = 1
        s.removeFirst()
      } else if s.hasPrefix("-") {
        sign = -1
        s.removeFirst()
      }
      guard let v = length(s, c, percentOf: current) else { return current }
      return sign == 0 ? v : current + sign * v
    }
    let lspace = value("lspace", 0)
    let voffset = value("voffset", 0)
    var box = MathBox(width: max(0, value("width", content.width)))
    box.place(content, x: lspace, y: -voffset)
    box.ascent = max(0, value("height", content.ascent))
    box.descent = max(0, value("depth", content.descent))
    return box
  }

  private static let namedSpaces: [String: Double] = [
    "veryverythinmathspace": 1, "verythinmathspace": 2, "thinmathspace": 3,
    "mediummathspace": 4, "thickmathspace": 5, "verythickmathspace": 6,
    "veryverythickmathspace": 7,
  ]

  /// A MathML/CSS length in px (em, ex, px, pt, in, cm, mm, %, named spaces), clamped to
  /// ±`maxEm` em; nil when it does not parse.
  func length(_ text: String, _ c: MathContext, percentOf base: Double) -> Double? {
    let s = text.trimmingCharacters(in: .whitespaces).lowercased()
    if let named = Self.namedSpaces[s] { return named / 18 * c.size }
    let units: [(String, Double)] = [
      ("em", c.size), ("ex", k(HB_OT_MATH_CONSTANT_ACCENT_BASE_HEIGHT, c)), ("px", c.size / 16),
      ("pt", c.size / 12), ("in", c.size * 6), ("cm", c.size * 6 / 2.54),
      ("mm", c.size * 0.6 / 2.54),
      ("%", base / 100),
    ]
    var value: Double? = nil
    for (unit, scale) in units where s.hasSuffix(unit) {
      value = Double(s.dropLast(unit.count)).map { $0 * scale }
      break
    }
    if value == nil, let plain = Double(s), plain == 0 { value = 0 }
    guard let v = value, v.isFinite else { return nil }
    let limit = Self.maxEm * c.size
    return min(limit, max(-limit, v))
  }
}

/// Mathematical alphanumeric symbols (Unicode 1D400–1D7FF): a letter in a `mathvariant`.
enum MathAlphabets {
  static func map(_ v: UInt32, variant: String?) -> UInt32 {
    switch variant {
    case "italic": return italic(v)
    case "bold": return offset(v, upper: 0x1D400, lower: 0x1D41A, digits: 0x1D7CE)
    case "bold-italic": return offset(v, upper: 0x1D468, lower: 0x1D482, digits: nil)
    case "double-struck":
      let holes: [UInt32: UInt32] = [
        0x43: 0x2102, 0x48: 0x210D, 0x4E: 0x2115, 0x50: 0x2119, 0x51: 0x211A, 0x52: 0x211D,
        0x5A: 0x2124,
      ]
      return holes[v] ?? offset(v, upper: 0x1D538, lower: 0x1D552, digits: 0x1D7D8)
    default: return v
    }
  }

  private static func italic(_ v: UInt32) -> UInt32 {
    if v == 0x68 { return 0x210E }  // ℎ (Planck constant) fills the hole
    if v == 0x131 { return 0x1D6A4 }
    if v == 0x237 { return 0x1D6A5 }
    if (0x391...0x3A9).contains(v) { return 0x1D6E2 + v - 0x391 }
    if (0x3B1...0x3C9).contains(v) { return 0x1D6FC + v - 0x3B1 }
    return offset(v, upper: 0x1D434, lower: 0x1D44E, digits: nil)
  }

  private static func offset(_ v: UInt32, upper: UInt32, lower: UInt32, digits: UInt32?) -> UInt32 {
    if (0x41...0x5A).contains(v) { return upper + v - 0x41 }
    if (0x61...0x7A).contains(v) { return lower + v - 0x61 }
    if let digits, (0x30...0x39).contains(v) { return digits + v - 0x30 }
    return v
  }
}

extension MathBox {
  /// Display items for this box with its origin (left, baseline) at (`x`, `y`) on the page:
  /// backgrounds, then glyph runs (one per size and colour), rules, frames and shapes; ink
  /// without a colour of its own takes `color`.
  func items(x: Double, y: Double, font: Int, color: RGBA) -> [DisplayItem] {
    func moved(_ r: Rect) -> Rect { Rect(x: x + r.x, y: y + r.y, width: r.width, height: r.height) }
    var out: [DisplayItem] = backgrounds.map { .fill(moved($0.rect), $0.color ?? color) }
    var run: GlyphRun? = nil
    for g in glyphs {
      let c = g.color ?? color
      if run?.size != g.size || run?.color != c {
        if let r = run { out.append(.glyphs(r)) }
        run = GlyphRun(font: font, size: g.size, color: c, glyphs: [], x: [], y: [])
      }
      run?.glyphs.append(g.glyph)
      run?.x.append(Float(x + g.x))
      run?.y.append(Float(y + g.y))
    }
    if let r = run { out.append(.glyphs(r)) }
    for r in rules { out.append(.fill(moved(r.rect), r.color ?? color)) }
    for f in frames {
      let side = PaintedBorderSide(width: f.thickness, style: .solid, color: f.color ?? color)
      out.append(
        .box(
          BoxPaint(
            rect: moved(f.rect), top: side, right: side, bottom: side, left: side,
            radii: [f.radius, f.radius, f.radius, f.radius])))
    }
    for shape in shapes {
      let path = FilledPath(contours: shape.contours, color: shape.color ?? color)
      out.append(.path(path.mapped { (x + $0, y + $1) }))
    }
    return out
  }
}
