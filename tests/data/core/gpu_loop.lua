-- Opens GPUs and keeps them all.
local keep = {}
for i = 1, math.maxinteger do
  keep[i] = nvmodel.open{ chip = "nv04" }
end
