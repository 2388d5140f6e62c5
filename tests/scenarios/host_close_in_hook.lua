-- Closing the GPU from an event callback while a channel runs (a software
-- method's interrupt, a method event, a trace event) is safe: the run stops,
-- the gpu object is closed for the script, nothing is freed under the Host.
local volta = nvmodel.volta
for _, event in ipairs({ "interrupt", "method", "trace" }) do
  local gpu = nvmodel.open{ chip = "gv100", vram = "64M" }
  local heap = volta.heap(gpu, "vram", 0x100000, "32M")
  local vm = volta.vm(gpu, heap)
  local ch = volta.channel(gpu, vm, { chid = 0, runlist = 0 })
  volta.runlist(gpu, heap, { { id = 1, ch } }):submit(0)
  gpu:wr32(0x40000 + 0x10c, 0xffffffff); gpu:wr32(0x2140, 1 << 29); gpu:wr32(0x160, 1 << 8)
  local closed = false
  gpu:on(event, function(ev)
    if not closed then closed = true; gpu:close() end
  end)
  ch:push("inc 0 SET_OBJECT 0xc397\ninc 0 0x200 1 2 3\ninc 5 0x100 7\ninc 0 0x204 4")
  local ok, err = pcall(function() return gpu:run{ ns = 1000000, idle = true } end)
  check(closed, event .. ": the callback ran")
  check(not pcall(function() return gpu:rd32(0) end), event .. ": the gpu is closed for the script")
end
