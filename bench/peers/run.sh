#!/usr/bin/env bash
# cardboard against OpenSpiel's C++ on five shared games, one core: see
# README.md. Not part of `cargo test` or `.ci/run`.
#
#   bench/peers/run.sh                      # venv from PyPI, build, measure
#   bench/peers/run.sh --download DIR       # only fetch the wheels into DIR
#   bench/peers/run.sh --wheels DIR [...]   # install from DIR, no network
#   bench/peers/run.sh --no-build [...]     # use the binaries already built
#   bench/peers/run.sh [...] --repeats 7 --seconds 2 --native /tmp/native-ref
#
# Options other than --download, --wheels, --no-build and --python go to
# peers.py (--repeats, --seconds, --iterations, --core, --native, --games,
# --before, --before-search-rate).
# The virtual environment is bench/peers/.venv (ignored by git); PEERS_VENV
# names another.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${PEERS_VENV:-$here/.venv}"
python="python3"
wheels=""
build=1
rest=()

while [ $# -gt 0 ]; do
  case "$1" in
    --download)
      [ $# -ge 2 ] || { echo "--download needs a folder" >&2; exit 2; }
      mkdir -p "$2"
      "$python" -m pip download -d "$2" open_spiel
      echo "wheels in $2: copy it over, then run.sh --wheels $2"
      exit 0 ;;
    --wheels)
      [ $# -ge 2 ] || { echo "--wheels needs a folder" >&2; exit 2; }
      wheels="$(cd "$2" && pwd)"; shift 2 ;;
    --no-build) build=0; shift ;;
    --python)
      [ $# -ge 2 ] || { echo "--python needs an interpreter" >&2; exit 2; }
      python="$2"; shift 2 ;;
    *) rest+=("$1"); shift ;;
  esac
done

if ! "$venv/bin/python" -c "import pyspiel" 2>/dev/null; then
  echo "making the virtual environment $venv" >&2
  "$python" -m venv "$venv"
  if [ -n "$wheels" ]; then
    "$venv/bin/pip" install --no-index --find-links "$wheels" open_spiel
  else
    "$venv/bin/pip" install open_spiel
  fi
fi

if [ "$build" = 1 ]; then
  echo "building cardboard (release)" >&2
  (cd "$root" && cargo build --release --bin cardboard --example search_rate)
fi

exec "$venv/bin/python" "$here/peers.py" "${rest[@]+"${rest[@]}"}"
