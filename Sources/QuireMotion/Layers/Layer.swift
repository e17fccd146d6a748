import Foundation

/// How `contents` is placed inside the layer's bounds (CALayer's contentsGravity).
/// The image's natural size is its pixel size (content scale 1).
package enum ContentsGravity: String, Sendable, Hashable, Codable {
  case resize, resizeAspect, resizeAspectFill
  case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
}

/// What an action lookup found: an animation to add, or an explicit "no action"
/// (Core Animation's NSNull), which stops the search and suppresses the default.
package enum LayerAction {
  case animation(Animation)
  case none
}

/// Supplies per-layer actions first in the lookup (CALayerDelegate.action(for:forKey:)).
/// Return nil to continue the search with the layer's `actions` dictionary and defaults.
package protocol LayerDelegate: AnyObject {
  func action(for layer: Layer, forKey key: String) -> LayerAction?
}

/// The model values of a layer, kept in one value so a presentation copy is one assignment.
struct LayerState {
  var bounds = LayerRect.zero
  var position = LayerPoint.zero
  var anchorPoint = LayerPoint(x: 0.5, y: 0.5)
  var zPosition = 0.0
  var transform = Transform3D.identity
  var sublayerTransform = Transform3D.identity
  var opacity = 1.0
  var backgroundColor = RGBA.clear
  var contents: PixelBuffer?
  var contentsGravity = ContentsGravity.resize
  var masksToBounds = false
  var cornerRadius = 0.0
  var borderWidth = 0.0
  var borderColor = RGBA.black
  var shadowColor = RGBA.black
  var shadowOpacity = 0.0
  var shadowOffset = LayerSize(width: 0, height: -3)
  var shadowRadius = 3.0
  var isHidden = false
  var isDoubleSided = true
}

/// A rectangle of content in a tree, positioned in its superlayer's coordinates — an offline
/// CALayer. Reference semantics, like CALayer: a layer is one node, shared by its superlayer
/// and whoever holds it. A layer tree is NOT thread-safe and not Sendable: build, mutate and
/// render it on one task (effects build a fresh tree per frame, which keeps them Sendable).
///
/// Geometry: `position` is where the `anchorPoint` (unit coordinates of `bounds`) sits in
/// the superlayer; `transform` applies about the anchor point; the superlayer's
/// `sublayerTransform` applies to all sublayers about the superlayer's anchor point.
///
/// Setting an animatable property while the layer belongs to a `Scene` runs the action
/// lookup of the scene's current transaction (see Scene). Not `final`: `GradientLayer`
/// specialises it, like CAGradientLayer.
package class Layer: CustomStringConvertible {
  var state = LayerState()
  package private(set) var sublayers: [Layer] = []
  package private(set) weak var superlayer: Layer?
  /// Set on a scene's root layer; other layers find their scene through the superlayer chain.
  weak var hostScene: Scene?
  /// Animations by key, in the order they were added (later ones override earlier ones).
  var animations: [(key: String, animation: Animation)] = []
  private var animationSerial = 0
  package var name: String?
  package var actions: [String: LayerAction] = [:]
  package weak var delegate: LayerDelegate?
  /// Presentation-only: the outgoing state of an active transition, drawn below or above.
  var transitionBelow: Layer?
  var transitionAbove: Layer?

  package init() {}

  package convenience init(frame: LayerRect) {
    self.init()
    state.bounds = LayerRect(origin: .zero, size: frame.size)
    state.position = LayerPoint(x: frame.midX, y: frame.midY)
  }

  package var description: String {
    "Layer(\(name ?? "-") bounds: \(bounds), position: \(position), opacity: \(opacity))"
  }

  // MARK: Tree

  package func addSublayer(_ layer: Layer) {
    layer.removeFromSuperlayer()
    sublayers.append(layer)
    layer.superlayer = self
  }

  package func insertSublayer(_ layer: Layer, at index: Int) {
    layer.removeFromSuperlayer()
    sublayers.insert(layer, at: max(0, min(index, sublayers.count)))
    layer.superlayer = self
  }

  package func removeFromSuperlayer() {
    guard let parent = superlayer else { return }
    parent.sublayers.removeAll { $0 === self }
    superlayer = nil
  }

  /// The scene this layer is attached to, if any.
  package var scene: Scene? {
    var node: Layer? = self
    var depth = 0
    while let n = node, depth < 10_000 {
      if let s = n.hostScene { return s }
      node = n.superlayer
      depth += 1
    }
    return nil
  }

  // MARK: Frame

  /// The untransformed rectangle in superlayer coordinates (position − anchor offset).
  package var frame: LayerRect {
    get {
      LayerRect(
        x: position.x - anchorPoint.x * bounds.width, y: position.y - anchorPoint.y * bounds.height,
        width: bounds.width, height: bounds.height)
    }
    set {
      bounds = LayerRect(origin: bounds.origin, size: newValue.size)
      position = LayerPoint(
        x: newValue.minX + anchorPoint.x * newValue.width,
        y: newValue.minY + anchorPoint.y * newValue.height)
    }
  }

  // MARK: Animatable properties

  package var bounds: LayerRect {
    get { state.bounds }
    set { change("bounds") { $0.bounds = newValue } }
  }
  package var position: LayerPoint {
    get { state.position }
    set { change("position") { $0.position = newValue } }
  }
  package var anchorPoint: LayerPoint {
    get { state.anchorPoint }
    set { change("anchorPoint") { $0.anchorPoint = newValue } }
  }
  package var zPosition: Double {
    get { state.zPosition }
    set { change("zPosition") { $0.zPosition = newValue } }
  }
  package var transform: Transform3D {
    get { state.transform }
    set { change("transform") { $0.transform = newValue } }
  }
  package var sublayerTransform: Transform3D {
    get { state.sublayerTransform }
    set { change("sublayerTransform") { $0.sublayerTransform = newValue } }
  }
  package var opacity: Double {
    get { state.opacity }
    set { change("opacity") { $0.opacity = newValue } }
  }
  package var backgroundColor: RGBA {
    get { state.backgroundColor }
    set { change("backgroundColor") { $0.backgroundColor = newValue } }
  }
  /// The image drawn in the bounds. Changing it runs the "contents" action, by default a
  /// fade transition.
  package var contents: PixelBuffer? {
    get { state.contents }
    set { change("contents") { $0.contents = newValue } }
  }
  package var contentsGravity: ContentsGravity {
    get { state.contentsGravity }
    set { state.contentsGravity = newValue }
  }
  package var masksToBounds: Bool {
    get { state.masksToBounds }
    set { state.masksToBounds = newValue }
  }
  package var cornerRadius: Double {
    get { state.cornerRadius }
    set { change("cornerRadius") { $0.cornerRadius = newValue } }
  }
  package var borderWidth: Double {
    get { state.borderWidth }
    set { change("borderWidth") { $0.borderWidth = newValue } }
  }
  package var borderColor: RGBA {
    get { state.borderColor }
    set { change("borderColor") { $0.borderColor = newValue } }
  }
  package var shadowColor: RGBA {
    get { state.shadowColor }
    set { change("shadowColor") { $0.shadowColor = newValue } }
  }
  package var shadowOpacity: Double {
    get { state.shadowOpacity }
    set { change("shadowOpacity") { $0.shadowOpacity = newValue } }
  }
  /// In canvas pixels; like CALayer the default is (0, −3).
  package var shadowOffset: LayerSize {
    get { state.shadowOffset }
    set { change("shadowOffset") { $0.shadowOffset = newValue } }
  }
  /// Blur radius; the Gaussian's standard deviation is half of it.
  package var shadowRadius: Double {
    get { state.shadowRadius }
    set { change("shadowRadius") { $0.shadowRadius = newValue } }
  }
  package var isHidden: Bool {
    get { state.isHidden }
    set { state.isHidden = newValue }
  }
  /// When false the layer is not drawn while its back faces the viewer.
  package var isDoubleSided: Bool {
    get { state.isDoubleSided }
    set { state.isDoubleSided = newValue }
  }

  // MARK: Animations

  /// Adds (a copy of) `animation` under `key`, replacing one with the same key. A zero
  /// `beginTime` means "now" on the scene's clock. A `Transition` captures the layer's
  /// current presentation as the outgoing state.
  package func add(_ animation: Animation, forKey key: String? = nil) {
    let anim = animation.copy()
    let scene = self.scene
    if anim.beginTime == 0, let scene { anim.beginTime = scene.time }
    if let tr = anim as? Transition, tr.snapshot == nil {
      tr.snapshot = presentation(at: scene?.time ?? anim.beginTime)
    }
    animationSerial += 1
    let k = key ?? "animation-\(animationSerial)"
    animations.removeAll { $0.key == k }
    animations.append((k, anim))
    scene?.openTransaction?.record(anim)
  }

  package func animation(forKey key: String) -> Animation? {
    animations.first { $0.key == key }?.animation
  }
  package var animationKeys: [String] { animations.map(\.key) }
  package func removeAnimation(forKey key: String) { animations.removeAll { $0.key == key } }
  package func removeAllAnimations() { animations.removeAll() }

  // MARK: Change tracking

  func change(_ key: String, _ body: (inout LayerState) -> Void) {
    guard let scene = self.scene, let tx = scene.transactionForChange() else {
      body(&state)
      return
    }
    let action = lookUpAction(forKey: key, transaction: tx)
    var oldValue: AnimatableValue?
    var snapshot: Layer?
    if let action {
      if action is Transition {
        snapshot = presentation(at: scene.time)
      } else {
        oldValue = presentation(at: scene.time).value(forKeyPath: key)
      }
    }
    body(&state)
    if let action {
      let anim = action.copy()
      if anim.duration == 0 { anim.duration = tx.duration }
      if anim.timingFunction == nil { anim.timingFunction = tx.timingFunction }
      if let basic = anim as? BasicAnimation, basic.fromValue == nil, basic.toValue == nil,
        basic.byValue == nil
      {
        basic.fromValue = oldValue
      }
      if let tr = anim as? Transition { tr.snapshot = snapshot }
      add(anim, forKey: key)
    }
    scene.finishChange()
  }

  /// Delegate, then `actions`, then the default; `.none` anywhere disables the action.
  private func lookUpAction(forKey key: String, transaction tx: Transaction) -> Animation? {
    if tx.disableActions { return nil }
    if let found = delegate?.action(for: self, forKey: key) {
      if case .animation(let a) = found { return a }
      return nil
    }
    if let found = actions[key] {
      if case .animation(let a) = found { return a }
      return nil
    }
    return Layer.defaultAction(forKey: key)
  }

  /// The default implicit animation: a fade for `contents`, a BasicAnimation from the
  /// presentation value to the new model value for other animatable keys.
  package static func defaultAction(forKey key: String) -> Animation? {
    if key == "contents" { return Transition(type: .fade) }
    return BasicAnimation(keyPath: key)
  }

  // MARK: Presentation

  func makeShell() -> Layer { Layer() }

  /// The layer tree as it appears at `time`: model values with every active animation
  /// applied, recursively. The result is a detached copy (CALayer.presentation()).
  package func presentation(at time: Double) -> Layer {
    presentation(at: time, depth: 0)
  }

  func presentation(at time: Double, depth: Int) -> Layer {
    let copy = makeShell()
    copy.copyModel(from: self)
    copy.name = name
    if depth < 256 {
      for s in sublayers {
        let ps = s.presentation(at: time, depth: depth + 1)
        copy.sublayers.append(ps)
        ps.superlayer = copy
      }
    }
    for (_, anim) in animations { anim.apply(to: copy, at: time) }
    return copy
  }

  func copyModel(from other: Layer) { state = other.state }
}

/// A layer that fills its bounds with an axial gradient (CAGradientLayer, axial type).
/// `startPoint`/`endPoint` are unit coordinates of the bounds; `locations` (0…1, ascending)
/// default to evenly spaced stops. Colours are interpolated in premultiplied space.
package final class GradientLayer: Layer {
  package var colors: [RGBA] = []
  package var locations: [Double]?
  package var startPoint = LayerPoint(x: 0.5, y: 0)
  package var endPoint = LayerPoint(x: 0.5, y: 1)

  package override init() { super.init() }

  override func makeShell() -> Layer { GradientLayer() }
  override func copyModel(from other: Layer) {
    super.copyModel(from: other)
    if let g = other as? GradientLayer {
      colors = g.colors
      locations = g.locations
      startPoint = g.startPoint
      endPoint = g.endPoint
    }
  }

  /// The colour at parameter t along the axis, interpolated between the stops in
  /// premultiplied space: straight-alpha components in 0…1, not rounded to 8 bits (the
  /// compositor's gradient table keeps the in-between values).
  func color(at t: Double) -> (red: Double, green: Double, blue: Double, alpha: Double) {
    func components(_ c: RGBA) -> (red: Double, green: Double, blue: Double, alpha: Double) {
      (c.red, c.green, c.blue, c.alpha)
    }
    guard let first = colors.first else { return (0, 0, 0, 0) }
    if colors.count == 1 { return components(first) }
    let stops: [Double] =
      locations.flatMap { $0.count == colors.count ? $0 : nil }
      ?? (0..<colors.count).map { Double($0) / Double(colors.count - 1) }
    if t <= stops[0] { return components(colors[0]) }
    for i in 1..<colors.count where t <= stops[i] {
      let span = stops[i] - stops[i - 1]
      let f = span > 0 ? (t - stops[i - 1]) / span : 1
      return RGBA.premultipliedMix(colors[i - 1], colors[i], f)
    }
    return components(colors[colors.count - 1])
  }
}
