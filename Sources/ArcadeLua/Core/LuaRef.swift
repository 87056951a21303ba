/// A Lua value kept alive in the registry on behalf of the host (a callback, a module
/// table). Released (`luaL_unref`) when the last Swift reference goes away.
public final class LuaRef {
    /// The VM, without a reference: ``life`` says whether it is still there. (Not a Swift
    /// weak reference: one weak reference moves the VM's reference counts to a side table
    /// for good, after which every retain and release of the VM, which each call into a
    /// native function makes, takes a slow path.)
    private unowned(unsafe) let vm: LuaVM
    private let life: LuaVM.Life
    let ref: Int32

    init(vm: LuaVM, ref: Int32) {
        self.vm = vm
        life = vm.life
        self.ref = ref
    }

    deinit {
        if life.isAlive { vm.unref(ref) }
    }
}
