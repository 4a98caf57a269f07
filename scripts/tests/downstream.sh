#!/usr/bin/env bash
# A game that copies README.md's [patch.crates-io] block must get the fork's rapier3d and parry3d.
# examples/downstream is such a game; ask cargo where it resolves both crates from. (Building it
# too would cost CI a whole extra build of the fork; `cargo run --release` in that folder does.)
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
echo "downstream: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
