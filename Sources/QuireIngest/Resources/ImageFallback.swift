// Manifest fallbacks for images (EPUB 3.3 §3.4.3 "Manifest fallbacks"): an `<img>` may name
// a file in a format a reading system need not support, provided its manifest item points
// (`fallback`, possibly through a chain) at one it does.
//
// Core media types. EPUB 3.3's core image types are image/gif, image/jpeg, image/png,
// image/svg+xml and image/webp; Quire decodes those and also image/avif, image/jxl and
// image/bmp (`ImageFormat(mediaType:)` names exactly this set). An item whose media type is
// outside it (TIFF, HEIC, a vendor type) gets its chain of usable fallbacks, in order; the
// resource store then serves the first fallback whenever the item's own bytes are not in a
// format Quire decodes (sniffed, so a PNG mislabelled as image/tiff is still shown itself).
//
// Bounded and cycle-safe: each chain visits an item at most once and is at most the
// manifest's length; chains are computed once per book.

import Foundation
import QuireCore

extension PackageDocument {
  /// Item path → the paths of its fallbacks Quire can decode, in chain order, for every
  /// manifest item (other than content documents) whose own media type it cannot decode.
  func imageFallbacks() -> [String: [String]] {
    var result: [String: [String]] = [:]
    for item in manifest
    where item.fallback != nil && ImageFormat(mediaType: item.mediaType) == nil
      && !Self.contentTypes.contains(item.mediaType)
    {
      var visited: Set<String> = [item.id]
      var usable: [String] = []
      var next = item.fallback
      while let id = next, visited.insert(id).inserted, let fallback = byID[id] {
        if ImageFormat(mediaType: fallback.mediaType) != nil { usable.append(fallback.path) }
        next = fallback.fallback
      }
      if !usable.isEmpty { result[item.path] = usable }
    }
    return result
  }
}

extension PackageResourceStore {
  /// The item's bytes when Quire decodes them, else its first readable fallback's; nil when
  /// neither exists.
  func imageOrFallback(_ path: String, own: Data?, fallbacks: [String]) -> Data? {
    if let own, ImageFormat.sniff(own) != nil { return own }
    for fallback in fallbacks where !refused.contains(fallback) {
      if let data = try? files.read(fallback) { return data }
    }
    return own
  }
}
