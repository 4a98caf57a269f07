#!/usr/bin/env bash
# Self-test of the patch layer: vendor-check must pass on vendor/ and fail, naming the file, on a
# hand edit, a missing file and an extra file; vendor-sync must apply a series in order and refuse
# a patch that does not apply cleanly.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok()   { echo "ok   - $1"; passed=$((passed + 1)); }
fail() { echo "FAIL - $1"; failed=$((failed + 1)); }

# expect_fail NAME NEEDLE CMD...: CMD must exit non-zero and print NEEDLE.
expect_fail() {
  local name=$1 needle=$2; shift 2
  local out
  if out=$("$@" 2>&1); then fail "$name (exit 0)"; return; fi
  if grep -qF -- "$needle" <<<"$out"; then ok "$name"; else fail "$name (no '$needle' in: $out)"; fi
}

if "$root/scripts/vendor-check" >/dev/null 2>&1; then ok "vendor/ matches upstream + series"; else fail "vendor/ matches upstream + series"; fi

cp -r "$root/vendor" "$tmp/edited"
echo "// hand edit" >> "$tmp/edited/rapier3d/src/dynamics/ccd/ccd_solver.rs"
expect_fail "hand edit is named" "differs:  vendor/rapier3d/src/dynamics/ccd/ccd_solver.rs" \
  "$root/scripts/vendor-check" --vendor "$tmp/edited"

cp -r "$root/vendor" "$tmp/missing"
rm "$tmp/missing/parry3d/src/query/mod.rs"
expect_fail "missing file is named" "missing:  vendor/parry3d/src/query/mod.rs" \
  "$root/scripts/vendor-check" --vendor "$tmp/missing"

cp -r "$root/vendor" "$tmp/extra"
echo x > "$tmp/extra/rapier3d/src/new_file.rs"
expect_fail "extra file is named" "extra:    vendor/rapier3d/src/new_file.rs" \
  "$root/scripts/vendor-check" --vendor "$tmp/extra"

# A series of two patches, the second building on the first, derived into a scratch vendor dir.
# (on top of the project's own series, which they must not disturb).
mkdir -p "$tmp/patches"
cp "$root/patches/series" "$root"/patches/*.patch "$tmp/patches/"
readme=rapier3d/README.md
first=$(head -n 1 "$root/vendor/$readme")
cat > "$tmp/patches/0001-first.patch" <<PATCH
Test patch one: replaces the first line of the README.
--- a/$readme
+++ b/$readme
@@ -1 +1 @@
-$first
+patched once
PATCH
cat > "$tmp/patches/0002-second.patch" <<PATCH
Test patch two: applies only on top of patch one.
--- a/$readme
+++ b/$readme
@@ -1 +1 @@
-patched once
+patched twice
PATCH
printf '0001-first.patch\n0002-second.patch  # trailing comment\n' >> "$tmp/patches/series"
"$root/scripts/vendor-sync" --patches "$tmp/patches" --out "$tmp/derived" 2>/dev/null
if [ "$(head -n 1 "$tmp/derived/$readme")" = "patched twice" ]; then ok "series applied in order"; else fail "series applied in order"; fi
expect_fail "vendor/ without the series' patches differs" "differs:  vendor/$readme" \
  "$root/scripts/vendor-check" --patches "$tmp/patches"

printf '0002-second.patch\n0001-first.patch\n' > "$tmp/patches/series"  # the two test patches alone, reversed
expect_fail "out-of-order patch is refused" "patch 0002-second.patch does not apply cleanly" \
  "$root/scripts/vendor-sync" --patches "$tmp/patches" --out "$tmp/derived2"
echo "0003-absent.patch" > "$tmp/patches/series"
expect_fail "unknown patch name is refused" "names 0003-absent.patch" \
  "$root/scripts/vendor-sync" --patches "$tmp/patches" --out "$tmp/derived3"

echo "vendor-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
