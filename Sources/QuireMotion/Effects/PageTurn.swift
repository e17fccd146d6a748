import QuireRaster

// The contract of every page-turn effect. An effect draws one frame of a forward turn from
// page N (`current`) to page N+1 (`next`) at progress t ∈ [0, 1] (already eased by the timing
// function): frame(0) must equal `current` pixel for pixel, frame(1) must equal `next`.
// Backward turns, right-to-left mirroring and spreads are built on top of this contract
// (see TurnOptions), so each effect only implements the forward, left-to-right case.

public enum TurnDirection: String, Sendable, Hashable, Codable { case next, prev }
public enum TurnCorner: String, Sendable, Hashable, Codable { case top, bottom, middle }
public enum LeafBack: String, Sendable, Hashable, Codable { case mirrored, blank, next }

public struct TurnOptions: Sendable, Hashable {
  public var direction: TurnDirection = .next
  public var rightToLeft: Bool = false
  public var corner: TurnCorner = .bottom
  public var back: LeafBack = .mirrored
  public var spread: Bool = false
  public init() {}
}

/// Two same-sized RGBA8 pages: the one showing at t = 0 and the one showing at t = 1.
public struct TurnPages: Sendable {
  public var current: PixelBuffer
  public var next: PixelBuffer
  public init(current: PixelBuffer, next: PixelBuffer) {
    precondition(current.width == next.width && current.height == next.height)
    self.current = current
    self.next = next
  }
}

public protocol PageTurnEffect: Sendable {
  /// Style name as on the command line ("curl", "leaves", …).
  var name: String { get }
  func frame(at t: Double, pages: TurnPages, options: TurnOptions) -> PixelBuffer
}
