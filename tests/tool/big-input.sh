#!/usr/bin/env bash
# Inputs are read as far as the command needs, streamed where it can, and
# what must be held is capped (issue 23 item 11): a structure at the start
# of a 4 GiB sparse file costs neither 4 GiB nor seconds; an endless input
# (/dev/zero, /dev/urandom) is refused with one message (exit 2) instead of
# growing until the OOM killer; out of memory is exit 3.
# Usage: big-input.sh NVMODEL (run from the source tree).
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# A sparse file takes no disk space.
truncate -s 4G "$tmp/big.bin" || { echo "no sparse files here: skipped"; exit 77; }
asan=0
ASAN_OPTIONS=help=1 "$bin" version 2>&1 | grep -q AddressSanitizer && asan=1

# Reads what the command needs: quick, whatever the file's size.
while IFS= read -r line; do
  eval "set -- $line"
  timeout 30 "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  code=$?
  [ $code = 0 ] || [ $code = 1 ] || bad "nvmodel $line: exit $code: $(head -c 300 "$tmp/err")"
done <<EOF2
host runlist $tmp/big.bin --count 1
host runlist $tmp/big.bin --count 4 --offset 3G
host ramin $tmp/big.bin
host userd $tmp/big.bin --offset 0xfffff000
host ramin /dev/zero
pb decode $tmp/big.bin --offset 1000000000 --length 16
vm walk --vram $tmp/big.bin --pdb vram:0x1000 --va 0x1000
EOF2

# Input that must be held whole, and endless input: one message, exit 2.
printf 'print("never")\n' >"$tmp/s.lua"
while IFS= read -r line; do
  eval "set -- $line"
  timeout 60 "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  code=$?
  if [ $code != 2 ]; then
    bad "nvmodel $line: exit $code (want 2): $(head -c 300 "$tmp/err")"
  elif ! grep -q "64 MiB" "$tmp/err" || [ "$(wc -l <"$tmp/err")" -gt 2 ]; then
    bad "nvmodel $line: message: $(head -c 300 "$tmp/err")"
  fi
done <<EOF2
host runlist $tmp/big.bin
host runlist /dev/zero
pb decode /dev/zero
pb check /dev/zero --chip nv40
pb gpfifo /dev/zero
pb asm /dev/zero -o $tmp/o.bin
pfifo ramht /dev/zero --chip nv17
pfifo ramfc $tmp/big.bin --chip nv40
fault decode /dev/zero
fault decode $tmp/big.bin
hwsq dis /dev/zero --variant nv41
hwsq as /dev/urandom --variant nv41 -o $tmp/o.bin
hwsq run /dev/zero --variant g80
vm walk --vram /dev/zero --pdb vram:0x1000 --va 0x1000
vm dump --vram $tmp/big.bin --sysmem /dev/zero --pdb vram:0x1000
run /dev/zero
EOF2
[ -e "$tmp/o.bin" ] && bad "an output was written for a refused input"
# Standard input that is endless text.
timeout 60 "$bin" pb decode - --hex </dev/zero >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "more than 64 MiB" "$tmp/err" || bad "pb decode - --hex < /dev/zero: $(cat "$tmp/err")"

# Out of memory while reading: exit 3 with "out of memory" (ASan: its
# allocator returns NULL past a size; other builds: an address-space limit).
for c in "fault decode" run; do
  if [ $asan = 1 ]; then
    ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=4 \
      "$bin" $c /dev/zero >/dev/null 2>"$tmp/err"
  else
    (ulimit -v 60000 && exec "$bin" $c /dev/zero) >/dev/null 2>"$tmp/err"
  fi
  code=$?
  [ $code = 3 ] && grep -q "out of memory" "$tmp/err" || bad "$c: out of memory: exit $code: $(head -c 300 "$tmp/err")"
done

[ $fail = 0 ] && echo "ok"
exit $fail
