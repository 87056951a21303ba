import ArcadeCore
import ArcadeRender

/// `arcade.image{...}`, `arcade.image_file(name)` and the `arcade.Image` handle: pixel-art
/// images (flipbooks of one or more frames) built from rows of characters or read from a
/// `.sprite` file in the game's folder.
///
///     local coin = arcade.image{ palette = { Y = "#ffcc00", O = "orange" }, rows = { ".YY.", "YOOY", ".YY." } }
///     local fish = arcade.image_file("fish.sprite")
///     arcade.scene.sprite{ image = coin, x = 10, y = 20 }
///
/// Images are immutable values and live as long as the game; they are charged against its
/// memory cap before their pixels are built.
public final class ImageModule {
    public static let imageClass = LuaClass("arcade.Image")

    private unowned let vm: LuaVM
    /// The game's folder, where `arcade.image_file` looks.
    public let assetRoot: String
    private var images: [Flipbook] = []
    /// Image handles: an image lives as long as the game, so a handle never goes stale.
    public private(set) var handles: LuaHandles<Flipbook>!

    /// What the images hold natively (see ``NativeCost``).
    public private(set) var nativeBytes = 0
    private var account = NativeAccount()

    static let imageOptions: LuaOptionNames = ["palette", "rows", "frames", "frame_time"]

    init(vm: LuaVM, assetRoot: String) {
        self.vm = vm
        self.assetRoot = assetRoot
        handles = LuaHandles(Self.imageClass) { [unowned self] id in id < images.count ? images[Int(id)] : nil }
        vm.defineClass(handles, methods: [], get: { s, book, key in
            switch key {
            case "width": s.push(book.frames[0].width)
            case "height": s.push(book.frames[0].height)
            case "frames": s.push(book.frames.count)
            case "frame_time": s.push(book.frameDuration)
            default: return 0
            }
            return 1
        }, describe: { id in "Image#\(id)" })
        vm.register(in: "arcade", [
            ("image", { s in try self.makeImage(s) }),
            ("image_file", { s in try self.loadImageFile(s) }),
        ])
    }

    private func push(_ book: Flipbook, bytes: Int, _ s: LuaStack) -> Int32 {
        images.append(book)
        nativeBytes += bytes
        account.report(nativeBytes, to: vm)
        vm.pushHandle(s, UInt64(images.count - 1), of: Self.imageClass)
        return 1
    }

    /// `arcade.image{ palette = { Y = "#ffcc00" }, rows = { ".YY." } }`, or with
    /// `frames = { {rows...}, {rows...} }` and `frame_time`.
    private func makeImage(_ s: LuaStack) throws -> Int32 {
        let options = try s.checkOptions(1, known: Self.imageOptions)
        let palette = try self.palette(options)
        // What the frames built so far take; each frame is checked against the cap before
        // its rows are copied out of Lua (a short string repeated a million times is cheap in
        // Lua and would not be here).
        var bytes = NativeCost.image
        var frames: [Sprite] = []
        do {
            if s.getField("frames", in: 1) == .table {
                let t = s.top
                for i in stride(from: 1, through: s.rawLength(at: t), by: 1) {
                    s.reserve(4)
                    s.getIndex(i, in: t)
                    guard s.type(at: -1) == .table else {
                        throw options.fieldError("frames[\(i)]", s.problem(expected: "table of rows", at: -1).text)
                    }
                    frames.append(try frame(s, at: s.top, palette: palette, bytes: &bytes))
                    s.pop()
                }
            }
            s.pop()
            if frames.isEmpty {
                guard s.getField("rows", in: 1) == .table else {
                    throw options.error("field 'rows' (a list of strings) or 'frames' is required")
                }
                frames.append(try frame(s, at: s.top, palette: palette, bytes: &bytes))
                s.pop()
            }
        } catch let e as SpriteError {
            throw LuaArgumentError(1, e.description)
        }
        let frameTime = try options.number("frame_time") ?? SpriteFile.defaultFrameTime
        return push(Flipbook(frames: frames, frameDuration: max(0.001, frameTime)), bytes: bytes, s)
    }

    /// The `palette` field: single characters mapped to colours.
    private func palette(_ options: LuaOptions) throws -> [Character: Color] {
        let s = options.stack
        var palette: [Character: Color] = [:]
        if s.getField("palette", in: 1) == .table {
            s.pushNil()
            while s.next(in: -2) {
                guard let k = s.string(at: -2), k.count == 1, let c = s.color(at: -1) else {
                    throw LuaArgumentError(1, "palette entries must be single characters mapped to colours")
                }
                palette[k.first!] = c
                s.pop()
            }
        } else if !s.isNoneOrNil(-1) {
            throw options.fieldError("palette", s.problem(expected: "table", at: -1).text)
        }
        s.pop()
        return palette
    }

    /// One frame from the list of rows at `index`, its pixels charged to `bytes` first.
    private func frame(_ s: LuaStack, at index: Int32, palette: [Character: Color], bytes: inout Int) throws -> Sprite {
        let n = s.rawLength(at: index)
        guard n <= Sprite.maximumSide else {
            throw LuaArgumentError(1, "an image has at most \(Sprite.maximumSide) rows, got \(n)")
        }
        var longest = 0
        for i in stride(from: 1, through: n, by: 1) {
            s.getIndex(i, in: index)
            defer { s.pop() }
            guard s.type(at: -1) == .string else { throw LuaArgumentError(1, "image rows must be strings") }
            longest = max(longest, s.rawLength(at: -1))
        }
        guard n > 0 else { throw LuaArgumentError(1, "an image needs at least one row") }
        // a row holds at most one pixel per byte: this bounds both the copy and the pixels
        let bound = NativeCost.product(n, longest, 1 + NativeCost.pixel)
        try vm.reserveNative(bytes.addingSaturating(bound), for: "an image of up to \(min(longest, Sprite.maximumSide)) x \(n) pixels")
        var rows: [String] = []
        rows.reserveCapacity(n)
        for i in stride(from: 1, through: n, by: 1) {
            s.getIndex(i, in: index)
            rows.append(s.string(at: -1) ?? "")
            s.pop()
        }
        let sprite = try Sprite(palette: palette, rows: rows)
        bytes += NativeCost.frame + NativeCost.product(sprite.width, sprite.height, NativeCost.pixel)
        return sprite
    }

    /// `arcade.image_file("fish.sprite")`: a `.sprite` file in the game's folder.
    private func loadImageFile(_ s: LuaStack) throws -> Int32 {
        let name = try s.checkString(1)
        guard !name.hasPrefix("/"), !name.split(separator: "/").contains(".."), !name.isEmpty else {
            throw LuaArgumentError(1, "'\(name)' is not a file inside the game's folder")
        }
        guard let bytes = FileBytes.read(assetRoot + "/" + name, within: assetRoot) else {
            throw LuaScriptError("image file '\(name)' not found in the game's folder (or not a regular file inside it)")
        }
        // the text and its rows are copied while parsing; the pixels must fit what is left
        let text = NativeCost.product(bytes.count, 3)
        try vm.reserveNative(text, for: "reading image file '\(name)' (\(bytes.count) bytes)")
        let room = (vm.availableMemory - text - vm.nativeHeadroom) / NativeCost.pixel
        let book: Flipbook
        do {
            book = try SpriteFile.parse(String(decoding: bytes, as: UTF8.self), pixelLimit: max(0, room))
        } catch where error.neededPixels != nil {
            let pixels = error.neededPixels ?? 0
            throw LuaMemoryLimitError(what: "image file '\(name)' (\(pixels) pixels up to its line \(error.line))",
                                      bytes: NativeCost.product(pixels, NativeCost.pixel))
        } catch {
            throw LuaScriptError("\(name):\(error.line): \(error.message)")
        }
        var cost = NativeCost.image
        for f in book.frames { cost += NativeCost.frame + NativeCost.product(f.width, f.height, NativeCost.pixel) }
        return push(book, bytes: cost, s)
    }
}
