// swift-tools-version:6.0
// A consumer of the Quire library: depends on the root package by path and uses only
// `import Quire` (no @testable, no stage module). CI builds and runs it.
import PackageDescription

let package = Package(
  name: "QuireExamples",
  platforms: [.macOS(.v14)],
  dependencies: [.package(name: "Quire", path: "..")],
  targets: [
    .executableTarget(
      name: "flip-sample", dependencies: [.product(name: "Quire", package: "Quire")])
  ]
)
