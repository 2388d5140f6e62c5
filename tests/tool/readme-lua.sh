#!/usr/bin/env bash
# Every ```lua block of README.md runs as a scenario without error, so the
# README's examples stay true. Usage: readme-lua.sh NVMODEL README.md
set -eu
bin=$1 readme=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v dir="$tmp" '
  /^```lua$/ { n++; out = sprintf("%s/block%02d.lua", dir, n); inblk = 1; next }
  /^```$/ && inblk { inblk = 0; close(out); next }
  inblk { print > out }' "$readme"
count=0
for f in "$tmp"/block*.lua; do
  [ -e "$f" ] || { echo "no lua blocks in $readme"; exit 1; }
  count=$((count + 1))
  if ! "$bin" run "$f" >"$f.out" 2>&1; then
    echo "README lua block $count fails:"; cat "$f"; echo "---"; cat "$f.out"; exit 1
  fi
done
echo "$count README lua blocks ran"
