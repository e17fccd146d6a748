import Foundation
import Testing

@testable import Quire

/// A library process frees what its jobs leave behind (only the `quire` command, which exits
/// after its one job, says otherwise: `Disposal.processExitsAfterJob`).
@Suite struct DisposalTests {
  /// Signals when it is freed.
  final class Witness: @unchecked Sendable {
    // @unchecked: one immutable semaphore, itself safe to signal from any thread.
    let freed: DispatchSemaphore
    init(_ freed: DispatchSemaphore) { self.freed = freed }
    deinit { freed.signal() }
  }

  @Test func aLibraryFreesWhatAJobLeaves() {
    #expect(!Disposal.keepsValues)
    let freed = DispatchSemaphore(value: 0)
    Disposal.release(Witness(freed))
    #expect(freed.wait(timeout: .now() + 30) == .success)
  }
}
