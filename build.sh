#!/usr/bin/env bash
# nvmodel set-up: the two commands of the README.
#   ./build.sh demo   install what is missing, build (release), run `nvmodel demo`
#   ./build.sh test   install what is missing, build with ASan+UBSan, run every test
# Other targets: deps (install every Debian package the targets below need,
# with one apt-get update), build (release only), fuzz (build the libFuzzer targets),
# python (pip install ./python into a venv under build/, then its pytest suite,
# mypy --strict over the installed package and every example in python/examples/).
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the project needs, and a command that tells each is there.
PKGS=(cmake make gcc clang clang-format pkg-config liblua5.4-dev libcmocka-dev libclang-rt-14-dev)
have_all() {
  command -v cmake >/dev/null && command -v make >/dev/null && command -v gcc >/dev/null &&
    command -v clang >/dev/null && command -v clang-format >/dev/null && command -v pkg-config >/dev/null &&
    pkg-config --exists lua5.4 cmocka &&
    [ -n "$(find /usr/lib/llvm-14/lib/clang -name 'libclang_rt.fuzzer-x86_64.a' 2>/dev/null | head -1)" ]
}

# apt-get update once, then the packages given (as root), or the command to
# run as root.
apt_install() { # package...
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "build.sh: installing $*" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "$@" >/dev/null
  else
    echo "build.sh: missing packages; run as root:" >&2
    echo "  apt-get update && apt-get install -y $*" >&2
    exit 1
  fi
}
install_deps() { have_all || apt_install "${PKGS[@]}"; }

# The Python binding's: Debian's CPython with its headers, venv and pytest,
# and mypy for its type hints.
PY_PKGS=(python3-dev python3-venv python3-pytest mypy)
PY=/usr/bin/python3
have_py() {
  [ -x "$PY" ] && command -v mypy >/dev/null && "$PY" -c 'import sysconfig, os, venv, pytest
assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' 2>/dev/null
}
install_py_deps() { have_py || apt_install "${PY_PKGS[@]}"; }

# Everything the build, the tests and the Python binding need, with one
# `apt-get update` (what CI calls first on a fresh machine).
install_all_deps() {
  have_all && have_py && return 0
  apt_install "${PKGS[@]}" "${PY_PKGS[@]}"
}

jobs=$(nproc 2>/dev/null || echo 2)
build() { # preset
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1" -j "$jobs"
}

case "${1:-}" in
  deps)
    install_all_deps
    ;;
  demo)
    install_deps
    build release >/dev/null
    exec ./build/release/nvmodel demo
    ;;
  build)
    install_deps
    build release
    ;;
  test)
    install_deps
    build asan
    ctest --preset asan -j "$jobs"
    ;;
  fuzz)
    install_deps
    build fuzz
    ;;
  python)
    install_deps
    install_py_deps
    rm -rf build/venv
    "$PY" -m venv --system-site-packages build/venv
    build/venv/bin/pip install -q ./python
    # From outside the tree, so that the installed package is what is imported.
    (cd build && venv/bin/python -m pytest -q ../python/tests)
    # The type hints (py.typed, _nvmodel.pyi) as a user's mypy reads them.
    (cd build && mypy --strict --no-incremental --python-executable venv/bin/python -p nvmodel)
    # Every example, as a user runs it.
    for ex in python/examples/*.py; do
      echo "build.sh: $ex" >&2
      (cd build && venv/bin/python "../$ex" >/dev/null)
    done
    ;;
  *)
    echo "usage: ./build.sh demo|test|build|fuzz|python|deps" >&2
    exit 2
    ;;
esac
