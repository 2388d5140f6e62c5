// A script with no exit: after the flag it runs on through the zeros of the
// code RAM (0x00 is a wait of 0 clocks), round and round.
	set1 0x0
