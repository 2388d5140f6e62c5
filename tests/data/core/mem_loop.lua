-- Touches a new page of system memory in every iteration, for ever.
local g = nvmodel.open{}
for i = 0, math.maxinteger do
  g:mem_wr32("sysmem", i * 4096, i)
end
