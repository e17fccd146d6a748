// Disposal: a laid-out book freed off the caller's thread.
//
// What a pagination leaves behind is large and made of many small allocations: the whole
// book's block tree (`Document`), the typesetter with its process-wide word and hyphenation
// caches, the page records. Freeing it where the last reference drops — on the caller's
// thread, after the page map is built — cost `quire paginate` of moby-dick about 40 ms of
// wall time on one core while the other was idle (perf, Benchmarks/paginate-cost.md
// "Session 10"): the serial tail after a layout that keeps both cores busy. `release`
// moves the last reference to a thread of its own and returns at once, so the caller writes
// its output while the memory is given back beside it.
//
// Nothing observable depends on when the memory is freed: no deinitializer of these values
// writes output or holds a lock another thread waits on. A process that exits first simply
// never finishes freeing (the kernel takes the pages back at once). The thread's stack is
// as large as a layout worker's (16 MiB), since a block tree is freed recursively.
//
// Rejected: leaking the book on purpose (a library caller that paginates many books would
// grow without bound) and freeing it on a Dispatch queue (small default stacks).

import Foundation

enum Disposal {
  /// Releases `value` on a new thread. The caller must hold no other reference to it for
  /// the memory to be freed there.
  static func release<T: Sendable>(_ value: consuming T) {
    let box = Box(value)
    let thread = Thread { box.drop() }
    thread.stackSize = 16 << 20
    thread.start()
  }

  /// Holds the value until the disposing thread drops it.
  private final class Box<T: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is written once more, by the one disposing thread.
    private var value: T?
    init(_ value: consuming T) { self.value = value }
    func drop() { value = nil }
  }
}
