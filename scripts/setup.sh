#!/usr/bin/env bash
# Checks (and, as root, installs) what gym needs on Debian/Ubuntu: a Swift 6 toolchain and the
# system libraries GRDB, zlib and the YAML loader link against, python3-venv for the compose file
# check, chromium, in which the tests render `gym report` (and `make docs` its screenshot), and age,
# against which the tests check gym's age encryption, and rclone, which copies exports to remotes
# (the tests serve WebDAV on 127.0.0.1 with it), and valgrind, with which `make startup-order` lists
# what a short command touches, and zsh and fish, in which the tests complete as a user pressing TAB.
# Sourced by demo.sh and test.sh.
set -euo pipefail

packages=(libsqlite3-dev zlib1g-dev libyaml-dev python3-venv chromium age rclone valgrind zsh fish)

if ! command -v swift >/dev/null 2>&1; then
  echo "gym setup: no 'swift' on PATH; install Swift 6 from swift.org (see README) and try again" >&2
  exit 1
fi
if ! swift --version 2>/dev/null | grep -Eq 'Swift version (6|[7-9])\.'; then
  echo "gym setup: Swift 6 or later is needed; found: $(swift --version 2>&1 | head -n 1)" >&2
  exit 1
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "gym setup: installing ${missing[*]}" >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "gym setup: missing Debian packages: ${missing[*]}; run: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi
