#!/usr/bin/env bash
# Docs cannot go stale on patch numbers (issue 46). A re-cut of the series renumbers patches, so
# prose names a patch by its file name without `.patch` (`0009-rapier-ccd-keep-depth-policy`),
# and every such name must be one of patches/series; a bare "patch 0009" (or "patches 0009 and
# 0010") says nothing once the numbers move, and is refused. History keeps the numbers of its
# day: CHANGELOG.md, the decision records (docs/decisions/), the series notes of
# crates/pinned/src/version.rs, and every Markdown section whose heading carries a date
# (YYYY-MM-DD) are not checked. Then a planted stale reference must fail.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

# check FILE...: prints each stale reference as FILE:LINE: why; fails if there is one.
check() {
  local series
  series=$(grep -v '^#' patches/series | sed 's/\.patch$//' | tr '\n' ' ')
  awk -v series="$series" '
    BEGIN { n = split(series, names, " "); for (i = 1; i <= n; i++) known[names[i]] = 1 }
    FNR == 1 { history = 0; md = FILENAME ~ /\.md$/ }
    md && /^#+ / { history = $0 ~ /[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]/ }
    history { next }
    {
      line = $0
      while (match(line, /[0-9][0-9][0-9][0-9]-(rapier|parry|bevy)[a-z0-9-]*[a-z0-9]/)) {
        name = substr(line, RSTART, RLENGTH)
        if (!(name in known)) { printf "%s:%d: %s is not in patches/series\n", FILENAME, FNR, name; bad = 1 }
        line = substr(line, RSTART + RLENGTH)
      }
      line = $0
      while (match(line, /[Pp]atch(es)? [0-9][0-9][0-9][0-9]/)) {
        rest = substr(line, RSTART + RLENGTH, 1)
        if (rest != "-") {
          printf "%s:%d: a bare \"%s\": name the patch (NNNN-name, as in patches/series)\n", FILENAME, FNR, substr(line, RSTART, RLENGTH)
          bad = 1
        }
        line = substr(line, RSTART + RLENGTH)
      }
    }
    END { exit bad }
  ' "$@"
}

# The files that state the series as it is: the docs but history, the locks, our crates' code and
# docs, the scripts.
mapfile -t files < <(
  {
    ls README.md docs/*.md patches/*.lock
    git ls-files crates scripts | grep -E '\.(rs|md|toml|sh|mjs|js)$|^scripts/[^/.]+$'
  } | grep -vE '^crates/pinned/src/version\.rs$|^scripts/tests/(patch-refs|vendor-check)\.sh$' | sort -u
)
check "${files[@]}"
echo "patch-refs: ok (${#files[@]} files name only patches of patches/series)"

# A planted stale reference fails: a bare number, and a name with an old number.
planted=$(mktemp -d)
trap 'rm -rf "$planted"' EXIT
printf 'The mirror is patch 0008 (bevy).\n' >"$planted/bare.md"
printf 'Vendored for `0008-bevy-rapier3d-reflect-ccd-settings`.\n' >"$planted/old.md"
printf '## Before the re-cut (2026-11-30)\n\nPatch 0003 was the pass.\n' >"$planted/history.md"
for file in bare old; do
  if check "$planted/$file.md" >/dev/null; then
    echo "patch-refs: FAIL: a planted stale reference ($file) passed" >&2
    exit 1
  fi
done
check "$planted/history.md" >/dev/null || {
  echo "patch-refs: FAIL: a dated section's history was refused" >&2
  exit 1
}
echo "patch-refs: ok (a planted bare number and an old number fail; a dated section is history)"
