error("bad \255 byte, good \195\169")
