// The one way a libwebp picture is filled with RGBA pixels and encoded losslessly (sprite sheets, animated WebP
// frames, texture reduction): the same four steps each time, and each caller frees the
// picture with `WebPPictureFree` in a `defer` next to where it declares it.

import CWebP

/// Fills `picture` (a zero `WebPPicture()`) with `width`×`height` RGBA `pixels` as ARGB.
/// Returns the name of the libwebp function that refused, nil on success; either way the
/// caller frees `picture` with `WebPPictureFree` (safe on a zero or half-made picture).
package func importRGBA(_ picture: inout WebPPicture, width: Int, height: Int, pixels: [UInt8])
  -> String?
{
  guard cwebp_picture_init(&picture) != 0 else { return "WebPPictureInit" }
  picture.use_argb = 1
  picture.width = Int32(width)
  picture.height = Int32(height)
  let imported = pixels.withUnsafeBufferPointer {
    WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4))
  }
  return imported != 0 ? nil : "WebPPictureImportRGBA"
}

/// Why `losslessWebP` failed: the libwebp function that refused and, for `WebPEncode`, its
/// error code.
package struct WebPEncodeFailure: Error {
  package var function: String
  package var code: WebPEncodingError?
}

/// `width`×`height` RGBA `pixels` as a lossless WebP bitstream at libwebp's effort `preset`
/// (0 fastest … 9 smallest); `exact` keeps the RGB under transparent pixels. The one lossless
/// encode behind animated WebP frames and the flipbook's sprite sheets.
package func losslessWebP(
  _ pixels: [UInt8], width: Int, height: Int, preset: Int32, exact: Bool
) -> Result<[UInt8], WebPEncodeFailure> {
  var config = WebPConfig()
  guard cwebp_config_init(&config) != 0, WebPConfigLosslessPreset(&config, preset) != 0 else {
    return .failure(WebPEncodeFailure(function: "WebPConfigInit", code: nil))
  }
  config.lossless = 1
  if exact { config.exact = 1 }
  var picture = WebPPicture()
  defer { WebPPictureFree(&picture) }
  if let refused = importRGBA(&picture, width: width, height: height, pixels: pixels) {
    return .failure(WebPEncodeFailure(function: refused, code: nil))
  }
  var writer = WebPMemoryWriter()
  WebPMemoryWriterInit(&writer)
  defer { WebPMemoryWriterClear(&writer) }
  let encoded = withUnsafeMutablePointer(to: &writer) { w in
    picture.writer = WebPMemoryWrite
    picture.custom_ptr = UnsafeMutableRawPointer(w)
    return WebPEncode(&config, &picture)
  }
  guard encoded != 0, let bytes = writer.mem else {
    return .failure(WebPEncodeFailure(function: "WebPEncode", code: picture.error_code))
  }
  return .success(Array(UnsafeBufferPointer(start: bytes, count: writer.size)))
}
