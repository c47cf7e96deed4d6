"""cardboard against OpenSpiel's C++ on the same games, on one core.

Run by run.sh (which makes the virtual environment and builds cardboard);
see README.md. Every figure is per CPU second of one core: this process
pins itself (and so every program it starts) to one core, cardboard's
figures are the CPU time of its process (random playouts: the
children's usage, resource.getrusage) or of its searching thread (MCTS, printed by the search_rate
example), OpenSpiel's the CPU time of this process around one call into
its C++ (time.process_time()). Each measure is repeated, the two engines
alternating (cardboard first in even repeats, OpenSpiel first in odd
ones), and the median of the repeats is printed.
"""

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# (label, cardboard files (each a row), --set for them, OpenSpiel game, its
# parameters). tic-tac-toe and Connect Four come in two forms: marks in
# the squares' storages with the test for a line inside the move (a choice
# listed move by move), and pieces with the test after the move (a choice
# the random player samples).
GAMES = [
    ("tic-tac-toe", ["examples/tictactoe.rcy", "examples/tictactoe-pieces.rcy"], [],
     "tic_tac_toe", {}),
    ("Connect Four 6x7", ["examples/connect4.rcy", "examples/connect4-pieces.rcy"], [],
     "connect_four", {}),
    ("Othello 8x8", ["examples/othello.rcy"], [], "othello", {}),
    ("Hex 11x11", ["examples/hex.rcy"], [], "hex", {"board_size": 11}),
    ("English draughts", ["examples/draughts.rcy"], [], "checkers", {}),
]

# Games searched by MCTS, 2000 iterations a decision from the start.
SEARCHED = ["Connect Four 6x7", "Othello 8x8"]

# cardboard's mcts: UCB1 with exploration 0.7 on rewards 0..1 (win 1,
# draw 1/2, loss 0). OpenSpiel's MCTSBot: returns -1..1, so the same
# choices need twice the constant: 2v - 1 + c' s = 2 (v + (c'/2) s) - 1.
CARDBOARD_EXPLORATION = 0.7
OPENSPIEL_UCT_C = 2 * CARDBOARD_EXPLORATION


def load_now():
    """The load averages (1, 5, 15 minutes)."""
    return "%.2f %.2f %.2f" % os.getloadavg()


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git_commit():
    try:
        head = subprocess.run(
            ["git", "-C", ROOT, "describe", "--always", "--dirty"],
            capture_output=True, text=True, check=True).stdout.strip()
        return head
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def run_child(argv):
    """Runs argv to its end: (stdout, stderr, exit code)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)
    out, err = proc.communicate()
    # communicate() reaped the child: its usage is in RUSAGE_CHILDREN.
    return out, err, proc.returncode


def child_cpu(argv):
    """(stdout, CPU seconds) of argv: the user and system time of the
    children reaped meanwhile (only this one)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out, err, rc = run_child(argv)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if rc != 0:
        sys.exit("failed (%d): %s\n%s" % (rc, " ".join(argv), err))
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return out, cpu


class Cardboard:
    def __init__(self, binary, search_binary):
        self.binary = binary
        self.search_binary = search_binary

    def playouts(self, path, sets, games, seed):
        """(games per CPU second, mean decisions a game)."""
        argv = [self.binary, "simulate", path, "--games", str(games), "--jobs", "1",
                "--seed", str(seed), "--json"]
        for s in sets:
            argv += ["--set", s]
        out, cpu = child_cpu(argv)
        report = json.loads(out)
        if report["completed"] != games or report["errors"] != 0:
            sys.exit("cardboard: %s: %d of %d games completed, %d errors" % (
                path, report["completed"], games, report["errors"]))
        return games / max(cpu, 1e-9), report["mean_decisions"]

    def search(self, path, sets, iterations, decisions):
        """Iterations per CPU second of the searching thread."""
        out, _ = child_cpu([self.search_binary, path, str(iterations), str(decisions)] + sets)
        fields = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
        return float(fields["iterations_per_cpu_s"])


class OpenSpiel:
    def __init__(self):
        import pyspiel
        self.pyspiel = pyspiel

    def game(self, name, params):
        return self.pyspiel.load_game(name, params)

    def playouts(self, game, n, seed):
        """Random playouts per CPU second: RandomRolloutEvaluator(n).Evaluate
        of the initial state, which plays n random games in C++ (an MCTSBot
        of one simulation evaluates its root once and stops)."""
        evaluator = self.pyspiel.RandomRolloutEvaluator(n, seed)
        bot = self.pyspiel.MCTSBot(game, evaluator, OPENSPIEL_UCT_C, 1, 1000, False, seed,
                                   False)
        state = game.new_initial_state()
        start = time.process_time()
        root = bot.mcts_search(state)
        cpu = time.process_time() - start
        assert root.explore_count == 1
        return n / max(cpu, 1e-9)

    def search(self, game, iterations, decisions, seed):
        """MCTSBot iterations per CPU second, searches from the start."""
        state = game.new_initial_state()
        done, cpu = 0, 0.0
        for d in range(decisions):
            bot = self.pyspiel.MCTSBot(game, self.pyspiel.RandomRolloutEvaluator(1, seed + d),
                                       OPENSPIEL_UCT_C, iterations, 4000, False, seed + d,
                                       False)
            start = time.process_time()
            root = bot.mcts_search(state)
            cpu += time.process_time() - start
            done += root.explore_count
        return done / max(cpu, 1e-9)

    def mean_moves(self, game, games, seed):
        """Mean actions a random game (a Python loop: not timed)."""
        import random
        rng = random.Random(seed)
        total = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                total += 1
        return total / games


def calibrate(measure, first, seconds):
    """The count for `measure(count) -> rate` to last about `seconds` CPU."""
    count = first
    while True:
        rate = measure(count)
        needed = max(1, int(rate * seconds))
        if count >= needed / 4 or count >= 10_000_000:
            return needed
        count = min(needed, count * 8)


def alternate(repeats, *measures):
    """Runs the measures `repeats` times, rotating which goes first (with
    two: cardboard first in even repeats, OpenSpiel first in odd ones);
    one list of results per measure."""
    results = [[] for _ in measures]
    n = len(measures)
    for r in range(repeats):
        for k in range(n):
            i = (k + r) % n if n > 2 else (k if r % 2 == 0 else n - 1 - k)
            results[i].append(measures[i](r))
    return results


def fmt(x):
    return "{:,.0f}".format(x) if x >= 100 else "{:,.1f}".format(x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cardboard", default=os.path.join(ROOT, "target/release/cardboard"))
    parser.add_argument("--search-rate",
                        default=os.path.join(ROOT, "target/release/examples/search_rate"))
    parser.add_argument("--before", default=None,
                        help="a second cardboard binary (an older build), measured in "
                             "the same run: the table gains its column and the speed-up")
    parser.add_argument("--before-search-rate", default=None,
                        help="the search_rate example built with --before")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="CPU seconds per measure (each repeat of each engine)")
    parser.add_argument("--iterations", type=int, default=2000,
                        help="MCTS iterations a decision")
    parser.add_argument("--core", type=int, default=None,
                        help="the core to pin to (default: the last one allowed)")
    parser.add_argument("--native", default=None,
                        help="a folder with agram-ref and carteso-ref built "
                             "(../shared/native-ref, built outside the repository)")
    parser.add_argument("--games", default=None,
                        help="comma-separated labels to measure (default: all)")
    args = parser.parse_args()

    allowed = sorted(os.sched_getaffinity(0))
    core = allowed[-1] if args.core is None else args.core
    os.sched_setaffinity(0, {core})

    import pyspiel  # noqa: F401  (fails early when the venv is wrong)
    try:
        from importlib.metadata import version
        os_version = version("open_spiel")
    except Exception:  # pylint: disable=broad-except
        os_version = "unknown"

    print("# cardboard vs OpenSpiel, one core")
    print("machine: %s, %d cores, %s" % (cpu_model(), os.cpu_count(), platform.platform()))
    print("pinned to core %d; load average before: %s" % (core, load_now()))
    # The checkout's commit, which is the binary's only when it was built
    # from this checkout (a binary given by path may be another build).
    print("cardboard %s, checkout at %s, OpenSpiel %s (Python %s)" % (
        args.cardboard, git_commit(), os_version, platform.python_version()))
    print("each figure: median of %d repeats of about %.1f CPU s, the engines alternating"
          % (args.repeats, args.seconds))
    print()

    ours = Cardboard(args.cardboard, args.search_rate)
    before = None
    if args.before:
        before = Cardboard(args.before, args.before_search_rate or args.search_rate)
        print("before: %s (%s)" % (args.before, before.search_binary))
        print()
    theirs = OpenSpiel()
    wanted = None if args.games is None else set(args.games.split(","))
    rows = []

    for label, paths, sets, name, params in GAMES:
        if wanted is not None and label not in wanted:
            continue
        game = theirs.game(name, params)
        n_theirs = calibrate(lambda n: theirs.playouts(game, n, 999), 20, args.seconds)
        moves = theirs.mean_moves(game, 200, 7)
        for path in paths:
            n_ours = calibrate(lambda n: ours.playouts(path, sets, n, 999)[0], 20, args.seconds)
            lengths = []

            def mine(r):
                rate, length = ours.playouts(path, sets, n_ours, r + 1)
                lengths.append(length)
                return rate

            measures = [mine, lambda r: theirs.playouts(game, n_theirs, r + 1)]
            if before:
                measures.append(lambda r: before.playouts(path, sets, n_ours, r + 1)[0])
            a, b, *c = alternate(args.repeats, *measures)
            row = "random playouts/s, %s (`%s`)" % (label, os.path.basename(path))
            rows.append((row, a, b, "%.1f / %.1f" % (statistics.mean(lengths), moves), c))
            print("  measured %s (load %s)" % (path, load_now()), file=sys.stderr)

    for label, paths, sets, name, params in GAMES:
        if label not in SEARCHED or (wanted is not None and label not in wanted):
            continue
        game = theirs.game(name, params)
        it = args.iterations
        # decisions per measure: as many searches as fill the seconds
        d_theirs = max(1, int(theirs.search(game, it, 1, 1) * args.seconds / it))
        for path in paths:
            d_ours = max(1, int(ours.search(path, sets, it, 1) * args.seconds / it))
            measures = [lambda r: ours.search(path, sets, it, d_ours),
                        lambda r: theirs.search(game, it, d_theirs, 100 * r + 1)]
            if before:
                measures.append(lambda r: before.search(path, sets, it, d_ours))
            a, b, *c = alternate(args.repeats, *measures)
            rows.append(("MCTS iterations/s, %s (`%s`, %d a decision)" % (
                label, os.path.basename(path), it), a, b, "", c))
            print("  searched %s (load %s)" % (path, load_now()), file=sys.stderr)

    head = "| measure (per CPU second, one core) | cardboard | OpenSpiel C++ | " \
        "OpenSpiel / cardboard | moves a game (cardboard / OpenSpiel) |"
    rule = "|---|---:|---:|---:|---|"
    if before:
        head += " cardboard before | after / before |"
        rule += "---:|---:|"
    print(head)
    print(rule)
    for label, a, b, extra, c in rows:
        ma, mb = statistics.median(a), statistics.median(b)
        line = "| %s | %s | %s | %.2fx | %s |" % (label, fmt(ma), fmt(mb), mb / ma, extra)
        if c:
            mc = statistics.median(c[0])
            line += " %s | %.2fx |" % (fmt(mc), ma / mc)
        print(line)
    print()
    print("spread (min-max of the repeats):")
    for label, a, b, _, c in rows:
        more = ", before %s-%s" % (fmt(min(c[0])), fmt(max(c[0]))) if c else ""
        print("  %s: cardboard %s-%s, OpenSpiel %s-%s%s" % (
            label, fmt(min(a)), fmt(max(a)), fmt(min(b)), fmt(max(b)), more))

    if args.native:
        native(args, ours, before)
    print()
    print("load average after: %s" % load_now())


def native(args, ours, before=None):
    """cardboard's Agram and Carteso against the hand-written engines."""
    print()
    print("| hand-written engine (games per CPU second, one core) | cardboard | native | "
          "native / cardboard |" + (" cardboard before | after / before |" if before else ""))
    print("|---|---:|---:|---:|" + ("---:|---:|" if before else ""))
    pairs = [
        ("Agram, 4 players", "games/agram.rcy", os.path.join(args.native, "agram-ref")),
        ("Carteso 9x9", "games/carteso.rcy", os.path.join(args.native, "carteso-ref")),
    ]
    for label, path, binary in pairs:
        n_ours = calibrate(lambda n: ours.playouts(path, [], n, 999)[0], 100, args.seconds)
        n_native = calibrate(lambda n: native_rate(binary, n, 999), 1000, args.seconds)
        measures = [lambda r: ours.playouts(path, [], n_ours, r + 1)[0],
                    lambda r: native_rate(binary, n_native, r + 1)]
        if before:
            measures.append(lambda r: before.playouts(path, [], n_ours, r + 1)[0])
        a, b, *c = alternate(args.repeats, *measures)
        ma, mb = statistics.median(a), statistics.median(b)
        line = "| %s | %s | %s | %.1fx |" % (label, fmt(ma), fmt(mb), mb / ma)
        if c:
            mc = statistics.median(c[0])
            line += " %s | %.2fx |" % (fmt(mc), ma / mc)
        print(line)


def native_rate(binary, n, seed):
    out, cpu = child_cpu([binary, "playouts", str(n), str(seed)])
    fields = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    return float(fields.get("playouts_per_cpu_s", n / max(cpu, 1e-9)))


if __name__ == "__main__":
    main()
