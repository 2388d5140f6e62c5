#!/usr/bin/env bash
# The installed package, checked from outside (issue 22 item 1): installs a
# build to a scratch prefix and checks what it holds, then builds
# tests/install/hello.c and channel.c against it as an outside program
# would, through `pkg-config --cflags --libs nvmodel` alone (shared library;
# hello.c also statically) and hello.c through
# find_package(nvmodel) (a tiny CMake project), and runs both.
#   check.sh BUILD_DIR WORK_DIR
# WORK_DIR gets prefix/, build-cmake/ and the programs (its old ones are
# removed). CC (default cc) compiles the programs, with NVM_CFLAGS added (a
# sanitized build's flags: its library needs the runtime). Exit 0 ok, 1 not.
set -u
build=$(cd "$1" && pwd) || exit 1
mkdir -p "$2" && work=$(cd "$2" && pwd) || exit 1
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
read -r -a cflags <<<"${NVM_CFLAGS:-}"
prefix=$work/prefix
rm -rf "$prefix" "$work/build-cmake" "$work"/hello-*
fail=0
bad() {
  echo "FAIL: $*"
  fail=1
}
ok() { echo "ok: $*"; }

version=$(sed -n 's/^#define NVM_VERSION_STRING "\(.*\)"$/\1/p' "$build/include/nvmodel/version.h")
major=${version%%.*}
[ -n "$version" ] || {
  echo "FAIL: no NVM_VERSION_STRING in $build/include/nvmodel/version.h"
  exit 1
}

# ---------------------------------------------------------------- install
cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || {
  cat "$work/install.log"
  echo "FAIL: cmake --install"
  exit 1
}
echo "installed to $prefix (version $version):"
(cd "$prefix" && find . -type f -o -type l | sort | while read -r f; do
  if [ -L "$f" ]; then echo "  ${f#./} -> $(readlink "$f")"; else echo "  ${f#./}"; fi
done)

pc=$(find "$prefix" -name nvmodel.pc | head -1)
[ -n "$pc" ] || {
  echo "FAIL: no nvmodel.pc installed"
  exit 1
}
export PKG_CONFIG_PATH=${pc%/*}
libdir=$(pkg-config --variable=libdir nvmodel)
incdir=$(pkg-config --variable=includedir nvmodel)

# ---------------------------------------------------------------- what it holds
[ "$(pkg-config --modversion nvmodel)" = "$version" ] && ok "nvmodel.pc version $version" ||
  bad "nvmodel.pc version $(pkg-config --modversion nvmodel), want $version"
case $libdir in "$prefix"/*) ok "nvmodel.pc libdir $libdir" ;; *) bad "nvmodel.pc libdir $libdir is not under $prefix" ;; esac
so=$libdir/libnvmodel.so
soname=$(readelf -d "$so" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
[ "$soname" = "libnvmodel.so.$major" ] && [ -e "$libdir/$soname" ] && [ -e "$libdir/libnvmodel.so.$version" ] &&
  ok "SONAME $soname, libnvmodel.so.$version" || bad "SONAME '$soname' (want libnvmodel.so.$major and its files)"
[ -f "$libdir/libnvmodel.a" ] && ok "static library" || bad "no libnvmodel.a"
[ -f "$libdir/cmake/nvmodel/nvmodelConfig.cmake" ] &&
  [ -f "$libdir/cmake/nvmodel/nvmodelConfigVersion.cmake" ] && ok "CMake package" || bad "no CMake package in $libdir/cmake/nvmodel"
got=$("$prefix/bin/nvmodel" --version 2>&1)
[ "$got" = "nvmodel $version" ] && ok "bin/nvmodel --version: $got" || bad "bin/nvmodel --version: '$got'"
man=$(find "$prefix" -name nvmodel.1 | head -1)
if [ -n "$man" ] && grep -q "^\.TH NVMODEL 1 .*nvmodel $version" "$man" && grep -q '^\.SS nvmodel run$' "$man"; then
  ok "man page ${man#"$prefix"/}"
else
  bad "no nvmodel.1 with the version and the commands"
fi

# Every installed header compiles on its own, as C11 and as C++: it
# includes only installed headers and the standard library's.
cxx=$(command -v c++ || command -v g++ || command -v clang++ || true)
n=0 f0=$fail
for h in "$incdir"/nvmodel/*.h; do
  h=nvmodel/${h##*/}
  printf '#include <%s>\n' "$h" | "$cc" -std=c11 -pedantic-errors -Wall -Wextra -Werror -fsyntax-only \
    -I"$incdir" -x c - || bad "$h does not compile alone as C11"
  if [ -n "$cxx" ]; then
    printf '#include <%s>\n' "$h" | "$cxx" -std=c++11 -Wall -Wextra -Werror -fsyntax-only \
      -I"$incdir" -x c++ - || bad "$h does not compile alone as C++11"
  fi
  n=$((n + 1))
done
[ $fail = "$f0" ] && ok "$n headers compile alone as C11${cxx:+ and C++11}"

# The shared library exports the public API and nothing else: every symbol
# it exports is named in a public header, and every function a public
# header declares (not static inline) is exported. Attributes are dropped
# first ("static inline __attribute__((always_inline)) T f(").
all=$(for h in "$incdir"/nvmodel/*.h; do printf '#include <nvmodel/%s>\n' "${h##*/}"; done |
  "$cc" -E -P -I"$incdir" -x c - | grep -v '^[[:space:]]*#' | tr '\n' ' ' |
  sed -E 's/__attribute__ *\(\([^()]*(\([^()]*\))?[^()]*\)\)//g')
exported=$(nm -D --defined-only "$so" | awk '{print $3}' | sort -u)
idents=$(grep -oE '[A-Za-z_][A-Za-z0-9_]*' <<<"$all" | sort -u)
extra=$(comm -23 <(echo "$exported") <(echo "$idents"))
[ -z "$extra" ] || bad "exported but in no public header: $(echo $extra)"
inline=$(grep -oE 'static (inline|__inline__) [^(;{]*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*) *\(' <<<"$all" |
  sed -E 's/.*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*) *\($/\1/' | sort -u)
# Outside the bodies of the inline functions (their calls need exporting
# too, but their locals and keywords are no declarations).
decl=$(sed -E 's/\{[^{}]*\}/;/g; s/\{[^{}]*\}/;/g; s/\{[^{}]*\}/;/g' <<<"$all" |
  grep -oE '[A-Za-z_][A-Za-z0-9_]* *\(' | grep -vE '^\(' | sed -E 's/ *\($//' | sort -u)
keywords=$(printf '%s\n' __attribute__ __aligned__ __alignof__ __typeof__ _Alignas _Alignof _Static_assert \
  sizeof if for while switch return void int char unsigned signed long short float double bool | sort -u)
# (Function pointer typedefs and members, "(*name)(", are no match above.)
missing=$(comm -23 <(echo "$decl") <(echo "$exported") | comm -23 - <(echo "$inline") | comm -23 - <(echo "$keywords"))
[ -z "$missing" ] || bad "declared in a public header but not exported: $(echo $missing) (is the header missing #pragma GCC visibility push(default)? docs/embedding.md)"
[ -z "$extra$missing" ] && ok "libnvmodel.so exports $(echo "$exported" | wc -l) symbols, all of the public headers'"

# ---------------------------------------------------------------- outside programs
# 1. pkg-config alone, against the shared library.
# shellcheck disable=SC2046
if "$cc" "${cflags[@]}" -o "$work/hello-pc" "$here/hello.c" $(pkg-config --cflags --libs nvmodel); then
  if ldd "$work/hello-pc" 2>/dev/null | grep -q "libnvmodel.so.$major => $libdir/"; then
    ok "hello-pc links $libdir/libnvmodel.so.$major"
  else
    LD_LIBRARY_PATH=$libdir ldd "$work/hello-pc" | grep -q "libnvmodel.so.$major => $libdir/" &&
      ok "hello-pc links libnvmodel.so.$major (LD_LIBRARY_PATH=$libdir)" || bad "hello-pc does not load $libdir/libnvmodel.so.$major"
  fi
  echo "\$ cc hello.c \$(pkg-config --cflags --libs nvmodel) && LD_LIBRARY_PATH=$libdir ./hello-pc"
  LD_LIBRARY_PATH=$libdir "$work/hello-pc" || bad "hello-pc exited $?"
else
  bad "hello.c does not build with pkg-config --cflags --libs nvmodel"
fi

# 1b. A Volta channel in the program's own memory, built with the set-up
# helpers, and snapshots taken mid-run and restored (tests/install/channel.c),
# through pkg-config alone.
# shellcheck disable=SC2046
if "$cc" "${cflags[@]}" -o "$work/channel-pc" "$here/channel.c" $(pkg-config --cflags --libs nvmodel); then
  echo "\$ cc channel.c \$(pkg-config --cflags --libs nvmodel) && LD_LIBRARY_PATH=$libdir ./channel-pc"
  LD_LIBRARY_PATH=$libdir "$work/channel-pc" || bad "channel-pc exited $?"
else
  bad "channel.c does not build with pkg-config --cflags --libs nvmodel"
fi

# 2. The static library: no libnvmodel.so at run time.
# shellcheck disable=SC2046
if "$cc" "${cflags[@]}" -o "$work/hello-static" "$here/hello.c" $(pkg-config --cflags nvmodel) \
  "$libdir/libnvmodel.a" $(pkg-config --static --libs-only-l nvmodel | sed 's/-lnvmodel//'); then
  if ldd "$work/hello-static" 2>/dev/null | grep -q libnvmodel; then
    bad "hello-static loads libnvmodel.so"
  elif "$work/hello-static" >/dev/null; then
    ok "hello-static (libnvmodel.a, no libnvmodel.so loaded) runs"
  else
    bad "hello-static exited $?"
  fi
else
  bad "hello.c does not build with libnvmodel.a"
fi

# 3. find_package(nvmodel) in a tiny CMake project.
echo "\$ cmake -S tests/install -DCMAKE_PREFIX_PATH=$prefix && cmake --build && ./hello"
if cmake -S "$here" -B "$work/build-cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_C_FLAGS="${NVM_CFLAGS:-}" -DNVM_WANT_VERSION="$version" >"$work/cmake.log" 2>&1 &&
  cmake --build "$work/build-cmake" >>"$work/cmake.log" 2>&1; then
  grep -- '-- nvmodel ' "$work/cmake.log"
  "$work/build-cmake/hello" || bad "find_package hello exited $?"
else
  cat "$work/cmake.log"
  bad "hello.c does not build through find_package(nvmodel)"
fi

[ $fail = 0 ] && echo "install check: ok"
exit $fail
