import ArcadeCore
import ArcadeRender

/// The `gfx` table passed to a game's optional `draw(gfx)` callback: immediate-mode
/// drawing over the composed scene, for overlays and simple games.
///
///     function game.draw(gfx)
///       gfx.fill_rect(0, 0, 80, 2, "#202020")
///       gfx.text("score " .. game.state.score, 1, 0, "white")
///     end
///
/// Colours are written as in the scene API; the last argument of most calls is optional.
public final class GraphicsModule {
    private unowned let vm: LuaVM
    private unowned let scenes: SceneModule
    /// The canvas the current `draw` call paints on; nil outside a draw call.
    public var graphics: Graphics?
    /// A registry reference to the `gfx` table.
    public private(set) var table: LuaRef!

    /// The names `gfx.label`'s options table takes.
    static let labelOptions: LuaOptionNames = ["align", "font", "color", "outline", "scale"]

    public init(vm: LuaVM, scenes: SceneModule) {
        self.vm = vm
        self.scenes = scenes
        vm.pushModule("gfx", [
            ("clear", { s in try self.canvas().clear(try s.optColor(1, .black)); return 0 }),
            ("pixel", { s in
                try self.canvas().pixel(x: try s.checkNumber(1), y: try s.checkNumber(2), color: try s.optColor(3, .white))
                return 0
            }),
            ("fill_rect", { s in
                try self.canvas().fillRect(x: try s.checkNumber(1), y: try s.checkNumber(2), width: try s.checkNumber(3),
                                           height: try s.checkNumber(4), color: try s.optColor(5, .white))
                return 0
            }),
            ("rect", { s in
                try self.canvas().strokeRect(x: try s.checkNumber(1), y: try s.checkNumber(2), width: try s.checkNumber(3),
                                             height: try s.checkNumber(4), color: try s.optColor(5, .white),
                                             lineWidth: try s.optNumber(6, 1))
                return 0
            }),
            ("fill_circle", { s in
                try self.canvas().fillCircle(x: try s.checkNumber(1), y: try s.checkNumber(2), radius: try s.checkNumber(3),
                                             color: try s.optColor(4, .white))
                return 0
            }),
            ("circle", { s in
                try self.canvas().strokeCircle(x: try s.checkNumber(1), y: try s.checkNumber(2), radius: try s.checkNumber(3),
                                               color: try s.optColor(4, .white), lineWidth: try s.optNumber(5, 1))
                return 0
            }),
            ("line", { s in
                try self.canvas().line(x1: try s.checkNumber(1), y1: try s.checkNumber(2), x2: try s.checkNumber(3),
                                       y2: try s.checkNumber(4), color: try s.optColor(5, .white), lineWidth: try s.optNumber(6, 1))
                return 0
            }),
            ("text", { s in try self.text(s) }),
            ("label", { s in try self.label(s) }),
            ("sprite", { s in
                let book = try self.scenes.images.handles.check(s, 1)
                let frame = book.frames[book.frameIndex(at: self.scenes.time)]
                try self.canvas().sprite(frame, x: try s.checkNumber(2), y: try s.checkNumber(3),
                                         scaleX: try s.optNumber(4, 1), scaleY: try s.optNumber(5, try s.optNumber(4, 1)),
                                         rotation: try s.optNumber(6, 0))
                return 0
            }),
            ("push", { _ in try self.canvas().push(); return 0 }),
            ("pop", { _ in try self.canvas().pop(); return 0 }),
            ("translate", { s in try self.canvas().translate(try s.checkNumber(1), try s.checkNumber(2)); return 0 }),
            ("rotate", { s in try self.canvas().rotate(try s.checkNumber(1)); return 0 }),
            ("scale", { s in
                let x = try s.checkNumber(1)
                try self.canvas().scale(x, try s.optNumber(2, x))
                return 0
            }),
            ("alpha", { s in
                let g = try self.canvas()
                if !s.isNoneOrNil(1) { g.alpha = min(max(try s.checkNumber(1), 0), 1) }
                s.push(g.alpha)
                return 1
            }),
        ])
        table = vm.ref()
    }

    /// The canvas of the running `draw` call.
    private func canvas() throws -> Graphics {
        guard let g = graphics else { throw LuaScriptError("gfx can only draw inside draw(gfx)") }
        return g
    }

    /// Refuses a text longer than a text node may hold.
    private func checkLength(_ text: String) throws {
        guard text.utf8.count <= SceneModule.maximumTextBytes else {
            throw LuaArgumentError(1, "text of \(text.utf8.count) bytes is too long (at most \(SceneModule.maximumTextBytes))")
        }
    }

    /// `gfx.text(text, x, y [, color [, background]])`: a number shows as Lua would print a float.
    private func text(_ s: LuaStack) throws -> Int32 {
        let text = s.string(at: 1) ?? (s.number(at: 1).map { String($0) } ?? "")
        try checkLength(text)
        try canvas().text(text, x: try s.checkNumber(2), y: try s.checkNumber(3), color: try s.optColor(4, .white),
                          background: try s.optColor(5, .clear))
        return 0
    }

    /// The size of a label of `text`, measured up to the largest a label may be and stopped
    /// with the budget error when the callback runs out of time meanwhile.
    ///
    /// - Throws: ``LuaArgumentError`` for a label larger than a sprite may be, ``LuaBudgetStop``.
    static func measure(_ text: String, font: BlockFont, outlined: Bool, vm: LuaVM) throws -> (width: Int, height: Int) {
        switch font.measure(text, outlined: outlined, limit: Sprite.maximumSide, stop: { vm.isOverdue }) {
        case .size(let width, let height):
            return (width, height)
        case .tooLarge(let width, _):
            let side = width > Sprite.maximumSide ? "wide" : "tall"
            throw LuaArgumentError(1, "label is more than \(Sprite.maximumSide) pixels \(side); a label is at most \(Sprite.maximumSide) x \(Sprite.maximumSide)")
        case .stopped:
            throw LuaBudgetStop()
        }
    }

    /// `gfx.label(text, x, y [, { align, font, color, outline, scale }])`: block-font text,
    /// rendered (and cached for the rest of this draw) natively.
    private func label(_ s: LuaStack) throws -> Int32 {
        let text = s.string(at: 1) ?? (s.integer(at: 1).map { String($0) } ?? "")
        let options = try s.optOptions(4, known: Self.labelOptions)
        let align = try options.field("align") { i throws(LuaValueProblem) in try s.readName(TextAlign.self, at: i) }
        let font = try options.field("font") { i throws(LuaValueProblem) in
            try s.readChoice(at: i, of: [BlockFont.large.name, BlockFont.small.name], BlockFont.named)
        } ?? .large
        let color = try options.color("color") ?? .white
        let outline = try options.color("outline") ?? .clear
        let scale = try options.number("scale") ?? 1
        let g = try canvas()
        try checkLength(text)
        let size = try Self.measure(text, font: font, outlined: outline.a != 0, vm: vm)
        let bytes = NativeCost.product(size.width, size.height, NativeCost.pixel + 1)
        try vm.reserveNative(bytes.addingSaturating(g.labelCacheBytes), for: "a label of \(size.width) x \(size.height) pixels")
        g.label(text, x: try s.checkNumber(2), y: try s.checkNumber(3), font: font, color: color,
                outline: outline, align: align, scale: scale)
        return 0
    }
}
