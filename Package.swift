// swift-tools-version:6.0
import PackageDescription

/// The layers mirror the architecture (see docs/architecture.md):
/// LiftBuddyCore knows no I/O; everything that touches a file, a socket, a
/// device or a clock lives in LiftBuddyDaemon and the executables around it.
let package = Package(
  name: "LiftBuddy",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "liftbuddy", targets: ["liftbuddy"]),
    .executable(name: "liftbuddyd", targets: ["liftbuddyd"]),
    .executable(name: "liftbuddy-fuzz", targets: ["LiftBuddyFuzz"]),
    .library(name: "LiftBuddyCore", targets: ["LiftBuddyCore"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
    .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
  ],
  targets: [
    // The analysis core: pure, online, deterministic. No I/O, no clocks.
    .target(
      name: "LiftBuddyCore",
      dependencies: [.product(name: "DequeModule", package: "swift-collections")],
      exclude: ["README.md"]
    ),
    // Deterministic stream simulator with ground truth, and the scorer that
    // compares reports against truth.
    .target(name: "LiftBuddySimulator", dependencies: ["LiftBuddyCore"]),

    // System libraries, through pkg-config.
    .systemLibrary(
      name: "CBluetooth", pkgConfig: "bluez",
      providers: [.apt(["libbluetooth-dev"])]),
    .systemLibrary(
      name: "CUdev", pkgConfig: "libudev",
      providers: [.apt(["libudev-dev"])]),
    .systemLibrary(
      name: "CSystemd", pkgConfig: "libsystemd",
      providers: [.apt(["libsystemd-dev"])]),
    .systemLibrary(
      name: "CMosquitto", pkgConfig: "libmosquitto",
      providers: [.apt(["libmosquitto-dev"])]),

    // BLE: ATT/GATT client and HCI LE scanning over libbluetooth.
    .target(name: "BlueZ", dependencies: ["CBluetooth"]),

    // Sources, sinks, socket server, config, systemd glue.
    .target(
      name: "LiftBuddyDaemon",
      dependencies: [
        "LiftBuddyCore", "BlueZ", "CUdev", "CSystemd", "CMosquitto",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "SystemPackage", package: "swift-system"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
      ],
      // The web view's page (docs/web.md), read once at start.
      resources: [.copy("Web/Static")]
    ),
    // Command-line pieces both programs share.
    .target(
      name: "LiftBuddyCLI",
      dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    .executableTarget(
      name: "liftbuddyd",
      dependencies: [
        "LiftBuddyDaemon", "LiftBuddyCLI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "liftbuddy",
      dependencies: [
        "LiftBuddyCore", "LiftBuddySimulator", "LiftBuddyDaemon", "LiftBuddyCLI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
      ]
    ),
    // libFuzzer driver over the framer, line parser and stream reader; a plain
    // build replays corpus files instead (see scripts/fuzz.sh).
    .executableTarget(name: "LiftBuddyFuzz", dependencies: ["LiftBuddyCore", "LiftBuddyDaemon"]),

    .testTarget(name: "LiftBuddyCoreTests", dependencies: ["LiftBuddyCore"]),
    .testTarget(
      name: "LiftBuddySimulatorTests",
      dependencies: ["LiftBuddySimulator", "LiftBuddyCore"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(name: "LiftBuddyDaemonTests", dependencies: ["LiftBuddyDaemon", "LiftBuddyCore"]),
    .testTarget(name: "BlueZTests", dependencies: ["BlueZ"]),
  ],
  swiftLanguageModes: [.v6]
)
