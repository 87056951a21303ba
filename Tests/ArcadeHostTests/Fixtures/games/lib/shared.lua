-- shared helpers available to every game as require("lib.shared")
local shared = {}
function shared.greet(name) return "hello " .. name end
return shared
