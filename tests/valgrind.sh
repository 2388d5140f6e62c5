#!/usr/bin/env bash
# The whole ctest suite under valgrind memcheck: every program a test starts
# (unit tests, the fuzz corpus replays, and `nvmodel` however a golden,
# scenario or tool test calls it: directly, from run-case.sh, from a tool
# script, inside `bash -c`) runs under valgrind, because each executable of
# the build directory is replaced by a script that starts it under valgrind.
# A program's memcheck errors and leaks (definite and possible) go to
# BUILD/valgrind-logs/<pid>.log; the script lists the non-empty logs and
# fails if there are any, whatever the tests' own results.
#   tests/valgrind.sh [BUILD-DIR [CTEST-ARGS...]]   (default build/valgrind)
# The build is a release build (gcc -O2, as `cmake --preset release`).
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build/valgrind}
[ $# -gt 0 ] && shift
command -v valgrind >/dev/null || {
  echo "valgrind.sh: valgrind is not installed" >&2
  exit 2
}
mark='# nvmodel valgrind wrapper'

# Put back the programs wrapped by an earlier run, so that the build sees them.
if [ -d "$b" ]; then
  grep -rlx --include='*' -e "$mark" "$b" 2>/dev/null | while IFS= read -r w; do
    d=$(dirname "$w")
    n=$(basename "$w")
    mv -f "$d/.vg/$n" "$w"
  done
fi
cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$b" -j "$(nproc 2>/dev/null || echo 2)"

logs=$(cd "$b" && pwd)/valgrind-logs
rm -rf "$logs"
mkdir -p "$logs"
find "$b" -name CMakeFiles -prune -o -name .vg -prune -o -type f -perm -u+x -print |
  while IFS= read -r f; do
    [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
    d=$(dirname "$f")
    n=$(basename "$f")
    real=$(cd "$d" && pwd)/.vg/$n
    mkdir -p "$d/.vg"
    mv -f "$f" "$real"
    # The program keeps its name (a subdirectory, not a suffix). Valgrind
    # cannot start inside an address-space limit (tool/big-input's out of
    # memory case sets ulimit -v): there the program runs as it is.
    cat >"$f" <<EOF
#!/bin/sh
$mark
[ "\$(ulimit -v)" = unlimited ] || exec "$real" "\$@"
exec valgrind -q --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite,possible \\
  --error-exitcode=99 --log-file="$logs/%p.log" "$real" "\$@"
EOF
    chmod +x "$f"
  done

status=0
ctest --test-dir "$b" --output-on-failure --timeout 3000 "$@" || status=$?
bad=$(find "$logs" -name '*.log' -size +0 | sort)
if [ -n "$bad" ]; then
  echo "valgrind.sh: memcheck reports in:"
  echo "$bad"
  for l in $bad; do
    sed -n '1,40p' "$l"
  done
  exit 1
fi
echo "valgrind.sh: $(find "$logs" -name '*.log' | wc -l) programs ran under memcheck, no report"
exit $status
