import CWebP
import Foundation

extension PixelBuffer {
  /// This image made at most `width`×`height`, keeping its aspect, by libwebp's rescaler
  /// (an area average when reducing, which does not alias; alpha premultiplied while
  /// averaging). An image that already fits is returned as it is.
  ///
  /// Effects call it once on their textures before drawing many frames, so that a large
  /// cover drawn small is averaged once instead of being point-sampled (bilinear, aliasing)
  /// from the full-size bytes in every frame.
  package func reduced(toFit width: Int, _ height: Int) -> PixelBuffer {
    guard width > 0, height > 0, self.width > width || self.height > height else { return self }
    let s = min(Double(width) / Double(self.width), Double(height) / Double(self.height))
    let w = max(1, Int((Double(self.width) * s).rounded()))
    let h = max(1, Int((Double(self.height) * s).rounded()))
    let rgba = asRGBA()
    var picture = WebPPicture()
    defer { WebPPictureFree(&picture) }
    guard importRGBA(&picture, width: rgba.width, height: rgba.height, pixels: rgba.pixels) == nil,
      WebPPictureRescale(&picture, Int32(w), Int32(h)) != 0,
      let argb = picture.argb
    else { return self }
    let stride = Int(picture.argb_stride)
    var out = [UInt8](repeating: 0, count: w * h * 4)
    for y in 0..<h {
      for x in 0..<w {
        let p = argb[y * stride + x]
        let o = (y * w + x) * 4
        out[o] = UInt8(truncatingIfNeeded: p >> 16)
        out[o + 1] = UInt8(truncatingIfNeeded: p >> 8)
        out[o + 2] = UInt8(truncatingIfNeeded: p)
        out[o + 3] = UInt8(truncatingIfNeeded: p >> 24)
      }
    }
    return PixelBuffer(width: w, height: h, format: .rgba8, pixels: out)
  }
}
