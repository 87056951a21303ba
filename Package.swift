// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "arcade",
    products: [
        .executable(name: "arcade", targets: ["arcade"]),
        .executable(name: "arcade-bench", targets: ["arcade-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Debian's Lua 5.4 plus a header-only shim: macro wrappers, the allocator,
        // the time budget's hook and the error trampoline.
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        // The arcade's fork of the Lua library functions that can run long in one call
        // (patterns, rep, format's %q, the table functions, utf8.len/offset, load), which
        // look at the time budget as they work. C files, so a target of its own: a system
        // library target cannot hold them.
        .target(name: "CLuaLib", dependencies: ["CLua"]),
        // SQLite for saves and scores: the few calls needed, without a database framework.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Header-only C for the canvas: its kernel for unturned sprites of opaque and clear
        // pixels (an SSE2 and an SSSE3 build), clearing, composing cells, and number
        // conversions without Swift's range checks.
        .systemLibrary(name: "CRaster"),
        // zlib, for the compression inside PNG files (the chunks are written in Swift).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // giflib, for animated GIFs (it has no pkg-config file: the module map links it).
        .systemLibrary(name: "CGif", providers: [.apt(["libgif-dev"])]),
        // Pure Swift, no I/O, no Lua: geometry, random, clock, timers, animation, physics.
        .target(name: "ArcadeCore", linkerSettings: [.linkedLibrary("m")]),
        // Scene graph, canvas, sprites, fonts, compositor, frame encoder.
        .target(name: "ArcadeRender", dependencies: ["ArcadeCore", "CRaster"]),
        // Pictures of frames: cells to pixels (Unifont glyphs read at run time), PNG and GIF.
        .target(name: "ArcadePicture", dependencies: ["ArcadeCore", "ArcadeRender", "CZlib", "CGif"]),
        // The tty: raw mode, alternate screen, input decoding, restore on exit.
        .target(name: "ArcadeTerminal", dependencies: ["ArcadeCore"]),
        // The VM: state, sandbox, limits, bridging, one binding file per module.
        .target(
            name: "ArcadeLua",
            dependencies: ["CLua", "CLuaLib", "ArcadeCore", "ArcadeRender"],
            // The Lua halves of the sandbox and of the iteration probe, compiled in as bytes.
            resources: [.embedInCode("Sandbox/sandbox.lua"), .embedInCode("Sandbox/iteration-probe.lua")]
        ),
        // Catalog, game session, frame loop, hot reload, menu, saves, record/replay.
        .target(
            name: "ArcadeHost",
            dependencies: ["ArcadeCore", "ArcadeRender", "ArcadeTerminal", "ArcadeLua", "ArcadePicture", "CSQLite"],
            // The Lua half of the test API (`test`, `expect`), compiled in as bytes.
            resources: [.embedInCode("Testing/test-prelude.lua")]
        ),
        .executableTarget(
            name: "arcade",
            dependencies: [
                "ArcadeHost", "ArcadeLua", "ArcadeRender", "ArcadeCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "arcade-bench",
            // ArcadeTestSupport: the slow-link harness the host tests use, for the link.* rows
            dependencies: ["ArcadeCore", "ArcadeRender", "ArcadeLua", "ArcadeHost", "ArcadePicture", "CLua", "CLuaLib", "ArcadeTestSupport"],
            path: "Benchmarks/arcade-bench"
        ),
        // Authoring tools: `swift package new-game <id>`, `swift package check-games`,
        // `swift package test-games` and `swift package pack-game <id>`.
        .plugin(
            name: "NewGame",
            capability: .command(
                intent: .custom(verb: "new-game", description: "Scaffold a new game in games/<id>"),
                permissions: [.writeToPackageDirectory(reason: "writes the new game's folder under games/")]
            ),
            dependencies: ["arcade"]
        ),
        .plugin(
            name: "PackGame",
            capability: .command(
                intent: .custom(verb: "pack-game", description: "Check a game and pack it into one file to share, <id>.arcade"),
                permissions: [.writeToPackageDirectory(reason: "writes the game's cart, <id>.arcade, in the package's folder")]
            ),
            dependencies: ["arcade"]
        ),
        .plugin(
            name: "CheckGames",
            capability: .command(
                intent: .custom(verb: "check-games", description: "Validate, compile and smoke-run every game")
            ),
            dependencies: ["arcade"]
        ),
        // What several test targets share: a model of the terminal screen to replay bytes into.
        .target(name: "ArcadeTestSupport", dependencies: ["ArcadeRender", "ArcadeCore", "ArcadePicture", "CGif", "CZlib"],
                path: "Tests/ArcadeTestSupport"),
        .plugin(
            name: "TestGames",
            capability: .command(
                intent: .custom(verb: "test-games", description: "Run every game's Lua tests (games/<id>/tests/*.lua)")
            ),
            dependencies: ["arcade"]
        ),
        .testTarget(name: "ArcadeCoreTests", dependencies: ["ArcadeCore"]),
        .testTarget(name: "ArcadeRenderTests", dependencies: ["ArcadeRender", "ArcadeCore", "ArcadeTestSupport"]),
        .testTarget(name: "ArcadePictureTests", dependencies: ["ArcadePicture", "ArcadeRender", "ArcadeCore", "ArcadeTestSupport"]),
        .testTarget(name: "ArcadeTerminalTests", dependencies: ["ArcadeTerminal", "ArcadeCore"]),
        .testTarget(name: "ArcadeLuaTests", dependencies: ["ArcadeLua", "ArcadeCore", "CLua", "CLuaLib"]),
        .testTarget(
            name: "ArcadeHostTests",
            dependencies: ["ArcadeHost", "ArcadeLua", "ArcadeCore", "ArcadeRender", "ArcadeTerminal", "ArcadePicture", "ArcadeTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "GameTests",
            dependencies: ["ArcadeHost", "ArcadeLua", "ArcadeCore", "ArcadeRender"],
            exclude: ["Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
