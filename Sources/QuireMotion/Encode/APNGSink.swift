import Foundation
import QuireRaster

/// An animated PNG: frame 0 is also the default image (fcTL before IDAT), later frames are
/// fdAT chunks. Every frame is a full frame (dispose none, blend source): correctness first;
/// a changed-rectangle optimisation would need the previous frame in the parallel encoder.
/// acTL's frame count is patched in `finish`, so the frame count need not be known up front.
public struct APNGSink: FrameSink {
  public let path: String
  public let width: Int
  public let height: Int
  public let encoder: @Sendable (PixelBuffer) throws -> Data
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
    encoder = { frame in
      guard frame.width == w && frame.height == h else {
        throw FrameSinkError.frameSize(
          path: path, expected: "\(w)x\(h)", got: "\(frame.width)x\(frame.height)")
      }
      return try PNGChunk.imageData(frame, deflater: try Deflater(level: level))
    }
  }

  private static func actl(frames: UInt32) -> Data {
    var b = Data()
    b.appendBigEndian(frames)
    b.appendBigEndian(UInt32(0))  // loop forever
    return PNGChunk.chunk("acTL", b)
  }

  public mutating func append(_ frame: Data, info: FrameInfo) throws {
    var fctl = Data()
    fctl.appendBigEndian(sequence)
    sequence += 1
    fctl.appendBigEndian(UInt32(width))
    fctl.appendBigEndian(UInt32(height))
    fctl.appendBigEndian(UInt32(0))
    fctl.appendBigEndian(UInt32(0))
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
