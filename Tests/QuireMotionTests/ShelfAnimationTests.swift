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

@Test func shelfGridPlacesCoversInOrderAndFrontRotates() {
  var shelf = ShelfAnimation(covers: covers(6), canvas: (width: 200, height: 240))
  let f = shelf.frame(at: 0)
  let slot0 = shelf.gridSlot(0).center
  let slot1 = shelf.gridSlot(1).center
  #expect(pixel(f, Int(slot0.x), Int(slot0.y)) == [200, 40, 40, 255])
  #expect(pixel(f, Int(slot1.x), Int(slot1.y)) == [40, 120, 200, 255])
  shelf.front = 2
  #expect(shelf.order == [2, 3, 4, 5, 0, 1])
  let g = shelf.frame(at: 0)
  #expect(pixel(g, Int(slot0.x), Int(slot0.y)) == [40, 160, 80, 255])
  #expect(shelf.frame(at: 0.4) == shelf.frame(at: 0.6, returning: true))
  // An empty scatter keeps the grid.
  shelf.scatter = []
  #expect(shelf.frame(at: 1) == g)
}

@Test func shelfScatterFollowsPlacementsWithFrontOnTop() {
  let place = [
    ShelfPlacement(x: 100, y: 120, angle: 10), ShelfPlacement(x: 105, y: 125, angle: -15),
    ShelfPlacement(x: 60, y: 60, angle: 0),
  ]
  var shelf = ShelfAnimation(covers: covers(3), canvas: (width: 200, height: 240), scatter: place)
  shelf.front = 1
  let f = shelf.frame(at: 1)
  // Slot 0 (book 1, blue) lies on top of slot 1 (book 2, green) at the shared centre.
  #expect(pixel(f, 102, 122) == [40, 120, 200, 255])
  #expect(pixel(f, 60, 60) == [200, 40, 40, 255])
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
