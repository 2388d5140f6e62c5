#!/usr/bin/env bash
# The driver-like streams of tests/data/pb (*.s, written with method names
# NAME / NAME(i) resolved through the class SET_OBJECT bound) assemble to the
# checked-in *.bin the golden tests decode, and `pb decode --style asm` of
# each assembles back to the same bytes (names of every class and array
# elements included); decoding in small pieces (--chunk) gives the same text.
# Usage: pb-streams.sh NVMODEL (run from the source tree).
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in tests/data/pb/volta_3d.s tests/data/pb/volta_compute.s tests/data/pb/volta_copy.s \
         tests/data/pb/classes_mixed.s; do
  b=${s%.s}.bin
  "$bin" pb asm "$s" -o "$tmp/a.bin"
  cmp "$b" "$tmp/a.bin" || { echo "$s does not assemble to $b"; exit 1; }
  "$bin" pb decode "$b" --style asm >"$tmp/a.s"
  "$bin" pb asm "$tmp/a.s" -o "$tmp/b.bin"
  cmp "$b" "$tmp/b.bin" || { echo "$b: decode --style asm does not assemble back"; exit 1; }
  for style in text mesa json; do
    "$bin" pb decode "$b" --style "$style" >"$tmp/whole.txt"
    "$bin" pb decode "$b" --style "$style" --chunk 5 >"$tmp/pieces.txt"
    cmp "$tmp/whole.txt" "$tmp/pieces.txt" || { echo "$b --style $style: --chunk 5 differs"; exit 1; }
  done
done
# A pre-Fermi stream: the classes are pinned (SET_OBJECT takes handles there).
s=tests/data/pb/old_nv17_2d.s
pins=(--chip nv17 --class 0=0x0042 --class 1=0x004a --class 2=0x0039)
"$bin" pb asm "$s" -o "$tmp/a.bin"
cmp "${s%.s}.bin" "$tmp/a.bin" || { echo "$s does not assemble to ${s%.s}.bin"; exit 1; }
"$bin" pb decode "${s%.s}.bin" "${pins[@]}" --style asm >"$tmp/a.s"
"$bin" pb asm "$tmp/a.s" -o "$tmp/b.bin"
cmp "${s%.s}.bin" "$tmp/b.bin" || { echo "${s%.s}.bin: decode --style asm does not assemble back"; exit 1; }
echo "pb streams ok"
