#!/usr/bin/env bash
# Writes the seed corpora of the restore fuzz targets into corpus/<target>/ (not committed: the
# restore seeds are whole snapshots, tens of KB each). The seeds are made by the fuzz targets
# themselves (PINNED_FUZZ_SEEDS, see src/lib.rs), so this needs the nightly toolchain and
# cargo-fuzz:
#   rustup toolchain install nightly --profile minimal && cargo install cargo-fuzz --locked
set -euo pipefail
cd "$(dirname "$0")"
for target in restore restore_then_step restore_compressed_then_step restore_delta_then_step; do
    mkdir -p "corpus/$target"
    # -runs=0: initialise (which writes the seeds) and run nothing but the empty input.
    PINNED_FUZZ_SEEDS="corpus/$target" cargo +nightly fuzz run "$target" "corpus/$target" -- -runs=0
done
ls -l corpus/*
