#!/usr/bin/env bash
# The layering of the library (docs/architecture.md "Layers"), checked on the
# includes. Two checks:
#  1. Every include of a library file stays inside its layer's declared
#     dependencies: the nvm_layer() table in CMakeLists.txt (DEPS: layers it
#     may include as "<layer>/x.h", transitively; HEADERS: its public headers
#     nvmodel/x.h). Public headers follow their owning layer's table. No
#     library file includes the Lua glue (src/scenario, lua*.h) or the tool.
#  2. The table itself obeys the rules of issue 18: the core knows no block;
#     the decoder knows no Host, PFIFO, MMU or engine; the MMU knows no Host
#     or PFIFO; engines know neither Host nor PFIFO; Host and PFIFO do not
#     know each other (they share only lower layers); and no layer knows one
#     of its own level (docs/architecture.md: decoder, MMU, HWSQ).
# Usage: layering.sh (run from the source tree). Exit 0 ok, 1 a violation.
set -u
fail=0
bad() {
  echo "FAIL: $*"
  fail=1
}

# ---------------------------------------------------------------- the table
declare -A deps hdrs owner
layers=()
while read -r line; do
  line=${line#nvm_layer(}
  line=${line%)}
  read -r -a w <<<"$line"
  name=${w[0]}
  layers+=("$name")
  mode=
  deps[$name]=
  hdrs[$name]=
  for t in "${w[@]:1}"; do
    case $t in
    DEPS | HEADERS) mode=$t ;;
    *) if [ "$mode" = DEPS ]; then deps[$name]+=" $t"; else
      hdrs[$name]+=" $t"
      owner[$t]=$name
    fi ;;
    esac
  done
done < <(grep -E '^nvm_layer\(' CMakeLists.txt)
[ ${#layers[@]} -gt 0 ] || {
  echo "FAIL: no nvm_layer() rows in CMakeLists.txt"
  exit 1
}

# closure L: L and every layer it reaches through DEPS
closure() {
  local todo=("$1") seen=" $1 " l d
  while [ ${#todo[@]} -gt 0 ]; do
    l=${todo[0]}
    todo=("${todo[@]:1}")
    for d in ${deps[$l]}; do
      case $seen in *" $d "*) ;; *)
        seen+="$d "
        todo+=("$d")
        ;;
      esac
    done
  done
  echo "$seen"
}
declare -A reach
for l in "${layers[@]}"; do reach[$l]=$(closure "$l"); done

# ---------------------------------------------------------------- 2. the rules
# forbid A B: layer A must not reach layer B.
forbid() {
  local a=$1 b
  shift
  for b in "$@"; do
    [ -n "${reach[$a]+x}" ] || continue
    case ${reach[$a]} in *" $b "*) bad "CMakeLists.txt: layer $a depends on $b (issue 18 layering)" ;; esac
  done
}
others() {
  local l out=
  for l in "${layers[@]}"; do [ "$l" = "$1" ] || out+=" $l"; done
  echo "$out"
}
# shellcheck disable=SC2046
forbid core $(others core)
forbid pushbuf host pfifo mmu engine chips hwsq
forbid mmu host pfifo engine chips pushbuf hwsq
forbid engine host pfifo chips hwsq
forbid hwsq host pfifo chips pushbuf mmu engine
forbid host pfifo chips
forbid pfifo host chips
# A layer shared by the front ends (src/fifo/, when it exists) knows neither.
forbid fifo host pfifo engine chips

# ---------------------------------------------------------------- 1. the includes
# check FILE LAYER: every quoted include of FILE within LAYER's reach.
check() {
  local f=$1 l=$2 inc d h
  while read -r inc; do
    case $inc in
    nvmodel/*)
      h=${inc#nvmodel/}
      if [ -z "${owner[$h]+x}" ]; then
        bad "$f: includes $inc, which no layer declares in HEADERS"
      else
        case ${reach[$l]} in *" ${owner[$h]} "*) ;; *) bad "$f: includes $inc (layer ${owner[$h]}); layer $l may not" ;; esac
      fi
      ;;
    */*)
      d=${inc%%/*}
      if [ "$d" = scenario ] || [ -z "${deps[$d]+x}" ]; then
        bad "$f: includes $inc, outside the library's layers"
      else
        case ${reach[$l]} in *" $d "*) ;; *) bad "$f: includes $inc; layer $l may not reach $d" ;; esac
      fi
      ;;
    *)
      # A file of its own directory; the tool's and the Lua glue's headers
      # are not in the library.
      case $inc in cli.h | hexwords.h | image.h | outfile.h | trace.h | scenario.h | scn_*.h)
        [ -e "$(dirname "$f")/$inc" ] || bad "$f: includes $inc (the tool or the Lua glue)"
        ;;
      esac
      ;;
    esac
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
  if grep -Eq '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(lua|lauxlib|lualib)' "$f"; then
    bad "$f: includes Lua (the scenario layer's business)"
  fi
}

n=0
for l in "${layers[@]}"; do
  for f in src/"$l"/*.[ch]; do
    [ -e "$f" ] || continue
    check "$f" "$l"
    n=$((n + 1))
  done
done
for f in include/nvmodel/*.h; do
  h=${f#include/nvmodel/}
  if [ -z "${owner[$h]+x}" ]; then
    bad "$f: no layer declares it in HEADERS (CMakeLists.txt nvm_layer)"
    continue
  fi
  check "$f" "${owner[$h]}"
  n=$((n + 1))
done
[ $fail = 0 ] && echo "layering: ${#layers[@]} layers, $n files: ok"
exit $fail
