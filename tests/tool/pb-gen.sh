#!/usr/bin/env bash
# The checked-in method tables (src/pushbuf/classes_gen.c) are what
# tools/gen/gen_pb_classes.py writes from NVIDIA's class headers. The
# headers are not part of the project: the test runs where they are
# ($NVM_CLASS_HEADERS, or the brief's refs/nvidia-classes next to the source
# tree) and python3 is installed, and is skipped (77) elsewhere.
# Usage: pb-gen.sh (run from the source tree).
set -u
dir=${NVM_CLASS_HEADERS:-../shared/refs/nvidia-classes}
if ! command -v python3 >/dev/null || [ ! -d "$dir" ]; then
  echo "skipped: no python3 or no class headers in '$dir' (set NVM_CLASS_HEADERS)"
  exit 77
fi
python3 tools/gen/gen_pb_classes.py "$dir" --check
