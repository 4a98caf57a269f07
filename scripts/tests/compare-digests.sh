#!/usr/bin/env bash
# compare-digests must pass identical files and name the first diverging scene and step otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { # NAME EXPECTED_EXIT NEEDLE FILE_A FILE_B
  local out code=0
  out=$("$root/scripts/compare-digests" "$4" "$5") || code=$?
  if [ "$code" = "$2" ] && grep -qF -- "$3" <<<"$out"; then echo "ok   - $1"; passed=$((passed + 1))
  else echo "FAIL - $1 (exit $code: $out)"; failed=$((failed + 1)); fi
}
printf 'a 1 0000000000000001\na 2 0000000000000002\nb 1 0000000000000003\n' > "$tmp/up"
cp "$tmp/up" "$tmp/same"
sed '3s/3$/4/' "$tmp/up" > "$tmp/diff"
head -n 2 "$tmp/up" > "$tmp/short"
{ cat "$tmp/up"; echo 'b 2 0000000000000005'; } > "$tmp/long"
check "identical files pass" 0 "2 scenes, 3 steps" "$tmp/up" "$tmp/same"
check "a changed digest names scene and step" 1 "MISMATCH in scene 'b' at step 1" "$tmp/up" "$tmp/diff"
check "a missing step is named" 1 "scene 'b' at step 1: expected 0000000000000003, got <missing>" "$tmp/up" "$tmp/short"
check "an extra step is named" 1 "extra line in the actual digests: 'b 2" "$tmp/up" "$tmp/long"
echo "compare-digests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
