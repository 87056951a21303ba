-- RGB colours as { r, g, b } tables of whole numbers 0..255 (what `fill` and `color` accept),
-- and how far apart two of them are, for games that draw random colours and keep them apart.

local rgb = {}

-- The colour of a "#rrggbb" string, as { r, g, b }.
function rgb.parse(hex)
  return { tonumber(hex:sub(2, 3), 16), tonumber(hex:sub(4, 5), 16), tonumber(hex:sub(6, 7), 16) }
end

-- The squared distance between colours a and b in RGB space (compare it with a squared
-- margin; no square root is taken).
function rgb.distance2(a, b)
  local dr, dg, db = a[1] - b[1], a[2] - b[2], a[3] - b[3]
  return dr * dr + dg * dg + db * db
end

return rgb
