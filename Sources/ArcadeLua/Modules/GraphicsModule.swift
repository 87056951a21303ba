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

    public init(vm: LuaVM, scenes: SceneModule) {
        self.vm = vm
        self.scenes = scenes
        func g() throws -> Graphics {
            guard let g = self.graphics else { throw LuaScriptError("gfx can only draw inside draw(gfx)") }
            return g
        }
        func color(_ s: LuaStack, _ i: Int32, _ fallback: Color = .white) throws -> Color {
            if s.isNoneOrNil(i) { return fallback }
            guard let c = s.color(at: i) else { throw LuaArgumentError(i, "colour expected, got \(s.typeName(at: i))") }
            return c
        }
        vm.pushModule("gfx", [
            ("clear", { s in try g().clear(try color(s, 1, .black)); return 0 }),
            ("pixel", { s in
                try g().pixel(x: try s.checkNumber(1), y: try s.checkNumber(2), color: try color(s, 3))
                return 0
            }),
            ("fill_rect", { s in
                try g().fillRect(x: try s.checkNumber(1), y: try s.checkNumber(2), width: try s.checkNumber(3),
                                 height: try s.checkNumber(4), color: try color(s, 5))
                return 0
            }),
            ("rect", { s in
                try g().strokeRect(x: try s.checkNumber(1), y: try s.checkNumber(2), width: try s.checkNumber(3),
                                   height: try s.checkNumber(4), color: try color(s, 5), lineWidth: try s.optNumber(6, 1))
                return 0
            }),
            ("fill_circle", { s in
                try g().fillCircle(x: try s.checkNumber(1), y: try s.checkNumber(2), radius: try s.checkNumber(3),
                                   color: try color(s, 4))
                return 0
            }),
            ("circle", { s in
                try g().strokeCircle(x: try s.checkNumber(1), y: try s.checkNumber(2), radius: try s.checkNumber(3),
                                     color: try color(s, 4), lineWidth: try s.optNumber(5, 1))
                return 0
            }),
            ("line", { s in
                try g().line(x1: try s.checkNumber(1), y1: try s.checkNumber(2), x2: try s.checkNumber(3),
                             y2: try s.checkNumber(4), color: try color(s, 5), lineWidth: try s.optNumber(6, 1))
                return 0
            }),
            ("text", { s in
                let text = s.string(at: 1) ?? (s.number(at: 1).map { String($0) } ?? "")
                guard text.utf8.count <= SceneModule.maximumTextBytes else {
                    throw LuaArgumentError(1, "text of \(text.utf8.count) bytes is too long (at most \(SceneModule.maximumTextBytes))")
                }
                try g().text(text, x: try s.checkNumber(2), y: try s.checkNumber(3), color: try color(s, 4),
                             background: try color(s, 5, .clear))
                return 0
            }),
            ("label", { s in
                let text = s.string(at: 1) ?? (s.integer(at: 1).map { String($0) } ?? "")
                var font = BlockFont.large
                var fg = Color.white, outline = Color.clear, scale = 1.0
                var align: TextAlign? = nil
                if s.type(at: 4) == .table {
                    if let name = try s.stringField("align", of: 4) {
                        guard let a = TextAlign(rawValue: name) else {
                            throw LuaArgumentError(4, "align must be \"left\", \"center\" or \"right\", got \"\(name)\"")
                        }
                        align = a
                    }
                    if let name = try s.stringField("font", of: 4) {
                        guard let f = BlockFont.named(name) else { throw LuaArgumentError(4, "unknown font '\(name)'") }
                        font = f
                    }
                    fg = try s.colorField("color", of: 4) ?? fg
                    outline = try s.colorField("outline", of: 4) ?? outline
                    scale = try s.numberField("scale", of: 4) ?? scale
                }
                let gr = try g()
                guard text.utf8.count <= SceneModule.maximumTextBytes else {
                    throw LuaArgumentError(1, "text of \(text.utf8.count) bytes is too long (at most \(SceneModule.maximumTextBytes))")
                }
                // the label is rendered (and cached for the rest of this draw) natively
                let size = font.size(of: text, outlined: outline.a != 0)
                guard size.width <= Sprite.maximumSide, size.height <= Sprite.maximumSide else {
                    throw LuaArgumentError(1, "label renders \(size.width) x \(size.height) pixels; a label is at most \(Sprite.maximumSide) x \(Sprite.maximumSide)")
                }
                let bytes = NativeCost.product(size.width, size.height, NativeCost.pixel + 1)
                try self.vm.reserveNative(bytes.addingSaturating(gr.labelCacheBytes), for: "a label of \(size.width) x \(size.height) pixels")
                gr.label(text, x: try s.checkNumber(2), y: try s.checkNumber(3), font: font, color: fg,
                         outline: outline, align: align, scale: scale)
                return 0
            }),
            ("sprite", { s in
                let book = try self.scenes.image(s, 1)
                let frame = book.frames[book.frameIndex(at: self.scenes.time)]
                try g().sprite(frame, x: try s.checkNumber(2), y: try s.checkNumber(3),
                               scaleX: try s.optNumber(4, 1), scaleY: try s.optNumber(5, try s.optNumber(4, 1)),
                               rotation: try s.optNumber(6, 0))
                return 0
            }),
            ("push", { _ in try g().push(); return 0 }),
            ("pop", { _ in try g().pop(); return 0 }),
            ("translate", { s in try g().translate(try s.checkNumber(1), try s.checkNumber(2)); return 0 }),
            ("rotate", { s in try g().rotate(try s.checkNumber(1)); return 0 }),
            ("scale", { s in
                let x = try s.checkNumber(1)
                try g().scale(x, try s.optNumber(2, x))
                return 0
            }),
            ("alpha", { s in
                let gr = try g()
                if !s.isNoneOrNil(1) { gr.alpha = min(max(try s.checkNumber(1), 0), 1) }
                s.push(gr.alpha)
                return 1
            }),
        ])
        table = vm.ref()
    }
}
