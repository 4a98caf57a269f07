# The determinism matrix's targets, in one place: their names and triples, how each runs the
# tool, and the cross linker and C compiler of each one's build (and two timing helpers). Sourced by
# scripts/determinism-matrix, scripts/cross-toolchains and scripts/lib/matrix-target.
# shellcheck shell=bash

matrix_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
matrix_targets=(x86_64 aarch64 i686 wasm32) # x86_64 first: the reference
declare -A triple=([x86_64]=x86_64-unknown-linux-gnu [aarch64]=aarch64-unknown-linux-gnu
  [i686]=i686-unknown-linux-gnu [wasm32]=wasm32-wasip1)

# target_name NAME-OR-TRIPLE: prints the short name (x86_64, aarch64, i686, wasm32); 1 if unknown.
target_name() {
  local t
  for t in "${matrix_targets[@]}"; do
    if [ "$1" = "$t" ] || [ "$1" = "${triple[$t]}" ]; then
      echo "$t"
      return 0
    fi
  done
  return 1
}

# exec_on TARGET BIN ARGS...: runs the target's build BIN of the tool (qemu-user for aarch64,
# Node's WASI for wasm32, scripts/lib/wasi-run.mjs), passing its exit status through.
exec_on() {
  local t=$1 b=$2
  shift 2
  case $t in
    x86_64 | i686) "$b" "$@" ;;
    aarch64) qemu-aarch64 -L /usr/aarch64-linux-gnu "$b" "$@" ;;
    wasm32) node --no-warnings "$matrix_root/scripts/lib/wasi-run.mjs" "$b" "$@" ;;
  esac
}

# build_env TARGET: the cross linker and C compiler (blake3 compiles C) of the target's cargo
# build, one VAR=VALUE a line (none for x86_64 and wasm32); an already-set value wins.
build_env() {
  case $1 in
    aarch64)
      echo "CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=${CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER:-aarch64-linux-gnu-gcc}"
      echo "CC_aarch64_unknown_linux_gnu=${CC_aarch64_unknown_linux_gnu:-aarch64-linux-gnu-gcc}" ;;
    i686)
      echo "CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_LINKER=${CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_LINKER:-i686-linux-gnu-gcc}"
      echo "CC_i686_unknown_linux_gnu=${CC_i686_unknown_linux_gnu:-i686-linux-gnu-gcc}" ;;
  esac
}

now() { echo "${EPOCHREALTIME/,/.}"; }                                      # wall clock, s
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; } # since T0: s, 0.1
