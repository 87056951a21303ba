-- Hit boxes: whether a mouse event lands in a box of canvas pixels, for buttons and for the
-- clickable words of a HUD line. A box is { x, y, w, h }: its top-left corner, its width and
-- its height, in pixels (a text row is two pixels tall).

local hitbox = {}

-- Whether the canvas point (x, y) lies in box b, its edges included.
function hitbox.contains(b, x, y)
  return x >= b.x and x <= b.x + b.w and y >= b.y and y <= b.y + b.h
end

-- Whether the mouse event e lands in box b: the middle of the clicked cell lies in it. A box
-- on whole cells is hit by exactly the cells it covers; another box by the cells whose middle
-- it covers.
function hitbox.hit(b, e)
  return hitbox.contains(b, e.x + 0.5, e.y + 1)
end

return hitbox
