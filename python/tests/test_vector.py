"""VectorGame (docs/python.md): shapes, resets with rewards, the same
results for the same seed on any number of threads, and Ctrl-C."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from conftest import REPO

import cardboard

PLAY = """
import sys, numpy as np, cardboard
v = cardboard.VectorGame("examples/connect4.rcy", 64, seed=5)
rng = np.random.default_rng(1)
obs, mask = v.reset()
total = np.zeros(2)
for _ in range(100):
    actions = [rng.choice(np.flatnonzero(m)) for m in mask]
    obs, mask, rewards, done = v.step(actions)
    total += rewards.sum(axis=0)
print(total.tolist(), float(obs.sum()), int(mask.sum()))
"""


def play(threads):
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-c", PLAY], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_same_seed_same_results_on_any_number_of_threads():
    assert play(1) == play(2)


def test_step_shapes_rewards_and_resets():
    v = cardboard.VectorGame("examples/tictactoe.rcy", 8, seed=2)
    obs, mask = v.reset()
    assert obs.shape == (8,) + v.observation_shape and obs.dtype == np.float32
    assert mask.shape == (8, v.num_actions) and mask.dtype == np.bool_
    assert list(v.current_player) == [0] * 8
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(30):
        obs, mask, rewards, done = v.step([rng.choice(np.flatnonzero(m)) for m in mask])
        assert rewards.shape == (8, v.num_players) and done.shape == (8,)
        # A finished game's rewards share 1 (a draw 1/2 each); the others are 0.
        assert np.allclose(rewards.sum(axis=1), done.astype(np.float32))
        finished += int(done.sum())
        assert mask.any(axis=1).all()
    assert finished > 0
    with pytest.raises(cardboard.IllegalMoveError):
        v.step(np.full(8, -1))
    with pytest.raises(ValueError):
        v.step([0])


CHILD = """
import sys, cardboard
{setup}
print("started", flush=True)
try:
    {call}
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
print("finished", flush=True)
"""

LONG_CALLS = {
    # Stopped at the next game each thread starts.
    "simulate": ("", 'cardboard.simulate("examples/othello.rcy", 10**8, jobs=1, rows=False)'),
    # Steps of 4,000 games, the first legal action of each.
    "step": ('v = cardboard.VectorGame("examples/hex.rcy", 4000)\nobs, mask = v.reset()',
             "while True:\n        obs, mask, r, d = v.step(mask.argmax(axis=1))"),
}


@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_ctrl_c_interrupts_a_long_call(name):
    setup, call = LONG_CALLS[name]
    source = CHILD.format(setup=setup, call=call)
    child = subprocess.Popen([sys.executable, "-c", source], cwd=REPO,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "started"
    time.sleep(1.5)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    assert time.monotonic() - sent < 5, "KeyboardInterrupt came late"
    assert out.strip() == "interrupted"
    assert child.returncode == 3
