import Foundation
import Quire

/// `--cache DIR|off`: the persisted layout cache of render, paginate and bench
/// (`$XDG_CACHE_HOME/quire`, else `~/.cache/quire`, when not given; `off`: none).
func layoutCache(_ a: Arguments) throws(UsageError) -> LayoutCache? {
  guard let value = a.value("--cache") else { return LayoutCache.standard() }
  if value == "off" { return nil }
  guard !value.isEmpty else { throw UsageError("--cache: an empty path (a folder or off)") }
  return LayoutCache(directory: URL(fileURLWithPath: value))
}
