extension TestFile {
    /// The Lua half of the test API: `test`, `expect` and its matchers, and the game
    /// handle's `step_until`. Runs once per test file, in the test's own sandboxed VM, with
    /// the native helpers and the `arcade.test.Game` methods table as its arguments.
    ///
    /// A failed expectation calls `natives.fail`, which raises the message as it is: the
    /// message already says where (the test file's line, from `natives.where`) and at which
    /// frame of the game (`natives.frame_note`).
    /// Its source is `Testing/test-prelude.lua`, compiled into the module as bytes (the `embedInCode`
    /// resource in Package.swift): a Lua file that Lua tools read, no file to find at run time.
    static let prelude = String(decoding: PackageResources.test_prelude_lua, as: UTF8.self)
}
