-- Whole-pixel scales: art drawn at whole-number scales keeps every pixel square and sharp, so
-- titles, buttons and sprites grow with the canvas in whole steps.

local pixelscale = {}

-- The largest whole scale, at least 1, at which a box `need_w` x `need_h` fits in `room_w` x
-- `room_h` (any unit, the same for both). At scale 1 it may not fit: nothing is drawn smaller.
function pixelscale.fit(room_w, room_h, need_w, need_h)
  return math.max(1, math.floor(math.min(room_w / need_w, room_h / need_h)))
end

return pixelscale
