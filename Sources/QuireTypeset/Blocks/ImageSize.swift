// Intrinsic image sizes from headers: the core's `ImageHeader` reads every raster format's
// header (PNG, JPEG with its EXIF orientation, GIF, WebP, AVIF, JPEG XL, BMP) without
// decoding (SVG: its root element, SVGSize.swift); decoding is the rasterizer's job and would cost far more.

import Foundation
import QuireCore

/// Intrinsic sizes of raster images from their headers, CSS px (one image pixel each).
package enum ImageSize {
  package static func of(_ data: Data) -> (width: Double, height: Double)? {
    ImageHeader.size(of: data).map { (Double($0.width), Double($0.height)) } ?? SVGSize.of(data)
  }
}
