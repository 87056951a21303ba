import Testing
@testable import ArcadeLua

@Suite struct BridgingTests {
    @Test func valuesRoundTrip() throws {
        let t = try TestVM()
        let value: LuaValue = .table([
            "n": .int(3), "f": .number(2.5), "s": .string("héllo"), "b": .bool(true),
            "list": .array([.int(1), .string("two"), .array([.bool(false)])]),
            "map": .table(["x": .number(-1.25)]),
        ])
        t.vm.setGlobal("incoming", value)
        #expect(try t.run("return incoming") == value)
        #expect(try t.run("return incoming.list[2] .. incoming.map.x") == .string("two-1.25"))
        #expect(try t.run("return nil") == .nil)
        #expect(try t.run("return { [1] = 'a', [3] = 'c' }") == .table(["1": .string("a"), "3": .string("c")]))
        #expect(try t.run("return {}") == .table([:]))
    }

    @Test func cyclesAreReportedNotLooped() throws {
        let t = try TestVM()
        let e = t.error("local a = {} a.self = a return a")
        #expect(e?.message.contains("cycle") == true)
    }

    @Test func jsonIsCanonical() {
        let v: LuaValue = .table(["b": .array([.int(1), .number(0.5)]), "a": .string("q\"\n"), "c": .number(.nan)])
        #expect(v.json() == #"{"a":"q\"\n","b":[1,0.5],"c":null}"#)
    }
}

/// Handles to native objects are weak: when the object is gone, the handle is inert and
/// using it raises a clear error.
@Suite struct HandleTests {
    final class Widgets {
        var alive: [UInt64: String] = [:]
    }

    static let widgetClass = LuaClass("test.Widget")

    func setUp() throws -> (TestVM, Widgets) {
        let t = try TestVM()
        let widgets = Widgets()
        let vm = t.vm
        vm.defineClass(Self.widgetClass, methods: [
            ("name", { s in
                let id = try s.checkHandle(1, of: Self.widgetClass)
                guard let name = widgets.alive[id] else { throw LuaScriptError("this Widget no longer exists") }
                s.push(name)
                return 1
            }),
        ], get: { s, id, key in
            guard let name = widgets.alive[id] else { throw LuaScriptError("this Widget no longer exists") }
            guard key == "label" else { return 0 }
            s.push(name.uppercased())
            return 1
        })
        vm.setGlobal("widget") { s in
            let id = UInt64(s.integer(at: 1) ?? 0)
            vm.pushHandle(s, id, of: Self.widgetClass)
            return 1
        }
        vm.setGlobal("destroy") { s in
            widgets.alive[UInt64(s.integer(at: 1) ?? 0)] = nil
            return 0
        }
        widgets.alive = [1: "one", 2: "two"]
        return (t, widgets)
    }

    @Test func methodsPropertiesAndIdentity() throws {
        let (t, _) = try setUp()
        #expect(try t.run("return widget(1):name()") == .string("one"))
        #expect(try t.run("return widget(2).label") == .string("TWO"))
        #expect(try t.run("return widget(1) == widget(1)") == .bool(true))
        #expect(try t.run("return widget(1) == widget(2)") == .bool(false))
        #expect(try t.run("return tostring(widget(2))") == .string("Widget#2"))
        #expect(try t.run("return getmetatable(widget(1))") == .string("locked"))
    }

    @Test func handleOfAGoneObjectIsInert() throws {
        let (t, _) = try setUp()
        let e = t.error("""
            local w = widget(1)
            destroy(1)
            return w:name()
            """)
        #expect(e?.message == "test/main.lua:3: this Widget no longer exists")
        #expect(try t.run("return widget(2):name()") == .string("two"))
    }

    @Test func wrongTypeIsAnArgumentError() throws {
        let (t, _) = try setUp()
        #expect(t.error("local f = widget(1).name; f(42)")?.message ==
                "test/main.lua:1: bad argument #1 to 'Widget.name' (Widget expected, got number)")
        #expect(t.error("local f = widget(1).name; f(arcade_missing)")?.message ==
                "test/main.lua:1: bad argument #1 to 'Widget.name' (Widget expected, got nil)")
        #expect(t.error("widget(1).label = 3")?.message == "test/main.lua:1: cannot set fields on a Widget")
    }

    /// A reference frees its registry slot when dropped while its VM is there (the slot is
    /// handed out again), and does nothing once the VM is gone.
    @Test func referencesFreeTheirSlotAndOutliveTheirVM() throws {
        var vm: LuaVM? = try LuaVM(name: "test")
        vm!.stack.push(LuaValue.string("kept"))
        var first: LuaRef? = vm!.ref()
        let slot = first!.ref
        first = nil
        vm!.stack.push(LuaValue.string("again"))
        let second = vm!.ref()
        #expect(second.ref == slot)
        vm = nil
        _ = second  // dropped after its VM: nothing to release, and no crash
    }
}
