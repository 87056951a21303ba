-- Text buttons: a filled box with a one-line caption in its middle, made, placed, shown,
-- hidden, clicked and removed as one. The box is in canvas pixels; the caption is centred on
-- it, on the text row that holds the box's centre. A box three text rows (six pixels) tall
-- with its top on a cell boundary (`button.place`) shows its caption in the middle row;
-- `button.center` puts the box's centre in the middle of a cell instead, for other heights.
--
-- A button is a table: `node` (a group at the box's top-left corner: its `z` and `visible`
-- are the button's), `shape` (the filled rect, centred in the box, so scaling it grows it
-- about the middle), `caption` (the text) and `box` ({ x, y, w, h }, read only: change it
-- with `place`, `center` and `resize`).

local hitbox = require("lib.hitbox")

local PAD = 2     -- columns of fill either side of the caption, in a box sized to it
local HEIGHT = 6  -- pixels: three text rows, the caption in the middle one

local button = {}

-- Gives the box a new size; its top-left corner stays where it is.
function button.resize(b, w, h)
  b.box.w, b.box.h = w, h
  b.shape.width, b.shape.height = w, h
  b.shape.x, b.shape.y = w / 2, h / 2
  b.caption.x, b.caption.y = w / 2, h / 2
end

-- Makes a button at the canvas's top-left corner: `opts.text` (the caption), `opts.fill`, and
-- optional `opts.stroke` (the box's edge), `opts.color` (the caption's, white when nil),
-- `opts.z`, and `opts.width`, `opts.height` (the box's size: the caption with two columns of
-- fill either side, three rows tall, when nil).
function button.new(opts)
  local node = arcade.scene.group{ z = opts.z }
  local shape = arcade.scene.rect{ parent = node, fill = opts.fill, stroke = opts.stroke }
  local caption = arcade.scene.text{ parent = node, text = opts.text, color = opts.color or "white", z = 1 }
  local b = { node = node, shape = shape, caption = caption, box = { x = 0, y = 0, w = 0, h = 0 } }
  button.resize(b, opts.width or utf8.len(opts.text) + 2 * PAD, opts.height or HEIGHT)
  return b
end

-- Puts the box's top-left corner at x and at the cell boundary at or above y.
function button.place(b, x, y)
  b.box.x, b.box.y = x, 2 * math.floor(y / 2)
  b.node.x, b.node.y = b.box.x, b.box.y
end

-- Puts the box's centre at x and in the middle of the cell holding y, where the caption sits.
function button.center(b, x, y)
  b.box.x, b.box.y = x - b.box.w / 2, 2 * math.floor(y / 2) + 1 - b.box.h / 2
  b.node.x, b.node.y = b.box.x, b.box.y
end

-- Shows the button (`shown` true or nil) or hides it.
function button.show(b, shown)
  b.node.visible = shown ~= false
end

-- Whether the mouse event e lands on button b: the middle of the clicked cell lies in its box
-- (`hitbox.hit`). Never when b is nil or hidden.
function button.hit(b, e)
  return b ~= nil and b.node.visible and hitbox.hit(b.box, e)
end

-- Removes the button's nodes (nothing when b is nil).
function button.remove(b)
  if b then b.node:remove() end
end

return button
