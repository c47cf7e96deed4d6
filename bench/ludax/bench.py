"""Ludax's random-play speed on one CPU core: games per second at a batch of
1024 for Connect Four, Othello (Ludax's `reversi`) and Hex 11x11, measured the
way Ludax's README runs a batch (jit(vmap(step)) inside a `lax.while_loop`
until every game of the batch is over, moves drawn uniformly among the legal
ones). See README.md beside this file; not part of the test suite or CI.

    python bench.py [--batch 1024] [--batches 3] [--core 0] [GAME ...]
"""

import argparse
import os
import sys
import time

GAMES = {"connect-four": "connect_four", "othello": "reversi", "hex-11x11": "hex"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help="of %s (default: all)" % ", ".join(GAMES))
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--batches", type=int, default=3, help="timed batches per game")
    parser.add_argument("--core", type=int, default=0, help="the one CPU core to run on")
    args = parser.parse_args()
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error("no such game: %s (choose among %s)" % (", ".join(unknown), ", ".join(GAMES)))
    args.games = args.games or list(GAMES)

    # One core: this process pinned to it, and XLA's CPU client told to use
    # one thread (set before jax is imported).
    os.sched_setaffinity(0, {args.core})
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "")
        + " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    )
    os.environ.setdefault("JAX_PLATFORMS", "cpu")

    from importlib.metadata import version

    import jax
    import jax.numpy as jnp
    import ludax.games
    from ludax import LudaxEnvironment

    print(
        "ludax %s, jax %s on %s; cores allowed: %s; load average before: %.2f %.2f %.2f"
        % (
            version("ludax"),
            jax.__version__,
            jax.devices()[0].platform,
            sorted(os.sched_getaffinity(0)),
            *os.getloadavg(),
        )
    )
    for name in args.games:
        env = LudaxEnvironment(game_str=getattr(ludax.games, GAMES[name]))
        init = jax.jit(jax.vmap(env.init))
        step = jax.vmap(env.step)

        def play(key):
            key, sub = jax.random.split(key)
            state = init(jax.random.split(sub, args.batch))

            def running(carry):
                state, _, _ = carry
                return ~(state.terminated | state.truncated).all()

            def turn(carry):
                state, key, steps = carry
                key, sub = jax.random.split(key)
                logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
                action = jax.random.categorical(sub, logits=logits, axis=1)
                live = ~(state.terminated | state.truncated)
                return step(state, action), key, steps + live.sum()

            state, key, steps = jax.lax.while_loop(running, turn, (state, key, jnp.int32(0)))
            return state, steps

        play = jax.jit(play)
        t0 = time.perf_counter()
        state, steps = play(jax.random.PRNGKey(0))
        jax.block_until_ready(state)
        compile_s = time.perf_counter() - t0
        total_steps, t0, cpu0 = 0, time.perf_counter(), time.process_time()
        for b in range(args.batches):
            state, steps = play(jax.random.PRNGKey(1 + b))
            jax.block_until_ready(state)
            total_steps += int(steps)
        seconds = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        games = args.batch * args.batches
        # Games per second of wall time, and per second of this process's
        # CPU time (what it would reach with the core to itself, roughly,
        # on a machine others load).
        print(
            "%-13s %9.0f games/s  %9.0f games/CPU-s  %10.0f steps/s  (%d games, %.1f moves a "
            "game, %.2f s, %.2f CPU-s; first batch with compile %.1f s)"
            % (
                name,
                games / seconds,
                games / cpu,
                total_steps / seconds,
                games,
                total_steps / games,
                seconds,
                cpu,
                compile_s,
            )
        )
        sys.stdout.flush()
    print("load average after: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
