#!/usr/bin/env bash
# The contract of docs/cli.md, row by row: exit codes, which stream a message
# goes to, bad values echoed, option values that are options refused, "-" as
# standard input and output, empty inputs, unwritable outputs.
# Usage: cli_table.sh NVMODEL (run from the source tree).
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
: >"$tmp/empty"
printf 'print("ran")\n' >"$tmp/ok.lua"

# row EXIT STREAM PATTERN ARGS...: run nvmodel ARGS (stdin from $IN, default
# /dev/null); the exit code must be EXIT and PATTERN (grep -E) must match
# STREAM (out or err; "-" for no check). STDOUT_EMPTY=1: nothing on stdout.
row() {
  local want=$1 stream=$2 pat=$3
  shift 3
  "$bin" "$@" <"${IN:-/dev/null}" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  local desc="nvmodel $*${IN:+ <$IN}"
  [ "$got" = "$want" ] || { echo "FAIL: $desc: exit $got, want $want"; fail=1; }
  if [ "$stream" != - ] && ! grep -Eq -- "$pat" "$tmp/$stream"; then
    echo "FAIL: $desc: $stream does not match '$pat'"; sed 's/^/  | /' "$tmp/out" "$tmp/err" | head -5; fail=1
  fi
  if [ "${STDOUT_EMPTY:-0}" = 1 ] && [ -s "$tmp/out" ]; then
    echo "FAIL: $desc: something on stdout"; fail=1
  fi
}

# --- every command: --help on stdout (exit 0); usage errors on stderr (exit 2)
for c in demo run chips bench hwsq pb vm fault snapshot version help; do
  row 0 out '^usage|nvmodel <command>' "$c" --help
done
row 2 err 'usage' hwsq
row 2 err 'usage' pb
row 2 err 'missing sub-command' vm
row 2 err 'missing sub-command' fault
row 2 err 'usage' # no command at all
STDOUT_EMPTY=1 row 2 err "unknown command 'frob'" frob
for c in "demo" "run $tmp/ok.lua" "chips" "bench" "version" "pb decode tests/data/pb/sample.bin" \
         "hwsq dis tests/data/hwsq/mixed.bin --variant g92" "fault decode tests/data/mmu/faults.bin" \
         "vm walk --vram tests/data/mmu/vram.bin --pdb vram:0 --va 0"; do
  # shellcheck disable=SC2086
  STDOUT_EMPTY=1 row 2 err "(unknown option|unexpected (argument|option)) '--frob'" $c --frob
done

# --- bad option values: exit 2, the value echoed
row 2 err "'zz'" hwsq dis tests/data/hwsq/mixed.bin --variant zz
row 2 err "'7'" hwsq run tests/data/hwsq/reclock.s --variant g80 --entry 7
row 2 err "'0x999'" hwsq run tests/data/hwsq/reclock.s --variant g80 --at 0x999
row 2 err "--at 0x100 is outside" hwsq run tests/data/hwsq/flags.s --variant nv17 --at 0x100
row 2 err "'40=1'" hwsq run tests/data/hwsq/reclock.s --variant g80 --event 40=1
row 2 err "'abc'" hwsq run tests/data/hwsq/reclock.s --variant g80 --max-ns abc
row 2 err "'sideways'" pb decode tests/data/pb/sample.bin --format sideways
row 2 err "'xyz'" pb decode tests/data/pb/sample.bin --offset xyz
row 2 err "'pretty'" pb decode tests/data/pb/sample.bin --style pretty
row 2 err "'0x1000'" pb decode tests/data/pb/sample.bin --subdevice 0x1000
row 2 err "'nv99'" run "$tmp/ok.lua" --chip nv99
row 2 err "'12Q'" run "$tmp/ok.lua" --mem-budget 12Q
row 2 err "'0'" run "$tmp/ok.lua" --max-steps 0
row 2 err "'lots'" demo --seed lots
row 2 err "'0'" bench --scale 0
row 2 err "'execute'" vm walk --vram tests/data/mmu/vram.bin --pdb vram:0 --va 0 --access execute
row 2 err "'nope'" vm walk --vram tests/data/mmu/vram.bin --pdb vram:0 --va nope
row 2 err "'-1'" vm dump --vram tests/data/mmu/vram.bin --pdb vram:0 --max-entries=-1

# --- an option's value is never another option
STDOUT_EMPTY=1 row 2 err "--trace needs" run "$tmp/ok.lua" --trace --json
[ -e ./--json ] && { echo "FAIL: a file named --json was written"; fail=1; rm -f ./--json; }
row 2 err "--variant needs" hwsq dis tests/data/hwsq/mixed.bin --variant --json
row 2 err "-o needs" pb asm tests/data/pb/sample.s -o --hex
row 2 err "--pdb needs" vm walk --vram tests/data/mmu/vram.bin --pdb --json --va 0

# --- "-" is standard input for every input file ...
IN=tests/data/pb/sample.bin row 0 out 'SET_OBJECT|0x' pb decode -
IN=tests/data/hwsq/mixed.bin row 0 out '^00000000:' hwsq dis - --variant g92
IN=tests/data/hwsq/reclock_g80.bin row 0 out 'status:' hwsq run - --variant g80
IN=tests/data/mmu/faults.bin row 0 out '^#0' fault decode -
IN=tests/data/mmu/vram.bin row 0 out "result:" vm walk --vram - --pdb vram:0x1000 --va 0x201234
IN=$tmp/ok.lua row 0 out '^ran$' run -
printf 'error("x")\n' >"$tmp/err.lua"
IN=$tmp/err.lua row 1 err '^stdin:1: x' run -
row 2 err 'both be standard input' vm walk --vram - --sysmem - --pdb vram:0 --va 0
# ... and standard output for every output file.
row 0 out 'traceEvents' run "$tmp/ok.lua" --trace -
row 0 - '' pb asm tests/data/pb/sample.s -o -
row 0 - '' hwsq as tests/data/hwsq/reclock.s --variant g80 -o -

# --- empty input: exit 2, "empty input", for every command alike
for c in "pb decode" "pb check" "pb gpfifo" "pb asm" "fault decode" "hwsq dis" "hwsq run" "run" \
         "vm walk --pdb vram:0 --va 0 --vram" "vm dump --pdb vram:0 --vram"; do
  extra=
  case $c in hwsq*) extra="--variant g80" ;; "pb asm") extra="-o $tmp/x.bin" ;; esac
  # shellcheck disable=SC2086
  STDOUT_EMPTY=1 row 2 err "empty: empty input" $c "$tmp/empty" $extra
done
row 2 err 'empty input' hwsq as "$tmp/empty" --variant g80 -o "$tmp/x.bin"

# --- an input that cannot be read (a directory): exit 2 with the reason
row 2 err 'tests: cannot read: Is a directory' run tests
row 2 err 'tests: Is a directory' pb decode tests

# --- an unwritable output: exit 3 before any work (nothing on stdout)
STDOUT_EMPTY=1 row 3 err 'cannot write' run "$tmp/ok.lua" --trace "$tmp/no/dir/t.json"
STDOUT_EMPTY=1 row 3 err 'cannot write' demo --trace "$tmp/no/dir/t.json"
STDOUT_EMPTY=1 row 3 err 'cannot write' pb asm tests/data/pb/sample.s -o "$tmp/no/dir/x.bin" --hex
STDOUT_EMPTY=1 row 3 err 'cannot write' hwsq as tests/data/hwsq/reclock.s --variant g80 -o "$tmp/no/x.bin"
# ... an output naming the input is a usage error
row 2 err 'overwrite' pb asm tests/data/pb/sample.s -o tests/data/pb/sample.s
row 2 err 'overwrite' hwsq as tests/data/hwsq/reclock.s --variant g80 -o tests/data/hwsq/reclock.s

# --- --json output is JSON, also for bench --list; strings stay UTF-8
row 0 out '^\{"name": "[a-z_.]+", "description": ' bench --list --json
row 0 out '^\{"name": "host.chan_mem", "unit": "bytes/channel", "rate": [0-9]+, "bulk": false, "ok": true\}$' \
  bench --filter host.chan_mem --json
row 0 out '"ns_per_method": [0-9.]+, "baseline": "streaming read of the same words", .*"checked": "checksum of [0-9]+ methods' \
  bench --filter pb.decode_check --scale 0.001 --json
printf 'error("a \\255 b")\n' >"$tmp/bad.lua"
row 1 out '"error": ".*a \\u00ff b"' run "$tmp/bad.lua" --json

# --- exit 1: the work ran and found a problem
row 1 err 'check failed' run tests/data/core/check_fail.lua
row 1 - '' pb check tests/data/pb/errors.hex --hex
row 1 out 'fault' vm walk --vram tests/data/mmu/vram.bin --pdb vram:0x100000 --va 0
row 1 err 'PDB vram:0x100000 is outside the vram image' vm dump --vram tests/data/mmu/vram.bin --pdb vram:0x100000
row 1 err 'no --sysmem image' vm dump --vram tests/data/mmu/vram.bin --pdb sysmem:0

[ $fail = 0 ] && echo "cli table ok"
exit $fail
