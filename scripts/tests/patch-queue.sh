#!/usr/bin/env bash
# scripts/patch-queue works on the committed series: quilt pushes every patch at fuzz 0, and
# refreshing each one, from the last down to the first, rewrites nothing (each patch is in the
# form the queue writes, so refreshing a patch in the middle of the series changes only what
# was edited). Installs quilt with apt-get when it is missing and we are root.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v quilt >/dev/null; then
  [ "$(id -u)" -eq 0 ] || { echo "patch-queue test: quilt missing and not root" >&2; exit 1; }
  (apt-get install -y -qq quilt >/dev/null 2>&1) ||
    (apt-get update -qq >/dev/null && apt-get install -y -qq quilt >/dev/null)
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$root/scripts/patch-queue" "$scratch/queue" >/dev/null
cd "$scratch/queue"
# Refresh a copy, not the repository's own patches/.
rm patches && cp -r "$root/patches" patches
while ./quilt top >/dev/null 2>&1; do
  ./quilt refresh >/dev/null
  ./quilt pop -q >/dev/null
done
if ! diff -r "$root/patches" patches >&2; then
  echo "patch-queue test: FAILED: refreshing the queue rewrites the patches above." >&2
  exit 1
fi
echo "patch-queue test: ok ($(ls "$root"/patches/*.patch | wc -l) patches refresh unchanged)"
