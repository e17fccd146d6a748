import CWebP
import Foundation
import QuireCore
import QuireMotion

/// The moving frames of one page turn, drawn into one sprite sheet and encoded as WebP.
///
/// One image per turn instead of one per frame: the browser fetches and decodes it once, the
/// player picks a frame by its cell (`SheetGrid.origin`), and a folder of a 300-page book
/// holds 600 sheets instead of 8,000 frames.
///
/// Lossless WebP at effort 0, because of size and time. Measured on a 600x800 moby-dick
/// page turn (14 moving frames, a 2400x3200 sheet, this 2-core machine under load, cwebp):
/// PNG (optimized) 1,364 KB; lossy WebP q80 795 KB in 3.2 s; lossless WebP effort 0 759 KB
/// in 1.4 s, effort 1 742 KB in 5.7 s, effort 3 608 KB in 7.4 s. Text on flat paper is
/// what lossless WebP's colour cache and backward references are made for: it beats lossy
/// in bytes, is exact (the sheet's cells are the turn's frames, which the tests check) and
/// at effort 0 is the fastest of all; higher efforts save a fifth for five times the time,
/// on 600 sheets for a 300-page book. libwebp's single-threaded encoder gives the same
/// bytes for the same pixels.
struct TurnSheet {
  /// libwebp's lossless effort preset, 0 (fastest) … 9 (smallest).
  static let effort: Int32 = 0

  let grid: SheetGrid
  private var pixels: PixelBuffer

  /// A white sheet for `grid`.
  init(grid: SheetGrid) {
    self.grid = grid
    pixels = PixelBuffer(width: grid.width, height: grid.height, format: .rgba8)
  }

  /// Draws `frame` (RGBA or gray, exactly a cell's size) into cell `index`.
  mutating func draw(_ frame: PixelBuffer, at index: Int) throws(QuireError) {
    guard frame.width == grid.frameWidth, frame.height == grid.frameHeight,
      (0..<grid.frames).contains(index)
    else {
      throw .internalError(
        "turn frame \(index) is \(frame.width)x\(frame.height), "
          + "cells are \(grid.frameWidth)x\(grid.frameHeight) (\(grid.frames) cells)")
    }
    let source = frame.format == .rgba8 ? frame : frame.converted(to: .rgba8)
    let (x, y) = grid.origin(index)
    pixels.withMutableView { sheet in
      source.withView { cell in
        sheet.view(x: x, y: y, width: cell.width, height: cell.height).copy(from: cell)
      }
    }
  }

  /// The sheet as lossless WebP bytes; `path` names the file in an error.
  func webp(path: String) throws(QuireError) -> [UInt8] {
    func failure(_ function: String, _ code: WebPEncodingError? = nil) -> QuireError {
      .cannotCreate(
        path: path,
        reason: "\(function) failed on a \(grid.width)x\(grid.height) sheet"
          + (code.map { " (error \($0.rawValue))" } ?? ""))
    }
    switch losslessWebP(
      pixels.pixels, width: grid.width, height: grid.height, preset: Self.effort, exact: false)
    {
    case .success(let bytes): return bytes
    case .failure(let refused): throw failure(refused.function, refused.code)
    }
  }
}
