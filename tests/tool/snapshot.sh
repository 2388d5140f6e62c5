#!/usr/bin/env bash
# nvmodel snapshot info|check (docs/cli.md "snapshot"): a save state written
# by a scenario is described and taken back; damaged, truncated, foreign and
# unreadable files get the documented exit codes and messages.
# Usage: snapshot.sh NVMODEL (run from the source tree).
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cat >"$tmp/save.lua" <<LUA
local g = nvmodel.open{ chip = "nv40", vram = "16M", sysmem = "4M" }
g:mem_wr32("vram", 0x1000, 0xcafe)
g:run{ ns = 12345 }
local f = assert(io.open("$tmp/nv40.snap", "wb"))
f:write(g:snapshot())
f:close()
LUA
"$bin" run "$tmp/save.lua" || { echo "FAIL: the scenario did not write a snapshot"; exit 1; }

# expect EXIT PATTERN STREAM ARGS...
expect() {
  local want=$1 pat=$2 stream=$3
  shift 3
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" = "$want" ] || { echo "FAIL: nvmodel $*: exit $got, want $want"; cat "$tmp/err"; fail=1; }
  grep -Eq -- "$pat" "$tmp/$stream" || { echo "FAIL: nvmodel $*: $stream lacks '$pat'"; cat "$tmp/out" "$tmp/err"; fail=1; }
}

expect 0 '^chip +nv40' out snapshot info "$tmp/nv40.snap"
expect 0 '^time +12345 ns' out snapshot info "$tmp/nv40.snap"
expect 0 'vram +0x1000000 bytes, 1 pages held' out snapshot info "$tmp/nv40.snap"
expect 0 '"chip": "nv40".*"time_ns": 12345' out snapshot info "$tmp/nv40.snap" --json
expect 0 '^ok: a nv40 GPU takes it back' out snapshot check "$tmp/nv40.snap"
expect 0 '"ok": true' out snapshot check "$tmp/nv40.snap" --json
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out" || { echo "FAIL: check --json is not JSON"; fail=1; }

# Damage: a byte of the last section (its CRC no longer matches), a truncation.
cp "$tmp/nv40.snap" "$tmp/bad.snap"
size=$(stat -c %s "$tmp/bad.snap")
printf '\xff' | dd of="$tmp/bad.snap" bs=1 seek=$((size - 20)) conv=notrunc status=none
expect 1 'snapshot truncated or corrupted' err snapshot info "$tmp/bad.snap"
expect 1 'snapshot truncated or corrupted' err snapshot check "$tmp/bad.snap"
expect 1 '"ok": false, "status": "snapshot truncated or corrupted"' out snapshot check "$tmp/bad.snap" --json
head -c $((size / 2)) "$tmp/nv40.snap" >"$tmp/short.snap"
expect 1 'snapshot truncated or corrupted' err snapshot check "$tmp/short.snap"
# Another format number (bytes 8..11).
cp "$tmp/nv40.snap" "$tmp/v2.snap"
printf '\x02' | dd of="$tmp/v2.snap" bs=1 seek=8 conv=notrunc status=none
expect 1 'snapshot of another format or version' err snapshot check "$tmp/v2.snap"
# Not a snapshot at all; usage errors.
printf 'hello' >"$tmp/hello"
expect 1 'snapshot truncated or corrupted' err snapshot info "$tmp/hello"
: >"$tmp/empty"
expect 2 'empty input' err snapshot info "$tmp/empty"
expect 2 'missing FILE' err snapshot check
expect 2 "unknown sub-command 'frob'" err snapshot frob x
expect 2 "unknown option '--frob'" err snapshot info "$tmp/nv40.snap" --frob
expect 0 '^usage' out snapshot --help
exit $fail
