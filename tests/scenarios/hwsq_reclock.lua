-- HWSQ memory-reclock scenario (seed 004 "Framebuffer pause feature",
-- "MMIO poke opcodes", "PTIMER wait opcodes"): a driver uploads a script
-- through the code window, sets an entry point, enables HWSQ and triggers
-- it; the script pauses the framebuffer, waits for FB_PAUSED, pokes the
-- memory registers, waits, and unpauses. Checks the order and the virtual
-- times of the writes, and that host accesses are held during the pause.

local NV_PBUS_DEBUG_6 = 0x1098
local HWSQ_ENABLE = 1 << 3
local HWSQ_STATUS = 0x1308
local FB_PAUSE_DELAY = 1000     -- ns, the model's pause latency (docs/fidelity.md)
local WAIT_NS = 16 * 0x20 * 32  -- wait 0x1 shl 0x4: 16 units of 0x20 PTIMER clocks

for _, chip in ipairs{ "nv41", "g80", "g92" } do
  local gpu = nvmodel.open{ chip = chip, vram = "16M", sysmem = "16M" }
  local writes = {}
  gpu:on("trace", function(ev)
    if ev.block == "hwsq" and ev.code == "poke" then
      writes[#writes + 1] = { t = ev.time_ns, addr = ev.addr, value = ev.value }
    end
  end)
  gpu:mem_wr32("vram", 0x1000, 0x600d)

  local code = gpu:hwsq_asm([[
    // preamble at 0: never run in this scenario
    exit
  reclock:
    set1 #FB_PAUSE
    ewait #FB_PAUSED 1
    data 0x80000000
    addr 0x100210       // refresh off
    data 0x00010203
    addr 0x4008         // PLL coefficients
    datalo 0x0001
    addrlo 0x400c       // PLL enable: ADDR keeps the high half 0x0000
    wait 0x1 shl 0x4
    data 0x80000001
    addr 0x100210       // refresh on
    unset #FB_PAUSE
    exit
  ]])
  gpu:hwsq_upload(code)
  gpu:hwsq_entry(2, 1)
  gpu:wr32(NV_PBUS_DEBUG_6, HWSQ_ENABLE)
  local t0 = gpu:time_ns()
  gpu:hwsq_start(2)

  -- During the pause: memory is held; on G80+ host MMIO too.
  gpu:run{ ns = 500 }
  local st = gpu:hwsq_state()
  check(st.fb_pause and not st.fb_paused, chip .. ": pause requested, not yet complete")
  local ok, err = pcall(gpu.mem_rd32, gpu, "vram", 0x1000)
  check(not ok and err:find("blocked"), chip .. ": VRAM read held during the pause")
  local mmio_ok = pcall(gpu.rd32, gpu, HWSQ_STATUS)
  check(mmio_ok == (chip == "nv41"), chip .. ": host MMIO held on G80+ only")

  check(gpu:run{ ns = 1000000, idle = true } == "idle", chip .. ": script ends")
  st = gpu:hwsq_state()
  check(not st.a.executing and not st.fb_pause, chip .. ": exited and unpaused")
  check(st.a.ip == #code - 1, chip .. ": IP on the exit")

  local want = {
    { t0 + FB_PAUSE_DELAY, 0x100210, 0x80000000 },
    { t0 + FB_PAUSE_DELAY, 0x4008, 0x00010203 },
    { t0 + FB_PAUSE_DELAY, 0x400c, 0x00010001 },
    { t0 + FB_PAUSE_DELAY + WAIT_NS, 0x100210, 0x80000001 },
  }
  check(#writes == #want, chip .. ": four pokes")
  for i, w in ipairs(want) do
    check(writes[i].t == w[1] and writes[i].addr == w[2] and writes[i].value == w[3],
          string.format("%s: poke %d: got %d ns 0x%x <- 0x%x", chip, i, writes[i].t, writes[i].addr,
                        writes[i].value))
  end
  check(gpu:mem_rd32("vram", 0x1000) == 0x600d, chip .. ": memory readable again")
  check(gpu:rd32(HWSQ_STATUS) & 0x1ff == #code - 1, chip .. ": STATUS readable again")
  print(string.format("%s: reclock done at %d ns, %d pokes", chip, gpu:time_ns(), #writes))
  gpu:close()
end

-- Events from Lua: a vblank-synchronised poke on g80.
local gpu = nvmodel.open{ chip = "g80", vram = "16M", sysmem = "16M" }
gpu:hwsq_upload(gpu:hwsq_asm("ewait #HEAD0_VBLANK 1\ndata 0x5\naddr 0x1304\nexit\n"))
gpu:wr32(NV_PBUS_DEBUG_6, HWSQ_ENABLE)
gpu:hwsq_start(0)
gpu:run{ ns = 5000 }
check(gpu:hwsq_state().a.executing, "waiting for vblank")
gpu:hwsq_event(1, 1)
gpu:run{ ns = 10 }
check(gpu:rd32(0x1304) == 5, "poke after vblank")
check(gpu:rd32(0x1578) == 2, "EVENTS shows HEAD0_VBLANK")
-- Current envydis' names (docs/hwsq.md); the old ones still assemble.
check(gpu:hwsq_dis(string.char(0x5f, 1, 1, 0x7f)) == "ewait #HEAD0_VBLANK 0x1\nexit\n", "hwsq_dis")
check(gpu:hwsq_asm("ewait #CRTC0_VBLANK 1\nset1 #BUS_PAUSE\n") == string.char(0x5f, 1, 1, 0xb0), "old names")
-- Code of any length assembles (as envyas); the upload refuses what does
-- not fit the code RAM (0x100 bytes on g80).
local long = gpu:hwsq_asm(string.rep("exit\n", 0x101))
check(#long == 0x101, "0x101 bytes assembled")
local ok, err = pcall(gpu.hwsq_upload, gpu, long)
check(not ok and err:find("257 %(0x101%) bytes at 0x0 do not fit the g80 code RAM %(0x100 bytes%)"),
      "upload refuses code longer than the RAM: " .. tostring(err))
gpu:hwsq_upload(long:sub(1, 0x100))
gpu:close()

-- Assembler errors name the line; chips without HWSQ refuse the methods.
local g = nvmodel.open{ chip = "nv17", vram = "16M", sysmem = "16M" }
ok, err = pcall(g.hwsq_asm, g, "exit\naddr 0x1304\n")
check(not ok and err:find("line 2") and err:find("NV41"), "nv17 rejects addr on line 2")
g:close()
local v = nvmodel.open{ chip = "gv100", vram = "16M", sysmem = "16M" }
ok, err = pcall(v.hwsq_state, v)
check(not ok and err:find("no HWSQ"), "gv100 has no HWSQ")
v:close()
