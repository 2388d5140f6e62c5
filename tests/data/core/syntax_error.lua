local gpu = nvmodel.open{}
if gpu then
  print("unterminated"
end
