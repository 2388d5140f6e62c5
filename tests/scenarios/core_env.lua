-- The Lua environment of scripts (docs/scenarios.md "Environment"): what is
-- kept, what is taken out so that a script cannot crash the tool or lift
-- its budgets, and reproducibility.

-- Trusted scripts keep io, os and package for their own files.
check(io and io.open and os and os.time and package and require, "io, os and package are there")

-- The budget cannot be removed, and nothing reaches below running C code.
check(debug.sethook == nil, "debug.sethook is gone")
for _, f in ipairs{ "setlocal", "setupvalue", "upvaluejoin", "setuservalue", "setmetatable",
                    "getregistry", "getlocal", "getuservalue", "getmetatable", "debug" } do
  check(debug[f] == nil, "debug." .. f .. " is gone")
end
check(type(debug.traceback()) == "string" and debug.getinfo(1, "l").currentline > 0, "traceback and getinfo stay")
check(require("debug") == debug, "require sees the same debug table")

-- The gpu metatable is protected: its __gc cannot be called on a live gpu.
local gpu = nvmodel.open{ chip = "nv17", vram = "1M", sysmem = "1M" }
check(getmetatable(gpu) == false, "getmetatable(gpu) is protected")
check(not pcall(setmetatable, gpu, {}), "setmetatable on a gpu fails")

-- Binary chunks are refused everywhere; text loads as usual.
local f, err = load(string.dump(function() return 1 end))
check(f == nil and err:find("binary"), "load of bytecode refused: " .. tostring(err))
check(not pcall(load, "return 1", "x", "b"), "mode 'b' refused")
check(load("return 1 + 1")() == 2, "load of text")
check(load("return x", "chunk", "t", { x = 5 })() == 5, "load with an env")
check(load("return print")() == print, "load without an env sees the globals")
local path = os.tmpname()
local fh = io.open(path, "wb")
fh:write(string.dump(function() return 1 end))
fh:close()
f, err = loadfile(path)
check(f == nil and err:find("binary"), "loadfile of bytecode refused: " .. tostring(err))
check(not pcall(dofile, path), "dofile of bytecode refused")
package.path = path:gsub("[^/]*$", "?") .. ";" .. package.path
local ok, e = pcall(require, path:match("[^/]*$"))
check(not ok and tostring(e):find("binary"), "require of bytecode refused: " .. tostring(e))
os.remove(path)

-- math.random is seeded (--seed, default 0), not from the clock.
check(math.random(1000000) == 275394, "math.random with seed 0")

-- API tables iterate in a stable order: integer keys, then strings.
local keys = {}
for k in pairs(gpu:hwsq_state()) do keys[#keys + 1] = k end
check(table.concat(keys, ",") == "a,b,events,fb_pause,fb_paused,flags,instructions,status,variant",
      "hwsq_state keys in order: " .. table.concat(keys, ","))
local fl = {}
for k in pairs(gpu:hwsq_state().flags) do fl[#fl + 1] = k end
check(#fl == 32 and fl[1] == 0 and fl[32] == 31, "flags 0..31 in order")
local evkeys
gpu:on("unmodelled", function(ev)
  evkeys = {}
  for k in pairs(ev) do evkeys[#evkeys + 1] = k end
end)
gpu:rd32(0x123400)
check(table.concat(evkeys, ",") == "addr,block,code,message,time_ns,type,value", "event keys in order")
gpu:close()
