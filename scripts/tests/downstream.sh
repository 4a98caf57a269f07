#!/usr/bin/env bash
# A game that copies README.md's [patch.crates-io] block must get the fork's rapier3d and parry3d.
# examples/downstream is such a game; ask cargo where it resolves both crates from, then run it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
meta=$(cargo metadata --format-version 1 --locked --manifest-path "$root/examples/downstream/Cargo.toml")
passed=0 failed=0
for crate in rapier3d parry3d; do
  manifest=$(python3 -c 'import json,sys
m=json.load(sys.stdin)
print(" ".join(p["manifest_path"] for p in m["packages"] if p["name"]==sys.argv[1]))' "$crate" <<<"$meta")
  if [ "$manifest" = "$root/vendor/$crate/Cargo.toml" ]; then
    echo "ok   - downstream game resolves $crate to vendor/$crate"; passed=$((passed + 1))
  else
    echo "FAIL - downstream game resolves $crate to: $manifest"
    failed=$((failed + 1))
  fi
done
# And it builds and runs against the fork like any game would (shares target/ with the workspace).
out=$(CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}" cargo run --quiet --release --locked \
  --manifest-path "$root/examples/downstream/Cargo.toml")
# The ball (r = 0.5) comes to rest on the ground slab (top at y = 0.1).
if [ "$out" = "ball at y = 0.600" ]; then
  echo "ok   - downstream game builds and runs on the fork ($out)"; passed=$((passed + 1))
else
  echo "FAIL - downstream game printed: $out"; failed=$((failed + 1))
fi
echo "downstream: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
