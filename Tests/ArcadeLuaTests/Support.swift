@testable import ArcadeLua

/// A sandboxed VM for tests, with `print` collected.
final class TestVM {
    let vm: LuaVM
    var printed: [String] = []

    init(limits: LuaVM.Limits = .init()) throws {
        vm = try LuaVM(name: "test", limits: limits)
        try vm.installSandbox()
        vm.log = { [unowned self] in self.printed.append($0) }
    }

    /// Runs `source` as a chunk named `test/main.lua` and returns its first result.
    @discardableResult
    func run(_ source: String, label: String = "load()") throws(LuaError) -> LuaValue {
        let fn = try vm.load(source, chunkName: "test/main.lua")
        return try vm.call(fn, label: label)
    }

    /// The error `source` raises (fails the test when it raises none).
    func error(_ source: String, label: String = "load()") -> LuaError? {
        do {
            try run(source, label: label)
            return nil
        } catch {
            return error
        }
    }
}
