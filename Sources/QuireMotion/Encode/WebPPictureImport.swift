// The one way a libwebp picture is filled with RGBA pixels (sprite sheets, animated WebP
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
