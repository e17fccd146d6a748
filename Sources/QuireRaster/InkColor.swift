// CMYK → RGB for the JPEGs that store ink (print-ready CMYK, and YCCK, which libjpeg turns
// back into CMYK). There is no ICC handling anywhere in Quire: every image is taken to be
// sRGB, and CMYK is converted with the naive formula R = 255 − C − K… in its multiplicative
// form, which is what browsers do for JPEGs without a profile.
//
// Adobe inversion. Photoshop writes CMYK JPEGs with every sample inverted (255 = no ink) and
// marks them with an APP14 "Adobe" segment; libjpeg and Pillow write them the same way. A
// CMYK JPEG without that marker is practically unheard of, so, like Chromium and Pillow, we
// take every CMYK sample as inverted: with stored values c, m, y, k, red is c·k/255.

enum InkColor {
  /// Inverted CMYK → opaque RGBA in place (4 bytes in, 4 bytes out per pixel).
  static func convertInvertedCMYK(_ pixels: inout [UInt8]) {
    pixels.withUnsafeMutableBufferPointer { p in
      var i = 0
      while i + 3 < p.count {
        let k = UInt32(p[i + 3])
        for c in 0..<3 { p[i + c] = UInt8((UInt32(p[i + c]) * k + 127) / 255) }
        p[i + 3] = 255
        i += 4
      }
    }
  }
}
