-- Checks a --trace file of examples/g84_ib_channels.lua: the G80 pusher's
-- IB entries and fetches, the puller's methods and semaphore wait and
-- release, channel switches. Usage: nvmodel run THIS -- TRACE.json
local f = assert(io.open(arg[1], "r"))
local text = f:read("a")
f:close()
for _, name in ipairs{ "ib_entry", "dma_fetch", "pgraph", "acquire_wait", "acquire_done", "release", "ctx_switch",
                       "playlist" } do
  check(text:find('"name": "' .. name .. '"', 1, true), "trace event " .. name)
end
check(text:find('"name": "CACHE1"', 1, true), "a CACHE1 track")
