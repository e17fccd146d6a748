// What a flipbook holds, decided before the first page is drawn: the pages, the turns between
// them and how each turn's frames sit in its sprite sheet. Every count here is bounded by
// `FlipbookLimits`, so the output size is known to be finite before any work starts.

/// The caps on a flipbook, each with its reason.
public enum FlipbookLimits {
  /// The most pages one flipbook holds: 2,000. Each page costs a PNG and two turns
  /// (single-page and spread); past this a book should be split with `--pages`.
  public static let maxPages = 2000

  /// The longest side of a sprite sheet: 16,383 px, WebP's own limit.
  public static let maxSheetSide = 16383

  /// The most pixels of one sprite sheet: 33,554,432 (32 Mpx). The browser decodes a sheet
  /// to 4 bytes a pixel and keeps three (previous, current and next turn): at most 384 MB,
  /// which phones and laptops hold. At 600x800 that is 69 frames of a single-page turn.
  public static let maxSheetPixels = 1 << 25

  /// The fewest frames a turn may have: 3 (the two pages and one moving frame).
  public static let minFrames = 3

  /// Frames of a flipbook turn when neither a frame count nor a duration is asked for: 16,
  /// half a second at 30 fps (a reader's turn is quick; a full `quire flip` lasts a second).
  public static let defaultFrames = 16
}

/// How the moving frames of one turn are laid out in its sprite sheet: row by row, left to
/// right, `frames` cells of `frameWidth`x`frameHeight`. A turn of n frames stores only its
/// n − 2 moving frames: its first and last frames are the page images themselves.
public struct SheetGrid: Codable, Sendable, Hashable {
  /// Cells per row.
  public var columns: Int
  /// Rows.
  public var rows: Int
  /// A cell's width (a page, or two for a spread).
  public var frameWidth: Int
  /// A cell's height (a page).
  public var frameHeight: Int
  /// The moving frames stored (cells used).
  public var frames: Int

  /// The sheet's width in pixels.
  public var width: Int { columns * frameWidth }
  /// The sheet's height in pixels.
  public var height: Int { rows * frameHeight }

  /// The grid closest to a square for `frames` cells of `width`x`height`, or a problem when
  /// no grid fits `FlipbookLimits.maxSheetSide` and `FlipbookLimits.maxSheetPixels`.
  static func fitting(frames: Int, width: Int, height: Int) -> Result<SheetGrid, QuireError> {
    let side = FlipbookLimits.maxSheetSide
    let pixels = width * height * frames
    guard width <= side, height <= side, pixels <= FlipbookLimits.maxSheetPixels else {
      return .failure(
        .invalidRequest(
          .flipbook(
            "\(frames) moving frames of \(width)x\(height) take \(pixels) pixels; a turn's "
              + "sprite sheet holds at most \(FlipbookLimits.maxSheetPixels): fewer frames "
              + "or a smaller page")))
    }
    let square = (Double(frames) * Double(height) / Double(width)).squareRoot().rounded(.up)
    let columns = max(1, min(frames, side / width, Int(square)))
    let rows = (frames + columns - 1) / columns
    guard rows * height <= side else {
      return .failure(
        .invalidRequest(
          .flipbook("\(frames) moving frames of \(width)x\(height) do not fit a \(side)-px sheet")))
    }
    return .success(
      SheetGrid(
        columns: columns, rows: rows, frameWidth: width, frameHeight: height, frames: frames))
  }

  /// The top-left corner of cell `index` (from 0).
  func origin(_ index: Int) -> (x: Int, y: Int) {
    ((index % columns) * frameWidth, (index / columns) * frameHeight)
  }
}

/// The pages and turns of one flipbook.
struct FlipbookPlan: Sendable {
  /// The first page shown (from 1).
  let first: Int
  /// The last page shown.
  let last: Int
  /// Frames of every turn, both ends included.
  let frameCount: Int
  /// The sheet of a single-page turn.
  let single: SheetGrid
  /// The sheet of a spread turn, when spreads are made.
  let spread: SheetGrid?
  /// The spread views in reading order: the book's pairing (`PagedBook.spreads(showing:)`)
  /// restricted to the pages shown; empty when spreads are not made.
  let spreads: [Spread]
  /// Digits in page file names: 4, more for books past 9,999 pages.
  let digits: Int

  /// Checks pages `first`…`last` (nil: to the end) against the book's `pageCount` and the
  /// sheets against the limits; `pairing(first...last)` gives the spreads of the pages shown
  /// (nil: spreads are not made).
  init(
    first: Int, last: Int?, pageCount: Int, frameCount: Int, pageWidth: Int, pageHeight: Int,
    pairing: ((ClosedRange<Int>) -> [Spread])?
  ) throws(QuireError) {
    guard first >= 1 else { throw .invalidRequest(.pageNumberBelowOne(first)) }
    guard first <= pageCount else {
      throw .invalidRequest(
        .flipbook("the first page, \(first), is past the book's last page, \(pageCount)"))
    }
    let last = min(last ?? pageCount, pageCount)
    try Self.checkCounts(pages: last - first + 1, frames: frameCount)
    self.first = first
    self.last = last
    self.frameCount = frameCount
    single = try SheetGrid.fitting(frames: frameCount - 2, width: pageWidth, height: pageHeight)
      .get()
    spread =
      pairing != nil
      ? try SheetGrid.fitting(frames: frameCount - 2, width: 2 * pageWidth, height: pageHeight)
        .get() : nil
    spreads = pairing?(first...last) ?? []
    digits = max(4, String(last).count)
  }

  /// Page and frame counts within `FlipbookLimits`.
  static func checkCounts(pages: Int, frames: Int) throws(QuireError) {
    guard pages <= FlipbookLimits.maxPages else {
      throw .invalidRequest(
        .flipbook(
          "\(pages) pages; a flipbook holds at most \(FlipbookLimits.maxPages): choose a range"))
    }
    guard frames >= FlipbookLimits.minFrames else {
      throw .invalidRequest(
        .flipbook("a turn needs at least \(FlipbookLimits.minFrames) frames, got \(frames)"))
    }
  }

  /// The pages shown, in reading order.
  var pages: ClosedRange<Int> { first...last }

  /// The first page of each single-page turn (to the page after it).
  var singleTurns: [Int] { Array(first..<last) }

  /// The spread turns: each spread view to the next one.
  var spreadTurns: [(from: Spread, to: Spread)] {
    spreads.count < 2 ? [] : (1..<spreads.count).map { (spreads[$0 - 1], spreads[$0]) }
  }

  /// `spread-0001.png`: spread `s` at rest, named as `render --spreads` names it.
  func spreadStillFile(_ s: Spread) -> String {
    SpreadPlan.fileName(s.number, digits: SpreadPlan.digits(spreads))
  }

  /// The spread turn from spread `s` to the next one: `spread-0001.webp` as lossless WebP,
  /// `spread-0001-turn.png` as PNG (`spread-0001.png` is the still).
  func spreadFile(_ s: Spread, _ format: SheetFormat) -> String {
    let stem = String(spreadStillFile(s).dropLast(".png".count))
    return stem + (format == .png ? "-turn.png" : ".webp")
  }

  /// `page-0001.png`.
  func pageFile(_ n: Int) -> String { pageFileName(n, digits: digits) }

  /// `turn-0001.png` (or `.webp`): the single-page turn from page `n`.
  func turnFile(_ n: Int, _ format: SheetFormat) -> String {
    let s = String(n)
    return "turn-" + String(repeating: "0", count: max(0, digits - s.count)) + s + "."
      + format.fileExtension
  }
}
