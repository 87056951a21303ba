import ArcadeCore
import Testing
@testable import ArcadeLua

/// The argument layer every binding reads through: one wording, `self` left out of a
/// method's count, options tables that refuse names they do not take.
@Suite struct ArgumentTests {
    static let thingClass = LuaClass("test.Thing", gone: "this thing was thrown away")

    /// A VM with `make(options)`, `thing(id)` handles with `thing:move(x, y)` and
    /// `thing:set{ speed, spring = { damping } }`, and `throw_away(id)`.
    func setUp() throws -> TestVM {
        let t = try TestVM()
        let vm = t.vm
        final class Things { var alive: Set<UInt64> = [1, 2] }
        let things = Things()
        let handles = LuaHandles(Self.thingClass) { things.alive.contains($0) ? $0 : nil }
        vm.defineClass(handles, methods: [
            ("move", { s in
                let id = try handles.check(s, 1)
                s.push(Double(id) + (try s.checkNumber(2)) + (try s.optNumber(3, 0)))
                return 1
            }),
            ("set", { s in
                _ = try handles.check(s, 1)
                let o = try s.checkOptions(2, known: ["speed", "spring"])
                let speed = try o.number("speed", "positive number", where: { $0 > 0 }) ?? 1
                let damping = try o.options("spring", known: ["damping"]) { try $0.number("damping") } ?? nil
                s.push(speed + (damping ?? 0))
                return 1
            }),
        ])
        vm.register(in: "test", [
            ("thing", { s in
                vm.pushHandle(s, UInt64(try s.checkInteger(1)), of: Self.thingClass)
                return 1
            }),
            ("throw_away", { s in
                things.alive.remove(UInt64(try s.checkInteger(1)))
                return 0
            }),
            ("make", { s in
                let o = try s.optOptions(1, known: ["width", "color", "on_done"])
                _ = try o.number("width")
                _ = try o.color("color")
                s.push(try o.required("width", s.readNumber(at:)))
                return 1
            }),
        ])
        return t
    }

    @Test func methodsDoNotCountSelf() throws {
        let t = try setUp()
        #expect(try t.run("return test.thing(1):move(2, 3)") == .number(6))
        #expect(t.error("test.thing(1):move('far')")?.message
                == "test/main.lua:1: bad argument #1 to 'Thing.move' (number expected, got string)")
        #expect(t.error("test.thing(1):move(1, 0/0)")?.message
                == "test/main.lua:1: bad argument #2 to 'Thing.move' (finite number expected, got nan)")
        // called as a plain function, every argument counts, as in Lua
        #expect(t.error("local th = test.thing(1); th.move(th, 'far')")?.message
                == "test/main.lua:1: bad argument #2 to 'Thing.move' (number expected, got string)")
        #expect(t.error("local th = test.thing(1); local o = { move = th.move }; o:move(1)")?.message
                == "test/main.lua:1: calling 'Thing.move' on bad self (Thing expected, got table)")
    }

    @Test func goneObjectsSayTheirClassMessage() throws {
        let t = try setUp()
        #expect(t.error("local th = test.thing(2); test.throw_away(2); th:move(1)")?.message
                == "test/main.lua:1: this thing was thrown away")
    }

    @Test func optionsRefuseUnknownNames() throws {
        let t = try setUp()
        #expect(try t.run("return test.make{ width = 3 }") == .number(3))
        #expect(t.error("test.make{ widht = 3 }")?.message
                == "test/main.lua:1: bad argument #1 to 'test.make' (unknown option 'widht' (did you mean 'width'?))")
        #expect(t.error("test.make{ width = 3, shape = 'round' }")?.message
                == "test/main.lua:1: bad argument #1 to 'test.make' (unknown option 'shape' (it takes color, on_done, width))")
        #expect(t.error("test.make{ width = 3, [1] = 'x' }")?.message
                == "test/main.lua:1: bad argument #1 to 'test.make' (unknown option '[1]' (it takes color, on_done, width))")
        // the first unknown name in byte order, whatever the table's order
        #expect(t.error("test.make{ zz = 1, width = 3, aa = 2 }")?.message.contains("unknown option 'aa'") == true)
        #expect(t.error("test.thing(1):set{ speed = 1, spring = { dampnig = 1 } }")?.message
                == "test/main.lua:1: bad argument #1 to 'Thing.set' (unknown option 'spring.dampnig' (did you mean 'damping'?))")
    }

    @Test func fieldsAreNamedInTheirArgumentsError() throws {
        let t = try setUp()
        #expect(t.error("test.make{ width = 'wide' }")?.message
                == "test/main.lua:1: bad argument #1 to 'test.make' (field 'width': number expected, got string)")
        #expect(t.error("test.make{}")?.message
                == "test/main.lua:1: bad argument #1 to 'test.make' (field 'width': number expected, got nil)")
        #expect(t.error("test.make{ width = 1, color = {} }")?.message
                == "test/main.lua:1: bad argument #1 to 'test.make' (field 'color': colour like \"#ff8800\" expected, got table)")
        #expect(t.error("test.make(5)")?.message
                == "test/main.lua:1: bad argument #1 to 'test.make' (table expected, got number)")
        #expect(t.error("test.thing(1):set{ speed = -1 }")?.message
                == "test/main.lua:1: bad argument #1 to 'Thing.set' (field 'speed': positive number expected, got -1)")
        #expect(t.error("test.thing(1):set{ spring = 3 }")?.message
                == "test/main.lua:1: bad argument #1 to 'Thing.set' (field 'spring': table expected, got number)")
        #expect(t.error("test.thing(1):set{ spring = { damping = 'lots' } }")?.message
                == "test/main.lua:1: bad argument #1 to 'Thing.set' (field 'spring.damping': number expected, got string)")
        #expect(try t.run("return test.thing(1):set{ speed = 2, spring = { damping = 0.5 } }") == .number(2.5))
    }

    @Test func nearMisses() {
        #expect(LuaOptions.editDistance("duraton", "duration") == 1)
        #expect(LuaOptions.editDistance("widht", "width") == 1)
        #expect(LuaOptions.editDistance("", "abc") == 3)
        #expect(LuaOptions.hint(for: "gravty", ["gravity", "bounds"]) == " (did you mean 'gravity'?)")
        #expect(LuaOptions.hint(for: "size", ["gravity", "bounds"]) == " (it takes bounds, gravity)")
    }

    @Test func optionNamesMatchBytes() {
        let names: LuaOptionNames = ["x", "y", "width", "wide"]
        func has(_ s: String) -> Bool { Array(s.utf8).withUnsafeBytes { names.contains($0) } }
        #expect(has("x") && has("width") && has("wide"))
        #expect(!has("w") && !has("widths") && !has("") && !has("a very long name indeed"))
        #expect(has("y") && !has("z") && !has("widt") && !has("wida") && !has("wid\u{0}"))
        // many names of a few lengths: each found, none of their neighbours
        let many = LuaOptionNames((0..<40).map { "n\($0)" } + ["", "name"])
        func inMany(_ s: String) -> Bool { Array(s.utf8).withUnsafeBytes { many.contains($0) } }
        #expect((0..<40).allSatisfy { inMany("n\($0)") } && inMany("") && inMany("name"))
        #expect(!inMany("n40") && !inMany("n") && !inMany("nam") && !inMany("names") && !inMany("m1"))
        #expect(names.union(["z"]).names == ["wide", "width", "x", "y", "z"])
        #expect(names.subtracting(["x", "q"]).names == ["wide", "width", "y"])
    }
}
