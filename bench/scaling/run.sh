#!/usr/bin/env bash
# Processor time per game against --jobs: the check that simulate's
# threads share no memory they write (a write to a shared cache line per
# move makes every thread wait for the others, and the processor time a
# game takes grows with the threads). For each rules file and each
# --jobs J, plays J times the one-thread number of games with J threads
# and prints the wall and processor seconds (user + system) and the
# processor milliseconds a game, which should stay flat as J grows.
#
#   bench/scaling/run.sh [BINARY...]     (default: target/release/cardboard)
#   JOBS="1 2 4 8 16" FILES="games/agram.rcy" bench/scaling/run.sh
#   SCALE=6 bench/scaling/run.sh     (six times the games: steadier figures)
#
# Run it on an otherwise idle machine with at least as many cores as the
# largest J; on a 2-core virtual machine the two threads may share one
# core's caches and hide the effect.
set -euo pipefail
cd "$(dirname "$0")/../.."
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(target/release/cardboard)
jobs=${JOBS:-"1 2 4 8 16"}
files=${FILES:-"games/agram.rcy games/carteso.rcy games/cartagena.rcy games/cardbot-derby.rcy examples/othello.rcy examples/hex.rcy examples/draughts.rcy examples/tictactoe.rcy examples/connect4.rcy"}
# Games for one thread: about a second each at this commit.
games_for() {
  case "$1" in
    *agram*) echo 20000 ;; *carteso*) echo 3000 ;; *cartagena*) echo 2000 ;;
    *derby*) echo 30 ;; *othello*) echo 300 ;; *hex*) echo 2000 ;;
    *draughts*) echo 300 ;; *tictactoe*) echo 50000 ;; *connect4*) echo 5000 ;;
    *) echo 1000 ;;
  esac
}
echo "# $(nproc) processors, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "binary file jobs games wall_s cpu_s cpu_ms_per_game"
TIMEFORMAT='%R %U %S'
for f in $files; do
  [ -f "$f" ] || continue
  g1=$(( $(games_for "$f") * ${SCALE:-1} ))
  for j in $jobs; do
    for b in "${bins[@]}"; do
      g=$((g1 * j))
      t=$( { time "$b" simulate "$f" --games "$g" --jobs "$j" --seed 1 >/dev/null 2>&1; } 2>&1 )
      read -r wall user sys <<<"$t"
      awk -v b="$(basename "$b")" -v f="$f" -v j="$j" -v g="$g" -v w="$wall" -v u="$user" -v s="$sys" \
        'BEGIN { printf "%s %s %d %d %.2f %.2f %.3f\n", b, f, j, g, w, u + s, 1000 * (u + s) / g }'
    done
  done
done
