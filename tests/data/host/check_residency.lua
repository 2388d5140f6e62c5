-- Checks a --trace file of tests/scenarios/host_two_tsgs.lua: channel
-- residency slices ("ph": "B" / "E", "channel N") on a "PBDMA 0" track,
-- balanced, and both channels present. Usage: nvmodel run THIS -- TRACE.json
local f = assert(io.open(arg[1], "r"))
local text = f:read("a")
f:close()
local open, seen, last = 0, {}, nil
for ph, name in text:gmatch('"ph": "([BE])"[^}]-"name": "channel (%d+)"') do
  if ph == "B" then
    check(open == 0, "a slice begins while another is open")
    open, last = 1, name
    seen[name] = true
  else
    check(open == 1 and name == last, "a slice ends that is not open")
    open = 0
  end
end
check(open == 0, "every slice ends")
check(seen["1"] and seen["2"], "both channels were resident")
check(text:find('"name": "PBDMA 0"', 1, true), "a PBDMA 0 track")
