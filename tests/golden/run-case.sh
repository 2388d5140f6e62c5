#!/usr/bin/env bash
# Runs one golden case: run-case.sh CASE_DIR NVMODEL
# CASE_DIR/cmd holds the arguments (shell words, one line); stdout, stderr and
# exit hold what must come out. An optional CASE_DIR/stdin_from names a file
# (from the source tree) fed to standard input; else it is /dev/null.
# UPDATE_GOLDEN=1 rewrites them instead.
set -u
dir=$1
bin=$2
[ -f "$dir/cmd" ] || { echo "no $dir/cmd"; exit 2; }
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
eval "set -- $(cat "$dir/cmd")"
input=/dev/null
[ -f "$dir/stdin_from" ] && input=$(cat "$dir/stdin_from")
"$bin" "$@" >"$out" 2>"$err" <"$input"
code=$?
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
  cp "$out" "$dir/stdout"; cp "$err" "$dir/stderr"; echo "$code" >"$dir/exit"
  echo "updated $dir"; exit 0
fi
fail=0
want_code=$(cat "$dir/exit" 2>/dev/null || echo 0)
if [ "$code" != "$want_code" ]; then
  echo "exit code: got $code, want $want_code"; fail=1
fi
if ! diff -u "$dir/stdout" "$out"; then echo "stdout differs"; fail=1; fi
if [ -f "$dir/stderr" ] && ! diff -u "$dir/stderr" "$err"; then echo "stderr differs"; fail=1; fi
exit $fail
