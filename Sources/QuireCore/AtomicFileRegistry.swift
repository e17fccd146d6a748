// AtomicFileRegistry: the temporary files in progress, so an interrupted process can remove
// them (issue #9: SIGTERM during a flip left a 316 MB `.OUT.tmp-PID`).
//
// Every `AtomicFile` registers its temporary path when it creates it and unregisters it when
// it is committed (renamed) or discarded. A program that handles SIGINT/SIGTERM/SIGHUP (the
// CLI: a thread waiting in `sigwait`, not a signal handler, so ordinary code may run) calls
// `removeAll()` and exits: the registry is closed first, so a worker that creates a file
// afterwards has it removed at once (`AtomicFile.init` throws), and every registered file is
// unlinked. A file already renamed onto its final name is complete (rename is atomic); no
// partial file is ever under a final name.
//
// Rejected: unlinking from an async-signal handler, which cannot take a lock or touch Swift
// collections safely; and polling a flag in the workers, which leaves a long encode running.

import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The temporary files of this process that are being written.
public enum AtomicFileRegistry {
  private struct State {
    var paths: Set<String> = []
    var closed = false
  }

  private static let state = Mutex(State())

  /// Records `path` as in progress; false (and nothing recorded) once `removeAll()` ran.
  public static func register(_ path: String) -> Bool {
    state.withLock { s in
      guard !s.closed else { return false }
      s.paths.insert(path)
      return true
    }
  }

  /// Forgets `path` (committed or removed).
  public static func unregister(_ path: String) {
    _ = state.withLock { $0.paths.remove(path) }
  }

  /// The temporary files in progress.
  public static var inProgress: Set<String> { state.withLock { $0.paths } }

  /// Removes every file in progress (only those under `folder`, when given) and, when
  /// `closing` (the default: the process is ending), closes the registry so later
  /// registrations fail; returns how many files were removed.
  @discardableResult
  public static func removeAll(closing: Bool = true, under folder: String? = nil) -> Int {
    state.withLock { s in
      if closing { s.closed = true }
      var removed = 0
      for p in s.paths where folder.map({ p.hasPrefix($0 + "/") }) ?? true {
        if unlink(p) == 0 { removed += 1 }
        s.paths.remove(p)
      }
      return removed
    }
  }
}
