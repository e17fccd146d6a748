import Foundation
import Quire

/// `--cache DIR|off`: the persisted layout cache of render, paginate and bench
/// (`$XDG_CACHE_HOME/quire`, else `~/.cache/quire`, when not given; `off`: none).
/// The cache's folder also keeps the compiled hyphenation patterns of this process.
func layoutCache(_ a: Arguments) throws(UsageError) -> LayoutCache? {
  let cache: LayoutCache?
  if let value = a.value("--cache") {
    if value == "off" { return nil }
    guard !value.isEmpty else { throw UsageError("--cache: an empty path (a folder or off)") }
    cache = LayoutCache(directory: URL(fileURLWithPath: value))
  } else {
    cache = LayoutCache.standard()
  }
  cache?.keepCompiledHyphenationPatterns()
  return cache
}
