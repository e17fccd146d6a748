import Foundation
import QuireRaster

/// An animated PNG: frame 0 is also the default image (fcTL before IDAT), later frames are
/// fdAT chunks. With dispose none and blend source, a later frame stores only the rectangle
/// where it differs from the frame before it (when the recorder passes that frame; else the
/// whole frame) — the page beneath and the untouched page stay in the canvas.
/// acTL's frame count is patched in `finish`, so the frame count need not be known up front.
public struct APNGSink: FrameSink {
  public let path: String
  public let width: Int
  public let height: Int
  public let encoder: @Sendable (PixelBuffer, PixelBuffer?) throws -> APNGFrame
  private let file: AtomicFile
  private let delay: (numerator: UInt16, denominator: UInt16)
  private var sequence: UInt32 = 0
  private var frameCount: UInt32 = 0
  private let actlOffset: UInt64

  public init(path: String, fps: Double, width: Int, height: Int, level: Int32 = 4) throws {
    guard width > 0, height > 0, width < 1 << 24, height < 1 << 24 else {
      throw FrameSinkError.cannotCreate(path: path, reason: "bad frame size \(width)x\(height)")
    }
    self.path = path
    self.width = width
    self.height = height
    // Delay = 1/fps seconds: exact for integral fps, else milliseconds.
    if fps == fps.rounded(), fps >= 1, fps <= 65535 {
      delay = (1, UInt16(fps))
    } else {
      delay = (UInt16(Swift.min(65535, Swift.max(1, (1000 / fps).rounded()))), 1000)
    }
    file = try AtomicFile(target: path)
    var head = PNGChunk.signature
    head.append(PNGChunk.header(width: width, height: height))
    actlOffset = UInt64(head.count)
    head.append(Self.actl(frames: 0))
    try file.write(head)
    let w = width
    let h = height
    encoder = { frame, previous in
      guard frame.width == w && frame.height == h else {
        throw FrameSinkError.frameSize(
          path: path, expected: "\(w)x\(h)", got: "\(frame.width)x\(frame.height)")
      }
      let deflater = try Deflater(level: level)
      guard let previous, previous.width == w, previous.height == h,
        previous.format == frame.format
      else {
        return APNGFrame(
          x: 0, y: 0, width: w, height: h, data: try PNGChunk.imageData(frame, deflater: deflater))
      }
      let (x, y, cw, ch) = changedRectangle(frame, previous)
      let crop = cropped(frame, x: x, y: y, width: cw, height: ch)
      return APNGFrame(
        x: x, y: y, width: cw, height: ch, data: try PNGChunk.imageData(crop, deflater: deflater))
    }
  }

  private static func actl(frames: UInt32) -> Data {
    var b = Data()
    b.appendBigEndian(frames)
    b.appendBigEndian(UInt32(0))  // loop forever
    return PNGChunk.chunk("acTL", b)
  }

  public mutating func append(_ encoded: APNGFrame, info: FrameInfo) throws {
    // The first frame is the default image: it must cover the whole canvas.
    precondition(frameCount > 0 || (encoded.width == width && encoded.height == height))
    let frame = encoded.data
    var fctl = Data()
    fctl.appendBigEndian(sequence)
    sequence += 1
    fctl.appendBigEndian(UInt32(encoded.width))
    fctl.appendBigEndian(UInt32(encoded.height))
    fctl.appendBigEndian(UInt32(encoded.x))
    fctl.appendBigEndian(UInt32(encoded.y))
    fctl.appendBigEndian(delay.numerator)
    fctl.appendBigEndian(delay.denominator)
    fctl.append(contentsOf: [0, 0])  // dispose none, blend source
    var out = PNGChunk.chunk("fcTL", fctl)
    // Chunks are capped well below PNG's 2^31 − 1 limit; a frame may take several.
    let piece = 1 << 24
    var start = 0
    repeat {
      let end = Swift.min(frame.count, start + piece)
      let part = frame.subdata(in: start..<end)
      if frameCount == 0 {
        out.append(PNGChunk.chunk("IDAT", part))
      } else {
        var body = Data()
        body.appendBigEndian(sequence)
        sequence += 1
        body.append(part)
        out.append(PNGChunk.chunk("fdAT", body))
      }
      start = end
    } while start < frame.count
    try file.write(out)
    frameCount += 1
  }

  public mutating func finish() throws {
    guard frameCount > 0 else { throw FrameSinkError.noFrames(path: path) }
    try file.write(PNGChunk.chunk("IEND", Data()))
    try file.seekAndWrite(Self.actl(frames: frameCount), at: actlOffset)
    try file.commit()
  }
}

/// One compressed APNG frame: the rectangle it replaces and its zlib image data.
public struct APNGFrame: Sendable {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int
  public var data: Data
}

/// The smallest rectangle outside which `a` and `b` (same size and format) are equal;
/// a 1×1 rectangle at the origin when they are identical (APNG frames cannot be empty).
func changedRectangle(_ a: PixelBuffer, _ b: PixelBuffer) -> (Int, Int, Int, Int) {
  let c = a.format.channels
  let row = a.width * c
  var top = -1
  var bottom = -1
  var left = a.width
  var right = -1
  a.pixels.withUnsafeBufferPointer { pa in
    b.pixels.withUnsafeBufferPointer { pb in
      for y in 0..<a.height {
        let ra = pa.baseAddress! + y * row
        let rb = pb.baseAddress! + y * row
        if memcmp(ra, rb, row) == 0 { continue }
        if top < 0 { top = y }
        bottom = y
        var x0 = 0
        while x0 < a.width && memcmp(ra + x0 * c, rb + x0 * c, c) == 0 { x0 += 1 }
        var x1 = a.width - 1
        while x1 > x0 && memcmp(ra + x1 * c, rb + x1 * c, c) == 0 { x1 -= 1 }
        left = Swift.min(left, x0)
        right = Swift.max(right, x1)
      }
    }
  }
  if top < 0 { return (0, 0, 1, 1) }
  return (left, top, right - left + 1, bottom - top + 1)
}

/// A copy of the rectangle (x, y, width, height) of `image`.
func cropped(_ image: PixelBuffer, x: Int, y: Int, width: Int, height: Int) -> PixelBuffer {
  if x == 0 && y == 0 && width == image.width && height == image.height { return image }
  let c = image.format.channels
  var out = [UInt8]()
  out.reserveCapacity(width * height * c)
  for r in y..<(y + height) {
    let start = (r * image.width + x) * c
    out.append(contentsOf: image.pixels[start..<(start + width * c)])
  }
  return PixelBuffer(width: width, height: height, format: image.format, pixels: out)
}
