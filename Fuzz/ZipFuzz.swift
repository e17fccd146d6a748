// libFuzzer entry for the ZIP reader and the OCF/OPF package reader above it.
// Built by Fuzz/run.sh together with the QuireIngest sources (not a SwiftPM target:
// -sanitize=fuzzer does not link in a SwiftPM executable, see notes/c-interop.md).

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func zipFuzzTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(bytes: bytes, count: count)
  var limits = IngestLimits()
  // Small limits keep each run fast; the point is that they are enforced, not their size.
  limits.maxEntryBytes = 8 << 20
  limits.maxTotalBytes = 32 << 20
  limits.maxEntries = 2_000
  fuzzPackage(data, limits: limits)
  return 0
}
