// How an image is named in warnings: its href, except that a `data:` URL (which may be
// megabytes long) is shortened to its header and length, so a manifest stays small.

import QuireCore

enum ImageSource {
  /// The href as a warning's `file`.
  static func name(_ href: String) -> String {
    guard href.utf8.count > 64, href.prefix(5).lowercased() == "data:" else { return href }
    let header = href.prefix { $0 != "," }.prefix(48)
    return "\(header),… (\(href.utf8.count) characters)"
  }
}
