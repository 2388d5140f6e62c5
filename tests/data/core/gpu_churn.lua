-- Opens, uses and drops GPUs: closed or unreachable ones do not count
-- against the limit of open GPUs nor against the memory budget.
for i = 1, 200 do
  local g = nvmodel.open{ chip = "nv04" }
  g:mem_write("vram", 0, string.rep("x", 65536))
  if i % 2 == 0 then g:close() end
end
print("ok")
