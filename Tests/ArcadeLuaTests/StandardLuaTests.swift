import Foundation
import Testing
@testable import ArcadeLua

/// Inside the sandbox, what the sandbox re-implements behaves as Lua 5.4 does, so ordinary
/// libraries (serializers, tween libraries, test helpers) load and run unchanged.
@Suite struct StandardLuaTests {
    @Test func loadAcceptsTextInEveryModeThatAllowsText() throws {
        let t = try TestVM()
        #expect(try t.run(#"return load("return 1", "x", "bt")()"#) == .int(1))
        #expect(try t.run(#"return load("return 2", "x", "tb")()"#) == .int(2))
        #expect(try t.run(#"return load("return 3", "x", "t")()"#) == .int(3))
        #expect(try t.run(#"return load("return 4", "x", nil, {})()"#) == .int(4))
        // a binary chunk under "bt" is still refused, by Lua itself
        let err = try t.run(#"local f, e = load("\27Lua\84\0\25\147\r\n\26\n", "x", "bt"); return e"#)
        #expect(err == .string("attempt to load a binary chunk (mode is 't')"))
        let refused = try t.run(#"local f, e = load("return 1", "x", "b"); return e"#)
        #expect(refused == .string("load: only text chunks are allowed in games (mode 'b' refused)"))
    }

    @Test func randomseedWithNoArgumentIsSeededFromTheRunAndReturnsItsComponents() throws {
        func run(seed: UInt64) throws -> LuaValue {
            let t = try TestVM()
            t.vm.random = .init(seed: seed)
            return try t.run("""
                local a, b = math.randomseed()
                return { math.type(a), math.type(b), math.random(1, 1000000), math.random(1, 1000000) }
                """)
        }
        let one = try run(seed: 7), again = try run(seed: 7), other = try run(seed: 8)
        #expect(one == again)
        #expect(one != other)
        guard case .array(let parts) = one else { Issue.record("not an array: \(one)"); return }
        #expect(parts[0] == .string("integer") && parts[1] == .string("integer"))
    }

    @Test func randomseedFollowsLua54ArgumentRules() throws {
        let t = try TestVM()
        #expect(try t.run("local a, b = math.randomseed(42); return { a, b }") == .array([.int(42), .int(0)]))
        #expect(try t.run("local a, b = math.randomseed(3, 4); return { a, b }") == .array([.int(3), .int(4)]))
        #expect(try t.run("local a = math.randomseed('12'); return a") == .int(12))
        // randomseed(n) keeps the stream it always gave: equal to randomseed(n, 0), not to (n, 1)
        let same = try t.run("""
            math.randomseed(5); local a = math.random(1, 1e9)
            math.randomseed(5, 0); local b = math.random(1, 1e9)
            math.randomseed(5, 1); local c = math.random(1, 1e9)
            return { a == b, a == c }
            """)
        #expect(same == .array([.bool(true), .bool(false)]))
        #expect(t.error("math.randomseed(1.5)")?.message
                == "test/main.lua:1: bad argument #1 to 'math.randomseed' (number has no integer representation)")
        #expect(t.error("math.randomseed({})")?.message
                == "test/main.lua:1: bad argument #1 to 'math.randomseed' (number expected, got table)")
    }

    @Test func randomConvertsNumericStringsAndNamesItselfInErrors() throws {
        let t = try TestVM()
        #expect(try t.run("local r = math.random('6'); return r >= 1 and r <= 6") == .bool(true))
        #expect(try t.run("local r = math.random('2', '3.0'); return r == 2 or r == 3") == .bool(true))
        #expect(t.error("math.random('six')")?.message
                == "test/main.lua:1: bad argument #1 to 'math.random' (number expected, got string)")
        #expect(t.error("math.random(1, 2.5)")?.message
                == "test/main.lua:1: bad argument #2 to 'math.random' (number has no integer representation)")
        #expect(t.error("math.random(1, 2, 3)")?.message == "test/main.lua:1: wrong number of arguments to 'math.random'")
    }

    @Test func removedGlobalsReadAsNilAndHintWhenUsed() throws {
        let t = try TestVM()
        // the feature test widely used libraries make
        #expect(try t.run("local gm = debug and debug.getmetatable or getmetatable; return gm == getmetatable") == .bool(true))
        #expect(try t.run("return { io == nil, debug == nil, package == nil, dofile == nil, loadfile == nil, string.dump == nil, os.execute == nil, os.getenv == nil }")
                == .array(Array(repeating: .bool(true), count: 8)))
        #expect(t.error("io.write('x')")?.message
                == "test/main.lua:1: attempt to index a nil value (global 'io'); games have no file access (use arcade.save)")
        #expect(t.error("local x = os.getenv('HOME')")?.message
                == "test/main.lua:1: attempt to call a nil value (field 'getenv'); if this is os.getenv: only os.clock is available to games (game time; see also arcade.time)")
        // an error about the game's own names gets no hint
        #expect(t.error("local t = {} t.fly()")?.message == "test/main.lua:1: attempt to call a nil value (field 'fly')")
    }
}

/// `require` inside the sandbox: 5.4's `?/init.lua`, file-like module names, the loader
/// data as a second result, and files confined to the module roots.
@Suite struct SandboxRequireTests {
    final class Folder {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("arcade-require-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path + "/game", withIntermediateDirectories: true)
        }
        func write(_ rel: String, _ text: String) throws {
            let full = path + "/" + rel
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    func vm(_ folder: Folder) throws -> TestVM {
        let t = try TestVM()
        t.vm.moduleRoots = [LuaModuleRoot(path: folder.path + "/game", chunkPrefix: "test")]
        return t
    }

    @Test func initFilesDashesAndDigitsAndTheLoaderData() throws {
        let f = try Folder()
        try f.write("game/ui/init.lua", "return { name = ..., where = select(2, ...) }")
        try f.write("game/tween-lite.lua", "return 'tween'")
        try f.write("game/3d.lua", "return 'three'")
        let t = try vm(f)
        let r = try t.run("""
            local ui, data = require('ui')
            local again, none = require('ui')
            return { ui.name, ui.where, data, again == ui, none == nil, require('tween-lite'), (require('3d')) }
            """)
        #expect(r == .array([.string("ui"), .string("test/ui/init.lua"), .string("test/ui/init.lua"), .bool(true),
                             .bool(true), .string("tween"), .string("three")]))
        #expect(t.error("require('../x')")?.message.contains("is not allowed") == true)
        #expect(t.error("require('a/b')")?.message.contains("is not allowed") == true)
    }

    @Test func aSymlinkOutOfTheFolderIsRefusedWithoutShowingWhatItPointsAt() throws {
        let f = try Folder()
        try f.write("secret.lua", "return 'SECRET CONTENTS'")
        try FileManager.default.createSymbolicLink(atPath: f.path + "/game/s.lua", withDestinationPath: f.path + "/secret.lua")
        try FileManager.default.createSymbolicLink(atPath: f.path + "/game/up", withDestinationPath: f.path)
        try f.write("game/inside.lua", "return 'fine'")
        try FileManager.default.createSymbolicLink(atPath: f.path + "/game/alias.lua", withDestinationPath: "inside.lua")
        let t = try vm(f)
        let e = try #require(t.error("return require('s')"))
        #expect(e.message.contains("outside the game's folder"))
        #expect(!e.message.contains("SECRET"))
        #expect(t.error("return require('up.secret')")?.message.contains("outside the game's folder") == true)
        // a link that stays inside is an ordinary file
        #expect(try t.run("return require('alias')") == .string("fine"))
    }

    @Test func aFifoIsNeverWaitedOn() throws {
        let f = try Folder()
        #expect(mkfifo(f.path + "/game/pipe.lua", 0o644) == 0)
        let t = try vm(f)
        let e = try #require(t.error("return require('pipe')"))
        #expect(e.message.contains("not a regular file"))
        #expect(FileBytes.read(f.path + "/game/pipe.lua") == nil)
    }
}

/// Every error message says where it happened and what was wrong, whatever the error value.
@Suite struct ErrorMessageTests {
    @Test func aNumberErrorObjectKeepsItsPlace() throws {
        let t = try TestVM()
        #expect(t.error("\n\nerror(12.5)")?.message == "test/main.lua:3: error object is a number value: 12.5")
    }

    @Test func aTostringThatRaisesIsReportedNotRecursedInto() throws {
        let t = try TestVM()
        let e = try #require(t.error("""
            local bad = setmetatable({}, { __tostring = function() error("no string for you") end })
            error(bad)
            """))
        #expect(e.message == "test/main.lua:2: (a table whose __tostring failed: test/main.lua:1: no string for you)")
        #expect(!e.traceback.contains("C stack overflow"))
        #expect(e.traceback.split(separator: "\n").count < 30)
        let loops = try #require(t.error("""
            local bad = setmetatable({}, { __tostring = function(self) return tostring(self) end })
            error(bad)
            """))
        #expect(loops.message.hasPrefix("test/main.lua:2: (a table whose __tostring failed: "))
    }

    @Test func infinityIsNamedAsSuch() throws {
        let t = try TestVM()
        #expect(t.vm.stack.top == 1)
        let s = t.vm.stack
        func problem() -> String? {
            do throws(LuaValueProblem) { _ = try s.readNumber(at: -1) } catch { return error.text }
            return nil
        }
        s.push(Double.infinity)
        #expect(problem() == "finite number expected, got inf")
        s.push("x")
        #expect(problem() == "number expected, got string")
        s.pop(2)
    }
}
