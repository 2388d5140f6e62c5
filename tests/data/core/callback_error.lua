local gpu = nvmodel.open{}
gpu:on("interrupt", function(ev)
  error("callback saw " .. ev.code)
end)
gpu:wr32(0x9140, 1)
gpu:wr32(0x160, 1 << 20)
gpu:wr32(0x9420, 64)
gpu:run{ ns = 1000 }
print("not reached")
