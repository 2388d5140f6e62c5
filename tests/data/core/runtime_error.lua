local gpu = nvmodel.open{}
local t = nil
print(t.field)
