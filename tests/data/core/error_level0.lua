-- error() with level 0 carries no position; the runner adds it.
error("plain message", 0)
