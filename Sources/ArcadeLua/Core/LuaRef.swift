/// A Lua value kept alive in the registry on behalf of the host (a callback, a module
/// table). Released (`luaL_unref`) when the last Swift reference goes away.
public final class LuaRef {
    weak var vm: LuaVM?
    let ref: Int32

    init(vm: LuaVM, ref: Int32) {
        self.vm = vm
        self.ref = ref
    }

    deinit {
        vm?.unref(ref)
    }
}
