#!/usr/bin/env bash
# Output files (--trace, -o) never clobber what the path leads to: a symlink
# stays a symlink and its target is written, FIFOs and devices are written
# through, "-" is standard output, the temporary is unpredictable and
# nothing is left behind, and an unwritable output fails (exit 3) before
# any work is done. Usage: outfile.sh NVMODEL (run from the source tree).
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
is_trace() { head -c 40 "$1" | grep -q '"traceEvents"' && tail -c 4 "$1" | grep -q ']}'; }

printf 'print("ran")\nlocal g = nvmodel.open{}\ng:wr32(0x9140, 1)\n' >"$tmp/s.lua"

# A symlink to a regular file: the target gets the trace, the link stays.
echo old >"$tmp/real.json"
ln -s real.json "$tmp/link.json"
"$bin" run "$tmp/s.lua" --trace "$tmp/link.json" >/dev/null || bad "run --trace symlink"
[ -L "$tmp/link.json" ] || bad "the symlink was replaced"
is_trace "$tmp/real.json" || bad "the symlink's target does not hold the trace"

# A symlink into another directory: the temporary goes beside the target.
mkdir "$tmp/d"
ln -s d/t.json "$tmp/far.json"
"$bin" run "$tmp/s.lua" --trace "$tmp/far.json" >/dev/null || bad "run --trace symlink to a new file"
[ -L "$tmp/far.json" ] && is_trace "$tmp/d/t.json" || bad "dangling symlink not written through"

# A FIFO is written through.
mkfifo "$tmp/fifo"
timeout 20 cat "$tmp/fifo" >"$tmp/from_fifo" &
reader=$!
"$bin" run "$tmp/s.lua" --trace "$tmp/fifo" >/dev/null || bad "run --trace fifo"
wait $reader
[ -p "$tmp/fifo" ] || bad "the FIFO was replaced"
is_trace "$tmp/from_fifo" || bad "nothing came through the FIFO"

# A device: /dev/null stays a device (this matters when running as root).
"$bin" run "$tmp/s.lua" --trace /dev/null >/dev/null || bad "run --trace /dev/null"
[ -c /dev/null ] || bad "/dev/null is no longer a device"

# "-" is standard output; the script's prints go to stderr then.
"$bin" run "$tmp/s.lua" --trace - >"$tmp/stdout" 2>"$tmp/stderr" || bad "run --trace -"
is_trace "$tmp/stdout" || bad "--trace - did not write the trace to stdout"
grep -q '^ran$' "$tmp/stderr" || bad "print output not moved to stderr with --trace -"
"$bin" run "$tmp/s.lua" --trace - --json >/dev/null 2>&1
[ $? = 2 ] || bad "--trace - with --json is a usage error"

# An unwritable output: exit 3 before the script runs.
"$bin" run "$tmp/s.lua" --trace "$tmp/nodir/t.json" >"$tmp/stdout" 2>"$tmp/stderr"
[ $? = 3 ] || bad "unwritable trace: exit $? (want 3)"
[ -s "$tmp/stdout" ] && bad "the script ran although the trace cannot be written"
grep -q "nodir/t.json: cannot write the trace" "$tmp/stderr" || bad "message for an unwritable trace"

# A planted symlink at a temporary-looking name is not followed.
ln -s "$tmp/victim" "$tmp/t2.json.tmp$$"
"$bin" run "$tmp/s.lua" --trace "$tmp/t2.json" >/dev/null || bad "run --trace t2.json"
[ -e "$tmp/victim" ] && bad "a planted symlink was followed"
rm -f "$tmp/t2.json.tmp$$"

# A new file gets the usual mode (0666 less the umask), not mkstemp's 0600.
(umask 022; "$bin" run "$tmp/s.lua" --trace "$tmp/mode.json" >/dev/null)
[ "$(stat -c %a "$tmp/mode.json")" = 644 ] || bad "mode of a new trace: $(stat -c %a "$tmp/mode.json")"
# A replaced file keeps its mode.
chmod 600 "$tmp/mode.json"
"$bin" run "$tmp/s.lua" --trace "$tmp/mode.json" >/dev/null
[ "$(stat -c %a "$tmp/mode.json")" = 600 ] || bad "a replaced trace lost its mode"

# -o of pb asm and hwsq as: symlink, FIFO, "-" and unwritable.
printf 'inc 1 0x0100 0x1 0x2\n' >"$tmp/p.s"
"$bin" pb asm "$tmp/p.s" -o "$tmp/real.bin" || bad "pb asm"
cp "$tmp/real.bin" "$tmp/want.bin"
echo old >"$tmp/real.bin"
ln -s real.bin "$tmp/link.bin"
"$bin" pb asm "$tmp/p.s" -o "$tmp/link.bin" || bad "pb asm -o symlink"
[ -L "$tmp/link.bin" ] && cmp -s "$tmp/real.bin" "$tmp/want.bin" || bad "pb asm -o symlink not written through"
"$bin" pb asm "$tmp/p.s" -o - >"$tmp/out.bin" && cmp -s "$tmp/out.bin" "$tmp/want.bin" || bad "pb asm -o -"
timeout 20 cat "$tmp/fifo" >"$tmp/from_fifo" &
reader=$!
"$bin" pb asm "$tmp/p.s" -o "$tmp/fifo" || bad "pb asm -o fifo"
wait $reader
[ -p "$tmp/fifo" ] && cmp -s "$tmp/from_fifo" "$tmp/want.bin" || bad "pb asm -o fifo not written through"
"$bin" pb asm "$tmp/p.s" -o "$tmp/nodir/x.bin" 2>/dev/null
[ $? = 3 ] || bad "pb asm unwritable -o: want exit 3"

printf '\tset1 0x0\n\texit\n' >"$tmp/h.s"
"$bin" hwsq as "$tmp/h.s" --variant nv17 -o "$tmp/h.bin" || bad "hwsq as"
ln -s h.bin "$tmp/hlink.bin"
echo old >"$tmp/h.bin"
"$bin" hwsq as "$tmp/h.s" --variant nv17 -o "$tmp/hlink.bin" || bad "hwsq as -o symlink"
[ -L "$tmp/hlink.bin" ] && [ "$(od -An -tx1 "$tmp/h.bin" | tr -d ' ')" = a07f ] || bad "hwsq as -o symlink"
"$bin" hwsq as "$tmp/h.s" --variant nv17 -o "$tmp/nodir/x.bin" 2>/dev/null
[ $? = 3 ] || bad "hwsq as unwritable -o: want exit 3"

# Nothing left behind: no temporaries in the directories written.
left=$(find "$tmp" -name '.*.??????' | head -1)
[ -z "$left" ] || bad "temporary left behind: $left"

[ $fail = 0 ] && echo "output files ok"
exit $fail
