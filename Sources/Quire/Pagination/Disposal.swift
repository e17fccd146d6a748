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
// A process that exits as soon as its job returns (the `quire` command) need not free any
// of it: `processExitsAfterJob()` makes `release` keep the value for good instead, as
// clang's `-disable-free` does. On `quire paginate` of moby-dick with one thread that is
// the layout worker's caches, 19.7 M instructions (callgrind, Benchmarks/paginate-cost.md
// "Session 17"), and a thread start for the book.
//
// Rejected: leaking the book on purpose in the library (a caller that paginates many books
// would grow without bound: only the process that is about to exit may say so) and freeing
// it on a Dispatch queue (small default stacks).

import Foundation
import Synchronization

/// What a job leaves behind once its result is made: freed off the caller's thread.
public enum Disposal {
  /// Set once by a process that exits when its job returns.
  private static let skipsFreeing = Atomic<Bool>(false)

  /// Declares that the process exits as soon as its current job returns: what the job
  /// leaves behind (the laid-out book, the layout workers' caches) is then never freed,
  /// the kernel taking the pages back at exit. Only a process that runs one job and exits
  /// (the `quire` command) may call it; a library caller that runs many jobs must not.
  public static func processExitsAfterJob() {
    skipsFreeing.store(true, ordering: .relaxed)
  }

  /// Whether `release` keeps values instead of freeing them (`processExitsAfterJob`).
  static var keepsValues: Bool { skipsFreeing.load(ordering: .relaxed) }

  /// Releases `value` on a new thread — or never, once the process has said it exits after
  /// its job. The caller must hold no other reference to it for the memory to be freed
  /// there.
  static func release<T: Sendable>(_ value: consuming T) {
    let box = Box(value)
    if keepsValues {
      // Kept for good on purpose (see the file comment): one reference never released.
      _ = Unmanaged.passRetained(box)
      return
    }
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
