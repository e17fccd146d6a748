import Foundation
import Testing

@testable import QuireMotion

/// Issue #14, `quire open`/`--close` per the iBooks animation, on any canvas.
@Suite struct OpenParityTests {
  static let wall: (UInt8, UInt8, UInt8, UInt8) = (90, 60, 40, 255)
  static let red: (UInt8, UInt8, UInt8, UInt8) = (220, 30, 30, 255)
  static let green: (UInt8, UInt8, UInt8, UInt8) = (30, 200, 60, 255)

  /// A 2:3 red cover and a green page fitted to the canvas at 2:3, from a wide shelf cell.
  static func animation(canvas: (Int, Int), rightToLeft: Bool = false) -> BookOpenAnimation {
    let (cw, ch) = canvas
    let page = Synthetic.solid(width: ch * 2 / 3, height: ch, green)
    return BookOpenAnimation(
      cover: Synthetic.solid(width: 300, height: 450, red), firstPage: page,
      canvas: (cw, ch),
      from: (Double(cw) * 0.08, Double(ch) * 0.5, Double(cw) * 0.3, Double(ch) * 0.33),
      background: RGBA(r: wall.0, g: wall.1, b: wall.2), rightToLeft: rightToLeft)
  }

  /// Bounding box of the page's pixels: green, however darkened by the cover's shade.
  static func pageBox(_ f: PixelBuffer) -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)
  {
    var (x0, y0, x1, y1, n) = (Int.max, Int.max, -1, -1, 0)
    for y in 0..<f.height {
      for x in 0..<f.width {
        let p = pixel(f, x, y).map(Int.init)
        if p[1] > p[0] + 60 && p[1] > p[2] + 60 {
          (x0, y0, x1, y1, n) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y), n + 1)
        }
      }
    }
    return (x0, y0, x1, y1, n)
  }

  /// Bounding box of the pixels close to `c`.
  static func box(_ f: PixelBuffer, _ c: (UInt8, UInt8, UInt8, UInt8)) -> (
    minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int
  ) {
    var (x0, y0, x1, y1, n) = (Int.max, Int.max, -1, -1, 0)
    for y in 0..<f.height {
      for x in 0..<f.width {
        let p = pixel(f, x, y)
        if abs(Int(p[0]) - Int(c.0)) + abs(Int(p[1]) - Int(c.1)) + abs(Int(p[2]) - Int(c.2)) < 40 {
          (x0, y0, x1, y1, n) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y), n + 1)
        }
      }
    }
    return (x0, y0, x1, y1, n)
  }

  @Test("The cover keeps the book's aspect in frame 1 at 800x600 and 1024x768")
  func coverAspect() {
    for canvas in [(800, 600), (1024, 768), (600, 800)] {
      let a = Self.animation(canvas: canvas)
      for t in [0.0, 1.0 / 23] {
        let b = Self.box(a.frame(at: t), Self.red)
        let aspect = Double(b.maxX - b.minX + 1) / Double(b.maxY - b.minY + 1)
        #expect(abs(aspect - 2.0 / 3) < 0.06, "\(canvas) t=\(t): cover \(b), aspect \(aspect)")
      }
    }
  }

  @Test("The page after the cover shows beneath it from the first frames; open ends on it")
  func pageVisibleUnderTheCover() {
    let a = Self.animation(canvas: (800, 600))
    #expect(Self.pageBox(a.frame(at: 0)).count == 0)
    // Frame 1 of 24 at linear timing: the cover's free edge has moved in, the page shows.
    let early = Self.pageBox(a.frame(at: 1.0 / 23))
    #expect(early.count > 0, "no page under the cover in frame 1")
    var shown = 0
    for k in 2...22 {
      let n = Self.pageBox(a.frame(at: Double(k) / 23)).count
      #expect(n > shown, "frame \(k): page area \(n) after \(shown)")
      shown = n
    }
    let end = a.frame(at: 1)
    let r = a.pageRect
    #expect(
      Self.box(end, Self.green) == (
        Int(r.minX), Int(r.minY), Int(r.maxX) - 1, Int(r.maxY) - 1, 400 * 600
      ))
    #expect(Self.box(end, Self.red).count == 0)
    // The shelf (here the wall colour) stays visible behind the book.
    #expect(pixel(end, 10, 300) == [90, 60, 40, 255])
    #expect(pixel(a.frame(at: 0.5), 790, 20) == [90, 60, 40, 255])
  }

  @Test("The swinging cover never fills the screen: the wall shows in every frame")
  func swingingCoverStaysInTheScene() {
    // Issue #14: at 1024x768 the cover filled the whole screen in frames 20–35 of 60.
    let (cw, ch) = (1024, 768)
    let a = Self.animation(canvas: (cw, ch))
    for k in 0...23 {
      let f = a.frame(at: Double(k) / 23)
      let cover = Self.box(f, Self.red)
      let wall = Self.box(f, Self.wall)
      #expect(cover.count < cw * ch / 2, "frame \(k): the cover covers \(cover.count) px")
      #expect(wall.count > cw * ch / 5, "frame \(k): only \(wall.count) px of wall")
    }
  }

  @Test("--close is the opening's frames in reverse order")
  func closeIsTheReverse() {
    let a = Self.animation(canvas: (320, 240))
    for k in 0...8 {
      let t = Double(k) / 8
      #expect(a.frame(at: t, closing: true) == a.frame(at: 1 - t), "t=\(t)")
    }
  }

  @Test("A right-to-left book's cover hinges on its right edge")
  func rightToLeftHinge() {
    for rtl in [false, true] {
      let a = Self.animation(canvas: (800, 600), rightToLeft: rtl)
      let t = 0.3
      let rect = a.bookRect(at: t)
      let f = a.frame(at: t)
      let y = Int(rect.midY)
      let spineSide = rtl ? Int(rect.maxX) - 3 : Int(rect.minX) + 2
      let freeSide = rtl ? Int(rect.minX) + 3 : Int(rect.maxX) - 3
      #expect(pixel(f, spineSide, y) == [220, 30, 30, 255], "rtl \(rtl): cover at the spine")
      let page = pixel(f, freeSide, y).map(Int.init)
      #expect(page[1] > page[0] + 60 && page[1] > page[2] + 60, "rtl \(rtl): page at the free side")
    }
    // The mirrored book ends on exactly the same pixels.
    #expect(
      Self.animation(canvas: (801, 600), rightToLeft: true).frame(at: 1)
        == Self.animation(canvas: (801, 600)).frame(at: 1))
  }

  @Test("The shelf backdrop has a board under the book")
  func shelfBoard() {
    let book = LayerRect(x: 40, y: 100, width: 60, height: 90)
    let s = ShelfBackdrop.image(width: 200, height: 300, book: book)
    let board = pixel(s, 70, 191)
    let wall = pixel(s, 70, 150)
    #expect(board[0] < wall[0] && board[2] < wall[2])
    #expect(pixel(s, 5, 191) == board)
  }
}
