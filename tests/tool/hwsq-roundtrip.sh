#!/usr/bin/env bash
# A whole listing of valid code, full or --quiet, piped back through
# `hwsq as - -o -` gives the original bytes, on every variant (issue 12:
# the assembler takes envydis' text whole; docs/hwsq.md).
# Usage: hwsq-roundtrip.sh NVMODEL (run from the source tree).
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d=tests/data/hwsq
# events.bin ends in an ewait with a stray bit (not valid code): drop it.
head -c 96 "$d/events.bin" >"$tmp/events.bin"
check() { # variant file
  for q in "" --quiet; do
    "$bin" hwsq dis - --variant "$1" $q <"$2" | "$bin" hwsq as - -o - --variant "$1" >"$tmp/out.bin"
    cmp "$2" "$tmp/out.bin" || { echo "$1 $2 ${q:-full}: bytes differ"; exit 1; }
  done
}
for v in nv17 nv41 g80 g92; do
  check "$v" "$d/flags.bin"
done
for v in nv41 g80 g92; do
  check "$v" "$tmp/events.bin"
  check "$v" "$d/reclock_g80.bin"
done
echo "hwsq roundtrip ok"
