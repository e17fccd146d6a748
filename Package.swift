// swift-tools-version:6.0
// Quire: books → page images → page-turn animations. One target per pipeline stage;
// dependencies point one way: Ingest → Typeset → Raster → Cache → Motion → Quire → quire.
import PackageDescription

let package = Package(
  name: "Quire",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "Quire", targets: ["Quire"]),
    .executable(name: "quire", targets: ["quire"]),
  ],
  targets: [
    // C libraries from Debian's -dev packages: module map + shim.h, no Swift.
    .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(
      name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
    .systemLibrary(
      name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
    .systemLibrary(
      name: "CUnibreak", pkgConfig: "libunibreak", providers: [.apt(["libunibreak-dev"])]),
    .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
    .systemLibrary(name: "CHyphen", providers: [.apt(["libhyphen-dev"])]),
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    .systemLibrary(
      name: "CJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
    .systemLibrary(
      name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
    .systemLibrary(name: "CIsal", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
    .systemLibrary(name: "CWebP", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"])]),
    .systemLibrary(
      name: "CUchardet", pkgConfig: "uchardet", providers: [.apt(["libuchardet-dev"])]),
    .systemLibrary(name: "CGIF", pkgConfig: "libgif", providers: [.apt(["libgif-dev"])]),
    // ICU's break iterator behind a C function of plain types (see its header for why).
    .target(name: "CICU", linkerSettings: [.linkedLibrary("icuuc")]),
    // librsvg, libavif and libjxl opened with dlopen on first use (see its header for why);
    // their -dev packages give the AVIF/JPEG XL struct layouts, nothing is linked but
    // fontconfig (already in every process through the typesetter).
    .target(name: "CDecoders", linkerSettings: [.linkedLibrary("fontconfig")]),
    .systemLibrary(
      name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),

    // The shared core: colour, diagnostics, pixels (owned buffers, borrowed views), atomic
    // files, PNG chunks and encoding, one lock type; knows no stage.
    .target(name: "QuireCore", dependencies: ["CDeflate", "CIsal"]),

    // The pipeline.
    .target(
      name: "QuireIngest",
      dependencies: ["QuireCore", "CLibXML2", "CZlib", "CDeflate", "CUchardet"]),
    .target(
      name: "QuireTypeset",
      dependencies: [
        "QuireCore", "QuireIngest", "CFreeType", "CHarfBuzz", "CUnibreak", "CFriBidi", "CHyphen",
        "CICU", "CFontconfig", "CDeflate",
      ]),
    .target(
      name: "QuireRaster",
      dependencies: [
        "QuireCore", "QuireTypeset", "CFreeType", "CPNG", "CJPEG", "CGIF", "CWebP", "CDecoders",
      ]),
    // Cache and Motion need pixels, not fonts: they stand on the core alone.
    .target(name: "QuireCache", dependencies: ["QuireCore"]),
    .target(name: "QuireMotion", dependencies: ["QuireCore", "CWebP", "CFreeType"]),
    .target(
      name: "Quire",
      dependencies: [
        "QuireCore", "QuireIngest", "QuireTypeset", "QuireRaster", "QuireCache", "QuireMotion",
        "CWebP",
        "CDeflate",
      ]),
    // Release builds link the Swift runtime and Foundation statically: every run of the CLI
    // then skips ~38 M cycles of dynamic relocations (cached `paginate` 25.5 → 15.9 ms a
    // process, Benchmarks/paginate-cost.md); debug builds (the tests) stay dynamic.
    .executableTarget(
      name: "quire", dependencies: ["Quire"],
      linkerSettings: [
        .unsafeFlags(
          [
            "-static-stdlib", "-Xlinker", "--start-group", "-lFoundation",
            "-lFoundationInternationalization", "-lFoundationEssentials", "-lCoreFoundation",
            "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
            "-lswiftSynchronization", "-Xlinker", "--end-group",
          ], .when(configuration: .release))
      ]),

    // Test-only support shared by the test targets (where the corpus is).
    .target(name: "QuireTestSupport", path: "Tests/QuireTestSupport"),
    .testTarget(name: "QuireCoreTests", dependencies: ["QuireCore", "QuireTestSupport"]),
    .testTarget(
      name: "QuireIngestTests", dependencies: ["QuireTestSupport", "QuireCore", "QuireIngest"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "QuireTypesetTests", dependencies: ["QuireTestSupport", "QuireCore", "QuireTypeset"],
      resources: [.copy("Goldens")]),
    .testTarget(
      name: "QuireRasterTests",
      dependencies: ["QuireTestSupport", "QuireCore", "QuireRaster", "CZlib"],
      resources: [.copy("Goldens")]),
    .testTarget(name: "QuireCacheTests", dependencies: ["QuireCore", "QuireCache"]),
    // QuireRaster only as a reference PNG decoder (libpng) for the goldens and encoders.
    .testTarget(
      name: "QuireMotionTests",
      dependencies: ["QuireCore", "QuireMotion", "QuireRaster", "QuireTestSupport"],
      resources: [.copy("Goldens")]),
    .testTarget(
      name: "QuireTests",
      dependencies: [
        "Quire", "QuireTestSupport", "QuireCore", "QuireIngest", "QuireTypeset", "QuireRaster",
        "QuireMotion",
      ],
      exclude: ["Fixtures"],
      resources: [.copy("Goldens")]),
    // The library as a consumer sees it: `import Quire`, no @testable.
    .testTarget(name: "QuireAPITests", dependencies: ["Quire"]),
  ]
)
