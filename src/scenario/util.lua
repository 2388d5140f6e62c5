-- nvmodel.util: the argument checks the builder modules (nvmodel.volta,
-- nv04, g80, g80fifo) share. Errors name the function and are raised
-- without a position (the caller's `where`), so a script's mistake reads
-- as "vm:map: virt must be an integer (got nil)".

local fmt = string.format

local M = {}

function M.fail(...)
  error(fmt(...), 0)
end

-- An integer as 0x..., negative ones as -0x...
function M.hex(v)
  if math.type(v) ~= "integer" then return tostring(v) end
  return v < 0 and fmt("-0x%x", -v) or fmt("0x%x", v)
end

-- v must be an integer in [lo, hi]; returns it.
function M.check_int(v, name, lo, hi, where)
  if math.type(v) ~= "integer" then
    M.fail("%s: %s must be an integer (got %s)", where, name, v == nil and "nil" or tostring(v))
  end
  if v < lo or v > hi then
    M.fail("%s: %s = %s out of range [%s, %s]", where, name, M.hex(v), M.hex(lo), M.hex(hi))
  end
  return v
end

function M.opt(v, def) if v == nil then return def end return v end
function M.bit(b) return b and 1 or 0 end

return M
