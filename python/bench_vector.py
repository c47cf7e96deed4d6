"""Environment steps per second of cardboard.VectorGame (docs/python.md).

    RAYON_NUM_THREADS=1 python python/bench_vector.py [N] [STEPS]

For Connect Four, Othello and Hex 11x11 (the issue's three games): N games
(1000 unless told) stepped STEPS times (20 unless told) after a reset, each
action drawn uniformly among the legal ones in numpy from the mask (the
largest of uniform random scores over the legal actions), the time of the
steps only. One environment step is one move in one game; a finished game
is started again inside the step (that time is counted).
"""

import sys
import time

import numpy as np

import cardboard

FILES = ["examples/connect4.rcy", "examples/othello.rcy", "examples/hex.rcy"]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    rng = np.random.default_rng(0)
    for path in FILES:
        vg = cardboard.VectorGame(path, n, seed=0)
        obs, mask = vg.reset()
        games = 0
        started = time.perf_counter()
        for _ in range(steps):
            scores = rng.random(mask.shape)
            scores[~mask] = -1.0
            obs, mask, rewards, done = vg.step(scores.argmax(axis=1))
            games += int(done.sum())
        seconds = time.perf_counter() - started
        print("%-22s n=%d steps=%d: %.0f env steps/s, %.0f games ended/s (%.2f s)"
              % (path, n, steps, n * steps / seconds, games / seconds, seconds))


if __name__ == "__main__":
    main()
