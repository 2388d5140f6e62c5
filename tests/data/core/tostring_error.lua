-- an error object whose __tostring fails
error(setmetatable({}, { __tostring = function() error("no text") end }))
