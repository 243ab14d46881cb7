"""The client's own modules in the browser: the Hazari display aid (frontend/js/hazari.js), reading
the server's table of a hand's groups, against the rules file's examples and the engine, the SVG
card faces (frontend/js/cards.js), and the check of a fair deal (frontend/js/fairness.js) against
the server's deck function."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from playwright.sync_api import Page
from support.live import LiveServer

from app.games.azi import ENGINE as AZI
from app.games.azi.ranking import DECK as azi_deck_cards
from app.games.base import Seating
from app.games.cards import Card, card_texts, hasenpfeffer_deck, parse_cards, standard_deck
from app.games.driver import Match, SeatsToAct
from app.games.fairness import commitment, deck_order, is_seed
from app.games.hazari.arrangements import order_problems, random_arrangement
from app.games.hazari.combos import category_name, key_of
from app.games.hazari.view import hand_combinations

pytestmark = pytest.mark.browser

# Rules file section 1.4, examples 1-13 (classification): cards -> HZ-5 key.
CLASSIFICATION = [
    ("AS AH AD", [6, 14]), ("2C 2D 2H", [6, 2]), ("QS KS AS", [5, 12]), ("3D AD 2D", [5, 11]),
    ("4C 3C 2C", [5, 1]), ("QS KH AD", [4, 12]), ("AS 2H 3H", [4, 11]), ("KS AH 2D", [1, 14, 13, 2]),
    ("KS AS 2S", [3, 14, 13, 2]), ("AS KS JS", [3, 14, 13, 11]), ("5H 3H 2H", [3, 5, 3, 2]),
    ("9S 9H KD", [2, 9, 13]), ("AS KH JD", [1, 14, 13, 11]), ("5S 3H 2D", [1, 5, 3, 2]),
]
# Examples 14-24 (comparisons): the first beats the second.
BEATS = [
    ("AS KS QS", "AH 2H 3H"), ("AH 2H 3H", "KC QC JC"), ("KC QC JC", "QD JD 10D"),
    ("2S 2H 2D", "AS KS QS"), ("AS AH AD", "KS KH KD"), ("4D 3D 2D", "AS KH QH"),
    ("AS KH QH", "AD 2C 3C"), ("AD 2C 3C", "KS QH JH"), ("5S 4H 3H", "4C 3S 2D"),
    ("4S 3H 2H", "AS KS JS"), ("JD 9D 2D", "JS 8S 7S"),
]
# Examples 42-44 (arrangement validity).
ARRANGEMENTS = [
    ("AS AH AD | KS QS JS | 9H 9D 2C | 3S 5H 7C 10D", True, []),
    ("KS QS JS | AS AH AD | 9H 9D 2C | 3S 5H 7C 10D", False, ["G2 (Troy) outranks G1 (Colour Run)"]),
    ("AS AH AD | KS QS JS | 8C 6D 3S | 9C 9H 2D 4H", False, ["G4 (best three: Pair) outranks G3 (Indi)"]),
]


def run_module(page: Page, server: LiveServer, module: str, script: str, arg: Any = None) -> Any:
    """Runs ``script`` (a function of the imported module and ``arg``) in the served page."""
    page.goto(f"{server.base}/#/history")
    return page.evaluate(
        f"async (arg) => {{ const m = await import('/js/{module}.js'); return ({script})(m, arg); }}", arg)


def hand_with(*groups: str) -> tuple[Card, ...]:
    """A 13-card hand holding the cards of ``groups``, filled up from the pack in its order."""
    cards = [card for group in groups for card in parse_cards(group)]
    return (*cards, *[card for card in standard_deck() if card not in cards][:13 - len(cards)])


def test_hazari_classification_follows_the_rules_examples(page: Page, server: LiveServer) -> None:
    """HZ-5 examples 1-24 and HZ-4 examples 42-44, named and ordered by the page's module from the
    table the server sends with the hand (the view's ``combinations``)."""
    named = [(hand_combinations(hand_with(text)), text.split(" ")) for text, _ in CLASSIFICATION]
    beats = [(hand_combinations(hand_with(a, b)), a.split(" "), b.split(" ")) for a, b in BEATS]
    tie = (hand_combinations(hand_with("AS KS QS", "AH KH QH")), ["AS", "KS", "QS"], ["AH", "KH", "QH"])
    arranged = [(hand_combinations(hand_with(text)), text.split(" | ")) for text, _, _ in ARRANGEMENTS]
    partial = hand_combinations(hand_with("AS AH"))
    result = run_module(page, server, "hazari", """(m, arg) => {
        const strength = (table, cards) => m.combinationTable(table).group(cards).strength;
        return {
          categories: arg.named.map(([table, cards]) => m.combinationTable(table).group(cards).category),
          beats: arg.beats.map(([table, a, b]) => strength(table, a) - strength(table, b)),
          tie: strength(arg.tie[0], arg.tie[1]) - strength(arg.tie[0], arg.tie[2]),
          checks: arg.arranged.map(([table, groups]) => m.checkArrangement(
            m.combinationTable(table), groups.map((g) => g.split(' ')))),
          partial: m.checkArrangement(m.combinationTable(arg.partial), [['AS', 'AH'], [], [], []]),
        };
    }""", {"named": named, "beats": beats, "tie": tie, "arranged": arranged, "partial": partial})
    assert result["categories"] == [key[0] for _, key in CLASSIFICATION]
    assert all(outcome > 0 for outcome in result["beats"]), result["beats"]
    assert result["tie"] == 0
    for check, (_, valid, problems) in zip(result["checks"], ARRANGEMENTS, strict=True):
        assert check["complete"] and check["valid"] is valid and check["problems"] == problems
    assert not result["partial"]["complete"] and not result["partial"]["valid"]


def test_hazari_module_agrees_with_the_engine(page: Page, server: LiveServer) -> None:
    """For random hands, every 3-card and 4-card group the page names from the server's table gets
    the engine's category, best triple and order; random arrangements get the engine's verdict."""
    rng = random.Random(6)
    deck = list(standard_deck())
    hands = [tuple(rng.sample(deck, 13)) for _ in range(8)]
    arrangements = []
    for hand in hands:
        groups = [card_texts(g) for g in random_arrangement(hand, rng)]
        if rng.random() < 0.7:
            groups = [*rng.sample(groups[:3], 3), groups[3]]
        arrangements.append(groups)
    tables = [hand_combinations(hand) for hand in hands]
    result = run_module(page, server, "hazari", """(m, arg) => arg.tables.map((raw, i) => {
        const table = m.combinationTable(raw);
        const cards = raw.cards;
        const groups = (size, from = 0, taken = []) => size === 0 ? [taken] : cards.slice(from)
          .flatMap((card, j) => groups(size - 1, from + j + 1, [...taken, card]));
        return {
          triples: groups(3).map((g) => [table.group(g).strength, m.combinationName(table, g)]),
          quads: groups(4).map((g) => [table.group(g).strength, table.group(g).best]),
          check: m.checkArrangement(table, arg.arrangements[i]),
        };
    })""", {"tables": tables, "arrangements": arrangements})
    for hand, seen, groups in zip(hands, result, arrangements, strict=True):
        triples = list(combinations(hand, 3))
        strength = {key: rank for rank, key in enumerate(sorted({key_of(t) for t in triples}))}
        assert [s for s, _ in seen["triples"]] == [strength[key_of(t)] for t in triples]
        assert [name for _, name in seen["triples"]] == [category_name(key_of(t)) for t in triples]
        for (quad_strength, best), quad in zip(seen["quads"], combinations(hand, 4), strict=True):
            assert quad_strength == strength[key_of(quad)]
            assert key_of(parse_cards(best)) == key_of(quad) and set(parse_cards(best)) < set(quad)
        problems = order_problems([parse_cards(g) for g in groups])
        assert seen["check"]["valid"] is (not problems)
        assert len(seen["check"]["problems"]) == len(problems)


def test_card_faces_cover_the_packs_with_readable_labels(page: Page, server: LiveServer) -> None:
    """52 faces, the Joker and a back, each an SVG with a spoken name; suits differ by shape."""
    deck = [*card_texts(standard_deck()), "JK"]
    result = run_module(page, server, "cards", """(m, deck) => {
        const shown = deck.map((code) => m.cardImage(code));
        const button = m.cardButton('QH', { disabled: true });
        return {
          labels: shown.map((node) => node.getAttribute('aria-label')),
          svgs: shown.every((node) => node.querySelector('svg')
              && node.querySelector('svg').getAttribute('aria-hidden') === 'true'),
          paths: ['AS', 'AH', 'AD', 'AC'].map(
              (code) => m.cardImage(code).querySelector('svg > path').getAttribute('d')),
          button: [button.tagName, button.querySelector('.card-name').textContent,
                   button.getAttribute('aria-disabled')],
          back: m.cardImage(null).getAttribute('aria-label'),
        };
    }""", deck)
    labels = result["labels"]
    assert labels[0] == "2 of spades" and "Ace of spades" in labels and "10 of hearts" in labels
    assert "Queen of diamonds" in labels and "Jack of clubs" in labels and labels[-1] == "Joker"
    assert len(set(labels)) == 53 and result["svgs"]
    assert len(set(result["paths"])) == 4
    assert result["button"] == ["BUTTON", "Queen of hearts", "true"]
    assert result["back"] == "Face-down card"


def test_fair_deal_check_matches_the_server(page: Page, server: LiveServer) -> None:
    """frontend/js/fairness.js gives the deck the server's deal function gives (docs/fairness.md),
    accepts it, refuses a changed deck or a wrong commitment, and owes one seed per waiting deal."""
    engines = {"hazari": standard_deck(), "azi": azi_deck_cards, "hasenpfeffer": hasenpfeffer_deck()}
    rng = random.Random(11)
    cases = []
    for number, (game, pack) in enumerate(engines.items(), start=1):
        server_seed = rng.randbytes(32).hex()
        seeds = [rng.randbytes(16).hex(), "", rng.randbytes(8).hex(), ""]
        deck = card_texts(deck_order(pack, server_seed, seeds, number))
        cases.append({"game": game, "deck": deck, "deal": number, "serverSeed": server_seed,
                      "commitment": commitment(server_seed), "clientSeeds": seeds, "seats": 4,
                      "pack": card_texts(pack)})
    result = run_module(page, server, "fairness", """async (m, cases) => {
        const out = [];
        for (const c of cases) {
            const swapped = [c.deck[1], c.deck[0], ...c.deck.slice(2)];
            const bySeat = Object.fromEntries(
                c.clientSeeds.map((s, i) => [String(i), s]).filter(([, s]) => s));
            out.push({
                pack: m.pack(c.game),
                ok: await m.verifyDeal(c),
                seatObject: await m.verifyDeal({ ...c, clientSeeds: bySeat }),
                swapped: await m.verifyDeal({ ...c, deck: swapped }),
                wrongCommitment: await m.verifyDeal({ ...c, commitment: '0'.repeat(64) }),
            });
        }
        const sent = new Set();
        const fairness = { deals: [{ deal: 1, awaiting: [0], server_seed: null },
                                   { deal: 2, awaiting: [1], server_seed: null }] };
        const first = m.seedMessages(fairness, 0, sent);
        const again = m.seedMessages(fairness, 0, sent);
        return { out, first, again };
    }""", cases)
    for case, checked in zip(cases, result["out"], strict=True):
        assert checked["pack"] == case["pack"], case["game"]
        assert checked["ok"] == [] and checked["seatObject"] == []
        assert checked["swapped"] == [f"deal {case['deal']}: the deck is not the one the seeds give"]
        assert "commitment" in checked["wrongCommitment"][0]
    assert len(result["first"]) == 1 and result["again"] == []
    seed = result["first"][0]
    assert seed["type"] == "seed" and seed["deal"] == 1 and is_seed(seed["seed"])


def calm_move(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The smallest opening bet, a call, or a random card: the pot stays small, so that after an
    Azi the players without a trick can afford the buy-in."""
    kinds = {entry["kind"]: entry for entry in legal}
    if "bet" in kinds:
        return {"kind": "bet", "amount": kinds["bet"]["min"]}
    if "call" in kinds:
        return {"kind": "call"}
    return dict(rng.choice(legal))


def azi_views() -> tuple[dict[str, Any], dict[str, Any]]:
    """From Azi deals of the engine with random cards: a seat's view under the six on the scene,
    and the view of a seat offered the buy-in after an Azi, each with that seat's legal actions."""
    six: dict[str, Any] | None = None
    offer: dict[str, Any] | None = None
    for seed in range(2000):
        rng = random.Random(seed)
        match = Match.start(AZI, {}, Seating(players=4, first_dealer=0, stacks=(1000,) * 4))
        match.deal(rng.sample(list(AZI.full_deck()), 27))
        state = match.state
        if six is None and state.exposed is not None and state.exposed.rank == 14:
            six = {"view": AZI.view(state, 1), "legal": AZI.legal_actions(state, 1), "seat": 1}
        while isinstance(due := match.next(), SeatsToAct) and offer is None:
            state, seat = match.state, due.seats[0]
            if AZI.view(state, seat)["phase"] == "azi_buy_in":
                offer = {"view": AZI.view(state, seat), "legal": AZI.legal_actions(state, seat), "seat": seat}
                break
            match.act(seat, AZI.parse_action(calm_move(AZI.legal_actions(state, seat), rng)))
        if six is not None and offer is not None:
            return six, offer
    raise AssertionError("no Azi with a buy-in offer in 2000 random games")


def test_azi_module_renders_the_six_on_the_scene_and_the_buy_in(page: Page, server: LiveServer) -> None:
    """The page's Azi view, given views of the real engine: the six on the scene is announced, and
    a seat offered the Azi buy-in gets its price and a decline button."""
    six, offer = azi_views()
    result = run_module(page, server, "azi", """(m, cases) => cases.map((c) => {
        const ctx = { view: c.view, legal: c.legal, mySeat: c.seat, ui: {}, roomId: 'r',
            room: { status: 'playing', seats: [] }, name: (s) => `Seat ${s + 1}`,
            bySeat: (s, others, mine) => (s === c.seat ? mine() : others(`Seat ${s + 1}`)),
            act() {}, send() {},
            rerender() {}, dealResults: () => [] };
        const panel = document.createElement('div');
        panel.append(m.default.panel(ctx), m.default.dock(ctx));
        return { centre: m.default.centre(ctx).textContent, panel: panel.textContent,
                 buttons: [...panel.querySelectorAll('button')].map((b) => b.textContent) };
    })""", [six, offer])
    suit = {"H": "hearts", "D": "diamonds", "S": "spades"}[six["view"]["trump"]]
    assert f"Six on the scene: the 6 of {suit} is the highest card" in result[0]["centre"]
    price = offer["view"]["buy_in"]["price"]
    assert f"Buy in for {price}" in result[1]["buttons"] and "Decline" in result[1]["buttons"]
    assert "Azi!" in result[1]["panel"]


def test_a_redraw_keeps_the_caret_and_selection_of_the_box_being_typed_in(page: Page,
                                                                           server: LiveServer) -> None:
    """The table is drawn again whenever a frame arrives; a player typing an amount keeps his
    selection (what he types next replaces it) and his caret."""
    kept = run_module(page, server, "dom", """(dom) => {
      const main = document.getElementById("main");
      const draw = (value) => {
        main.replaceChildren(dom.h("input", { type: "text", value, dataset: { focus: "amount" } }));
      };
      draw("10");
      const box = main.querySelector("input");
      box.focus();
      box.select();
      dom.keepFocus(() => draw("10"));
      const whole = [document.activeElement === box, document.activeElement.dataset.focus,
                     document.activeElement.selectionStart, document.activeElement.selectionEnd];
      document.activeElement.setSelectionRange(1, 1);
      dom.keepFocus(() => draw("10"));
      const caret = [document.activeElement.selectionStart, document.activeElement.selectionEnd];
      return { whole, caret };
    }""")
    assert kept == {"whole": [False, "amount", 0, 2], "caret": [1, 1]}
