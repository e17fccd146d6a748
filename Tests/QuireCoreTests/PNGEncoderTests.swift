import Foundation
import QuireCore
import QuireTestSupport
import Testing

/// CRC-32 (ISO 3309, the PNG polynomial), bit by bit: an oracle independent of libdeflate.
func referenceCRC32(_ bytes: some Sequence<UInt8>) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for b in bytes {
    crc ^= UInt32(b)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}

/// The chunks of a PNG file: (type, data, stored CRC). Nil when the framing is broken.
func chunks(of png: [UInt8]) -> [(type: String, data: [UInt8], crc: UInt32)]? {
  func be(_ i: Int) -> UInt32 { png[i..<(i + 4)].reduce(0) { $0 << 8 | UInt32($1) } }
  guard png.count >= 8, Array(png.prefix(8)) == PNGChunkWriter.signature else { return nil }
  var out: [(String, [UInt8], UInt32)] = []
  var i = 8
  while i + 12 <= png.count {
    let n = Int(be(i))
    guard i + 12 + n <= png.count else { return nil }
    let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
    out.append((type, Array(png[(i + 8)..<(i + 8 + n)]), be(i + 8 + n)))
    i += 12 + n
  }
  return i == png.count ? out : nil
}

/// PIL (python3-pil) as a reference decoder: the pixel bytes of a PNG, or nil when
/// /usr/bin/python3 has no PIL.
enum ReferenceDecoder {
  static var available: Bool { Subprocess.hasPIL }

  static func pixels(of png: [UInt8], mode: String) throws -> [UInt8]? {
    let path = NSTemporaryDirectory() + "quire-core-reference-\(getpid())-\(UUID().uuidString).png"
    try Data(png).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let script = """
      import sys
      from PIL import Image
      im = Image.open(sys.argv[1])
      assert im.mode == sys.argv[2], im.mode
      sys.stdout.buffer.write(im.tobytes())
      """
    let r = try Subprocess.run(Subprocess.python, ["-c", script, path, mode])
    return r.status == 0 ? Array(r.out) : nil
  }
}

@Suite struct PNGEncoderTests {
  @Test(arguments: [PixelBuffer.Format.gray8, .rgba8])
  func decodesToTheSamePixelsInAReferenceDecoder(format: PixelBuffer.Format) throws {
    guard ReferenceDecoder.available else {
      print(
        "skipped: /usr/bin/python3 with PIL is not installed (libpng round trip: QuireRasterTests)")
      return
    }
    for seed: UInt64 in 1...4 {
      let image = samplePixels(width: 17 + Int(seed), height: 9, format: format, seed: seed)
      for filter in PNGEncoder.Filter.allCases {
        let png = PNGEncoder.encode(image, filter: filter, level: Int32(seed * 3))
        let decoded = try ReferenceDecoder.pixels(of: png, mode: format == .gray8 ? "L" : "RGBA")
        #expect(decoded == image.pixels, "\(format) \(filter) seed \(seed)")
      }
    }
  }

  @Test func everyChunkCarriesTheCRCOfItsTypeAndData() throws {
    let image = samplePixels(width: 31, height: 12, format: .rgba8, seed: 6)
    let png = PNGEncoder.encode(image)
    let parsed = try #require(chunks(of: png))
    #expect(parsed.map(\.type) == ["IHDR", "IDAT", "IEND"])
    for chunk in parsed {
      #expect(chunk.crc == referenceCRC32(Array(chunk.type.utf8) + chunk.data), "\(chunk.type)")
    }
    // The one CRC every PNG ends with.
    #expect(parsed.last?.crc == 0xAE42_6082)
    #expect(parsed[0].data == [0, 0, 0, 31, 0, 0, 0, 12, 8, 6, 0, 0, 0])
    #expect(PNGChunkWriter.crc(.end, []) == 0xAE42_6082)
  }

  @Test func chunkWriterFramesArbitraryChunks() throws {
    var writer = PNGChunkWriter(signature: false)
    writer.append(.animationControl, [0, 0, 0, 3, 0, 0, 0, 0])
    writer.append(PNGChunkType("tEXt"), Array("a\u{0}b".utf8))
    let parsed = try #require(chunks(of: PNGChunkWriter.signature + writer.bytes))
    #expect(parsed.map(\.type) == ["acTL", "tEXt"])
    for chunk in parsed {
      #expect(chunk.crc == referenceCRC32(Array(chunk.type.utf8) + chunk.data))
    }
    #expect(PNGChunkType.frameData.description == "fdAT")
  }

  @Test func samePixelsGiveTheSameBytes() {
    let image = samplePixels(width: 40, height: 30, format: .gray8, seed: 8)
    let copy = PixelBuffer(width: 40, height: 30, format: .gray8, pixels: Array(image.pixels))
    for filter in PNGEncoder.Filter.allCases {
      let a = PNGEncoder.encode(image, filter: filter, level: 6)
      #expect(a == PNGEncoder.encode(copy, filter: filter, level: 6))
      #expect(a == PNGEncoder.encode(image, filter: filter, level: 6))
    }
    // A borrowed window encodes exactly like an owned copy of it.
    let window = image.withView(x: 5, y: 4, width: 20, height: 11) { PNGEncoder.encode($0) }
    #expect(window == PNGEncoder.encode(image.cropped(x: 5, y: 4, width: 20, height: 11)))
  }

  @Test func imageDataIsTheZlibStreamOfFilteredRows() {
    let image = samplePixels(width: 6, height: 3, format: .rgba8, seed: 3)
    let rows = image.withView { PNGEncoder.filteredRows($0, filter: .none) }
    #expect(rows.count == 3 * (6 * 4 + 1))
    #expect(rows[0] == 0 && Array(rows[1...24]) == Array(image.pixels[0..<24]))
    let idat = image.withView { PNGEncoder.imageData($0, filter: .none, level: 3) }
    #expect(idat == Deflater.compress(rows, level: 3))
    #expect(idat.first == 0x78)  // a zlib header
  }

  /// The encoder reuses pooled scratch buffers between images: a large image, then a small
  /// one (the scratch holds stale bytes of the large one), then one too large for the pool to
  /// keep, then the small one again must each encode exactly as a fresh encoder would
  /// (zlib's stream inflated back to the filtered rows, which are checked byte for byte).
  @Test func scratchReuseNeverLeaksBytesBetweenImages() throws {
    let big = samplePixels(width: 300, height: 200, format: .rgba8, seed: 11)
    let small = samplePixels(width: 7, height: 5, format: .gray8, seed: 12)
    let huge = PixelBuffer(width: 1500, height: 1500, format: .rgba8, fill: 77)
    for image in [big, small, huge, small, big] {
      let png = PNGEncoder.encode(image, filter: .none, level: 3)
      let parts = try #require(chunks(of: png))
      #expect(parts.map(\.type) == ["IHDR", "IDAT", "IEND"])
      let rows = image.withView { PNGEncoder.filteredRows($0, filter: .none) }
      #expect(try inflated(parts[1].data, count: rows.count) == rows)
      #expect(png == PNGEncoder.encode(image, filter: .none, level: 3))
    }
  }
}

/// The bytes of a zlib stream, inflated by zlib (through Python's zlib module): an oracle
/// apart from libdeflate's compressor.
private func inflated(_ stream: [UInt8], count: Int) throws -> [UInt8]? {
  let path = NSTemporaryDirectory() + "quire-core-zlib-\(getpid())-\(UUID().uuidString)"
  try Data(stream).write(to: URL(fileURLWithPath: path))
  defer { try? FileManager.default.removeItem(atPath: path) }
  let script =
    "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(open(sys.argv[1], 'rb').read()))"
  let r = try Subprocess.run(Subprocess.python, ["-c", script, path])
  return r.status == 0 && r.out.count == count ? Array(r.out) : nil
}
