-- compiles fine; running it would never end, so a catalog that ran it would hang or mark it broken
while true do end
return {}
