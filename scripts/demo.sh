#!/usr/bin/env bash
# gym's main job on an embedded database: builds gym, seeds sample workouts into a scratch
# database and shows the history list, the count and the weekly statistics.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
gym=$(bash scripts/build-release.sh)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export GYM_DATABASE="$scratch/gym.sqlite"

echo "\$ gym history sample --count 200 | gym history import -"
$gym history sample --count 200 --days 120 | $gym history import -
echo
echo "\$ gym history list"
$gym history list
echo
echo "\$ gym history count --status completed"
$gym history count --status completed
echo
echo "\$ gym history stats --weeks 6"
$gym history stats --weeks 6
