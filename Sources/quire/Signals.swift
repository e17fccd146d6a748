// Signals: SIGINT, SIGTERM and SIGHUP end the CLI cleanly (issue #9: SIGTERM during a flip
// left a 316 MB temporary file).
//
// The three signals are blocked in every thread (`install` runs first in main, and threads
// inherit the mask); one thread waits for them with `sigwait`. When one arrives, ordinary
// code runs — no async-signal-safety limits: the core's `AtomicFileRegistry` is closed and
// every temporary file in progress removed, then the process exits with 128 + the signal's
// number, as a shell reports a signal death. No partial file is left under a final name
// (files reach their final name only by rename); a render's folder lock goes with the
// process.
//
// Rejected: a signal handler that unlinks (it could not take the registry's lock), and
// polling a flag in the workers (a long frame encode or an ffmpeg pipe would delay the exit).

import Foundation
import QuireCore

enum Signals {
  /// The signals that end the CLI with cleanup.
  static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// Blocks the handled signals in this (the main) thread and starts the waiting thread.
  static func install() {
    var set = signalSet()
    pthread_sigmask(SIG_BLOCK, &set, nil)
    let waiter = Thread {
      var set = signalSet()
      var signal: Int32 = 0
      while sigwait(&set, &signal) != 0 {}
      AtomicFileRegistry.removeAll()
      // The progress bar may have left the cursor mid-line.
      if Terminal.isInteractive { FileHandle.standardError.write(Data("\n".utf8)) }
      _exit(128 + signal)
    }
    waiter.name = "quire-signals"
    waiter.start()
  }

  private static func signalSet() -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for s in handled { sigaddset(&set, s) }
    return set
  }
}
