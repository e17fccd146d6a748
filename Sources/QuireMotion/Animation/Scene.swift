import Foundation

/// Settings and bookkeeping of one transaction (CATransaction). Obtain one from
/// `Scene.begin()`; a nested transaction starts with its parent's settings.
package final class Transaction {
  /// Duration given to implicit animations (and to actions whose duration is 0).
  package var duration: Double = 0.25
  /// Timing function given to implicit animations that have none. Linear by default:
  /// offline renders are driven by an explicit timing option instead of a hidden curve.
  package var timingFunction: TimingFunction = .linear
  /// When true, property changes take effect immediately, without animation.
  package var disableActions = false
  /// Runs once, when every animation added during this transaction (and its nested
  /// transactions) has reached its end time on the scene's clock.
  package var completion: (() -> Void)?

  var endTime: Double = -.infinity
  var animationCount = 0
  let isImplicit: Bool

  init(isImplicit: Bool) { self.isImplicit = isImplicit }

  func record(_ anim: Animation) {
    animationCount += 1
    endTime = max(endTime, anim.endTime)
  }
}

/// A layer tree with its own clock: the offline stand-in for a window server.
///
/// Time is explicit: nothing moves until `advance(to:)`. Transactions are methods of the
/// scene rather than a process-wide `Transaction.begin()` because offline there is no run
/// loop to commit implicit transactions and a global "current transaction" would make two
/// scenes (or two concurrent renders) interfere; each scene has its own stack.
///
/// Changing an animatable property of a layer in the tree inside `begin()`…`commit()` looks
/// up an action (delegate, the layer's `actions`, then the default) and adds the resulting
/// animation at the current time. A change outside any transaction runs in an implicit
/// transaction with default settings, committed immediately. Layers not in a scene never
/// animate implicitly.
///
/// Like `Layer`, a scene is confined to one task (not Sendable).
package final class Scene {
  package let root: Layer
  package private(set) var time: Double = 0
  private var stack: [Transaction] = []
  private var pending: [(end: Double, seq: Int, callback: () -> Void)] = []
  private var sequence = 0

  package init(root: Layer = Layer()) {
    self.root = root
    root.hostScene = self
  }

  /// Opens a transaction (nestable); configure the returned object before changing layers.
  @discardableResult
  package func begin() -> Transaction {
    let tx = Transaction(isImplicit: false)
    if let parent = stack.last {
      tx.duration = parent.duration
      tx.timingFunction = parent.timingFunction
      tx.disableActions = parent.disableActions
    }
    stack.append(tx)
    return tx
  }

  /// Closes the innermost transaction. Its completion is scheduled for the end of its
  /// animations (or runs now if it added none that end in the future).
  package func commit() {
    guard let tx = stack.popLast() else {
      preconditionFailure("Scene.commit() without a matching begin()")
    }
    if let parent = stack.last, tx.animationCount > 0 {
      parent.animationCount += tx.animationCount
      parent.endTime = max(parent.endTime, tx.endTime)
    }
    guard let completion = tx.completion else { return }
    if tx.animationCount == 0 || tx.endTime <= time {
      completion()
    } else if tx.endTime.isFinite {
      sequence += 1
      pending.append((tx.endTime, sequence, completion))
    }
  }

  /// Runs `body` inside a transaction with the given settings.
  package func transaction(
    duration: Double? = nil, timingFunction: TimingFunction? = nil, disableActions: Bool = false,
    completion: (() -> Void)? = nil, _ body: () -> Void
  ) {
    let tx = begin()
    if let duration { tx.duration = duration }
    if let timingFunction { tx.timingFunction = timingFunction }
    if disableActions { tx.disableActions = true }
    tx.completion = completion
    body()
    commit()
  }

  /// The innermost open transaction, if any.
  package var currentTransaction: Transaction? { stack.last }
  var openTransaction: Transaction? { stack.last }

  func transactionForChange() -> Transaction? {
    if let tx = stack.last { return tx }
    stack.append(Transaction(isImplicit: true))
    return stack.last
  }

  func finishChange() {
    if let tx = stack.last, tx.isImplicit { commit() }
  }

  /// Moves the clock forward to `t`, firing due completions in order of their end times
  /// (with the clock set to each end time while its callback runs, so animations started
  /// by a callback begin exactly then), and drops finished animations that are removed on
  /// completion. Moving backwards is ignored.
  package func advance(to t: Double) {
    guard t >= time else { return }
    var guardCount = 0
    while guardCount < 100_000 {
      guardCount += 1
      guard
        let next = pending.enumerated().filter({ $0.element.end <= t })
          .min(by: { ($0.element.end, $0.element.seq) < ($1.element.end, $1.element.seq) })
      else { break }
      pending.remove(at: next.offset)
      time = max(time, next.element.end)
      next.element.callback()
    }
    time = t
    prune(root, depth: 0)
  }

  private func prune(_ layer: Layer, depth: Int) {
    guard depth < 256 else { return }
    layer.animations.removeAll {
      $0.animation.isRemovedOnCompletion && $0.animation.endTime <= time
    }
    for s in layer.sublayers { prune(s, depth: depth + 1) }
  }

  /// The presentation tree at the current time.
  package func presentation() -> Layer { root.presentation(at: time) }
}
