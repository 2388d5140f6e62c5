-- Checks a --trace file of examples/nv17_dma_jump_call.lua or a PFIFO
-- scenario: CACHE1 residency slices ("channel N" on a "CACHE1" track),
-- balanced B/E, a CACHE1 occupancy counter, pusher fetches and puller
-- methods. Usage: nvmodel run THIS -- TRACE.json
local f = assert(io.open(arg[1], "r"))
local text = f:read("a")
f:close()
local open, seen = nil, {}
for ph, name in text:gmatch('"ph": "([BE])"[^}]-"name": "channel (%d+)"') do
  if ph == "B" then
    check(open == nil, "a CACHE1 slice begins while another is open")
    open = name
    seen[name] = true
  else
    check(open == name, "a CACHE1 slice ends that is not open")
    open = nil
  end
end
check(next(seen), "CACHE1 residency slices")
check(text:find('"name": "CACHE1"', 1, true), "a CACHE1 track")
check(text:find('"name": "CACHE1 entries"', 1, true), "a CACHE1 occupancy counter")
check(text:find('"name": "dma_fetch"', 1, true), "DMA pusher fetches")
check(text:find('"name": "pgraph"', 1, true), "puller methods to PGRAPH")
check(text:find('"name": "ctx_switch"', 1, true), "channel switches")
