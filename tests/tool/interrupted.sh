#!/usr/bin/env bash
# A run that ends early never leaves a temporary (.NAME.XXXXXX) beside its
# --trace file (issue 23 item 10): killed by SIGTERM, SIGINT or SIGHUP the
# temporary is removed and the old trace stays; a script's os.exit() ends
# the run as its end does: the trace is written, standard output is checked,
# the exit status is the script's. Usage: interrupted.sh NVMODEL.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
is_trace() { head -c 40 "$1" | grep -q '"traceEvents"' && tail -c 4 "$1" | grep -q ']}'; }
temps() { find "$tmp" -name '.*.json.*' | wc -l; }

printf 'local g = nvmodel.open{chip = "nv04"}\ng:wr32(0x9140, 1)\nwhile true do end\n' >"$tmp/loop.lua"
for sig in TERM INT HUP; do
  echo old >"$tmp/t.json"
  # timeout runs the tool as a foreground child: SIGINT is not ignored.
  timeout -s $sig 2 "$bin" run "$tmp/loop.lua" --max-steps 4000000000 --trace "$tmp/t.json" >/dev/null 2>&1
  code=$?
  [ $code = 124 ] || bad "SIG$sig: the run was not killed by the signal (exit $code)"
  [ "$(temps)" = 0 ] && [ "$(cat "$tmp/t.json")" = old ] ||
    bad "SIG$sig: temporaries left: $(find "$tmp" -name '.*') / t.json: $(head -c 20 "$tmp/t.json")"
  rm -f "$tmp"/.t.json.*
done

# os.exit(code [, close]): the trace so far is written, the status is the code.
for e in '0' 'true' '0, true' '5' 'false'; do
  want=$e
  case $e in true | '0, true') want=0 ;; false) want=1 ;; esac
  printf 'local g = nvmodel.open{chip = "nv04"}\ng:wr32(0x9140, 1)\nprint("before")\nos.exit(%s)\nprint("after")\n' \
    "$e" >"$tmp/exit.lua"
  rm -f "$tmp/e.json"
  "$bin" run "$tmp/exit.lua" --trace "$tmp/e.json" >"$tmp/out" 2>"$tmp/err"
  code=$?
  [ $code = "$want" ] || bad "os.exit($e): exit $code (want $want)"
  is_trace "$tmp/e.json" && grep -q '"pid": 0' "$tmp/e.json" || bad "os.exit($e): no trace written"
  [ "$(cat "$tmp/out")" = before ] || bad "os.exit($e): stdout '$(cat "$tmp/out")'"
  [ "$(temps)" = 0 ] || bad "os.exit($e): temporaries left"
done
# ... from a coroutine too.
printf 'local g = nvmodel.open{chip = "nv04"}\ng:wr32(0x9140, 1)\ncoroutine.wrap(function() os.exit(4) end)()\n' >"$tmp/exit.lua"
rm -f "$tmp/e.json"
"$bin" run "$tmp/exit.lua" --trace "$tmp/e.json" >/dev/null 2>&1
code=$?
[ $code = 4 ] && is_trace "$tmp/e.json" && [ "$(temps)" = 0 ] || bad "os.exit(4) in a coroutine: exit $code"
# ... and a trace on standard output is completed too.
printf 'local g = nvmodel.open{chip = "nv04"}\ng:wr32(0x9140, 1)\nos.exit(0)\n' >"$tmp/exit.lua"
"$bin" run "$tmp/exit.lua" --trace - >"$tmp/out" 2>/dev/null || bad "os.exit with --trace -: exit $?"
is_trace "$tmp/out" || bad "os.exit with --trace -: the trace on stdout is not complete"
# Standard output that cannot be written is exit 3 after os.exit(0) as well.
printf 'print("x")\nos.exit(0)\n' >"$tmp/exit.lua"
"$bin" run "$tmp/exit.lua" >/dev/full 2>"$tmp/err"
code=$?
[ $code = 3 ] && grep -q "standard output: No space left on device" "$tmp/err" ||
  bad "os.exit(0) > /dev/full: exit $code: $(cat "$tmp/err")"

[ $fail = 0 ] && echo "ok"
exit $fail
