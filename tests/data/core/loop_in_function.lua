-- an endless loop inside a function: the budget error names the loop line
local function spin()
  while true do end
end

spin()
