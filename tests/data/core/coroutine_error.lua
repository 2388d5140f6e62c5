local co = coroutine.wrap(function()
  error("raised inside")
end)
co()
