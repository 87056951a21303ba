---@meta arcade
-- Type definitions of the arcade's Lua API (API version 1) for the Lua language server.
-- Point your editor's `Lua.workspace.library` at this file; it is never run.
-- Kept in step with the Swift bindings by Tests/ArcadeHostTests/DefinitionsTests.swift.

---A colour: "#rrggbb", "#rrggbbaa", a name (black, white, red, green, blue, yellow, orange, purple,
---pink, cyan, gray, brown, gold, silver, clear), 0xRRGGBB, or { r, g, b, a } (0-255).
---Reading a colour property gives the "#rrggbb" form.
---@alias arcade.Color string|integer|integer[]

---A point as a two-item list: { x, y } in canvas pixels.
---@alias arcade.Point number[]

---A timing curve: a name ("linear", "easeIn", "easeOut", "easeInEaseOut", "default", or a Penner
---name such as "easeOutQuad", "easeInOutBack") or a cubic Bezier { x1, y1, x2, y2 }.
---@alias arcade.Timing string|number[]

---@alias arcade.AnimatableProperty
---| "x"
---| "y"
---| "position"     # values are { x, y }
---| "scale"
---| "scale_x"
---| "scale_y"
---| "rotation"     # radians
---| "alpha"
---| "color"        # values are colours (fill, text or tint colour)
---| "outline"      # a label's outline colour
---| "stroke_start" # a line's drawn portion, 0..1
---| "stroke_end"

---@alias arcade.NodeKind "group"|"rect"|"circle"|"polygon"|"line"|"text"|"label"|"sprite"

---The host's services to a game. Everything that moves per object per frame runs natively.
---@class arcade
arcade = {}

---Game time in seconds: the step number times the step length, so it never drifts with the wall clock.
---@return number seconds
function arcade.time() end

---Steps taken since `load` (60 a second).
---@return integer frame
function arcade.frame() end

---The canvas size: pixels first (one per column, two per row), then terminal cells.
---@return integer width pixels across
---@return integer height pixels down
---@return integer cols terminal columns
---@return integer rows terminal rows
function arcade.screen() end

---The seed this run was started with (the same seed drives `math.random`).
---@return integer seed
function arcade.seed() end

---Asks the host to leave the game after this step (`quit()` is called first).
function arcade.quit() end

---True while the key `name` is down: from its `key` event to its `keyup` event, both as `input` gets
---them. A terminal that reports no releases (most, without the kitty keyboard protocol) gets its
---releases from the host: 0.7 s after a press, 0.1 s after the last auto-repeat of a held key, so a
---tap reads as down for 0.7 s. Nudge on the press, glide only once `e.is_repeat` came.
---@param name string a key name as events give it: "left", "space", "a", "f1"...
---@return boolean down
function arcade.is_down(name) end

---Tap or hold (Pyxel's `btnp`): true in the step of the key's press (a `key` event that is not a
---repeat); with `hold` and `period` (seconds of game time, counted in whole steps, both or neither),
---true again `hold` after the press and then every `period`, while the key is held: down and
---repeating (an `is_repeat` event since the press), not merely not yet released. Read it in `update`.
---@param name string a key name as events give it: "left", "space", "a", "f1"...
---@param hold? number seconds after the press of the first repeat (above 0)
---@param period? number seconds between repeats after that (above 0)
---@return boolean pressed
function arcade.pressed(name, hold, period) end

---The cells the widest line of `text` takes on screen: East Asian wide characters and emoji take two,
---combining marks and invisible format characters none, everything else one (what `#text` and
---`utf8.len` do not tell).
---@param text string
---@return integer cells
function arcade.text_width(text) end

---`text` if it takes at most `cells` cells; otherwise its longest start that fits together with
---`ellipsis` (default "…"), then the ellipsis. Cut between whole characters, never inside one.
---@param text string one line
---@param cells integer
---@param ellipsis? string
---@return string
function arcade.fit_text(text, cells, ellipsis) end

---Writes the values, tab separated, to the arcade log (never the screen). Tables are shown as JSON.
---@param ... any
function arcade.log(...) end

---Calls `fn` once, `seconds` of game time from now.
---When `fn` is a function of the game table (`arcade.after(2, game.spawn)`), the game's
---current `spawn` is called, so a hot reload's new code runs.
---@param seconds number
---@param fn fun()
---@return arcade.Timer timer
function arcade.after(seconds, fn) end

---Calls `fn` every `seconds` of game time (at least 0.001) until the timer is cancelled.
---When `fn` is a function of the game table (`arcade.every(1, game.spawn)`), each firing
---calls the game's current `spawn`, so a hot reload's new code runs.
---@param seconds number
---@param fn fun()
---@return arcade.Timer timer
function arcade.every(seconds, fn) end

---Makes a pixel-art image from rows of palette characters: `.` and space are transparent, any other
---character must be in the palette; short rows are padded with transparent pixels.
---@param spec arcade.ImageSpec
---@return arcade.Image image
function arcade.image(spec) end

---Loads a `.sprite` file from the game's own folder (a relative path without ".."): `color <char> #hex`
---lines, an optional `frame_time <seconds>` (0.1 by default), then each frame as a `frame` line followed
---by its rows (`.` and space transparent); `#` starts a comment. See docs/writing-games.md.
---@param path string
---@return arcade.Image image
function arcade.image_file(path) end

---Starts a native animation of `node`'s properties. `on_done` (or `spec.on_done`) is called with
---`finished`, false when the animation was cancelled, replaced or its node removed. A function
---of the game table (`game.landed`) is looked up again when it is called, so a hot reload's
---new code runs.
---@param node arcade.Node
---@param spec arcade.AnimationSpec
---@param on_done? fun(finished: boolean)
---@return arcade.Animation animation
function arcade.animate(node, spec, on_done) end

---Starts like animations on many nodes with one call: no Lua runs per node, and at most one callback
---per node (`options.on_each`) and one for the whole batch (`options.on_done`). `targets` is a list of
---nodes, or `{ count = n, image = ... }`, which makes `n` sprites. In `spec`'s values and path points,
---and in the sprite fields, a string names a column of `options.columns`: a list with one number per
---node. Made sprites leave the scene as their animation ends, unless `options.remove` is false.
---@param targets arcade.Node[]|arcade.ManySprites
---@param spec arcade.AnimationSpec without `on_done`
---@param options? arcade.ManyOptions
---@return arcade.Node[]|nil nodes the nodes given or made, in order (nothing with `options.list = false`)
function arcade.animate_many(targets, spec, options) end

---Cancels every animation running on `node`; their callbacks see `finished = false`.
---@param node arcade.Node
---@return integer cancelled how many were running
function arcade.cancel_animations(node) end

---The retained scene: nodes are created once, then their properties are set or animated.
---@class arcade.scene
arcade.scene = {}

---A node that draws nothing and carries its children (moving it moves them). With `clip = true` it
---draws them only inside its own `width` x `height` box, placed by its anchor like any content.
---@param opts? arcade.GroupOptions
---@return arcade.Node group
function arcade.scene.group(opts) end

---A rectangle; `x`, `y` is where its anchor (the centre by default) sits.
---@param opts? arcade.RectOptions
---@return arcade.Node rect
function arcade.scene.rect(opts) end

---A circle.
---@param opts? arcade.CircleOptions
---@return arcade.Node circle
function arcade.scene.circle(opts) end

---A filled polygon through `points` (3 to 4096; the last joins the first), with a `stroke` border
---`line_width` wide inside its edges. Filled by the nonzero rule; the anchor places the points' box.
---@param opts arcade.PolygonOptions
---@return arcade.Node polygon
function arcade.scene.polygon(opts) end

---A polyline through `points`, drawn from `stroke_start` to `stroke_end`. Its points are relative
---to `x`, `y` until `anchor_x` / `anchor_y` is set; then the anchor places the points' box.
---@param opts? arcade.LineOptions
---@return arcade.Node line
function arcade.scene.line(opts) end

---Terminal text: one character a cell. Anchored like every node (the centre by default): the character
---at the anchor point lands in the cell holding `x`, `y`. `align` places the lines inside the block.
---@param opts? arcade.TextOptions
---@return arcade.Node text
function arcade.scene.text(opts) end

---Large block-pixel lettering that can scale, rotate and animate like any node.
---@param opts? arcade.LabelOptions
---@return arcade.Node label
function arcade.scene.label(opts) end

---An image (or flipbook) on the canvas.
---@param opts arcade.SpriteOptions
---@return arcade.Node sprite
function arcade.scene.sprite(opts) end

---The scene's root node; nodes made without `parent` are its children.
---@return arcade.Node root
function arcade.scene.root() end

---Removes every node (their animations are cancelled and their balls unbound).
function arcade.scene.clear() end

---Reads the background colour, setting it first when `color` is given.
---@param color? arcade.Color
---@return string color the colour as "#rrggbb" (or "#rrggbbaa")
function arcade.scene.background(color) end

---Number of nodes in the scene, not counting the root.
---@return integer count
function arcade.scene.count() end

---The topmost visible node under a canvas point, or nil.
---@param x number
---@param y number
---@return arcade.Node? node
function arcade.scene.hit(x, y) end

---Native 2D physics for balls against walls and each other.
---@class arcade.physics
arcade.physics = {}

---Creates a world. It steps natively after `update(dt)`; only its events reach Lua.
---@param opts? arcade.WorldOptions
---@return arcade.PhysicsWorld world
function arcade.physics.world(opts) end

---This game's saves: values survive restarts of the arcade.
---@class arcade.save
arcade.save = {}

---The value saved under `key`, or nil.
---@param key string
---@return arcade.Savable? value
function arcade.save.get(key) end

---Saves `value` under `key`; nil deletes it. Raises an error naming the part that cannot be saved.
---@param key string
---@param value arcade.Savable?
function arcade.save.set(key, value) end

---This game's best score.
---@class arcade.score
arcade.score = {}

---Records a finished run's score.
---@param score integer
---@return boolean best true when it beats every earlier score (or is the first)
function arcade.score.submit(score) end

---The best score recorded, or nil before the first.
---@return integer? best
function arcade.score.best() end

---Forgets the best score, for a game whose scores now mean something else (new rules):
---the next score submitted becomes the best. Call it once, marked by a save of your own.
function arcade.score.reset() end

---Sound: short note sequences played by the arcade's synth, eight channels mixed natively after
---each step. Sounds come from `arcade.sfx.define` and from `.sfx` files in the game's folder or
---its `sfx/` folder (`coin.sfx` defines "coin"; hot-reloaded under `arcade dev`). Silent where
---there is no speaker; `--wav FILE` writes what was played.
---@class arcade.sfx
arcade.sfx = {}

---Defines (or redefines) the sound `name`. Counts against the game's memory cap.
---@param name string 1 to 64 bytes
---@param spec arcade.SoundSpec
function arcade.sfx.define(name, spec) end

---Starts the sound `name` on a channel: the one given, else a free one, else the one playing
---longest (the music's last). A channel plays one sound at a time.
---@param name string a defined sound
---@param opts? arcade.PlayOptions
---@return integer channel 1 to 8
function arcade.sfx.play(name, opts) end

---Stops every sound and the music (no argument), the sound on a channel, or every channel
---playing the sound `name`.
---@param what? integer|string a channel (1 to 8) or a sound's name
function arcade.sfx.stop(what) end

---Plays music: patterns one after another, each a few sounds started together on the top
---channels (the first on 8, the next on 7...); the next pattern starts when the longest sound
---of this one has played its notes. Replaces the music playing; nil stops it.
---@param patterns string[][]? e.g. { { "bass", "lead" }, { "bass", "lead2" } }
---@param opts? arcade.MusicOptions
function arcade.sfx.music(patterns, opts) end

---Whether anything plays (no argument), a channel plays, or a sound `name` plays somewhere.
---@param what? integer|string
---@return boolean
function arcade.sfx.is_playing(what) end

---Booleans, finite numbers, UTF-8 strings, and tables of them that are arrays (keys 1..n) or have only string keys.
---@alias arcade.Savable boolean|number|string|table

-- Handles ------------------------------------------------------------------------------------

---A scene node. Handles are weak: after `remove()` using one raises "this node was removed".
---Which fields exist depends on `kind`; setting a field the kind lacks is an error.
---@class arcade.Node
---@field kind arcade.NodeKind read only
---@field id integer read only, unique in the scene
---@field parent arcade.Node? read only; change it with `parent:add(node)`
---@field x number position of the anchor, in canvas pixels
---@field y number
---@field anchor_x number? 0 left .. 1 right (0.5 by default; a line's is nil until set)
---@field anchor_y number? 0 top .. 1 bottom (0.5 by default; a line's is nil until set)
---@field anchor arcade.Point? write only: { ax, ay } (nil unsets a line's)
---@field wrap arcade.Wrap? true: drawn again across the canvas's edges it reaches past; a region: across its edges
---@field scale number both axes; reads give scale_x
---@field scale_x number negative mirrors
---@field scale_y number
---@field rotation number radians
---@field alpha number 0..1, multiplied down the tree
---@field z number drawing order among siblings (higher on top); text and shapes share it
---@field visible boolean
---@field name string? what the game's tests find it by (`g:node(name)`); at most 256 bytes
---@field width number rect, group, line (the line width), text and label (read only), sprite (read only)
---@field height number rect, group; text, label and sprite (read only)
---@field clip boolean group: draw the children only inside the group's width x height box
---@field align arcade.TextAlign? text, label: how lines sit in the block; nil follows anchor_x
---@field fill arcade.Color rect, circle, polygon
---@field color arcade.Color rect, circle and polygon fill, line, text, label colour, sprite tint
---@field stroke arcade.Color rect, circle, polygon border
---@field line_width number rect, circle, polygon, line
---@field radius number circle
---@field points arcade.Point[] line, polygon
---@field stroke_start number line, 0..1
---@field stroke_end number line, 0..1
---@field text string text, label
---@field background arcade.Color text: fills every cell of the block's box, spaces, empty lines and cells beside short lines included
---@field outline arcade.Color label
---@field font "large"|"small" label
---@field image arcade.Image sprite, write only
---@field frame_time number sprite: seconds per flipbook frame
---@field loop_time number sprite: seconds per whole loop
---@field playing boolean sprite: whether the flipbook advances
---@field frame integer sprite: the frame shown (1-based); setting it stops playing
---@field tint arcade.Color sprite
local Node = {}

---Removes the node and its children, cancelling their animations.
function Node:remove() end

---Moves `child` under this node.
---@param child arcade.Node
function Node:add(child) end

---Sets several properties at once.
---@param opts arcade.NodeOptions|arcade.RectOptions|arcade.CircleOptions|arcade.PolygonOptions|arcade.LineOptions|arcade.TextOptions|arcade.LabelOptions|arcade.SpriteOptions
---@return arcade.Node self
function Node:set(opts) end

---False once the node was removed (the only call a removed node answers).
---@return boolean
function Node:alive() end

---The node's children, in drawing order.
---@return arcade.Node[]
function Node:children() end

---True when the canvas point lies inside the node's drawn shape.
---@param x number
---@param y number
---@return boolean
function Node:contains(x, y) end

---An immutable image or flipbook; lives as long as the game.
---@class arcade.Image
---@field width integer read only, pixels
---@field height integer read only, pixels
---@field frames integer read only, number of flipbook frames
---@field frame_time number read only, seconds per frame
local Image = {}

---A pending `after` / `every`.
---@class arcade.Timer
local Timer = {}

---Stops the timer.
---@return boolean cancelled false when it had already fired or was cancelled
function Timer:cancel() end

---@return boolean pending true until it fires for the last time or is cancelled
function Timer:is_pending() end

---@return number seconds of game time until it next fires (0 once it is no longer pending)
function Timer:remaining() end

---A running animation.
---@class arcade.Animation
local Animation = {}

---Stops the animation; its callback sees `finished = false`.
---@return boolean cancelled false when it was no longer running
function Animation:cancel() end

---@return boolean running
function Animation:is_running() end

---A physics world. After `destroy()` using the handle raises "this world was destroyed".
---@class arcade.PhysicsWorld
---@field gravity arcade.Point { gx, gy }; {0, 1} is 1000 px/s² down
---@field bounds_enabled boolean whether balls bounce off the bounds (false opens the gate)
---@field restitution_threshold number px/s: slower impacts do not bounce at all (100; an 80 x 24 canvas is 80 x 48 px, so lower it for slow bouncing balls)
---@field remove_outside boolean write only: remove balls that leave the bounds
---@field wrap boolean|{x: boolean, y: boolean} a wrap-around world: balls leaving one edge of the bounds come back at the other (a table when only one axis wraps)
---@field bounds_category integer the bounds' collision category (1)
---@field bounds_mask integer the categories the bounds stop (all)
local World = {}

---Adds a ball.
---@param opts arcade.BallOptions
---@return arcade.Ball ball
function World:add_ball(opts) end

---Adds a rectangular wall; `id` is reported to the contact callback.
---@param id string?
---@param rect arcade.WallOptions x, y: the top-left corner
---@return arcade.Wall wall
function World:add_wall(id, rect) end

---Adds a line-segment wall: `add_segment(id, x1, y1, x2, y2)` or `add_segment(id, { x1 =, y1 =, x2 =, y2 =, category =, ... })`.
---@param id string?
---@param x1 number|arcade.SegmentOptions
---@param y1? number
---@param x2? number
---@param y2? number
---@return arcade.Wall wall
function World:add_segment(id, x1, y1, x2, y2) end

---Moves a wall kinematically: its centre reaches (x, y) over the next step, pushing balls as it goes.
---@param wall arcade.Wall
---@param x number
---@param y number
function World:move_wall(wall, x, y) end

---Puts a wall's centre at (x, y) at once, without pushing anything.
---@param wall arcade.Wall
---@param x number
---@param y number
function World:place_wall(wall, x, y) end

---@param wall arcade.Wall
---@return boolean removed false when it belongs to another world or was already gone
function World:remove_wall(wall) end

---Removes every wall with this identifier.
---@param id string
---@return integer removed
function World:remove_walls(id) end

---Removes balls that leave the bounds (reported to `on_removed`); `on` defaults to true.
---@param on? boolean
function World:remove_outside(on) end

---Sets (or with nil clears) the contact callback. `id` is the wall's identifier, or the other ball
---for two balls, or nil for the bounds; `wall` is the wall handle (nil for bounds and balls).
---It runs once when a touch begins (not again while it lasts), after the world's step, so the
---ball has already bounced. It may remove balls, walls or the world: the events still queued
---for them are dropped.
---A function of the game table (`game.bounced`) is looked up again at each call (hot reload).
---@param fn fun(ball: arcade.Ball, id: string|arcade.Ball|nil, x: number, y: number, wall: arcade.Wall?)?
function World:on_contact(fn) end

---Sets (or with nil clears) the callback for touches that ended: once for each touch that fired
---`on_contact`, when the two come apart (or a filter, a sensor switch or the gate parts them),
---with the same arguments (x, y: where they last touched), after the step's contacts. Not when a
---ball, a wall or the world is removed.
---@param fn fun(ball: arcade.Ball, id: string|arcade.Ball|nil, x: number, y: number, wall: arcade.Wall?)?
function World:on_separate(fn) end

---Sets (or with nil clears) the callback for balls removed by `remove_outside` (not for balls
---the game removed), after the world's contacts. The handle is already stale: compare it with
---`==` to find your record. A function of the game table is looked up again at each call (hot reload).
---@param fn fun(ball: arcade.Ball)?
function World:on_removed(fn) end

---@return integer balls
function World:count() end

---Every ball, in creation order.
---@return arcade.Ball[]
function World:balls() end

---The balls overlapping a rectangle (x, y: top-left corner).
---@param x number
---@param y number
---@param width number
---@param height number
---@return arcade.Ball[]
function World:bodies_in(x, y, width, height) end

---Destroys the world and every handle into it.
function World:destroy() end

---A ball. After it is removed using the handle raises "this ball was removed".
---@class arcade.Ball
---@field x number centre
---@field y number
---@field vx number pixels per second
---@field vy number
---@field spin number radians per second
---@field angle number read only
---@field radius number read only
---@field mass number read only
---@field name string? read only: the name given to `add_ball`
---@field category integer the collision categories it belongs to (bits; 1)
---@field mask integer the categories it collides with (bits; all)
---@field group integer 0 none; the same positive group always collides, the same negative never
---@field sensor boolean reports what it overlaps, never pushes or is pushed
local Ball = {}

function Ball:remove() end

---@return boolean
function Ball:alive() end

---Makes `node` follow the ball natively (and turn with it when `rotation` is true).
---@param node arcade.Node
---@param rotation? boolean
function Ball:bind(node, rotation) end

function Ball:unbind() end

---A wall (id, x, y, width and height read only).
---@class arcade.Wall
---@field id string? the identifier given to add_wall / add_segment
---@field x number centre
---@field y number centre
---@field width number? rectangles only
---@field height number? rectangles only
---@field category integer
---@field mask integer
---@field group integer
---@field sensor boolean balls pass through it; it reports them
local Wall = {}

function Wall:remove() end

---@return boolean
function Wall:alive() end

-- Spec tables --------------------------------------------------------------------------------

---@class arcade.ImageSpec
---@field palette? table<string, arcade.Color> one character -> colour
---@field rows? string[] one string per pixel row (or give frames)
---@field frames? string[][] flipbook frames, each a list of rows
---@field frame_time? number seconds per frame

---Options every node accepts.
---@class arcade.NodeOptions
---@field parent? arcade.Node only when creating; the root when missing
---@field x? number
---@field y? number
---@field anchor_x? number
---@field anchor_y? number
---@field anchor? arcade.Point
---@field scale? number
---@field scale_x? number
---@field scale_y? number
---@field rotation? number
---@field alpha? number
---@field z? number
---@field visible? boolean
---@field name? string what the game's tests find it by (`g:node(name)`); at most 256 bytes
---@field wrap? arcade.Wrap

---What `node.wrap` takes: true for the canvas, a region of the parent's space, or false / nil for none.
---@alias arcade.Wrap boolean|arcade.WrapRegion

---A rectangle `{ x, y, width, height }` (or with those names) a node wraps round; reads back with both.
---@class arcade.WrapRegion
---@field x number
---@field y number
---@field width number above 0
---@field height number above 0
---@field wrap_x? boolean false: the left and right edges do not meet
---@field wrap_y? boolean false: the top and bottom edges do not meet

---@class arcade.RectOptions: arcade.NodeOptions
---@field width? number 10 when missing
---@field height? number 10 when missing
---@field fill? arcade.Color
---@field color? arcade.Color same as fill
---@field stroke? arcade.Color
---@field line_width? number

---@class arcade.CircleOptions: arcade.NodeOptions
---@field radius? number 5 when missing
---@field fill? arcade.Color
---@field color? arcade.Color
---@field stroke? arcade.Color
---@field line_width? number

---@class arcade.PolygonOptions: arcade.NodeOptions
---@field points arcade.Point[] 3 to 4096; the last joins the first
---@field fill? arcade.Color
---@field color? arcade.Color same as fill
---@field stroke? arcade.Color a border line_width wide inside the edges
---@field line_width? number

---@class arcade.LineOptions: arcade.NodeOptions
---@field points? arcade.Point[]
---@field color? arcade.Color
---@field line_width? number
---@field width? number same as line_width
---@field stroke_start? number
---@field stroke_end? number

---@class arcade.GroupOptions: arcade.NodeOptions
---@field width? number the clip box, 0 when missing
---@field height? number
---@field clip? boolean draw the children only inside the box

---@alias arcade.TextAlign "left"|"center"|"right"

---@class arcade.TextOptions: arcade.NodeOptions
---@field text? string
---@field color? arcade.Color
---@field background? arcade.Color fills every cell of the block's box (widest line by lines: spaces, empty lines and cells beside short lines included; spaces are otherwise transparent)
---@field align? arcade.TextAlign lines inside the block; follows anchor_x when missing

---@class arcade.LabelOptions: arcade.NodeOptions
---@field text? string
---@field color? arcade.Color
---@field outline? arcade.Color a one-pixel ring around the glyphs
---@field font? "large"|"small" glyphs 5 x 7 pixels (large, the default) or 3 x 5 (small), a pixel apart
---@field align? arcade.TextAlign lines inside the label; follows anchor_x when missing

---@class arcade.SpriteOptions: arcade.NodeOptions
---@field image arcade.Image
---@field frame_time? number
---@field loop_time? number
---@field playing? boolean
---@field frame? integer
---@field tint? arcade.Color
---@field color? arcade.Color

---A sound (`arcade.sfx.define`, or a `.sfx` file's `key = value` lines).
---@class arcade.SoundSpec
---@field notes string "c5 e5 g5": a to g, # or b, octave 0 to 8 (c4 is middle C); - or . a rest
---@field wave? "square"|"triangle"|"saw"|"sine"|"noise" default "square"
---@field duty? number the square's high share, 0.05 to 0.95 (default 0.5)
---@field speed? integer each note lasts speed / 120 s, 1 to 255 (default 8)
---@field volume? number 0 to 1 (default 0.5)
---@field attack? number seconds from silence to full (default 0.005)
---@field decay? number seconds from full to the sustain level (default 0.05)
---@field sustain? number the level held while the note lasts, 0 to 1 (default 0.7)
---@field release? number seconds to silence after the note (default 0.05)
---@field slide? number semitones the pitch moves over each note (default 0)
---@field vibrato? number semitones the pitch wavers either way (default 0)
---@field vibrato_rate? number wavers a second (default 6)
---@field loop? boolean start over after the last note until stopped (default false)

---@class arcade.PlayOptions
---@field channel? integer 1 to 8
---@field volume? number 0 to 1, times the sound's own (default 1)
---@field pitch? number semitones up (negative: down), -48 to 48

---@class arcade.MusicOptions
---@field loop? boolean from the first pattern again after the last (default true)
---@field volume? number 0 to 1 (default 1)

---@class arcade.PathSpec
---@field from arcade.Point
---@field to arcade.Point
---@field control? arcade.Point a quadratic curve
---@field control1? arcade.Point with control2: a cubic curve
---@field control2? arcade.Point

---@class arcade.SpringSpec
---@field damping? number 0.5 when missing; lower bounces more
---@field velocity? number initial velocity

---An animation: give `to` (optionally `from`), `values`, `path`, `spring` (with `to`) or `group`.
---A field not listed here is an error (`unknown option 'duraton' (did you mean 'duration'?)`).
---@class arcade.AnimationSpec
---@field property? arcade.AnimatableProperty required except for path (position) and group
---@field from? number|arcade.Point|arcade.Color the current value when missing
---@field to? number|arcade.Point|arcade.Color
---@field values? (number|arcade.Point|arcade.Color)[] keyframes
---@field key_times? number[] 0..1, one per value (evenly spaced when missing)
---@field timings? arcade.Timing[] one curve per keyframe segment
---@field path? arcade.PathSpec
---@field spring? arcade.SpringSpec
---@field group? arcade.AnimationSpec[] run together over the group's duration (their own `on_done` is refused)
---@field duration? number seconds
---@field delay? number seconds
---@field speed? number 1 is normal
---@field repeat_count? number|"forever"
---@field autoreverse? boolean
---@field fill? "forwards"|"removed"|"backwards"|"both" "forwards" keeps the end value, "removed" snaps back
---@field timing? arcade.Timing
---@field on_done? fun(finished: boolean)

---Sprites `arcade.animate_many` makes: sprite `k` shows `images[(k - 1) % #images + 1]` (or `image`).
---Each number may instead name a column of the call's `options.columns`.
---@class arcade.ManySprites
---@field count integer how many
---@field image? arcade.Image
---@field images? arcade.Image[]
---@field parent? arcade.Node the root when missing
---@field x? number|string
---@field y? number|string
---@field z? number|string
---@field scale? number|string
---@field scale_x? number|string
---@field scale_y? number|string
---@field rotation? number|string
---@field alpha? number|string

---A column worked out from a list column (not from another derived one), row by row: `((of - minus) * times) + plus`, each step only when given.
---@class arcade.DerivedColumn
---@field of string the column (a list) it is worked out from
---@field minus? number
---@field times? number
---@field plus? number

---@class arcade.ManyOptions
---@field columns? table<string, number[]|arcade.DerivedColumn> per-node numbers (one per node), by the names the spec uses
---@field remove? boolean remove each node as its animation ends (default: true for made sprites)
---@field on_each? fun(node: arcade.Node, finished: boolean) as each node's animation ends
---@field on_done? fun(finished: integer) once, after the last ends, with how many finished
---@field list? boolean false: return nothing (no handle is made per node); default true

---@class arcade.RectSpec
---@field x number
---@field y number
---@field width number
---@field height number

---@class arcade.WorldOptions
---@field gravity? arcade.Point {0, 1} when missing
---@field bounds? boolean|arcade.RectSpec true or missing: the canvas (following resizes)
---@field bounds_enabled? boolean
---@field remove_outside? boolean
---@field substeps? integer 1..64
---@field restitution_threshold? number px/s, 100 when missing: slower impacts do not bounce at all, whatever the elasticity; lower it (to 1, say) for balls that bounce around an 80 x 48 px canvas
---@field wrap? boolean|{x: boolean?, y: boolean?} a wrap-around world on both axes (true) or the ones set; false when missing
---@field bounds_category? integer 1 when missing
---@field bounds_mask? integer every bit when missing

---What a ball, wall or segment collides with (Box2D's filter): two collide when each one's mask
---has a bit of the other's category, unless they share a nonzero group.
---@class arcade.FilterOptions
---@field category? integer the categories it belongs to, a bit set (1 when missing); the low 32 bits count, so `~x` works
---@field mask? integer the categories it collides with (every bit when missing)
---@field group? integer 0 (none) when missing; the same positive group always collides, the same negative never
---@field sensor? boolean reports contacts and separations but never pushes or is pushed (false when missing)

---@class arcade.WallOptions: arcade.RectSpec, arcade.FilterOptions

---@class arcade.SegmentOptions: arcade.FilterOptions
---@field x1 number
---@field y1 number
---@field x2 number
---@field y2 number

---@class arcade.BallOptions: arcade.FilterOptions
---@field x number
---@field y number
---@field radius number greater than 0
---@field vx? number
---@field vy? number
---@field elasticity? number 0 dead (when missing) .. 1 perfectly bouncy
---@field friction? number 0 (frictionless) when missing
---@field density? number or give mass
---@field mass? number
---@field resistance? number linear damping
---@field angular_resistance? number
---@field angle? number
---@field spin? number
---@field rotates? boolean true when missing; false: the ball never spins, so friction brakes it instead of rolling it
---@field node? arcade.Node a node that follows the ball
---@field rotate_node? boolean the node turns with the ball
---@field name? string what the game's tests find it by (`g:balls()`); at most 256 bytes

-- Callbacks ----------------------------------------------------------------------------------

---An input event. `type` says which fields are set.
---@class arcade.InputEvent
---@field type "key"|"keyup"|"mouse"|"resize"
---@field key? string key, keyup: "a", "space", "enter", "esc", "left", "f1", "+"...
---@field is_repeat? boolean key: an auto-repeat of a held key (told by the terminal's repeat rhythm, or the kitty protocol's own flag)
---@field ["repeat"]? boolean the old name of `is_repeat` (a keyword: only `e["repeat"]` reads it)
---@field ctrl? boolean key, keyup, mouse
---@field alt? boolean
---@field shift? boolean
---@field action? "press"|"release"|"drag"|"move"|"scroll_up"|"scroll_down" mouse
---@field button? "left"|"middle"|"right"|"none" mouse
---@field col? integer mouse: terminal column (0-based)
---@field row? integer mouse: terminal row (0-based)
---@field x? integer mouse: canvas pixel (col)
---@field y? integer mouse: canvas pixel (row * 2)
---@field cols? integer resize: new size in cells
---@field rows? integer
---@field width? integer resize: new size in pixels
---@field height? integer

---What `load(ctx)` receives.
---@class arcade.LoadContext
---@field width integer canvas pixels across
---@field height integer canvas pixels down (two per row)
---@field cols integer
---@field rows integer
---@field seed integer
---@field dev boolean true under `arcade dev` (hot reload on)

---Immediate-mode drawing, only inside `draw(gfx)`; painted over the scene each frame.
---@class arcade.Gfx
local Gfx = {}

---Fills the canvas (black when no colour).
---@param color? arcade.Color
function Gfx.clear(color) end

---@param x number
---@param y number
---@param color? arcade.Color white when missing
function Gfx.pixel(x, y, color) end

---@param x number top-left corner
---@param y number
---@param width number
---@param height number
---@param color? arcade.Color
function Gfx.fill_rect(x, y, width, height, color) end

---A rectangle outline.
---@param x number
---@param y number
---@param width number
---@param height number
---@param color? arcade.Color
---@param line_width? number
function Gfx.rect(x, y, width, height, color, line_width) end

---@param x number centre
---@param y number
---@param radius number
---@param color? arcade.Color
function Gfx.fill_circle(x, y, radius, color) end

---@param x number
---@param y number
---@param radius number
---@param color? arcade.Color
---@param line_width? number
function Gfx.circle(x, y, radius, color, line_width) end

---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@param color? arcade.Color
---@param line_width? number
function Gfx.line(x1, y1, x2, y2, color, line_width) end

---Terminal text, its first character in the cell holding pixel (x, y) (top-left, like fill_rect).
---Drawn in call order with everything else: a later fill_rect over it hides it.
---@param text string|number
---@param x number
---@param y number
---@param color? arcade.Color
---@param background? arcade.Color transparent when missing
function Gfx.text(text, x, y, color, background) end

---Block-pixel lettering.
---@param text string|integer
---@param x number
---@param y number
---@param opts? { font?: "large"|"small", color?: arcade.Color, outline?: arcade.Color, scale?: number, align?: arcade.TextAlign }
function Gfx.label(text, x, y, opts) end

---Draws an image (its flipbook frame at the current time).
---@param image arcade.Image
---@param x number
---@param y number
---@param scale_x? number
---@param scale_y? number scale_x when missing
---@param rotation? number
function Gfx.sprite(image, x, y, scale_x, scale_y, rotation) end

---Saves the transform and alpha.
function Gfx.push() end

---Restores what the last `push` saved.
function Gfx.pop() end

---@param dx number
---@param dy number
function Gfx.translate(dx, dy) end

---@param radians number
function Gfx.rotate(radians) end

---@param sx number
---@param sy? number sx when missing
function Gfx.scale(sx, sy) end

---Reads the drawing alpha, setting it first (clamped to 0..1) when given.
---@param alpha? number
---@return number alpha
function Gfx.alpha(alpha) end

---What `main.lua` returns. Every callback is optional.
---@class arcade.Game
---@field state table kept across hot reloads and shown by `--state`; the host creates it
---@field load? fun(ctx: arcade.LoadContext) once, before the first step
---@field update? fun(dt: number) every step, after input and timers
---@field input? fun(event: arcade.InputEvent) at the start of a step, once per event
---@field draw? fun(gfx: arcade.Gfx) per displayed frame, over the scene
---@field reload? fun(state: table) after a hot reload, with the kept state
---@field quit? fun() when the player leaves

---What `manifest.lua` returns (data only: it runs with an empty environment).
---@class arcade.Manifest
---@field id string lower-case letter first, then a-z, 0-9, '-' and '_' (at most 32)
---@field title string
---@field description string one line
---@field author string
---@field version string
---@field api integer the arcade API version the game targets (1)
---@field min_size? integer[] { columns, rows }, at least { 80, 24 }
---@field controls? arcade.Control[] the keys and mouse actions the pause card lists, in order (at most 12; `arcade check` warns when there are none)
---@field hide_on_pause? boolean the pause card covers the whole game (a memory game's board), not just a panel over it

---One line of a manifest's `controls`: { "keys or mouse", "what it does" }, as the player would
---say them, e.g. { "space / enter", "cast the hook" } or { "click the pond", "cast the hook" }
---(at most 18 and 40 characters, one line each).
---@alias arcade.Control string[]

-- Tests ----------------------------------------------------------------------------------------
-- Only in a game's tests/*.lua files, which `arcade test <id>` runs headless, each file in a VM
-- of its own (see "Testing a game" in docs/writing-games.md). The game never runs in the
-- test's VM: a test starts it with `t:start` and drives it through an arcade.test.Game.

---Declares a test. The file's top level declares; `arcade test` then runs each test, in order,
---and closes the games it started (their `quit()` runs; an error there fails the test).
---@param name string unique in the file; the report prints it
---@param fn fun(t: arcade.test.Context)
function test(name, fn) end

---Starts an expectation about `value` (only the first value counts: `expect(g:find("x"))` checks
---the column). A matcher that fails stops the test with where (file:line), what was expected,
---what was got, and the frame of the game the test used last.
---@param value any
---@param label? string named in the failure: "wallet: expected 190, got 200"
---@return arcade.test.Expectation
function expect(value, label) end

---What a test function receives.
---@class arcade.test.Context
---@field name string the test's name
local Context = {}

---Starts the game under test, headless, as `arcade play --headless` does: a fresh VM, `load(ctx)`
---run, no step taken yet (frame 0). Saves live in memory, empty unless `saves` presets keys.
---@param opts? { seed?: integer, cols?: integer, rows?: integer, saves?: table<string, arcade.Savable> } seed 1, 80 x 24 by default
---@return arcade.test.Game game
function Context:start(opts) end

---A game a test started. Input is queued and reaches the game with the next step, as a
---terminal's does; the methods that queue or step return the game, so calls chain:
---`g:key("enter"):step(60)`. Columns and rows are 0-based cells, as in mouse events.
---@class arcade.test.Game
local TestGame = {}

---Queues a key press: "a", "space", "enter", "left", "f1", "ctrl+c"...
---@param name string
---@param opts? { is_repeat?: boolean } an auto-repeat of a held key
---@return arcade.test.Game self
function TestGame:key(name, opts) end

---Queues a key release.
---@param name string
---@return arcade.test.Game self
function TestGame:keyup(name) end

---Queues a mouse event at a cell.
---@param action "press"|"release"|"drag"|"move"|"scroll_up"|"scroll_down"
---@param col integer
---@param row integer
---@param button? "left"|"middle"|"right"|"none" left (none for move) when missing
---@return arcade.test.Game self
function TestGame:mouse(action, col, row, button) end

---@param col integer
---@param row integer
---@param button? "left"|"middle"|"right"
---@return arcade.test.Game self
function TestGame:press(col, row, button) end

---@param col integer
---@param row integer
---@param button? "left"|"middle"|"right"
---@return arcade.test.Game self
function TestGame:drag(col, row, button) end

---@param col integer
---@param row integer
---@param button? "left"|"middle"|"right"
---@return arcade.test.Game self
function TestGame:release(col, row, button) end

---@param col integer
---@param row integer
---@return arcade.test.Game self
function TestGame:move(col, row) end

---Queues a press and its release at one cell, as a click arrives from the terminal.
---@param col integer
---@param row integer
---@param button? "left"|"middle"|"right"
---@return arcade.test.Game self
function TestGame:click(col, row, button) end

---Queues a resize of the terminal to cols x rows cells.
---@param cols integer
---@param rows integer
---@return arcade.test.Game self
function TestGame:resize(cols, rows) end

---Runs `n` steps (1 when missing), the queued input with the first. Stops early once the game
---asked to quit. An error in the game fails the test with the game's message and traceback.
---@param n? integer
---@return arcade.test.Game self
function TestGame:step(n) end

---Runs the steps of `seconds` of game time (60 a second, rounded).
---@param seconds number
---@return arcade.test.Game self
function TestGame:wait(seconds) end

---Steps until `condition(state, game)` is true (checked before each step, on a copy of
---game.state) and returns the steps taken; fails the test when it is still false after `limit`.
---@param condition fun(state: table, game: arcade.test.Game): any
---@param limit? integer 3600 (a minute) when missing
---@return integer steps
function TestGame:step_until(condition, limit) end

---A copy of game.state, brought over from the game's VM: data as it is (integer keys stay
---integers), functions and handles as strings ("<function>", "<arcade.Node>"). Changing the
---copy changes nothing in the game.
---@return table state
function TestGame:state() end

---The frame now, rows joined by newlines, as `--dump-frame plain` shows it: text as its
---characters, pixels as blocks (space, ▀, ▄, █) where they differ from the background.
---@return string text
function TestGame:text() end

---The frame now, one string a row: lines[1] is row 0.
---@return string[] lines
function TestGame:lines() end

---The frame now as cells: cells[row + 1][col + 1] is the character `cell(col, row)` gives (one call for the
---whole frame).
---@return string[][] cells
function TestGame:cells() end

---The character the frame shows at a cell, or nil outside the canvas. A wide character (CJK, an
---emoji) takes two cells: its first cell gives it, its second "". Then the cell's colours as
---"#rrggbb": a text cell's glyph `fg` and background `bg`; a pixel cell's `top` and `bottom`
---pixels, and `bg` when the two are one colour (what golden frames, plain text, cannot show).
---@param col integer
---@param row integer
---@return string? character
---@return { fg?: string, bg?: string, top?: string, bottom?: string }? colours
function TestGame:cell(col, row) end

---Where `text` first shows in the frame (reading order), or nil; `col` counts cells.
---@param text string
---@return integer? col
---@return integer? row
function TestGame:find(text) end

---Colours the text of the frame shows as blank, like the background, from now on: still
---scenery (sky, water), so that what moves stands out. Nil or {} goes back to the background only.
---@param colors? arcade.Color[]
---@return arcade.test.Game self
function TestGame:blank(colors) end

---Compares the frame, cell by cell, with tests/golden/<name>.txt and fails with the rows that
---differ; `arcade test --update-golden` writes the file instead. A missing file fails with the frame.
---@param name string letters, digits, '-', '_' and '.'
---@return arcade.test.Game self
function TestGame:expect_golden(name) end

---Steps taken since `load` (arcade.frame() in the game).
---@return integer
function TestGame:frame() end

---Game time in seconds (arcade.time() in the game).
---@return number
function TestGame:time() end

---The canvas size: cells, then pixels.
---@return integer cols
---@return integer rows
---@return integer width
---@return integer height
function TestGame:size() end

---A value the game saved with arcade.save.set, or nil.
---@param key string
---@return arcade.Savable? value
function TestGame:save(key) end

---The best score the game submitted, or nil.
---@return integer? best
function TestGame:best() end

---The sounds the game started (arcade.sfx.play, and the first pattern of music it starts), oldest first
---(the latest 4096): the sound's name, the step that started it (as `g:frame()` reads after
---that step) and its channel. With `name`, only the sounds of that name.
---@param name? string
---@return { name: string, step: integer, channel: integer }[] sounds
function TestGame:sounds(name) end

---The lines the game printed (print, arcade.log), oldest first.
---@return string[] lines
function TestGame:log() end

---A node the game named `name` (the first in drawing order), as the player sees it: where its
---anchor is on the canvas and its size there (its parents' moves and scales applied), whether
---it and all its parents are visible, its alpha times theirs, and a text or label's text. Nil
---when no node has that name. A copy: changing it changes nothing in the game.
---@param name string
---@return arcade.test.NodeView? node
function TestGame:node(name) end

---Every node the game named `name`, in drawing order (parents before children, siblings by z).
---@param name string
---@return arcade.test.NodeView[] nodes
function TestGame:nodes(name) end

---Every ball in the game's physics worlds (worlds, then balls, in the order they were made).
---@return { x: number, y: number, radius: number, vx: number, vy: number, name: string? }[] balls
function TestGame:balls() end

---What the player sees of a named node (`g:node`).
---@class arcade.test.NodeView
---@field name string
---@field kind arcade.NodeKind
---@field x number where its anchor is on the canvas
---@field y number
---@field width number its size on the canvas (a circle's diameter); a text's glyphs do not scale
---@field height number
---@field visible boolean it and every parent are visible
---@field alpha number its alpha times its parents'
---@field text string? a text or label node's text

---What the game holds now, after a full garbage collection (as `--stats` prints it).
---@return { nodes: integer, animations: integer, timers: integer, worlds: integer, bodies: integer, walls: integer, lua_kib: integer, native_kib: integer, frame: integer }
function TestGame:stats() end

---True once the game called arcade.quit().
---@return boolean
function TestGame:quit_requested() end

---Closes the game as a player leaving would: quit() runs (an error there fails the test). The
---handle is dead afterwards. Games still open when the test ends are closed the same way.
function TestGame:close() end

---Closes the game and starts it again with the same saves, as the player coming back would.
---Returns the new game; this handle is dead.
---@param opts? { seed?: integer, cols?: integer, rows?: integer } this game's when missing
---@return arcade.test.Game game
function TestGame:restart(opts) end

---What `expect(value)` returns. Each matcher returns the expectation, so they chain:
---`expect(n):to_be_at_least(1):to_be_at_most(5)`. `never` turns the next matcher around:
---`expect(s.phase).never:to_equal("over")`.
---@class arcade.test.Expectation
---@field never arcade.test.Expectation
local Expectation = {}

---Equal, tables compared deeply (a failure names the first path that differs).
---@param want any
---@return arcade.test.Expectation
function Expectation:to_equal(want) end

---The same value (==: tables must be the same table).
---@param want any
---@return arcade.test.Expectation
function Expectation:to_be(want) end

---Anything but nil and false.
---@return arcade.test.Expectation
function Expectation:to_be_truthy() end

---nil or false.
---@return arcade.test.Expectation
function Expectation:to_be_falsy() end

---@param want number
---@param tolerance? number 1e-9 when missing
---@return arcade.test.Expectation
function Expectation:to_be_near(want, tolerance) end

---@param bound number
---@return arcade.test.Expectation
function Expectation:to_be_greater_than(bound) end

---@param bound number
---@return arcade.test.Expectation
function Expectation:to_be_less_than(bound) end

---@param bound number
---@return arcade.test.Expectation
function Expectation:to_be_at_least(bound) end

---@param bound number
---@return arcade.test.Expectation
function Expectation:to_be_at_most(bound) end

---From `low` to `high`, both included.
---@param low number
---@param high number
---@return arcade.test.Expectation
function Expectation:to_be_between(low, high) end

---A string containing `part` (plain text, no pattern), or a table with an item equal to it.
---@param part any
---@return arcade.test.Expectation
function Expectation:to_contain(part) end

---A string matching a Lua pattern.
---@param pattern string
---@return arcade.test.Expectation
function Expectation:to_match(pattern) end

---A string or table of length `n` (#).
---@param n integer
---@return arcade.test.Expectation
function Expectation:to_have_length(n) end

---Of a type: "nil", "number", "integer", "float", "string", "boolean", "table", "function".
---@param kind string
---@return arcade.test.Expectation
function Expectation:to_be_a(kind) end

---The value is a function that raises an error (containing `text`, when given) when called.
---@param text? string
---@return arcade.test.Expectation
function Expectation:to_fail(text) end
