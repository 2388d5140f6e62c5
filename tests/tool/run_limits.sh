#!/usr/bin/env bash
# nvmodel run: --max-steps as the docs write it, and standard output kept
# for the tool's JSON (--trace -, --json) whatever the script writes there.
# Usage: run_limits.sh NVMODEL (run from the source tree).
set -eu
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# --max-steps 4e9 (the default, as docs/cli.md writes it) and 1e5.
"$bin" run tests/data/core/stdout_writes.lua --max-steps 4e9 >/dev/null || fail "--max-steps 4e9 refused"
rc=0; "$bin" run tests/data/core/loop.lua --max-steps 1e5 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "instruction budget of 100000 Lua steps" "$tmp/err" || fail "--max-steps 1e5: rc $rc"
for bad in 4.5e9 1e20 e9 4e 0e9; do
  rc=0; "$bin" run tests/data/core/stdout_writes.lua --max-steps "$bad" 2>/dev/null >/dev/null || rc=$?
  [ "$rc" = 2 ] || fail "--max-steps $bad: rc $rc, want 2"
done

# --trace -: the trace alone on stdout, the script's writes on stderr.
"$bin" run tests/data/core/stdout_writes.lua --trace - >"$tmp/t.json" 2>"$tmp/err"
"$bin" run tests/data/core/check_trace.lua -- "$tmp/t.json" 1
for w in "print line" "io.write line" "io.stdout line" "io.output line"; do
  grep -q "$w" "$tmp/err" || fail "--trace -: '$w' not on stderr"
done
# --json: the summary alone on stdout.
"$bin" run tests/data/core/stdout_writes.lua --json >"$tmp/j" 2>/dev/null
[ "$(wc -l <"$tmp/j")" = 1 ] && grep -q '^{"ok": true' "$tmp/j" || fail "--json: $(cat "$tmp/j")"
# Without them, the writes stay on stdout.
"$bin" run tests/data/core/stdout_writes.lua >"$tmp/o" 2>/dev/null
[ "$(grep -c line "$tmp/o")" = 4 ] || fail "plain run: $(cat "$tmp/o")"
echo "run limits ok"
