// swift-tools-version: 6.1
import PackageDescription

// One setting for every target: Swift 6 language mode is the tools-version default.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny")
]

// The feature modules, each a folder under Sources/ with its target below: the executable reaches
// them only through GymModules' registered list.
let featureModules: [Target.Dependency] = ["GymHistory", "GymLibrary", "GymStaples"]

let package = Package(
  name: "gym",
  // Linux only: the code calls Glibc directly and CI builds a static Linux binary. SwiftPM has no
  // way to name Linux in `platforms`, so none is listed rather than a macOS that does not build.
  products: [
    .executable(name: "gym", targets: ["gym"])
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
  ],
  targets: [
    // MARK: The executable: entry point and the command tree, nothing else.
    .executableTarget(
      name: "gym",
      dependencies: ["GymBench", "GymCLI", "GymCore", "GymExport", "GymMigrate", "GymModules", "GymReport"],
      swiftSettings: swiftSettings,
      plugins: ["BuildInfo"]
    ),
    .plugin(name: "BuildInfo", capability: .buildTool()),
    // MARK: Fuzzing: `make fuzz` builds this with -sanitize=fuzzer -DFUZZING; plain, it replays files.
    .executableTarget(
      name: "gym-fuzz", dependencies: ["GymCLI", "GymHistory", "GymLibrary"], path: "Sources/GymFuzz",
      swiftSettings: swiftSettings),

    // MARK: Reference docs: Docs/Reference/ from the binary's help (`make docs`).
    .target(name: "GymDocs", swiftSettings: swiftSettings),
    .executableTarget(
      name: "gym-docs", dependencies: ["GymDocs"], path: "Sources/GymDocsTool", swiftSettings: swiftSettings),
    .plugin(
      name: "GenerateReference",
      capability: .command(
        intent: .custom(verb: "generate-reference", description: "Write Docs/Reference/ from gym's own help."),
        permissions: [.writeToPackageDirectory(reason: "It writes Docs/Reference/.")]),
      dependencies: ["gym-docs"]),
    .testTarget(name: "GymDocsTests", dependencies: ["GymDocs", "gym"], swiftSettings: swiftSettings),

    // The registered feature modules, in one list the executable and the tests share.
    .target(
      name: "GymModules",
      dependencies: ["GymCLI", "GymCore"] + featureModules,
      swiftSettings: swiftSettings
    ),

    // MARK: Feature modules: records, schema, queries and commands of one domain each.
    .target(
      name: "GymHistory",
      dependencies: [
        "GymCLI", "GymCore", .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "ZIPFoundation", package: "ZIPFoundation"), .product(name: "Yams", package: "Yams"),
      ],
      swiftSettings: swiftSettings,
      plugins: ["EmbedMuscles"]
    ),
    .plugin(name: "EmbedMuscles", capability: .buildTool()),
    .testTarget(
      name: "GymHistoryTests",
      dependencies: [
        "GymHistory", "GymCore", "GymCLI", "TestTimeZone", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ],
      swiftSettings: swiftSettings
    ),

    .target(
      name: "GymLibrary",
      dependencies: ["GymCLI", "GymCore", .product(name: "GRDB", package: "GRDB.swift")],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "GymLibraryTests",
      dependencies: ["GymLibrary", "GymCore", "GymCLI"],
      swiftSettings: swiftSettings
    ),

    .target(
      name: "GymStaples",
      dependencies: ["GymCLI", "GymCore", .product(name: "GRDB", package: "GRDB.swift")],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "GymStaplesTests",
      dependencies: ["GymStaples", "GymCore", "GymCLI"],
      swiftSettings: swiftSettings
    ),

    // MARK: Cross-cutting modules: work on every registered module, import none.
    .target(
      name: "GymBench",
      dependencies: ["GymCLI", "GymCore", "GymExport", .product(name: "GRDB", package: "GRDB.swift")],
      swiftSettings: swiftSettings
    ),

    .target(
      name: "GymReport",
      dependencies: ["GymCLI", "GymCore", .product(name: "GRDB", package: "GRDB.swift")],
      swiftSettings: swiftSettings
    ),

    .target(
      name: "GymMigrate",
      dependencies: ["GymCLI", "GymCore", .product(name: "GRDB", package: "GRDB.swift")],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "GymExport",
      dependencies: [
        "GymCLI", "GymCore", "GymReport", .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "_CryptoExtras", package: "swift-crypto"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "GymExportTests",
      dependencies: [
        "GymExport", "GymModules", "GymCore", "GymCLI", "GymBench", "GymReport", "TestTimeZone",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "GymMigrateTests",
      dependencies: [
        "GymMigrate", "GymModules", "GymCore", "GymCLI", .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),

    // MARK: Shared command-line plumbing: options, configuration, output, errors, `--where`.
    .target(
      name: "GymCLI",
      dependencies: [
        "GymCore", "CGymWidth",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Yams", package: "Yams"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "GymCLITests",
      dependencies: ["GymCLI", "GymCore", "TestTimeZone"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "GymReportTests",
      dependencies: ["GymReport", "GymCLI", "GymCore"],
      swiftSettings: swiftSettings
    ),

    // MARK: The store: opening, schema registry, migrations, queries, projections, cursors.
    .target(
      name: "GymCore",
      dependencies: [
        "CGymZlib", "CGymSQLite",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),
    // The system zlib (zlib1g-dev), for gzip.
    .systemLibrary(name: "CGymZlib", path: "Sources/CGymZlib", providers: [.apt(["zlib1g-dev"])]),
    // SQLite's process-wide settings, made before its first use (the library GRDB links).
    .systemLibrary(name: "CGymSQLite", path: "Sources/CGymSQLite"),
    // The C library's wcwidth, for the terminal width of text.
    .systemLibrary(name: "CGymWidth", path: "Sources/CGymWidth"),
    // The unit tests' zone check: TZ=UTC is given to the test process, never set by a test.
    .target(name: "TestTimeZone", path: "Tests/TestTimeZone", swiftSettings: swiftSettings),
    .testTarget(
      name: "GymCoreTests",
      dependencies: ["GymCore"],
      swiftSettings: swiftSettings
    ),

    // MARK: End-to-end: runs the built `gym` binary as a subprocess.
    .testTarget(
      name: "GymEndToEndTests",
      dependencies: [
        "gym", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Yams", package: "Yams"),
        .product(name: "ZIPFoundation", package: "ZIPFoundation"), .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),
  ]
)
