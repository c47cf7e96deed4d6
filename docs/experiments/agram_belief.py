#!/usr/bin/env python3
"""What the way random players choose their cards is worth in Agram.

A model of four-player Agram written for docs/search.md, apart from
cardboard (which plays games/agram.rcy): 35 cards, six each, six tricks,
follow suit if you can, no trumps, the last trick's winner wins. Seat
`i % 4` of game `i` is a flat Monte Carlo player that never reads a card it
cannot see; the three others play at random. Before each decision with a
choice it draws SAMPLES deals of the cards it has not seen, consistent with
the voids the others showed, and plays each of its legal cards in each,
the rest of the game at random for the others and "lowest legal card" for
itself; it plays the card that won most often.

- `plain`: every drawn deal counts the same, which is what a player knows
  when it only knows the rules (cardboard's `ismcts` with its inference);
- `weighted`: a deal counts as much as the chance that random players
  holding it would have played what they played (1 / the number of their
  legal cards at each of their past plays): what a player knows when it
  also knows that its opponents play at random.

    python3 docs/experiments/agram_belief.py GAMES SAMPLES plain|weighted
    python3 docs/experiments/agram_belief.py 3000 60 plain
    python3 docs/experiments/agram_belief.py 3000 60 weighted

Deals and choices come from Python's `random` with fixed seeds, so a
command prints the same figure again (with the same Python).
"""
import random
import sys

SUITS = "HDCS"
DECK = [(s, r) for s in SUITS for r in range(3, 11)] + [(s, 14) for s in "HDC"]
N = 4
HAND = 6


def legal(hand, led):
    follow = [c for c in hand if c[0] == led] if led else []
    return follow or list(hand)


def trick_winner(trick):
    led = trick[0][1][0]
    return max((pc for pc in trick if pc[1][0] == led), key=lambda pc: pc[1][1])[0]


def sample(hand, hist, trick, me):
    """The others' hands, dealt from the unseen cards at random, keeping
    every void shown (a seat that did not follow suit holds none of it)."""
    played = {c for tr in hist + [trick] for _, c in tr}
    unseen = [c for c in DECK if c not in played and c not in hand]
    left = [HAND] * N
    void = [set() for _ in range(N)]
    for tr in hist + [trick]:
        if not tr:
            continue
        led = tr[0][1][0]
        for p, c in tr:
            left[p] -= 1
            if c[0] != led:
                void[p].add(led)
    others = sorted((p for p in range(N) if p != me), key=lambda p: -len(void[p]))
    for _ in range(200):
        random.shuffle(unseen)
        pool = unseen[:]
        hands = {}
        for p in others:
            fits = [c for c in pool if c[0] not in void[p]]
            if len(fits) < left[p]:
                break
            hands[p] = fits[: left[p]]
            for c in hands[p]:
                pool.remove(c)
        else:
            return hands
    return None


def likelihood(hands, hist, trick, me):
    """The chance that random players holding `hands` (now) played what
    the others played: the product of 1 / legal cards over their plays."""
    w = 1.0
    later = {p: [] for p in range(N)}
    for tr in reversed([t for t in hist + [trick] if t]):
        led = tr[0][1][0]
        for p, c in reversed(tr):
            later[p].append(c)
            if p != me:
                w /= len(legal(hands[p] + later[p], None if p == tr[0][0] else led))
    return w


def play_on(hands, trick, leader, tricks_done, me, mine):
    """Plays the game on from `trick` (under way), `mine` the card `me`
    plays in it; True when `me` wins the last trick."""
    hands = {p: list(h) for p, h in hands.items()}
    trick = list(trick)
    for t in range(tricks_done, HAND):
        led = trick[0][1][0] if trick else None
        for k in range(len(trick), N):
            p = (leader + k) % N
            cards = legal(hands[p], led)
            if p != me:
                c = random.choice(cards)
            elif mine is not None:
                c, mine = mine, None
            else:
                c = min(cards, key=lambda c: c[1])
            hands[p].remove(c)
            trick.append((p, c))
            led = led or c[0]
        leader = trick_winner(trick)
        trick = []
    return leader == me


def flat_mc(samples, weighted):
    def choose(hand, cards, trick, hist, me, leader):
        if len(cards) == 1:
            return cards[0]
        score = {c: 0.0 for c in cards}
        for _ in range(samples):
            hands = sample(hand, hist, trick, me)
            hands[me] = list(hand)
            w = likelihood(hands, hist, trick, me) if weighted else 1.0
            for c in cards:
                score[c] += w * play_on(hands, trick, leader, len(hist), me, c)
        return max(cards, key=lambda c: score[c])

    return choose


def game(deals, choose, me):
    deck = DECK[:]
    deals.shuffle(deck)
    hands = [deck[i * HAND : (i + 1) * HAND] for i in range(N)]
    leader, hist = 0, []
    for _ in range(HAND):
        trick, led = [], None
        for k in range(N):
            p = (leader + k) % N
            cards = legal(hands[p], led)
            if p == me:
                c = choose(hands[p], cards, trick, hist, me, leader)
            else:
                c = deals.choice(cards)
            hands[p].remove(c)
            trick.append((p, c))
            led = led or c[0]
        hist.append(trick)
        leader = trick_winner(trick)
    return leader == me


def main():
    games, samples, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    deals = random.Random(5)
    random.seed(9)
    choose = flat_mc(samples, kind == "weighted")
    won = sum(game(deals, choose, i % N) for i in range(games))
    print(f"{kind}: {games} games, {samples} deals a decision: won {won} ({100 * won / games:.1f}%)")


if __name__ == "__main__":
    main()
