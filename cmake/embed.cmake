# Turns a text file into a C array: cmake -DIN= -DOUT= -DSYM= -P embed.cmake
file(READ "${IN}" HEX HEX)
string(LENGTH "${HEX}" LEN)
math(EXPR N "${LEN} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," BYTES "${HEX}")
file(WRITE "${OUT}" "/* generated from ${IN} */\n#include <stddef.h>\nconst char ${SYM}[] = {${BYTES}0};\nconst size_t ${SYM}_len = ${N};\n")
