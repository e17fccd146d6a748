import CWebP
import Foundation
import QuireCore
import QuireMotion

/// How the sprite sheets of a flipbook are encoded (`quire flipbook --sheet-format`). Either
/// way the sheet decodes to exactly the turn's frames; only time and bytes differ.
public enum SheetFormat: String, Sendable, CaseIterable {
  /// PNG, compressed as a render's page files are (`PNGCompression.fast`), 8-bit gray when
  /// every frame is an opaque gray (exact: the colour type follows the pixels), RGBA
  /// otherwise. The default: a 600x800 moby-dick sheet of 14 frames encodes in
  /// a twentieth of lossless WebP's instructions for a file about 1.4× larger
  /// (Benchmarks/flip.md, session 14).
  case png
  /// Lossless WebP at effort 0: the smallest exact files, at about 1 G instructions a
  /// 600x800 sheet of 14 frames.
  case webp

  /// The sheet files' extension.
  var fileExtension: String { rawValue }

  /// The manifest's `turn.sheetFormat`.
  var manifestName: String {
    switch self {
    case .png: return "png"
    case .webp: return "webp-lossless"
    }
  }
}

/// The moving frames of one page turn, drawn into one sprite sheet and encoded as PNG or
/// lossless WebP (`SheetFormat`).
///
/// One image per turn instead of one per frame: the browser fetches and decodes it once, the
/// player picks a frame by its cell (`SheetGrid.origin`), and a folder of a 300-page book
/// holds 600 sheets instead of 8,000 frames.
///
/// Exact formats only: the sheet's cells are the turn's frames (the tests check it, and the
/// browser test compares what the player shows with the page PNGs). Measured on a 600x800
/// moby-dick page turn (14 moving frames, a 3000x2400 sheet): lossless WebP effort 0
/// 594 KB, lossy WebP q90 592 KB (inexact, for the same bytes and more time), PNG 804 KB as
/// gray and 1,792 KB as RGBA; cwebp under load: effort 1 742 KB in 4× effort 0's time,
/// effort 3 608 KB in 5×. Higher WebP efforts save a fifth for five times the time, on 600
/// sheets for a 300-page book. PNG (the default) trades 35 % more bytes on gray books for
/// a twentieth of the time; lossless WebP stays an option for the smallest folder.
struct TurnSheet {
  /// libwebp's lossless effort preset, 0 (fastest) … 9 (smallest).
  static let effort: Int32 = 0

  let grid: SheetGrid
  /// The sheet's pixels, white where no frame is drawn: 8-bit gray while every frame drawn
  /// is an opaque gray (R = G = B), RGBA from the first frame that is not — the same pixels
  /// either way, a quarter of the bytes to fill, copy and compress for gray books.
  private(set) var pixels: PixelBuffer

  /// A white sheet for `grid`.
  init(grid: SheetGrid) {
    self.grid = grid
    pixels = PixelBuffer(width: grid.width, height: grid.height, format: .gray8)
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
    let (x, y) = grid.origin(index)
    if pixels.format == .gray8 {
      if frame.format == .gray8 {
        copy(frame, x: x, y: y)
        return
      }
      if copyAsGray(frame, x: x, y: y) { return }
      pixels = pixels.converted(to: .rgba8)
    }
    copy(frame.format == .rgba8 ? frame : frame.converted(to: .rgba8), x: x, y: y)
  }

  /// Copies `frame` (the sheet's format) into the cell at (x, y).
  private mutating func copy(_ frame: PixelBuffer, x: Int, y: Int) {
    pixels.withMutableView { sheet in
      frame.withView { cell in
        sheet.view(x: x, y: y, width: cell.width, height: cell.height).copy(from: cell)
      }
    }
  }

  /// Copies the RGBA `frame` into the gray sheet's cell at (x, y) if every pixel is an opaque
  /// gray; false (the cell partly written, to be overwritten) at the first that is not.
  private mutating func copyAsGray(_ frame: PixelBuffer, x: Int, y: Int) -> Bool {
    pixels.withMutableView { sheet in
      frame.withView { cell in
        let target = sheet.view(x: x, y: y, width: cell.width, height: cell.height)
        for row in 0..<cell.height {
          let from = UnsafeRawPointer(cell.row(row).baseAddress!)
          let to = target.row(row)
          for i in 0..<cell.width {
            let p = UInt32(littleEndian: from.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
            let v = UInt8(truncatingIfNeeded: p)
            // RGBA read as a little-endian word: R in the low byte, A in the high one.
            guard p == UInt32(v) &* 0x0001_0101 | 0xFF00_0000 else { return false }
            to[i] = v
          }
        }
        return true
      }
    }
  }

  /// The sheet in `format`; `path` names the file in an error.
  func encoded(_ format: SheetFormat, path: String) throws(QuireError) -> [UInt8] {
    switch format {
    case .png: return png()
    case .webp: return try webp(path: path)
    }
  }

  /// The sheet as PNG (gray or RGBA, as drawn), compressed as page files are
  /// (`PNGCompression.fast`).
  func png() -> [UInt8] {
    PNGEncoder.encode(
      pixels, filter: PNGCompression.fast.filter,
      method: PNGCompression.fast.method(for: pixels.format))
  }

  /// The sheet as lossless WebP bytes; `path` names the file in an error.
  func webp(path: String) throws(QuireError) -> [UInt8] {
    func failure(_ function: String, _ code: WebPEncodingError? = nil) -> QuireError {
      .cannotCreate(
        path: path,
        reason: "\(function) failed on a \(grid.width)x\(grid.height) sheet"
          + (code.map { " (error \($0.rawValue))" } ?? ""))
    }
    let rgba = pixels.converted(to: .rgba8)
    switch losslessWebP(
      rgba.pixels, width: grid.width, height: grid.height, preset: Self.effort, exact: false)
    {
    case .success(let bytes): return bytes
    case .failure(let refused): throw failure(refused.function, refused.code)
    }
  }
}
