#!/usr/bin/env bash
# --trace writes Chrome trace-event JSON; a failed run leaves an existing
# trace untouched. Usage: trace.sh NVMODEL (run from the source tree).
set -eu
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" run examples/demo.lua --trace "$tmp/t.json" >/dev/null
"$bin" run tests/data/core/check_trace.lua -- "$tmp/t.json"
# A failing scenario must not clobber the previous trace.
cp "$tmp/t.json" "$tmp/before.json"
if "$bin" run tests/data/core/check_fail.lua --trace "$tmp/t.json" 2>/dev/null; then
  echo "check_fail.lua should fail"; exit 1
fi
# It does write its own (partial) trace: the run happened. What must hold is
# that the file is complete JSON, never a truncated one.
"$bin" run tests/data/core/check_trace.lua -- "$tmp/t.json" 0
[ -z "$(find "$tmp" -name '.*.??????')" ] || { echo "temporary file left behind"; exit 1; }
echo "trace ok"
