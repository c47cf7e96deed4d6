#!/usr/bin/env python3
"""A reference client of `cardboard serve` (docs/protocol.md, protocol version 3).

It takes a seat at a server over its WebSocket, answers every decision the
server asks of that seat, and returns when the server says goodbye. A move
is chosen by a *chooser*: a function given the `state` message (a dict, as
docs/protocol.md describes it) that returns one of the moves of
``state["observation"]["moves"]`` (or its id). The default chooser picks a
move at random; write your own to connect a bot or another engine:

    import asyncio, cardboard_client

    def first_card_move(state):
        moves = state["observation"]["moves"]
        for m in moves:
            if any(s["action"] == "move" for s in m.get("steps", [])):
                return m
        return moves[0]

    ends = asyncio.run(cardboard_client.play_seat("ws://127.0.0.1:7878/ws",
                                                  choose=first_card_move))

Only the standard library and the ``websockets`` package (PyPI) are needed.
Run it as a program to play a seat with random moves:

    python3 cardboard_client.py ws://127.0.0.1:7878/ws --name bot --seed 1
"""

import argparse
import asyncio
import json
import random
import sys

try:  # websockets 13 and later
    from websockets.asyncio.client import connect
except ImportError:  # older releases
    from websockets import connect

#: The protocol version this client speaks: `join` and `rejoin` name it.
PROTOCOL_VERSION = 3

#: Error codes after which the client asks for the state again (its move
#: was refused; the server changed nothing).
RESYNC = {"not_your_turn", "wrong_game", "wrong_decision", "illegal"}


class Refused(Exception):
    """The server refused to seat this client (`error` before `welcome`)."""


class Lost(Exception):
    """The connection closed before the server said `bye` (the seat waits:
    take it back with `token=`, the token of the `welcome`)."""


def random_chooser(seed=None):
    """A chooser that picks one of the legal moves at random."""
    rng = random.Random(seed)

    def choose(state):
        return rng.choice(state["observation"]["moves"])

    return choose


def command_for(state, chosen):
    """The `command` message answering `state` with `chosen` (a move of its
    observation, or a move's id): it names the game and the decision it
    answers, so that the server never plays it in another."""
    move_id = chosen["id"] if isinstance(chosen, dict) else int(chosen)
    return {
        "type": "command",
        "command": {"game": state["game"], "decision": state["decision"], "move": move_id},
    }


async def play_seat(url, choose=None, name=None, seat=None, table=None, token=None, on_message=None):
    """Plays one seat at the server at `url` (``ws://HOST:PORT/ws``) until the
    server says `bye`, and returns the `end` messages of the games played.

    `choose(state)` picks the move for each `state` message that offers this
    seat moves (default: at random). `seat` and `table` ask for a seat (else
    the first free one); `token` takes a seat back instead (`rejoin`).
    `on_message(message)`, if given, sees every message the server sends.
    Raises `Refused` when the server will not seat the client, `Lost` when
    the connection closes before `bye`.
    """
    choose = choose or random_chooser()
    ends = []
    async with connect(url) as ws:
        if token is not None:
            hello = {"type": "rejoin", "version": PROTOCOL_VERSION, "token": token}
        else:
            hello = {"type": "join", "version": PROTOCOL_VERSION}
            if name is not None:
                hello["name"] = name
            if seat is not None:
                hello["seat"] = seat
            if table is not None:
                hello["table"] = table
        await ws.send(json.dumps(hello))
        seated = False
        said_bye = False
        async for text in ws:
            message = json.loads(text)
            if on_message is not None:
                on_message(message)
            kind = message.get("type")
            if kind == "welcome":
                seated = True
            elif kind == "state":
                if message["observation"].get("moves"):
                    await ws.send(json.dumps(command_for(message, choose(message))))
            elif kind == "end":
                ends.append(message)
            elif kind == "bye":
                # The server closes the connection next (close code 1000).
                said_bye = True
                break
            elif kind == "error":
                if not seated:
                    raise Refused(f"{message['code']}: {message['message']}")
                if message["code"] in RESYNC:
                    await ws.send(json.dumps({"type": "sync"}))
        if not said_bye:
            raise Lost(f"the connection closed before the end ({len(ends)} games ended)")
    return ends


def describe(end):
    """One line for an `end` message."""
    if end["how"] == "finished":
        return f"game {end['game']} finished: scores {end['scores']} winners {end['winners']}"
    return f"game {end['game']} {end['how']}: {end.get('message', '')}"


def main(argv=None):
    parser = argparse.ArgumentParser(description="Play a seat of `cardboard serve` with random moves.")
    parser.add_argument("url", help="the server's WebSocket, ws://HOST:PORT/ws")
    parser.add_argument("--name", help="the player's name shown to the others")
    parser.add_argument("--seat", type=int, help="the seat to take (from 0)")
    parser.add_argument("--table", type=int, help="the table (from 0)")
    parser.add_argument("--token", help="take a seat back with its token")
    parser.add_argument("--seed", type=int, help="seed of the random moves")
    parser.add_argument("--verbose", action="store_true", help="print every message")
    args = parser.parse_args(argv)

    def show(message):
        if args.verbose:
            print(json.dumps(message), flush=True)
        elif message.get("type") == "welcome":
            print(f"seat {message['seat']} of table {message['table']}; token {message['token']}", flush=True)

    try:
        ends = asyncio.run(play_seat(args.url, random_chooser(args.seed), args.name, args.seat,
                                     args.table, args.token, show))
    except Refused as why:
        print(f"refused: {why}", file=sys.stderr)
        return 1
    except Lost as why:
        print(f"lost: {why}", file=sys.stderr)
        return 2
    for end in ends:
        print(describe(end), flush=True)
    print("bye", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
