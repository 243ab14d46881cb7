"""Hasenpfeffer through the protocol: whole deals written as scripts (hands, auction, trump,
discard, tricks), the decks that deal them (HP-4), a table of four WebSocket players and a
spectator driven through the ASGI app, and the checks run on every frame each of them received."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from starlette.testclient import TestClient

from app.games.cards import hasenpfeffer_deck
from support import Client, Message, cards, deck_for_hands, seat_all

HP_PACK = frozenset(str(card) for card in hasenpfeffer_deck())
PASS: Message = {"kind": "pass"}
TEAMS = [[0, 2], [1, 3]]
PEPPER_TRICKS = {"little_pepper": 6, "big_pepper": 6}


def packet_order(dealer: int, i: int) -> int:
    """HP-4: packets of three clockwise from the dealer's left, twice round."""
    return (dealer + 1 + i // 3) % 4


def hp_deck(hands: Mapping[int, str], widow: str, dealer: int) -> list[str]:
    """The deck (top first) that deals ``hands`` (seat -> six cards) and leaves ``widow`` as
    card 25 (HP-4)."""
    deck = deck_for_hands([cards(hands[seat]) for seat in range(4)], dealer, packet_order,
                          [widow])
    assert len(deck) == 25 and set(deck) == HP_PACK, deck
    return deck


def bid(value: int | str) -> Message:
    return {"kind": "bid", "value": value}


def play(card: str) -> Message:
    return {"kind": "play", "card": card}


@dataclass(frozen=True)
class DealSpec:
    """One deal as it is played: ``calls`` the auction in order (``None`` = pass), ``tricks`` each
    trick's cards in play order from its leader with the seat that wins it (the first leader is
    the dealer's left, HP-8), ``points`` per team worked out by hand from HP-9 / HP-11."""

    number: int
    dealer: int
    hands: Mapping[int, str]
    widow: str
    calls: tuple[tuple[int, int | str | None], ...]
    points: tuple[int, int]
    bidder: int | None = None
    contract: int | str | None = None
    forced: bool = False
    trump: str | None = None
    discard: str | None = None
    tricks: tuple[tuple[str, int], ...] = ()

    def deck(self) -> list[str]:
        return hp_deck(self.hands, self.widow, self.dealer)

    def dealt(self, seat: int) -> set[str]:
        return set(cards(self.hands[seat]))

    @property
    def thrown_in(self) -> bool:
        return self.bidder is None

    def auction_json(self) -> list[Message]:
        return [{"seat": seat, "call": "pass" if value is None else value}
                for seat, value in self.calls]

    def call_actions(self) -> list[tuple[int, Message]]:
        return [(seat, PASS if value is None else bid(value)) for seat, value in self.calls]

    def completed(self) -> list[Message]:
        """The tricks as the view's ``completed_tricks`` shows them."""
        result, leader = [], (self.dealer + 1) % 4
        for number, (text, winner) in enumerate(self.tricks, start=1):
            plays = [{"seat": (leader + i) % 4, "card": card} for i, card in enumerate(text.split())]
            result.append({"number": number, "leader": leader, "winner": winner, "plays": plays})
            leader = winner
        return result

    def plays(self) -> list[tuple[int, Message]]:
        return [(entry["seat"], play(entry["card"]))
                for trick in self.completed() for entry in trick["plays"]]

    def team_tricks(self) -> list[int]:
        return [sum(1 for _, winner in self.tricks if winner % 2 == team) for team in (0, 1)]

    def actions(self) -> list[tuple[int | None, Message]]:
        """The log of this deal: the server's deal step, then every seat's action."""
        steps: list[tuple[int | None, Message]] = [(None, {"kind": "deal", "deal": self.number})]
        steps.extend(self.call_actions())
        if self.bidder is not None:
            steps.append((self.bidder, {"kind": "trump", "suit": self.trump}))
            steps.append((self.bidder, {"kind": "discard", "card": self.discard}))
            steps.extend(self.plays())
        return steps

    def detail(self) -> Message:
        """``deals[].detail`` of ``GET /api/matches/{id}`` once the match is over."""
        if self.bidder is None:
            return {"contract": None, "bidder": None, "team": None, "trump": None,
                    "tricks": [0, 0], "forced": False, "thrown_in": True, "discard": None,
                    "made": None}
        team, tricks = self.bidder % 2, self.team_tricks()
        assert self.contract is not None
        need = PEPPER_TRICKS.get(str(self.contract), 0) or int(self.contract)
        return {"contract": self.contract, "bidder": self.bidder, "team": team,
                "trump": self.trump, "tricks": tricks, "forced": self.forced,
                "thrown_in": False, "discard": self.discard, "made": tricks[team] >= need}


def running_totals(specs: Sequence[DealSpec]) -> list[list[int]]:
    """Team scores after each deal (index 0: before the first)."""
    totals = [[0, 0]]
    for spec in specs:
        totals.append([totals[-1][team] + spec.points[team] for team in (0, 1)])
    return totals


# --- the deals -------------------------------------------------------------------------------

# Dealer 0: all four pass and the Joker is the widow: thrown in, no score, the deal passes left
# (HP-6, HP-4).
THROWN_IN = DealSpec(
    number=1, dealer=0,
    hands={1: "AS KS QS AH KH QH", 2: "JS 10S 9S JH 10H 9H", 3: "9C AD KD QD JD 10D",
           0: "9D AC KC QC JC 10C"},
    widow="JK", calls=((1, None), (2, None), (3, None), (0, None)), points=(0, 0))

# Dealer 1: all four pass; seat 0 holds the Joker and must play 3 (HP-6). Hearts: JK JH JD AH KH
# QH 10H 9H. Team A takes tricks 1, 2, 5, 6: 4 >= 3, so +4; team B +2 (HP-9).
FORCED = DealSpec(
    number=2, dealer=1,
    hands={0: "JK AH KH 9S 9C 10C", 1: "JH JD 10H 9H KC QC", 2: "AS KS QS JS 10S AC",
           3: "AD KD QD 10D 9D JC"},
    widow="QH", calls=((2, None), (3, None), (0, None), (1, None)), points=(4, 2),
    bidder=0, contract=3, forced=True, trump="H", discard="9S",
    tricks=(("AS 9D 9C QC", 2), ("KS 10D 10C KC", 2), ("QS QD QH JD", 1),
            ("JH 10S KD KH", 1), ("10H JS AD AH", 0), ("JK 9H AC JC", 0)))

# Dealer 2, standard bidding as in example 26: seat 3 wins with 4 and names diamonds (JH is the
# left bower, so seat 2 follows 9H with 10H, not JH). Team B takes 3 < 4: -4; team A +3 (HP-9).
STANDARD_SET = DealSpec(
    number=3, dealer=2,
    hands={3: "JK AS KS 9H 9C 10C", 0: "10D 9S JS AH JD AD", 1: "QD 10S KH QH JC QC",
           2: "JH KD QS 10H KC AC"},
    widow="9D", calls=((3, 2), (0, 3), (1, None), (2, None), (3, 4), (0, None)), points=(3, -4),
    bidder=3, contract=4, trump="D", discard="10C",
    tricks=(("JK 10D QD KD", 3), ("AS 9S 10S QS", 3), ("KS JS JC KC", 3),
            ("9H AH KH 10H", 0), ("JD QH JH 9D", 0), ("AD QC AC 9C", 0)))

# Dealer 3: seat 2 bids 6, which closes the auction at once (HP-5), and takes all six tricks with
# the six best spades; he discards the widow card 10S (HP-7). Team A +6, team B 0.
STANDARD_SIX = DealSpec(
    number=4, dealer=3,
    hands={0: "9S AH KH QH JH 10H", 1: "9H AD KD QD JD 10D", 2: "JK JS JC AS KS QS",
           3: "9D AC KC QC 10C 9C"},
    widow="10S", calls=((0, None), (1, 1), (2, 6)), points=(6, 0),
    bidder=2, contract=6, trump="S", discard="10S",
    tricks=(("AH 9H JK 9D", 2), ("JS 9C 9S 10D", 2), ("JC 10C KH JD", 2),
            ("AS QC QH QD", 2), ("KS KC JH KD", 2), ("QS AC 10H AD", 2)))

# Dealer 2, pepper bidding: 5, pass, Little Pepper, pass, pass (HP-11). Seat 1 keeps the widow 9C
# to let his partner's AS win trick 1, discards QH; team B takes all six: +6, team A 0.
PEPPER_LITTLE = DealSpec(
    number=3, dealer=2,
    hands={1: "JK JH JD AH KH QH", 3: "AS KS AD KD AC KC", 0: "QS JS QD 10D QC JC",
           2: "10S 9S 9D 10H 9H 10C"},
    widow="9C", calls=((3, 5), (0, None), (1, "little_pepper"), (2, None), (3, None)),
    points=(0, 6), bidder=1, contract="little_pepper", trump="H", discard="QH",
    tricks=(("AS JS 9C 9S", 3), ("AD 10D JK 9D", 1), ("JH 9H KS QS", 1),
            ("JD 10H KD QD", 1), ("AH 10S AC QC", 1), ("KH 10C KC JC", 1)))

# Dealer 3: seat 0 opens with Big Pepper, which closes the auction (HP-11), names clubs and
# discards the widow KC; his side takes 4 of 6: -12; team B +2 (not doubled).
PEPPER_BIG = DealSpec(
    number=4, dealer=3,
    hands={0: "JK JC JS AC 9H 9D", 1: "QC AH AD KS QS 10S", 2: "10C KH QH KD QD AS",
           3: "9C JH 10H JD 10D 9S"},
    widow="KC", calls=((0, "big_pepper"),), points=(-12, 2),
    bidder=0, contract="big_pepper", trump="C", discard="KC",
    tricks=(("JK QC 10C 9C", 0), ("JC 10S AS 9S", 0), ("JS QS KH JH", 0),
            ("AC KS KD JD", 0), ("9H AH QH 10H", 1), ("AD QD 10D 9D", 1)))

# Dealer 0, for refused moves: seat 1 will bid and name spades (left bower JC, held by seat 0
# with four other clubs).
REFUSALS_HANDS = {1: "JK AS KS QS AH 9C", 2: "9S KH QH JH 10H 9H", 3: "JS AD KD QD JD 10D",
                  0: "JC AC KC QC 10C 9D"}
REFUSALS_DECK = hp_deck(REFUSALS_HANDS, "10S", 0)


# --- a table over the WebSocket ----------------------------------------------------------------

class HpTable:
    """Four players in seats 0..3 and a spectator in one private room (no turn timer) with fixed
    decks. ``version`` is the room's version as of the last step this table saw applied."""

    def __init__(self, http: TestClient, stack: ExitStack, options: Mapping[str, Any],
                 decks: Sequence[Sequence[str]], first_dealer: int, names: str = "Hasen") -> None:
        self.http = http
        self.players = [Client(http, f"{names} {seat}") for seat in range(4)]
        self.spectator = Client(http, None)
        self.room_id = self.players[0].create_room(
            "hasenpfeffer", {**options, "decks": [list(deck) for deck in decks],
                             "first_dealer": first_dealer}, private=True)
        seat_all(self.players, self.room_id, stack)
        stack.enter_context(self.spectator.connected(self.room_id))
        self.version = 0
        self._refs = itertools.count(1)

    @property
    def everyone(self) -> list[tuple[int | None, Client]]:
        return [*enumerate(self.players), (None, self.spectator)]

    def start(self) -> Message:
        self.players[0].send({"type": "start"})
        return self.wait_deal(1)

    def wait_deal(self, number: int) -> Message:
        """The first state of deal ``number`` (dealt by the server's automatic step)."""
        state = self.players[0].state_where(
            lambda m: m["view"].get("deal_number") == number and m["view"]["phase"] == "bidding")
        self.version = state["version"]
        return state

    def _reply(self, player: Client) -> Message:
        return player.until(lambda m: m["type"] == "error"
                            or (m["type"] == "state" and m["version"] > self.version))

    def act(self, seat: int, action: Message) -> Message:
        """``seat`` sends ``action``; it must be applied: the version grows by exactly one."""
        player = self.players[seat]
        player.act(action, ref=f"ok-{next(self._refs)}")
        reply = self._reply(player)
        assert reply["type"] == "state", f"seat {seat} {action}: {reply}"
        assert reply["version"] == self.version + 1, (self.version, reply["version"])
        self.version = reply["version"]
        return reply

    def run(self, steps: Sequence[tuple[int, Message]]) -> Message:
        state: Message = {}
        for seat, action in steps:
            state = self.act(seat, action)
        return state

    def fresh(self, seat: int) -> Message:
        """A state frame of the room as it is now, for ``seat`` (taking one's own seat again
        changes nothing and sends the state)."""
        player = self.players[seat]
        player.send({"type": "sit", "seat": seat})
        state = player.until(lambda m: m["type"] == "state" and m["version"] >= self.version)
        assert state["version"] == self.version
        return state

    def refused(self, seat: int, action: Message, code: str, *phrases: str) -> Message:
        """``seat`` sends ``action``: the error ``code`` comes back with the act's id and a
        message holding ``phrases``, and nothing changed (same version, same view)."""
        player, ref = self.players[seat], f"bad-{next(self._refs)}"
        before = self.fresh(seat)
        player.act(action, ref=ref)
        error = self._reply(player)
        assert error["type"] == "error", f"{action} was applied: {error}"
        assert (error["code"], error["ref"]) == (code, ref), error
        for phrase in phrases:
            assert phrase in error["message"], (phrase, error["message"])
        player.send({"type": "sit", "seat": seat})
        after = player.until(lambda m: m["type"] == "state")
        assert after["version"] == before["version"] == self.version
        assert (after["view"], after["legal"]) == (before["view"], before["legal"])
        return error

    def bid_deal(self, spec: DealSpec) -> Message:
        """The auction; then, unless thrown in, trump and the discard."""
        state = self.run(spec.call_actions())
        if spec.bidder is None:
            return state
        self.act(spec.bidder, {"kind": "trump", "suit": spec.trump})
        return self.act(spec.bidder, {"kind": "discard", "card": spec.discard})

    def play_tricks(self, spec: DealSpec) -> Message:
        return self.run(spec.plays())

    def play_deal(self, spec: DealSpec) -> Message:
        """The whole deal; returns the state right after it is scored."""
        state = self.bid_deal(spec)
        return self.play_tricks(spec) if spec.bidder is not None else state

    def current(self) -> list[tuple[int | None, Message]]:
        """Each connection's frame of the room as it is now (at ``version``)."""
        return [(seat, client.state_where(lambda m: m["version"] == self.version))
                for seat, client in self.everyone]

    def finish(self) -> Message:
        """Every connection reads up to the final state; returns player 0's."""
        for _, client in self.everyone:
            client.state_where(lambda m: m["view"]["phase"] == "finished")
        final = self.players[0].last_state
        assert final is not None
        return final

    def match(self, match_id: str) -> Message:
        response = self.http.get(f"/api/matches/{match_id}")
        assert response.status_code == 200, response.text
        body: Message = response.json()
        return body


# --- what every frame may and must show ---------------------------------------------------------

def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def cards_in(frame: Message) -> set[str]:
    """Every card named anywhere in a frame: view, legal actions and room."""
    return set(strings(frame)) & HP_PACK


def public_cards(view: Message) -> set[str]:
    """The cards played face up in this deal, as the view shows them."""
    plays = [*view["trick"], *view["last_trick"],
             *(entry for trick in view["completed_tricks"] for entry in trick["plays"])]
    return {entry["card"] for entry in plays}


def expected_hand(spec: DealSpec, seat: int, view: Message) -> set[str]:
    """The dealt hand, with the widow once the bidder has taken it, less the discard and the
    cards this seat has played (HP-4, HP-7, HP-8)."""
    if view["phase"] in ("needs_deal", "finished"):
        return set()
    hand = spec.dealt(seat)
    if seat == spec.bidder and view["widow_taken"]:
        hand.add(spec.widow)
    if seat == spec.bidder and view["phase"] == "play":
        hand.discard(str(spec.discard))
    played = [*view["trick"], *(e for trick in view["completed_tricks"] for e in trick["plays"])]
    return hand - {entry["card"] for entry in played if entry["seat"] == seat}


def check_frame(frame: Message, seat: int | None, specs: Sequence[DealSpec]) -> None:
    """What ``seat`` (None: the spectator) may see in one state frame, and what it must see."""
    view, totals = frame["view"], running_totals(specs)
    if view["deal_number"] == 0:
        assert (view["phase"], view["hand"], view["scores"], frame["legal"]) == \
            ("needs_deal", [], [0, 0], [])
        assert not cards_in(frame)
        return
    spec = specs[view["deal_number"] - 1]
    phase, scored = view["phase"], view["phase"] in ("needs_deal", "finished")
    hand = set(view["hand"])
    assert cards_in(frame) <= hand | public_cards(view), (seat, phase, cards_in(frame) - hand)
    assert hand == (set() if seat is None else expected_hand(spec, seat, view)), (seat, view)
    assert len(view["hand"]) == len(hand)
    if phase not in ("trump", "discard", "play") and not scored:
        assert view["bidder"] is None
    if phase in ("play", "needs_deal", "finished") and spec.discard is not None:
        assert spec.discard not in cards_in(frame), (seat, phase, spec.discard)
    if seat is not None and seat == spec.bidder and phase in ("trump", "discard"):
        assert view["widow"] == spec.widow
    else:
        assert view.get("widow") is None
    calls = spec.auction_json()
    assert view["auction"] == calls[:len(view["auction"])]
    if phase in ("trump", "discard", "play") or (scored and not spec.thrown_in):
        assert view["auction"] == calls
        assert (view["bidder"], view["contract"], view["forced"]) == \
            (spec.bidder, spec.contract, spec.forced)
        assert view["joker_forced"] == (spec.bidder if spec.forced else None)
        assert view["bidding_team"] == (None if spec.bidder is None else spec.bidder % 2)
    assert view["trump"] == (spec.trump if phase in ("discard", "play") or scored else None)
    done, trick = view["completed_tricks"], view["trick"]
    assert done == spec.completed()[:len(done)]
    if trick:
        assert phase == "play" and trick == spec.completed()[len(done)]["plays"][:len(trick)]
    assert view["tricks"] == [sum(1 for t in done if t["winner"] % 2 == team) for team in (0, 1)]
    assert view["scores"] == totals[spec.number if scored else spec.number - 1]
    assert view["teams"] == TEAMS
    if seat is None or seat not in view["to_act"]:
        assert frame["legal"] == []
    else:
        check_legal(frame, seat, spec)


def check_legal(frame: Message, seat: int, spec: DealSpec) -> None:
    """The seat to act is offered what the script does next, and only what the phase allows."""
    view, legal = frame["view"], frame["legal"]
    phase = view["phase"]
    if phase == "bidding":
        upcoming = spec.call_actions()[len(view["auction"])]
        assert legal[-1] == PASS and all(entry["kind"] == "bid" for entry in legal[:-1])
    elif phase == "trump":
        upcoming = (seat, {"kind": "trump", "suit": spec.trump})
        assert legal == [{"kind": "trump", "suit": suit} for suit in "SHDC"]
    elif phase == "discard":
        upcoming = (seat, {"kind": "discard", "card": spec.discard})
        assert legal == [{"kind": "discard", "card": card} for card in view["hand"]]
    else:
        done = view["completed_tricks"]
        upcoming = spec.plays()[sum(len(trick["plays"]) for trick in done) + len(view["trick"])]
        assert {entry["card"] for entry in legal} <= set(view["hand"])
        assert all(entry["kind"] == "play" for entry in legal)
    assert upcoming[0] == seat and upcoming[1] in legal, (seat, upcoming, legal)


def check_all_frames(table: HpTable, specs: Sequence[DealSpec]) -> int:
    """Runs :func:`check_frame` on every state frame each connection received after the start,
    and checks that each saw every version; returns how many frames were checked."""
    checked = 0
    for seat, client in table.everyone:
        frames = [m for m in client.received
                  if m["type"] == "state" and m["view"]["phase"] != "waiting"]
        assert frames, seat
        for frame in frames:
            check_frame(frame, seat, specs)
        versions = sorted({frame["version"] for frame in frames})
        assert versions == list(range(versions[0], versions[-1] + 1)), seat
        checked += len(frames)
    return checked


def frames_of(client: Client, number: int, *phases: str) -> list[Message]:
    """The state frames ``client`` received during deal ``number`` in ``phases``."""
    return [m for m in client.received if m["type"] == "state"
            and m["view"].get("deal_number") == number and m["view"]["phase"] in phases]

