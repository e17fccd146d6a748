import Foundation
import QuireMotion

/// `flipbook.json` (format "quire-flipbook/1"): what the folder holds, for tools and for the
/// player, which reads the same JSON from `book.js` (a page opened from `file://` may not
/// fetch JSON).
public struct FlipbookManifest: Codable, Sendable, Hashable {
  /// One page image.
  public struct PageEntry: Codable, Sendable, Hashable {
    /// The book's page number (from 1).
    public var number: Int
    /// The PNG's file name.
    public var file: String
  }

  /// One pre-rendered turn: its sprite sheet and the pages it goes between.
  public struct TurnEntry: Codable, Sendable, Hashable {
    /// The page turned from (for a spread turn the spread's first page in reading order).
    public var from: Int
    /// The page turned to (for a spread turn the first page of the spread turned to).
    public var to: Int
    /// The sheet's file name.
    public var file: String
    /// The sheet's bytes.
    public var bytes: Int
  }

  /// One spread at rest (spread view): its two pages side by side with the gutter shadow, as
  /// the book pairs them (`PagedBook.spreads(showing:)`, the spreads of `render --spreads`).
  public struct SpreadEntry: Codable, Sendable, Hashable {
    /// The spread's number in the book (from 1; `render --spreads` gives it the same).
    public var number: Int
    /// The spread's first shown page in reading order.
    public var from: Int
    /// The page on the left, absent when that side is blank paper.
    public var left: Int?
    /// The page on the right, absent when that side is blank paper.
    public var right: Int?
    /// The PNG's file name.
    public var file: String
  }

  /// How every turn moves and how its frames sit in a sheet.
  public struct TurnInfo: Codable, Sendable, Hashable {
    /// The effect's name (curl, leaves…).
    public var style: String
    /// Frames of a turn, the two still pages included.
    public var frames: Int
    /// Frames per second.
    public var fps: Double
    /// The declared timing curve, "cubic-bezier(x1, y1, x2, y2)".
    public var timing: String
    /// The timing curve sampled at 64 equal steps of time (65 values, may leave 0…1): the
    /// player maps time to progress through it. The sheets hold frames at equal steps of
    /// progress, so one sheet plays forward (next) and backward (prev) on the same curve.
    public var easing: [Double]
    /// The cells of a single-page turn's sheet.
    public var single: SheetGrid
    /// The cells of a spread turn's sheet (absent when spreads were not made).
    public var spread: SheetGrid?
    /// How the sheets are encoded: "png" or "webp-lossless" (see `SheetFormat`).
    public var sheetFormat: String
  }

  /// "quire-flipbook/1".
  public var format = "quire-flipbook/1"
  /// Title, creators, language, identifier and page progression ("ltr" or "rtl").
  public var book: BookInfo
  /// Page width in pixels.
  public var width: Int
  /// Page height in pixels.
  public var height: Int
  /// "gray" or "rgb" page images.
  public var color: String
  /// The layout key of the pages (equal keys, equal pages).
  public var layoutKey: String
  /// The turn timing and sheet cells.
  public var turn: TurnInfo
  /// The pages shown, in reading order.
  public var pages: [PageEntry]
  /// Single-page turns: page N to N+1, for N from the first page to the last but one.
  public var turns: [TurnEntry]
  /// Spread turns: entry i turns `spreads[i]` to `spreads[i + 1]` (`from` and `to` are the
  /// first pages of the two spreads in reading order).
  public var spreadTurns: [TurnEntry]
  /// The spreads at rest, one per spread view in reading order (empty when spreads are not
  /// made): the book's pairing, which the player follows in spread view.
  public var spreads: [SpreadEntry] = []
  /// Bytes of the pages, the sheets and the player: every file of the folder but book.js and
  /// flipbook.json, which carry this number (the command's summary adds them).
  public var totalBytes: Int
  /// What was worked around while reading and laying out the book.
  public var warnings: [WarningEntry]

  /// Pretty, sorted keys: the same book and options give the same bytes.
  func json() -> [UInt8] {
    let enc = JSONEncoder()
    enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Array((try? enc.encode(self)) ?? Data())
  }

  /// `book.js`: the manifest as a script that sets `window.QUIRE_FLIPBOOK`.
  func script() -> [UInt8] {
    Array("window.QUIRE_FLIPBOOK = ".utf8) + json() + Array(";\n".utf8)
  }
}

extension TimingFunction {
  /// The curve at t = 0, 1/64, … 1, rounded to 1e-6 (what the player interpolates).
  var samples: [Double] {
    (0...64).map { (self(Double($0) / 64) * 1e6).rounded() / 1e6 }
  }

  /// "cubic-bezier(x1, y1, x2, y2)".
  var css: String { "cubic-bezier(\(x1), \(y1), \(x2), \(y2))" }
}
