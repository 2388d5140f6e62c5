-- io is not there with --sandbox
io.write("x")
