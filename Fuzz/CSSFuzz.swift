// libFuzzer entry for the CSS parser and the cascade: the input is a style sheet, applied to
// a small fixed XHTML document (nesting, classes, ids, attributes, siblings, inline styles).
// Differential as well as crash-hunting: the hashed matcher with its ancestor filter must
// give exactly the plain matcher's declarations for every element (a mismatch traps, so
// libFuzzer keeps it as a crasher). Built by Fuzz/run.sh.

import Foundation

/// libFuzzer calls this once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func cssFuzzTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzzStyleSheet(Data(bytes: bytes, count: count))
  return 0
}
