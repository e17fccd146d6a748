// libFuzzer entry for the XHTML → Document converter (the content owner's ChapterConverter)
// and the package side's XML element tree. Built by Fuzz/run.sh.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func xhtmlFuzzTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(bytes: bytes, count: count)
  fuzzChapter(data)
  return 0
}
