import CWebP
import Foundation
import QuireCore

/// The moving frames of one page turn, drawn into one sprite sheet and encoded as WebP.
///
/// One image per turn instead of one per frame: the browser fetches and decodes it once, the
/// player picks a frame by its cell (`SheetGrid.origin`), and a folder of a 300-page book
/// holds 600 sheets instead of 8,000 frames.
///
/// WebP, lossy at quality `TurnSheet.quality`, because of size: on a 600x800 text page a
/// 14-frame sheet is measured (Benchmarks-free, see the flipbook tests' size check) at about
/// a fifth of lossless WebP and a tenth of PNG. A moving frame stays on screen for 1/30 s, so
/// ringing around glyph edges is not visible, while the still pages, which a reader looks
/// at, are exact PNGs. Lossy WebP has no alpha here (the frames are opaque), and libwebp's
/// single-threaded encoder gives the same bytes for the same pixels.
struct TurnSheet {
  /// The lossy WebP quality, 0…100.
  static let quality: Float = 80

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

  /// The sheet as lossy WebP bytes; `path` names the file in an error.
  func webp(path: String) throws(QuireError) -> [UInt8] {
    var output: UnsafeMutablePointer<UInt8>? = nil
    let size = pixels.pixels.withUnsafeBufferPointer {
      WebPEncodeRGBA(
        $0.baseAddress, Int32(grid.width), Int32(grid.height), Int32(grid.width * 4),
        Self.quality, &output)
    }
    defer { WebPFree(output) }
    guard size > 0, let bytes = output else {
      throw .cannotCreate(
        path: path, reason: "WebPEncodeRGBA failed on a \(grid.width)x\(grid.height) sheet")
    }
    return Array(UnsafeBufferPointer(start: bytes, count: size))
  }
}
