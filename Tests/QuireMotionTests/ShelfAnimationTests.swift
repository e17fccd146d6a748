import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

private func covers(_ n: Int) -> [PixelBuffer] {
  (0..<n).map { i in
    let c: [(UInt8, UInt8, UInt8, UInt8)] = [
      (200, 40, 40, 255), (40, 120, 200, 255), (40, 160, 80, 255), (180, 120, 20, 255),
      (120, 40, 160, 255), (20, 20, 20, 255),
    ]
    return Synthetic.solid(width: 40, height: 60, c[i % c.count])
  }
}

@Test func shelfGridPlacesCoversInOrderAndFrontIsAnimated() {
  var shelf = ShelfAnimation(covers: covers(6), canvas: (width: 200, height: 240))
  shelf.end = .grid
  let f = shelf.frame(at: 0)
  let slot0 = shelf.gridSlot(0).center
  let slot1 = shelf.gridSlot(1).center
  #expect(pixel(f, Int(slot0.x), Int(slot0.y)) == [200, 40, 40, 255])
  #expect(pixel(f, Int(slot1.x), Int(slot1.y)) == [40, 120, 200, 255])
  shelf.front = 2
  #expect(shelf.order == [2, 0, 1, 3, 4, 5])
  // Frame 0 is still the grid in the books' order: the bring-to-front is animated.
  #expect(shelf.frame(at: 0) == f)
  let g = shelf.frame(at: 1)
  #expect(pixel(g, Int(slot0.x), Int(slot0.y)) == [40, 160, 80, 255])
  #expect(pixel(g, Int(slot1.x), Int(slot1.y)) == [200, 40, 40, 255])
  var previous = f
  for k in 1...8 {
    let frame = shelf.frame(at: Double(k) / 8)
    #expect(frame != previous, "front frame \(k)")
    previous = frame
  }
  #expect(shelf.frame(at: 0.4) == shelf.frame(at: 0.6, returning: true))
}

@Test func shelfMovesGridToScatterAndBack() {
  var there = ShelfAnimation(covers: covers(6), canvas: (width: 240, height: 200))
  var back = there
  back.start = .scatter
  back.end = .grid
  there.start = .grid
  there.end = .scatter
  #expect(there.frame(at: 0) == back.frame(at: 1))
  #expect(there.frame(at: 1) == back.frame(at: 0))
  #expect(there.frame(at: 0) != there.frame(at: 1))
  for shelf in [there, back] {
    var previous = shelf.frame(at: 0)
    for k in 1...6 {
      let frame = shelf.frame(at: Double(k) / 6)
      #expect(frame != previous, "\(shelf.start) → \(shelf.end) frame \(k)")
      previous = frame
    }
  }
}

@Test func shelfScatterFollowsPlacementsCentredWithFrontOnTop() {
  let place = [
    ShelfPlacement(x: 100, y: 120, angle: 10), ShelfPlacement(x: 105, y: 125, angle: -15),
    ShelfPlacement(x: 60, y: 60, angle: 0),
  ]
  var shelf = ShelfAnimation(covers: covers(3), canvas: (width: 200, height: 240), scatter: place)
  // The pile's bounding box is centred: centres span 60…105 × 60…125 → shift (17.5, 27.5).
  let pile = shelf.pile(count: 3)
  #expect(pile.map(\.x) == [117.5, 122.5, 77.5])
  #expect(pile.map(\.y) == [147.5, 152.5, 87.5])
  shelf.front = 1
  let f = shelf.frame(at: 1)
  // Slot 0 (book 1, blue) lies on top of slot 1 (book 0, red) at the shared centre.
  #expect(pixel(f, 120, 150) == [40, 120, 200, 255])
  #expect(pixel(f, 78, 88) == [40, 160, 80, 255])
}

@Test func shelfBuiltInPileIsCentred() {
  let shelf = ShelfAnimation(covers: covers(8), canvas: (width: 1200, height: 900))
  let pile = shelf.pile(count: 8)
  let xs = pile.map(\.x)
  let ys = pile.map(\.y)
  #expect(abs((xs.min()! + xs.max()!) / 2 - 600) < 1e-9)
  #expect(abs((ys.min()! + ys.max()!) / 2 - 450) < 1e-9)
}

@Test func shelfBadgeIsARingWithThePercentage() throws {
  let font = try Data(
    contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("fonts/DejaVuSans.ttf"))
  let labeler = try #require(BadgeLabeler(fontBytes: [UInt8](font)))
  let text = try #require(labeler.image("42%", pixelSize: 20))
  #expect(text.height >= 12 && text.height <= 24 && text.width > 2 * text.height)
  let plain = ShelfBadge.image(fraction: 0.25, size: 60, labeler: nil)
  let labelled = ShelfBadge.image(fraction: 0.25, size: 60, labeler: labeler)
  // The arc covers the quarter from twelve to three o'clock, not the rest of the ring.
  #expect(pixel(plain, 45, 14)[2] > 200 && pixel(plain, 45, 14)[0] < 120)
  #expect(pixel(plain, 8, 30)[2] < 200)
  // The percentage: white ink at the centre only with the labeler.
  let whites = { (b: PixelBuffer) in
    (20..<40).flatMap { y in (15..<45).map { x in pixel(b, x, y) } }.filter {
      $0[0] > 200 && $0[1] > 200
    }.count
  }
  #expect(whites(plain) == 0)
  #expect(whites(labelled) > 20)
  #expect(BadgeLabeler(fontBytes: [1, 2, 3]) == nil)
}

@Test func shelfLayoutParsesJSONAndPlist() throws {
  let json = Data(#"[{"x": 10, "y": 20.5, "angle": -12}, {"x": 1, "y": 2, "angle": 0}]"#.utf8)
  #expect(
    try ShelfPlacement.parseLayout(json) == [
      ShelfPlacement(x: 10, y: 20.5, angle: -12), ShelfPlacement(x: 1, y: 2, angle: 0),
    ])
  let plist = Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <array>
      <dict><key>center</key><string>{160, 240}</string><key>angle</key><real>-7.5</real></dict>
      <dict><key>center</key><string>{ 80,90 }</string><key>angle</key><integer>20</integer></dict>
    </array>
    </plist>
    """.utf8)
  #expect(
    try ShelfPlacement.parseLayout(plist) == [
      ShelfPlacement(x: 160, y: 240, angle: -7.5), ShelfPlacement(x: 80, y: 90, angle: 20),
    ])
  // The bookshelf app's own format: books nested in dictionaries, with sizes.
  let nested = Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict><key>books</key><dict>
      <key>book10</key><dict><key>center</key><string>{300, 200}</string>
        <key>angle</key><real>5</real><key>size</key><string>{120, 180}</string></dict>
      <key>book2</key><dict><key>center</key><string>{100, 50}</string>
        <key>angle</key><integer>-20</integer></dict>
    </dict></dict>
    </plist>
    """.utf8)
  #expect(
    try ShelfPlacement.parseLayout(nested) == [
      ShelfPlacement(x: 100, y: 50, angle: -20),
      ShelfPlacement(x: 300, y: 200, angle: 5, size: LayerSize(width: 120, height: 180)),
    ])
  #expect(throws: ShelfLayoutError.self) { try ShelfPlacement.parseLayout(Data("nonsense".utf8)) }
  #expect(throws: ShelfLayoutError.self) {
    try ShelfPlacement.parseLayout(Data(#"[{"x": 1}]"#.utf8))
  }
}

@Test func shelfGolden() {
  var progress: [Double?] = Array(repeating: nil, count: 6)
  progress[1] = 0.4
  progress[4] = 0.85
  let shelf = ShelfAnimation(
    covers: covers(6), canvas: (width: 160, height: 200), front: 1,
    progress: progress)
  expectGolden("shelf-grid", shelf.frame(at: 0))
  expectGolden("shelf-mid", shelf.frame(at: 0.5))
}
