#!/usr/bin/env -S nvmodel run
-- a UTF-8 BOM and a shebang line: line numbers still count them
print("ran")
error("on line 4")
