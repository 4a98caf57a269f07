# need_deb COMMAND PACKAGE: the Debian PACKAGE that provides COMMAND, installed with apt-get when
# COMMAND is missing, as root (as CI runs). Not root, it stops the script with one line saying what
# to install (docs/testing.md, "What a machine needs"). Sourced by scripts/test and
# scripts/js-package.
need_deb() {
  command -v "$1" >/dev/null && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "$(basename "$0"): needs $1: run as root, or install it first (apt-get install $2)" >&2
    exit 1
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
}
