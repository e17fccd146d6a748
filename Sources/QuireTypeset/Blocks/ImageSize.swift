// Intrinsic image sizes from the first bytes of PNG, JPEG and GIF files (SVG: SVGSize.swift). Written by hand
// because only two numbers are needed: decoding (the rasterizer's job) would cost far more.
// Every read is bounded by the data's length and a scan limit.

import Foundation

/// Intrinsic sizes of PNG, JPEG and GIF images from their headers, CSS px.
package enum ImageSize {
  package static func of(_ data: Data) -> (width: Double, height: Double)? {
    if let svg = SVGSize.of(data) { return svg }
    let b = [UInt8](data.prefix(min(data.count, 1 << 20)))
    func be16(_ i: Int) -> Int { i + 1 < b.count ? Int(b[i]) << 8 | Int(b[i + 1]) : 0 }
    func be32(_ i: Int) -> Int { i + 3 < b.count ? be16(i) << 16 | be16(i + 2) : 0 }
    if b.count >= 24, b[0] == 0x89, b[1] == 0x50, b[2] == 0x4E, b[3] == 0x47 {
      let w = be32(16)
      let h = be32(20)
      return w > 0 && h > 0 ? (Double(w), Double(h)) : nil
    }
    if b.count >= 10, b[0] == 0x47, b[1] == 0x49, b[2] == 0x46 {
      let w = Int(b[6]) | Int(b[7]) << 8
      let h = Int(b[8]) | Int(b[9]) << 8
      return w > 0 && h > 0 ? (Double(w), Double(h)) : nil
    }
    if b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 {
      var i = 2
      var steps = 0
      while i + 9 < b.count, steps < 10_000 {
        steps += 1
        guard b[i] == 0xFF else {
          i += 1
          continue
        }
        let marker = b[i + 1]
        if marker == 0xFF {
          i += 1
          continue
        }
        if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
          i += 2
          continue
        }
        let len = be16(i + 2)
        if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
          let h = be16(i + 5)
          let w = be16(i + 7)
          return w > 0 && h > 0 ? (Double(w), Double(h)) : nil
        }
        if len < 2 { return nil }
        i += 2 + len
      }
    }
    return nil
  }
}
