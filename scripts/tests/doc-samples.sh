#!/usr/bin/env bash
# The docs' samples of `check` are the tool's output, so they cannot go stale (issue 65). A sample
# is a ```console block whose last command line runs `... -- check [--all]`: the lines after that
# command, up to the block's end, are what it prints. README.md shows `check`, docs/testing.md
# `check --all`. Runs the binary given in $RAPIER_PINNED_BIN (default target/release/rapier-pinned)
# with each sample's arguments and fails naming the doc and the sample's line when its stdout
# differs from the sample, or when a doc lacks its sample. Then a planted stale sample, and a doc
# without one, must fail.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
bin=${RAPIER_PINNED_BIN:-target/release/rapier-pinned}
if [ ! -x "$bin" ]; then
  echo "doc-samples: no binary at $bin (cargo build --release --locked -p rapier-pinned-cli)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# samples DOC DIR: writes each sample of DOC as DIR/LINE.args (the arguments after `--`) and
# DIR/LINE.out (the lines printed), LINE being the command's line in DOC.
samples() {
  mkdir -p "$2"
  awk -v dir="$2" '
    function done() {
      if (args != "") {
        printf "%s\n", args > (dir "/" line ".args"); close(dir "/" line ".args")
        printf "%s", out > (dir "/" line ".out"); close(dir "/" line ".out")
      }
      args = ""; out = ""
    }
    /^```console/ { block = 1; args = ""; out = ""; next }
    block && /^```/ { done(); block = 0; next }
    !block { next }
    /^\$ / {
      args = ""; out = ""
      command = $0
      sub(/[ \t]+#.*$/, "", command)
      if (match(command, / -- check( --all)?[ \t]*$/)) {
        args = substr(command, RSTART + 4)
        sub(/[ \t]+$/, "", args)
        line = FNR
      }
      next
    }
    args != "" { out = out $0 "\n" }
  ' "$1"
}

# compare DOC ARGS: DOC has a sample of `ARGS`, and every sample of DOC is what the binary prints.
compare() {
  local doc=$1 want=$2 dir found=0 bad=0 args sample line
  dir="$tmp/$(echo "$doc" | tr '/' '_').$RANDOM"
  samples "$doc" "$dir"
  for sample in "$dir"/*.args; do
    [ -e "$sample" ] || continue
    line=$(basename "$sample" .args)
    args=$(cat "$sample")
    [ "$args" = "$want" ] && found=1
    # shellcheck disable=SC2086 # the arguments are words: check, --all
    "$bin" $args >"$dir/$line.actual" 2>/dev/null || true
    if ! diff -u --label "$doc:$line (the sample)" --label "$bin $args (now)" \
      "$dir/$line.out" "$dir/$line.actual" >"$dir/$line.diff"; then
      echo "doc-samples: $doc:$line: the sample of \`$args\` is not what the tool prints:"
      cat "$dir/$line.diff"
      bad=1
    fi
  done
  if [ "$found" = 0 ]; then
    echo "doc-samples: $doc: no \`\`\`console sample of \`$want\` (a block ending with \`\$ ... -- $want\` and its output)"
    bad=1
  fi
  return "$bad"
}

status=0
compare README.md "check" || status=1
compare docs/testing.md "check --all" || status=1
[ "$status" = 0 ] || exit 1
echo "doc-samples: ok (README.md's \`check\` and docs/testing.md's \`check --all\` are the tool's output)"

# Planted: a sample whose total is stale, and a doc without a sample, each fail naming the doc.
sed 's/^total .*/total                                      10174   10174       0/' README.md >"$tmp/stale.md"
if out=$(compare "$tmp/stale.md" "check"); then
  echo "doc-samples: FAIL: a planted stale sample passed" >&2
  exit 1
fi
grep -qF "doc-samples: $tmp/stale.md:" <<<"$out" || {
  echo "doc-samples: FAIL: a planted stale sample was not named: $out" >&2
  exit 1
}
printf '# No sample\n\n```console\n$ scripts/test\n```\n' >"$tmp/none.md"
if out=$(compare "$tmp/none.md" "check --all"); then
  echo "doc-samples: FAIL: a doc without its sample passed" >&2
  exit 1
fi
echo "doc-samples: ok (a planted stale sample and a doc without one fail, each named)"
