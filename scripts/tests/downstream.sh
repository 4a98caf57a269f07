#!/usr/bin/env bash
# A game that copies README.md's [patch.crates-io] block must get the fork's rapier3d and parry3d.
# examples/downstream is such a game: ask cargo where it resolves both crates from, then run the
# game's own tests, which are golden trajectories of its scenes through rapier-pinned-golden
# (docs/golden.md): one that passes against its committed snapshot, one deliberately broken that
# must be reported at the right step and body, and one whose snapshot is missing, which must fail;
# and its recorded matches (tests/replays/), verified by the golden crate's replay runner with the
# game's own input decoder, and one with an input changed, which must be reported at its tick.
#
# insta runs in CI mode: INSTA_UPDATE=no and CI=true, so a missing or different snapshot fails and
# nothing is written (no .snap.new, no pending file); INSTA_FORCE_PASS is cleared so no assertion
# is forced to pass. After the run, no pending snapshot may exist under examples/downstream.
#
# Build: examples/downstream has its own Cargo.lock (--locked) and is its own workspace, so cargo
# builds the fork's path crates (parry3d, rapier3d, rapier-pinned, ...) again for it: their
# artifact hash includes their path relative to the workspace root, which differs from the main
# workspace's. The crates.io dependencies hash the same, so the script shares the main target/
# (or $CARGO_TARGET_DIR) and reuses those; the two workspaces' fork artifacts sit side by side
# there and never invalidate each other.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
game="$root/examples/downstream"
# The game's Cargo.lock also pins the dependencies of the path crates it uses from this repository
# (crates/pinned, crates/digest, crates/scenes, crates/golden): a change to theirs needs it updated
# too.
if ! meta=$(cargo metadata --format-version 1 --locked --manifest-path "$game/Cargo.toml"); then
  echo "FAIL - examples/downstream/Cargo.lock is out of date (a dependency of crates/pinned, scenes"
  echo "       or golden changed?): run \`cargo metadata --format-version 1 --manifest-path"
  echo "       examples/downstream/Cargo.toml >/dev/null\` (keeps every locked version) and commit it"
  echo "downstream: 0 passed, 1 failed"
  exit 1
fi
passed=0 failed=0
ok() { echo "ok   - $*"; passed=$((passed + 1)); }
fail() { echo "FAIL - $*"; failed=$((failed + 1)); }
for crate in rapier3d parry3d; do
  manifest=$(python3 -c 'import json,sys
m=json.load(sys.stdin)
print(" ".join(p["manifest_path"] for p in m["packages"] if p["name"]==sys.argv[1]))' "$crate" <<<"$meta")
  if [ "$manifest" = "$root/vendor/$crate/Cargo.toml" ]; then
    ok "downstream game resolves $crate to vendor/$crate"
  else
    fail "downstream game resolves $crate to: $manifest"
  fi
done

pending() { find "$game" -path "$game/target" -prune -o \( -name '*.snap.new' -o -name '*.pending-snap' \) -print; }
stale=$(pending)
if [ -n "$stale" ]; then
  fail "pending snapshots before the run (review or delete them): $stale"
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
if (cd "$game" && env -u INSTA_FORCE_PASS INSTA_UPDATE=no CI=true \
  CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}" \
  cargo test --release --locked) >"$log" 2>&1; then
  ok "the game's golden tests pass in insta's CI mode ($(($(date +%s) - start)) s with the build)"
else
  cat "$log"
  fail "the game's golden tests (output above)"
fi
# Each test by name, so a test that silently stopped running is noticed too.
for t in the_player_pushes_the_crate_stack \
  a_late_input_is_reported_at_its_first_diverging_step_and_body \
  a_missing_golden_file_fails every_recorded_match_steps_as_recorded \
  a_changed_input_is_reported_at_its_tick; do
  if grep -q "^test $t \.\.\. ok$" "$log"; then
    ok "downstream test $t"
  else
    fail "downstream test $t did not pass"
  fi
done
written=$(pending)
if [ -z "$written" ]; then
  ok "no snapshot written in CI mode"
else
  fail "snapshots written in CI mode: $written"
fi

echo "downstream: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
