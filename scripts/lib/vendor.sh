# Shared by scripts/vendor-sync and scripts/vendor-check (sourced, not run).
# derive_vendor OUT PATCHES_DIR: write pristine upstream + the patch series into OUT.

set -euo pipefail

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

die() { echo "error: $*" >&2; exit 1; }

# Path of NAME-VERSION.crate in cargo's download cache, or nothing.
cached_crate() {
  local cache="${CARGO_HOME:-$HOME/.cargo}/registry/cache"
  [ -d "$cache" ] || return 0
  find "$cache" -maxdepth 2 -name "$1-$2.crate" -print 2>/dev/null | sort | head -n 1
}

# Make cargo download NAME-VERSION into its cache (works with an empty cache).
fetch_crate() {
  local name=$1 version=$2 tmp
  tmp=$(mktemp -d)
  mkdir -p "$tmp/src"
  # A throw-away package outside any workspace; `cargo fetch` downloads the exact version.
  cat > "$tmp/Cargo.toml" <<TOML
[package]
name = "vendor-fetch"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
$name = "=$version"
TOML
  : > "$tmp/src/lib.rs"
  (cd "$tmp" && cargo fetch --quiet) || die "cargo could not fetch $name $version"
  rm -rf "$tmp"
}

# Verified archive path for NAME VERSION SHA256 (downloads it if needed).
pristine_crate() {
  local name=$1 version=$2 sha=$3 path
  path=$(cached_crate "$name" "$version")
  if [ -z "$path" ] || [ "$(sha256sum "$path" | cut -d' ' -f1)" != "$sha" ]; then
    fetch_crate "$name" "$version"
    path=$(cached_crate "$name" "$version")
  fi
  [ -n "$path" ] || die "$name-$version.crate not found in cargo's cache after fetching"
  local got
  got=$(sha256sum "$path" | cut -d' ' -f1)
  [ "$got" = "$sha" ] || die "$name-$version.crate: sha256 $got, expected $sha (patches/upstream.lock)"
  echo "$path"
}

derive_vendor() {
  local out=$1 patches=$2 name version sha crate
  mkdir -p "$out"
  while read -r name version sha; do
    case "$name" in ''|'#'*) continue ;; esac
    crate=$(pristine_crate "$name" "$version" "$sha")
    tar -xzf "$crate" -C "$out"
    mv "$out/$name-$version" "$out/$name"
  done < "$REPO_ROOT/patches/upstream.lock"

  local line n=0
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%%#*}
    line=$(echo "$line" | xargs)
    [ -n "$line" ] || continue
    [ -f "$patches/$line" ] || die "patches/series names $line, which does not exist"
    n=$((n + 1))
    patch -d "$out" -p1 --fuzz=0 --forward --batch --silent \
      --no-backup-if-mismatch --reject-file=- < "$patches/$line" \
      || die "patch $line does not apply cleanly (fuzz 0) on top of the ones before it"
  done < "$patches/series"
  echo "derived vendor/ from upstream.lock + $n patch(es)" >&2
}
