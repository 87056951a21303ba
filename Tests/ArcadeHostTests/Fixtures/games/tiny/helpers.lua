local helpers = {}

function helpers.describe_key(e)
  local prefix = e.ctrl and "ctrl+" or ""
  return prefix .. e.key
end

return helpers
