// Limits: the façade's caps on what a request may ask for, in one place (issue #9).
//
// Every job's cost is bounded by its request before any work starts: a canvas has at most
// `maxCanvasPixels`, an animation at most `maxFrames`, and the worker threads that each hold
// a page image are as many as `workerMemoryBudget` allows, whatever thread count was asked
// for. A request outside these is `QuireError.invalidRequest` (exit 64 in the CLI, which
// words it with its flags); the thread budget is not an error but a smaller worker count,
// reported by `RenderRequest.workerThreads` so the CLI can say so.
//
// The stages bound their inputs themselves (Ingest's `IngestLimits`, Typeset's caps); these
// caps bound the options.

import QuireCore
import QuireMotion

/// The bounds a request must keep to. Each is a documented constant: what it caps and why
/// that value.
public enum QuireLimits {
  /// Page and animation canvas sides, in pixels: 16 … 8192. Below 16 no line of text fits;
  /// 8192 is well past any screen and keeps row arithmetic far from overflow.
  public static let canvasSides = 16...8192

  /// The most pixels a page or an animation frame may have: 16,777,216 (16 Mpx, e.g.
  /// 4096x4096 or 2048x8192). One RGBA page of that size is 64 MB; a turn holds five pages
  /// and a few frames, and a render one page per worker, so every job stays well under 1 GB.
  /// Reader screens are below 8 Mpx; a two-page spread of a 2048x4096 page still fits.
  public static let maxCanvasPixels = 1 << 24

  /// The memory that page-sized buffers of all render workers together may take: 512 MB.
  /// A worker holds the page image and its PNG encoding (about twice the page's bytes); the
  /// worker count is cut to what fits, so `--threads 256` at 4096x4096 RGBA runs 4 workers
  /// instead of growing by 128 MB per thread. With the rest of the process (fonts, the
  /// book, the page map) a render stays well under 1 GB.
  public static let workerMemoryBudget = 512 << 20

  /// Body text sizes in pixels: 4 … 200. Past 200 px a 600x800 page holds two lines, and
  /// the size must also leave room for 3 lines on the page (`LayoutSettings.problem`).
  public static let fontSizes = 4.0...200.0

  /// Line heights as a multiple of the font size: 0.5 … 5.
  public static let lineHeights = 0.5...5.0

  /// The most frames one animation may have: 10,000 (5.5 minutes at 30 fps). Frames are
  /// encoded in bounded batches, so this caps time and output size, not memory.
  public static let maxFrames = MotionLimits.maxFrames

  /// Frame rates: 1 … 240 frames per second.
  public static let framesPerSecond = MotionLimits.framesPerSecond

  /// Animation durations in seconds: 0.05 … 600; the frame count `duration × fps` must
  /// also stay within `maxFrames`.
  public static let durations = 0.05...600.0

  /// Worker threads a job may be given: 1 … 256.
  public static let threads = 1...256

  /// The largest font file accepted by `FontChoice.file`: 64 MB (the biggest CJK collections
  /// are about 30 MB).
  public static let maxFontFileBytes = 64 << 20

  /// The workers a render of `pixels`-pixel pages of `bytesPerPixel` bytes runs when
  /// `requested` are asked for: at most `workerMemoryBudget / (2 × page bytes)`, at least 1.
  public static func workers(requested: Int, pixels: Int, bytesPerPixel: Int) -> Int {
    let perWorker = max(1, 2 * pixels * bytesPerPixel)
    return max(1, min(requested, workerMemoryBudget / perWorker))
  }
}

/// The setting a layout problem is about (the CLI names its option).
public enum LayoutSetting: String, Sendable, Hashable {
  /// Page width and height.
  case pageSize
  /// The body text size.
  case fontSize
  /// The line height.
  case lineHeight
  /// The margins.
  case margins
}

extension LayoutSettings {
  /// What is wrong with these settings before anything is laid out, or nil: page size,
  /// canvas pixels, font size and line height against `QuireLimits`, and room for text
  /// (3 lines of 4 characters).
  public var problem: (setting: LayoutSetting, message: String)? {
    let sides = QuireLimits.canvasSides
    guard sides.contains(pageWidth), sides.contains(pageHeight) else {
      return (
        .pageSize,
        "page size \(pageWidth)x\(pageHeight): sides must be in \(sides.lowerBound)…"
          + "\(sides.upperBound) pixels"
      )
    }
    if let m = Self.canvasProblem(width: pageWidth, height: pageHeight) { return (.pageSize, m) }
    guard fontSize.isFinite, QuireLimits.fontSizes.contains(fontSize) else {
      return (
        .fontSize,
        "font size \(fontSize) is outside \(QuireLimits.fontSizes.lowerBound)…"
          + "\(QuireLimits.fontSizes.upperBound) pixels"
      )
    }
    guard lineHeight.isFinite, QuireLimits.lineHeights.contains(lineHeight) else {
      return (
        .lineHeight,
        "line height \(lineHeight) is outside \(QuireLimits.lineHeights.lowerBound)…"
          + "\(QuireLimits.lineHeights.upperBound)"
      )
    }
    let m = effectiveMargins
    let width = Double(pageWidth) - m.left - m.right
    let height = Double(pageHeight) - m.top - m.bottom
    guard [m.top, m.right, m.bottom, m.left].allSatisfy({ $0.isFinite && $0 >= 0 }),
      width >= 8, height >= 8
    else {
      return (.margins, "margins leave no room for text on a \(pageWidth)x\(pageHeight) page")
    }
    guard fontSize * max(1, lineHeight) * 3 <= height, fontSize * 4 <= width else {
      return (
        .fontSize,
        "font size \(fontSize) px leaves no room for 3 lines of 4 characters in the "
          + "\(Int(width))x\(Int(height)) text area of a \(pageWidth)x\(pageHeight) page"
      )
    }
    return nil
  }

  /// Why a `width`×`height` canvas is too big (`QuireLimits.maxCanvasPixels`), or nil.
  static func canvasProblem(width: Int, height: Int) -> String? {
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    guard overflow || pixels > QuireLimits.maxCanvasPixels else { return nil }
    return "\(width)x\(height) is \(overflow ? "too many" : String(pixels)) pixels; at most "
      + "\(QuireLimits.maxCanvasPixels) (e.g. 4096x4096)"
  }

  /// Throws `invalidRequest(.layoutSettings)` when `problem` finds one.
  func check() throws(QuireError) {
    if let (_, message) = problem { throw .invalidRequest(.layoutSettings(message)) }
  }
}
