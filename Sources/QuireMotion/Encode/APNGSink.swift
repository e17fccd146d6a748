import Foundation

/// An animated PNG: frame 0 is also the default image (fcTL before IDAT), later frames are
/// fdAT chunks. With dispose none and blend source, a later frame stores only the rectangle
/// where it differs from the frame before it (when the recorder passes that frame; else the
/// whole frame) — the page beneath and the untouched page stay in the canvas.
/// acTL's frame count is patched in `finish`, so the frame count need not be known up front.
///
/// Chunks are framed by the core's `PNGChunkWriter` and the image data compressed by its
/// `PNGEncoder` (filter none: the fastest, and page frames are mostly flat paper); the file
/// is an `AtomicFile`, renamed into place by `finish`.
package struct APNGSink: FrameSink {
  package let path: String
  package let width: Int
  package let height: Int
  package let encoder: @Sendable (PixelBuffer, PixelBuffer?) throws -> APNGFrame
  private let file: AtomicFile
  private let delay: (numerator: UInt16, denominator: UInt16)
  private var sequence: UInt32 = 0
  private var frameCount: UInt32 = 0
  private let actlOffset: Int

  package init(path: String, fps: Double, width: Int, height: Int, level: Int32 = 4) throws {
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
    do { file = try AtomicFile(path: path) } catch {
      throw FrameSinkError.cannotCreate(path: path, reason: error.reason)
    }
    var head = PNGChunkWriter()
    head.header(width: width, height: height, format: .rgba8)
    actlOffset = head.bytes.count
    head.append(.animationControl, Self.actl(frames: 0))
    do { try file.write(head.bytes) } catch {
      throw FrameSinkError.cannotWrite(path: path, reason: error.reason)
    }
    let w = width
    let h = height
    encoder = { frame, previous in
      guard frame.width == w && frame.height == h else {
        throw FrameSinkError.frameSize(
          path: path, expected: "\(w)x\(h)", got: "\(frame.width)x\(frame.height)")
      }
      let rgba = frame.asRGBA()
      guard let previous, previous.width == w, previous.height == h,
        previous.format == frame.format
      else {
        return APNGFrame(x: 0, y: 0, width: w, height: h, data: Self.imageData(rgba, level: level))
      }
      let (x, y, cw, ch) = changedRectangle(frame, previous)
      let data = Self.imageData(rgba, x: x, y: y, width: cw, height: ch, level: level)
      return APNGFrame(x: x, y: y, width: cw, height: ch, data: data)
    }
  }

  /// The zlib image data of the rectangle (x, y, width, height) of `frame` (the whole frame by
  /// default), read through a borrowed view: no cropped copy.
  private static func imageData(
    _ frame: PixelBuffer, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil,
    level: Int32
  ) -> [UInt8] {
    frame.withView(x: x, y: y, width: width, height: height) {
      PNGEncoder.imageData($0, filter: .none, level: level)
    }
  }

  private static func actl(frames: UInt32) -> [UInt8] {
    var b: [UInt8] = []
    PNGChunkWriter.appendBigEndian(frames, to: &b)
    PNGChunkWriter.appendBigEndian(UInt32(0), to: &b)  // loop forever
    return b
  }

  private func write(_ bytes: [UInt8], at offset: Int? = nil) throws {
    do {
      if let offset { try file.write(bytes, at: offset) } else { try file.write(bytes) }
    } catch { throw FrameSinkError.cannotWrite(path: path, reason: error.reason) }
  }

  package mutating func append(_ encoded: APNGFrame, info: FrameInfo) throws {
    // The first frame is the default image: it must cover the whole canvas.
    precondition(frameCount > 0 || (encoded.width == width && encoded.height == height))
    let frame = encoded.data
    var fctl: [UInt8] = []
    PNGChunkWriter.appendBigEndian(sequence, to: &fctl)
    sequence += 1
    for v in [encoded.width, encoded.height, encoded.x, encoded.y] {
      PNGChunkWriter.appendBigEndian(UInt32(v), to: &fctl)
    }
    PNGChunkWriter.appendBigEndian(delay.numerator, to: &fctl)
    PNGChunkWriter.appendBigEndian(delay.denominator, to: &fctl)
    fctl.append(contentsOf: [0, 0])  // dispose none, blend source
    var out = PNGChunkWriter(signature: false, capacity: frame.count)
    out.append(.frameControl, fctl)
    // Chunks are capped well below PNG's 2^31 − 1 limit; a frame may take several.
    let piece = 1 << 24
    var start = 0
    repeat {
      let end = Swift.min(frame.count, start + piece)
      if frameCount == 0 {
        frame.withUnsafeBytes {
          out.append(.imageData, UnsafeRawBufferPointer(rebasing: $0[start..<end]))
        }
      } else {
        var body: [UInt8] = []
        body.reserveCapacity(end - start + 4)
        PNGChunkWriter.appendBigEndian(sequence, to: &body)
        sequence += 1
        body.append(contentsOf: frame[start..<end])
        out.append(.frameData, body)
      }
      start = end
    } while start < frame.count
    try write(out.bytes)
    frameCount += 1
  }

  package mutating func finish() throws {
    guard frameCount > 0 else { throw FrameSinkError.noFrames(path: path) }
    var end = PNGChunkWriter(signature: false)
    end.end()
    try write(end.bytes)
    var actl = PNGChunkWriter(signature: false)
    actl.append(.animationControl, Self.actl(frames: frameCount))
    try write(actl.bytes, at: actlOffset)
    do { try file.commit() } catch {
      throw FrameSinkError.cannotWrite(path: path, reason: error.reason)
    }
  }
}

/// One compressed APNG frame: the rectangle it replaces and its zlib image data.
package struct APNGFrame: Sendable {
  package var x: Int
  package var y: Int
  package var width: Int
  package var height: Int
  package var data: [UInt8]
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
