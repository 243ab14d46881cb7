"""The verifiable deck function of docs/fairness.md, and the detection of tampering."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from app.games.cards import Card, azi_deck, hasenpfeffer_deck, standard_deck
from app.games.fairness import commitment, deck_order, is_seed, verify_deal

SERVER_SEED = "00" * 31 + "01"
CLIENTS = ["a1b2c3d4e5f60718", "", "ffeeddccbbaa9988", "0123456789abcdef"]


def documented_deck(pack: tuple[Card, ...], server_seed: str, client_seeds: list[str],
                    deal: int) -> list[Card]:
    """The steps of docs/fairness.md written out plainly, to check the module against."""
    message = f"cardroom-deal|{deal}|" + "|".join(client_seeds)
    numbers: list[int] = []
    block = 0

    def draw() -> int:
        nonlocal block
        if not numbers:
            digest = hmac.new(bytes.fromhex(server_seed), f"{message}|{block}".encode(),
                              hashlib.sha256).digest()
            numbers.extend(int.from_bytes(digest[k:k + 4], "big") for k in range(0, 32, 4))
            block += 1
        return numbers.pop(0)

    deck = list(pack)
    for i in range(len(deck) - 1, 0, -1):
        while True:
            x = draw()
            if x < 2**32 - (2**32 % (i + 1)):
                break
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("pack", [standard_deck(), azi_deck(), hasenpfeffer_deck()])
def test_the_deck_follows_the_documented_steps(pack: tuple[Card, ...]) -> None:
    for deal in (1, 2, 17):
        deck = deck_order(pack, SERVER_SEED, CLIENTS, deal)
        assert list(deck) == documented_deck(pack, SERVER_SEED, CLIENTS, deal)
        assert sorted(deck) == sorted(pack)


def test_every_input_changes_the_deck() -> None:
    pack = standard_deck()
    base = deck_order(pack, SERVER_SEED, CLIENTS, 1)
    assert deck_order(pack, SERVER_SEED, CLIENTS, 1) == base
    assert deck_order(pack, SERVER_SEED, CLIENTS, 2) != base
    assert deck_order(pack, "00" * 32, CLIENTS, 1) != base
    assert deck_order(pack, SERVER_SEED, [*CLIENTS[:3], "0123456789abcdee"], 1) != base


def test_the_top_card_is_uniform_over_many_seeds() -> None:
    pack = azi_deck()
    tops = Counter(deck_order(pack, f"{seed:064x}", [], 1)[0] for seed in range(5400))
    expected = 5400 / len(pack)
    chi_square = sum((tops[card] - expected) ** 2 / expected for card in pack)
    assert len(tops) == len(pack)
    assert chi_square < 55.5, "26 degrees of freedom: p < 0.001 beyond this"


def test_a_tampered_deck_or_seed_is_detected() -> None:
    pack = hasenpfeffer_deck()
    deck = deck_order(pack, SERVER_SEED, CLIENTS, 3)
    committed = commitment(SERVER_SEED)
    assert verify_deal(pack, deck, 3, SERVER_SEED, committed, CLIENTS) == []
    swapped = (deck[1], deck[0], *deck[2:])
    assert verify_deal(pack, swapped, 3, SERVER_SEED, committed, CLIENTS) == [
        "deal 3: the deck is not the one the seeds give"]
    other_seed = "ab" * 32
    problems = verify_deal(pack, deck, 3, other_seed, committed, CLIENTS)
    assert "deal 3: SHA-256 of the revealed server seed is not the commitment" in problems
    assert verify_deal(pack, deck, 3, SERVER_SEED, committed, ["", *CLIENTS[1:]]) != []
    assert verify_deal(pack, deck, 4, SERVER_SEED, committed, CLIENTS) != []


def test_what_counts_as_a_client_seed() -> None:
    assert is_seed("0123456789abcdef")
    assert not is_seed("0123456789ABCDEF")
    assert not is_seed("abc")
    assert not is_seed("g" * 16)
    assert not is_seed(12345678901234567)
    assert not is_seed("a" * 129)
