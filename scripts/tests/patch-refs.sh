#!/usr/bin/env bash
# Docs cannot go stale on patch numbers (issue 46). A re-cut of the series renumbers patches, so
# prose names a patch by its file name without `.patch` (`0009-rapier-ccd-keep-depth-policy`),
# and every such name must be one of patches/series; a bare "patch 0009" (or "patches 0009 and
# 0010") says nothing once the numbers move, and is refused. History keeps the numbers of its
# day, and only files that are history are not checked: CHANGELOG.md, docs/history.md (the
# measurements by date), the decision records (docs/decisions/) and the series notes of
# crates/pinned/src/version.rs. Every other file is checked whole, a section whose heading
# carries a date included: a dated section that is history belongs in docs/history.md. Then a
# planted stale reference must fail, in a dated section of another doc too, and the same section
# must pass as docs/history.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

# check FILE...: prints each stale reference as FILE:LINE: why; fails if there is one.
check() {
  local series
  series=$(grep -v '^#' "$root/patches/series" | sed 's/\.patch$//' | tr '\n' ' ')
  awk -v series="$series" '
    BEGIN { n = split(series, names, " "); for (i = 1; i <= n; i++) known[names[i]] = 1 }
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

# History: the files left out, by their path from the root. This script and vendor-check's
# self-test are left out too: they plant old names on purpose.
history='^(CHANGELOG\.md|docs/history\.md|docs/decisions/.*|crates/pinned/src/version\.rs)$'
# checked: reads paths from the root, prints those that are checked.
checked() {
  grep -vE "$history" | grep -vE '^scripts/tests/(patch-refs|vendor-check)\.sh$' | sort -u || true
}

# The files that state the series as it is: the docs but history, the locks, our crates' code and
# docs, the scripts.
mapfile -t files < <(
  {
    ls README.md docs/*.md patches/*.lock
    git ls-files crates scripts | grep -E '\.(rs|md|toml|sh|mjs|js)$|^scripts/[^/.]+$'
  } | checked
)
check "${files[@]}"
echo "patch-refs: ok (${#files[@]} files name only patches of patches/series)"

# A planted stale reference fails: a bare number, and a name with an old number. Then one dated
# section with both, planted as docs/history.md and as docs/benchmarks.md: the first is left
# out (history), the second is checked and fails (a date in a heading exempts nothing).
planted=$(mktemp -d)
trap 'rm -rf "$planted"' EXIT
printf 'The mirror is patch 0008 (bevy).\n' >"$planted/bare.md"
printf 'Vendored for `0008-bevy-rapier3d-reflect-ccd-settings`.\n' >"$planted/old.md"
for file in bare old; do
  if check "$planted/$file.md" >/dev/null; then
    echo "patch-refs: FAIL: a planted stale reference ($file) passed" >&2
    exit 1
  fi
done
mkdir "$planted/docs"
dated='## Before the re-cut (2026-11-30)\n\nPatch 0003 was the pass; `0008-bevy-rapier3d-reflect-ccd-settings` the mirror.\n'
printf "$dated" >"$planted/docs/history.md"
printf "$dated" >"$planted/docs/benchmarks.md"
mapfile -t kept < <(cd "$planted" && ls docs/*.md | checked)
if [ "${kept[*]}" != docs/benchmarks.md ]; then
  echo "patch-refs: FAIL: of a planted docs/history.md and docs/benchmarks.md, checked: ${kept[*]:-none} (want docs/benchmarks.md)" >&2
  exit 1
fi
if (cd "$planted" && check "${kept[@]}" >/dev/null); then
  echo "patch-refs: FAIL: a dated section of docs/benchmarks.md with stale references passed" >&2
  exit 1
fi
echo "patch-refs: ok (a planted bare number and an old number fail, in a dated section of a doc too; docs/history.md is history)"
