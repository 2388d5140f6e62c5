-- Validates a trace written by --trace: arg[1] = file, arg[2] = minimum
-- number of instant events (default 3).
local f = assert(io.open(arg[1], "r"))
local text = f:read("a")
f:close()
local min = tonumber(arg[2] or "3")
check(text:find('^{"displayTimeUnit": "ns", "traceEvents": %['), "header")
check(text:find("%]}\n$"), "closed JSON")
local n = 0
for line in text:gmatch('[^\n]+') do
  if line:find('"ph": "i"') then
    n = n + 1
    check(line:find('"ts": %d+%.%d%d%d') and line:find('"pid": %d+') and line:find('"cat": "%a'),
          "event fields: " .. line)
  end
end
check(n >= min, "at least " .. min .. " events, got " .. n)
-- Balanced braces and brackets outside strings: a cheap structural check.
local depth, instr, esc = 0, false, false
for c in text:gmatch(".") do
  if instr then
    if esc then esc = false elseif c == "\\" then esc = true elseif c == '"' then instr = false end
  elseif c == '"' then instr = true
  elseif c == "{" or c == "[" then depth = depth + 1
  elseif c == "}" or c == "]" then depth = depth - 1; check(depth >= 0, "unbalanced")
  end
end
check(depth == 0 and not instr, "balanced JSON")
