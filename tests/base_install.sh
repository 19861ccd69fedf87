#!/usr/bin/env bash
# The base install's door: a fresh venv with swizzlekit and no extras (no torch, no Triton, no
# cuda-python, no Dask), running the CLI fuzz and the API-misuse tests against it.
# Usage: bash tests/base_install.sh [VENV]   (default: a new folder under /tmp)
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${1:-$(mktemp -d)/swizzlekit-base}"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q . pytest hypothesis
if "$venv/bin/python" -c "import torch" 2> /dev/null || "$venv/bin/python" -c "import triton" \
    2> /dev/null; then
  echo "base install: torch or triton is importable; this is not the base install" >&2; exit 1
fi
"$venv/bin/python" -m pytest -p no:cacheprovider -m "not slow" tests/test_fuzz_cli.py \
  tests/test_misuse.py
