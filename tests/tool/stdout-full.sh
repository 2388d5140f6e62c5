#!/usr/bin/env bash
# Standard output that cannot be written (/dev/full: ENOSPC) is an internal
# error, exit 3 with one message, for every command that prints: nothing is
# silently lost (issue 23 item 9). Usage: stdout-full.sh NVMODEL (run from
# the source tree).
set -u
bin=$1
[ -w /dev/full ] || { echo "no /dev/full: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
printf 'print("ran")\n' >"$tmp/p.lua"
printf 'io.write("ran\\n")\n' >"$tmp/w.lua"

# Each line: the arguments of one command that writes to standard output.
while IFS= read -r line; do
  [ -z "$line" ] && continue
  eval "set -- $line"
  "$bin" "$@" >/dev/full 2>"$tmp/err" </dev/null
  code=$?
  if [ $code != 3 ]; then
    bad "nvmodel $line > /dev/full: exit $code (want 3)"
  elif ! grep -q "error: .*No space left on device" "$tmp/err"; then
    bad "nvmodel $line > /dev/full: no message: $(cat "$tmp/err")"
  elif [ "$(grep -c 'error:' "$tmp/err")" != 1 ]; then
    bad "nvmodel $line > /dev/full: more than one error: $(cat "$tmp/err")"
  fi
done <<EOF2
--help
help
help run
run --help
version
version --json
chips
chips --json
demo --chip nv04
demo --chip nv04 --json
run $tmp/p.lua --chip nv04
run $tmp/w.lua --chip nv04
run $tmp/p.lua --chip nv04 --json
run $tmp/p.lua --chip nv04 --trace -
bench --list
pb classes
pb asm tests/data/pb/sample.s --hex
pb asm tests/data/pb/sample.s -o -
pb decode tests/data/pb/sample.bin
pb decode tests/data/pb/small.hex --hex
pb check tests/data/pb/sample.bin
pb gpfifo tests/data/pb/gp_ok.bin
vm walk --vram tests/data/mmu/vram.bin --pdb vram:0x1000 --va 0x210abc
vm dump --vram tests/data/mmu/vram.bin --sysmem tests/data/mmu/sysmem.bin --pdb vram:0x1000
vm dump --vram tests/data/mmu/vram.bin --pdb vram:0x1000 --json
vm dump --format g80 --vram tests/data/g80/vram.bin --chan 0x10
fault decode tests/data/mmu/faults.bin
host ramin tests/data/host/ramin_nouveau.bin
host userd tests/data/host/userd.bin --json
host runlist tests/data/host/rl_nouveau.bin
pfifo ramht tests/data/pfifo/ramht_nv17.bin --chip nv17
pfifo ramfc tests/data/pfifo/ramfc_nv17.bin --chip nv17 --json
hwsq dis tests/data/hwsq/mixed.bin --variant nv41
hwsq as tests/data/hwsq/flags.s --variant nv41 -o -
hwsq run tests/data/hwsq/reclock.s --variant g80
EOF2

# A command that found a problem and could not say so is still exit 3.
"$bin" pb check tests/data/pb/errors.hex --hex >/dev/full 2>/dev/null
[ $? = 3 ] || bad "pb check with errors > /dev/full: exit $? (want 3)"
# Usage errors go to stderr and keep exit 2.
"$bin" chips --bad >/dev/full 2>/dev/null
[ $? = 2 ] || bad "chips --bad > /dev/full: exit $? (want 2)"
# Standard output that works is untouched.
"$bin" chips >/dev/null || bad "chips > /dev/null failed"

[ $fail = 0 ] && echo "ok"
exit $fail
