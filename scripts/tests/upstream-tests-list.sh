#!/usr/bin/env bash
# crates/upstream-tests must compile every test file upstream parry3d ships, no more, no less.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
names() { grep -A1 '^\[\[test\]\]' "$1" | sed -n 's/^name = "\(.*\)"/\1/p' | LC_ALL=C sort; }
if diff <(names "$root/vendor/parry3d/Cargo.toml") <(names "$root/crates/upstream-tests/Cargo.toml"); then
  echo "upstream-tests: 1 passed, 0 failed (parry3d's $(names "$root/vendor/parry3d/Cargo.toml" | wc -l) test targets all listed)"
else
  echo "upstream-tests: 0 passed, 1 failed (crates/upstream-tests/Cargo.toml differs from vendor/parry3d's [[test]] list, above)"
  exit 1
fi
