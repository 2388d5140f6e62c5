-- The H100 silicon record's copy-engine cases (refs/silicon-h100.md "Copy
-- engine": HOPPER_DMA_COPY_A C8B5 as GRCOPY on subchannel 4) on the gh100
-- chip: a channel built by nvmodel.volta as RM's Hopper code builds it (ver3
-- page tables, the work-submit token), the copies sent with class C8B5.
-- Each case that stops the channel (a launch error, an illegal method, a
-- fault) gets a fresh GPU.

local volta = require "nvmodel.volta"

-- LAUNCH_DMA (clc8b5.h): DATA_TRANSFER_TYPE 1:0, FLUSH 2, SEMAPHORE_TYPE 4:3,
-- SRC/DST_MEMORY_LAYOUT 7/8 (1 PITCH), MULTI_LINE 9, REMAP 10,
-- SEMAPHORE_REDUCTION 17:14, _SIGN 18 (1 UNSIGNED), _ENABLE 19.
local COPY = 2 | 0x80 | 0x100
local SEM_ONE, SEM_FOUR, MULTI, REMAP = 1 << 3, 2 << 3, 1 << 9, 1 << 10
local function RED(op, unsigned) return 1 << 19 | op << 14 | (unsigned and 1 << 18 or 0) end

local function fresh()
  local gpu = nvmodel.open{ chip = "gh100", vram = "256M" }
  local heap = volta.heap(gpu, "vram", 0x100000, "64M")
  local vm = volta.vm(gpu, heap)
  local ch = volta.channel(gpu, vm, { chid = 3, runlist = 0 })
  volta.runlist(gpu, heap, { { id = 1, ch } }):submit()
  gpu:run{ ns = 10000 }
  local t = { gpu = gpu, vm = vm, ch = ch, errors = {} }
  gpu:on("guest_error", function(ev) t.errors[#t.errors + 1] = ev.code end)
  ch:push("inc 4 SET_OBJECT 0xc8b5")
  return t
end

local function hi(v) return v >> 32 end
local function lo(v) return v & 0xffffffff end

local function io(t, src, dst)
  return string.format("inc 4 0x400 0x%x 0x%x 0x%x 0x%x\n", hi(src), lo(src), hi(dst), lo(dst))
end

local function run(t, pb)
  t.ch:push(pb)
  return t.gpu:run{ ns = 10000000, idle = true }
end

local function bytes(n, seed)
  local b = {}
  for i = 1, n do b[i] = string.char((seed + i * 7 + (i >> 8)) & 0xff) end
  return table.concat(b)
end

-- 1-D copies write exactly [dst, dst + LINE_LENGTH_IN); LINE_COUNT and the
-- pitches are ignored; pipelined or not, with or without FLUSH.
local t = fresh()
local src, dst, sem = t.vm:alloc_map(3 * 4096), t.vm:alloc_map(3 * 4096), t.vm:alloc_map(4096)
t.vm:write(src, bytes(3 * 4096, 1))
for _, c in ipairs{ { 0, 0, 1, COPY }, { 3, 5, 4093, COPY | 4 }, { 100, 4000, 5000, (COPY & ~3) | 1 } } do
  t.vm:write(dst, string.rep("\xaa", 3 * 4096))
  run(t, io(t, src + c[1], dst + c[2]) .. string.format("inc 4 0x410 1 1 %d 7\ninc 4 0x300 0x%x", c[3], c[4]))
  local want = string.rep("\xaa", c[2]) .. t.vm:read(src + c[1], c[3])
  want = want .. string.rep("\xaa", 3 * 4096 - #want)
  check(t.vm:read(dst, 3 * 4096) == want, string.format("1-D copy of %d bytes is exact", c[3]))
end

-- LINE_LENGTH_IN 0 and DATA_TRANSFER_TYPE NONE copy nothing, no error; the
-- semaphore is still released; the state persists between launches.
t.vm:write(dst, string.rep("\xaa", 64))
run(t, io(t, src, dst) ..
       string.format("inc 4 0x240 0x%x 0x%x 1\ninc 4 0x418 0\ninc 4 0x300 0x%x", hi(sem), lo(sem), COPY | SEM_ONE))
check(t.vm:rd32(sem) == 1 and t.vm:read(dst, 64) == string.rep("\xaa", 64), "LINE_LENGTH_IN 0: released, no copy")
run(t, string.format("inc 4 0x418 64\ninc 4 0x248 2\ninc 4 0x300 0x%x", 0x180 | SEM_ONE))
check(t.vm:rd32(sem) == 2 and t.vm:read(dst, 64) == string.rep("\xaa", 64), "DATA_TRANSFER_TYPE NONE")
run(t, string.format("inc 4 0x300 0x%x", COPY))
check(t.vm:read(dst, 64) == t.vm:read(src, 64), "offsets and line length persisted")

-- Overlapping source and destination give the memmove result.
t.vm:write(src, bytes(3 * 4096, 9))
local before = t.vm:read(src, 3 * 4096)
run(t, io(t, src, src + 100) .. "inc 4 0x418 9000\ninc 4 0x300 " .. COPY)
check(t.vm:read(src + 100, 9000) == before:sub(1, 9000), "overlap from above: memmove")
before = t.vm:read(src, 3 * 4096)
run(t, io(t, src + 200, src + 100) .. "inc 4 0x418 9000\ninc 4 0x300 " .. COPY)
check(t.vm:read(src + 100, 9000) == before:sub(201, 9200), "overlap from below: memmove")

-- 2-D: line i from in + i * PITCH_IN to out + i * PITCH_OUT; bytes between
-- the lines are untouched.
t.vm:write(dst, string.rep("\x55", 4096))
run(t, io(t, src, dst) .. string.format("inc 4 0x410 256 300 40 5\ninc 4 0x300 0x%x", COPY | MULTI))
local ok2d = true
for i = 0, 4 do
  ok2d = ok2d and t.vm:read(dst + i * 300, 40) == t.vm:read(src + i * 256, 40)
  ok2d = ok2d and t.vm:read(dst + i * 300 + 40, 260) == string.rep("\x55", 260)
end
check(ok2d, "2-D copy: lines at their pitches, the gaps untouched")

-- Semaphores after the copy: ONE_WORD 4 bytes; FOUR_WORD payload, 0, then a
-- PTIMER timestamp (a multiple of 32 ns).
t.vm:write(sem, string.rep("\xff", 32))
run(t, string.format("inc 4 0x240 0x%x 0x%x 7\ninc 4 0x300 0x%x", hi(sem), lo(sem), COPY | SEM_ONE))
check(t.vm:rd32(sem) == 7 and t.vm:rd32(sem + 4) == 0xffffffff, "ONE_WORD writes 4 bytes")
run(t, string.format("inc 4 0x240 0x%x 0x%x 8\ninc 4 0x300 0x%x", hi(sem + 16), lo(sem + 16), COPY | SEM_FOUR))
local w0, w1, t0, t1 = t.vm:rd32(sem + 16, 4)
check(w0 == 8 and w1 == 0 and (t0 | t1) ~= 0 and t0 & 31 == 0, "FOUR_WORD: payload, 0, timestamp")

-- Reductions as the Host's: IADD wraps; INC wraps to 0 at the payload; FADD
-- keeps denormals, a NaN result is 0x7fffffff.
local function reduce(old, payload, launch)
  t.vm:wr32(sem, old)
  run(t, string.format("inc 4 0x240 0x%x 0x%x %d\ninc 4 0x300 0x%x", hi(sem), lo(sem), payload, launch))
  return t.vm:rd32(sem)
end
check(reduce(0xffffffff, 2, 0x180 | SEM_ONE | RED(5)) == 1, "IADD wraps")
check(reduce(5, 5, 0x180 | SEM_ONE | RED(6, true)) == 0, "INC at the payload wraps to 0")
check(reduce(1, 1, 0x180 | SEM_ONE | RED(0xa)) == 2, "FADD keeps denormals")
check(reduce(0x7f800000, 0xff800000, 0x180 | SEM_ONE | RED(0xa)) == 0x7fffffff, "FADD inf - inf")

-- A 4-byte CONST_A remap is how drivers memset (the source is not read).
run(t, io(t, 0, dst) .. string.format(
  "inc 4 0x700 0x12345678\ninc 4 0x708 0x%x\ninc 4 0x418 16\ninc 4 0x300 0x%x", 4 | 3 << 16, COPY | REMAP))
check(t.vm:rd32(dst, 1) == 0x12345678 and t.vm:rd32(dst + 60) == 0x12345678, "CONST_A remap memset")
check(#t.errors == 0, "no errors so far")

-- With LINE_COUNT >= 2 a pitch below the line length is a launch error:
-- nothing is written and the channel stops.
t = fresh()
src, dst = t.vm:alloc_map(4096), t.vm:alloc_map(4096)
t.vm:write(dst, string.rep("\x11", 256))
run(t, io(t, src, dst) .. string.format("inc 4 0x410 16 64 64 2\ninc 4 0x300 0x%x", COPY | MULTI))
check(t.errors[1] == "launch_error" and t.vm:read(dst, 256) == string.rep("\x11", 256), "pitch below the line")

-- A semaphore that is not aligned is a launch error.
t = fresh()
sem = t.vm:alloc_map(4096)
run(t, string.format("inc 4 0x240 0x%x 0x%x 1\ninc 4 0x300 0x%x", hi(sem + 2), lo(sem + 2), 0x180 | SEM_ONE))
check(t.errors[1] == "launch_error", "unaligned semaphore")

-- An undefined method is reported with its method and data.
t = fresh()
local got
t.gpu:on("guest_error", function(ev) if ev.code == "illegal_method" then got = ev end end)
run(t, "inc 4 0x104 0xabc")
check(got and got.addr == 0x104 and got.value == 0xabc, "illegal method reported with method and data")

-- An unmapped destination faults with the CE's engine id, WRITE access.
t = fresh()
src = t.vm:alloc_map(4096)
local fault
t.gpu:on("fault", function(ev) fault = ev end)
run(t, io(t, src, 0x7000000000) .. "inc 4 0x418 64\ninc 4 0x300 " .. COPY)
check(fault and fault.addr == 0x7000000000, "unmapped destination faults")
print("gh100 copy engine (C8B5): the silicon H100 cases pass")
