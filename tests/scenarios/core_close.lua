-- gpu:close() from Lua code that runs in the middle of a method (event
-- callbacks, metamethods of an argument, finalizers, coroutines) must not
-- free the GPU under the method: under ASan any use after free fails here.

local function alarm_gpu()
  local gpu = nvmodel.open{ vram = "1M", sysmem = "1M" }
  gpu:wr32(0x9140, 1)       -- PTIMER_INTR_EN_0: ALARM
  gpu:wr32(0x160, 1 << 20)  -- PMC_INTR_EN_SET(0): PTIMER
  gpu:wr32(0x9420, 64)      -- PTIMER_ALARM_0
  return gpu
end

local function closed(gpu)
  local ok, err = pcall(gpu.rd32, gpu, 0)
  return not ok and err:find("closed") ~= nil
end

-- An interrupt callback closes the gpu during run: the run stops.
local gpu = alarm_gpu()
local calls = 0
gpu:on("interrupt", function() calls = calls + 1; gpu:close() end)
gpu:on("*", function() calls = calls + 100 end) -- not called after the close
check(gpu:run{ ns = 1000 } == "stopped", "a close in a callback stops the run")
check(calls == 1, "no callback after the close: " .. calls)
check(closed(gpu), "the gpu is closed afterwards")
gpu:close() -- closing again is harmless

-- An mmio callback closes it during a register write.
gpu = nvmodel.open{ vram = "1M", sysmem = "1M" }
gpu:on("mmio", function() gpu:close() end)
gpu:wr32(0x9140, 1)
check(closed(gpu), "closed by an mmio callback")

-- The metamethod of an argument table closes it while the method reads
-- its fields, before the library call.
gpu = nvmodel.open{ vram = "1M", sysmem = "1M" }
local arg = setmetatable({ pdb = { "vram", 0 } }, { __index = function(_, k)
  if k == "va" then gpu:close() end
end })
gpu:mmu_translate(arg)
check(closed(gpu), "closed by a metamethod")
gpu = alarm_gpu()
local ok, err = pcall(gpu.run, gpu, setmetatable({}, { __index = function(_, k)
  if k == "ns" then gpu:close(); return 10 end
end }))
check(not ok and err:find("closed"), "run of a gpu closed while reading its options: " .. tostring(err))

-- A finalizer closes it while a method allocates.
collectgarbage("incremental", 1, 1000)
gpu = nvmodel.open{ chip = "nv17", vram = "1M", sysmem = "1M" }
local done = false
for i = 1, 2000 do
  setmetatable({}, { __gc = function() if not done then done = true; gpu:close() end end })
  if not pcall(gpu.mem_read, gpu, "vram", 0, 65536) then break end
end
check(done and closed(gpu), "closed by a finalizer")
collectgarbage("incremental", 200, 100)

-- A callback drops the last reference and collects: the running gpu stays.
do
  local g = alarm_gpu()
  local hits = 0
  g:on("interrupt", function() hits = hits + 1; g = nil; collectgarbage() end)
  check(g:run{ ns = 1000 } == "budget" and hits == 1, "a collected reference does not free a running gpu")
end
collectgarbage()

-- Callbacks of a gpu used from a coroutine; the coroutine closes it.
gpu = alarm_gpu()
gpu:on("interrupt", function() gpu:close() end)
local co = coroutine.wrap(function() return gpu:run{ ns = 1000 } end)
check(co() == "stopped", "run from a coroutine")
check(closed(gpu), "closed from a callback run from a coroutine")

-- A gpu opened in a coroutine that is gone: callbacks still have a thread.
local g2
coroutine.wrap(function() g2 = alarm_gpu() end)()
collectgarbage()
local seen = 0
g2:on("interrupt", function() seen = seen + 1 end)
g2:run{ ns = 1000 }
check(seen == 1, "callback of a gpu opened in a dead coroutine")

-- A run from a callback of a run of the same gpu is an error.
gpu = alarm_gpu()
gpu:on("interrupt", function() gpu:run{ ns = 10 } end)
ok, err = pcall(gpu.run, gpu, { ns = 1000 })
check(not ok and err:find("called from an event callback"), "nested run: " .. tostring(err))
gpu:close()
