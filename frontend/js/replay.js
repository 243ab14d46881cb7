// The replay viewer (#/replay/<match id>[/<step>]): a finished match step by step with every hand
// face up, rebuilt in the page from GET /api/matches/{id} alone.
//
// Each deal's hands come from its deck and the game's deal order (HZ-3, AZ-6, HP-4); then every
// logged step is followed: cards leave a hand when they are played, discarded or shown, and land on
// the table. What would need the game's rules to work out (who takes a trick, how a bid ends the
// auction) is read from the log and the deal's summary instead: a trick's taker is the seat that
// leads the next one, the last trick's taker is whoever the deal's counts still owe one, and the
// Hasenpfeffer bidder is the one the deal's summary names. Hazari rounds are judged with the display
// aid of hazari.js and checked against the deal's rounds won. The server never needs this judgement.

import { GAME_TITLES, getMatch } from "./api.js";
import { cardImage, cardShort, SUIT_NAMES, SUIT_SYMBOLS } from "./cards.js";
import { clear, h, put, scrollBox, seatWord, showMessage } from "./dom.js";
import { canVerify, verifyDeal } from "./fairness.js";
import { bidName } from "./hasenpfeffer.js";
import { CATEGORY_NAMES } from "./hazari.js";
import { formatList, formatNumber, listNodes, t, withNodes } from "./i18n.js";
import { ARCHIVED_TEXT, REACTIONS, seatName as occupantName } from "./words.js";

const SUIT_SORT = { S: 0, H: 1, C: 2, D: 3 };
const RANK_SORT = { A: 14, K: 13, Q: 12, J: 11, 10: 10, 9: 9, 8: 8, 7: 7, 6: 6, 5: 5, 4: 4, 3: 3, 2: 2 };
const IN_DEAL = {
  hazari: new Set(["up", "auto"]),
  azi: new Set(["discard", "bet", "call", "raise", "fold", "play"]),
  hasenpfeffer: new Set(["bid", "pass", "trump", "discard", "play"]),
};

/** Cards in a steady order for reading: Joker, then spades, hearts, clubs, diamonds, high to low. */
export function sortCards(cards) {
  const weight = (code) => (code === "JK" ? -1 : SUIT_SORT[code.slice(-1)] * 20 + (14 - RANK_SORT[code.slice(0, -1)]));
  return [...cards].sort((a, b) => weight(a) - weight(b));
}

function seatName(match, seat) {
  const entry = match.seats.find((s) => s.seat === seat);
  return entry ? occupantName(entry) : seatWord(seat);
}

function teamName(match, team) {
  const words = { first: seatName(match, team), second: seatName(match, team + 2) };
  return team === 0 ? t("replay.teamA", words) : t("replay.teamB", words);
}

function suitWord(suit) {
  return SUIT_NAMES[suit] || suit;
}

// --- the state followed through the log ---------------------------------------------------------

function freshState(seats) {
  return {
    deal: null, dealer: null, button: null, hands: Array(seats).fill(null), notes: Array(seats).fill(""),
    marks: Array(seats).fill(""),
    badges: Array(seats).fill(null).map(() => []), groups: Array(seats).fill(null), table: null,
    tricks: [], info: [], dealEnd: null, finished: false,
  };
}

const NOT_HELD = {
  shows: (words) => t("replay.problemShows", words),
  discards: (words) => t("replay.problemDiscards", words),
  plays: (words) => t("replay.problemPlays", words),
};

/** Takes ``cards`` from the hand of ``seat``, who ``how`` them (shows, discards or plays). */
function take(state, seat, cards, problems, how) {
  const hand = state.hands[seat] || [];
  for (const card of cards) {
    const at = hand.indexOf(card);
    if (at < 0) problems.push(NOT_HELD[how]({ deal: state.deal, seat: seat + 1, card: cardShort(card) }));
    else hand.splice(at, 1);
  }
  state.hands[seat] = hand;
}

const BADGES = {
  dealer: t("replay.badgeDealer"), up: t("replay.badgeUp"), out: t("replay.badgeOut"), button: t("replay.badgeButton"),
  folded: t("replay.badgeFolded"), left: t("replay.badgeLeft"), bidder: t("replay.badgeBidder"),
};

function badge(state, seat, kind) {
  const text = BADGES[kind];
  if (!state.badges[seat].includes(text)) state.badges[seat].push(text);
}

/** The entries of the log that belong to each deal: from its "deal" entry to the next one. */
function splitByDeal(actions) {
  const parts = new Map();
  let current = null;
  for (const entry of actions) {
    if (entry.seat === null && entry.action.kind === "deal") current = entry.action.deal;
    if (current === null) continue;
    if (!parts.has(current)) parts.set(current, []);
    parts.get(current).push(entry);
  }
  return parts;
}

// --- Hazari (HZ-3, HZ-6) ------------------------------------------------------------------------
// The replay rebuilds each round from the stored groups, so it ranks them itself (HZ-4, HZ-5) until
// it shows views the server computes; the table page names groups from the server's view.

const RANK_VALUE = { 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, J: 11, Q: 12, K: 13, A: 14 };

/** HZ-5 runIndex of three distinct ranks, high first: A-K-Q 12, A-2-3 11, K-Q-J 10 ... 4-3-2 1; 0 if none. */
function runIndex(high, middle, low) {
  if (high === 14 && middle === 3 && low === 2) return 11;
  if (high - middle === 1 && middle - low === 1) return low === 12 ? 12 : low - 1;
  return 0;
}

/** The HZ-5 key of three cards, e.g. [6, 14] for A-A-A, [2, 9, 13] for 9-9-K, [1, 14, 13, 11]. */
function classify(cards) {
  const [high, middle, low] = cards.map((code) => RANK_VALUE[code.slice(0, -1)]).sort((a, b) => b - a);
  const suited = cards.every((card) => card.slice(-1) === cards[0].slice(-1));
  if (high === low) return [6, high];
  if (high === middle) return [2, high, low];
  if (middle === low) return [2, low, high];
  const run = runIndex(high, middle, low);
  if (run) return [suited ? 5 : 4, run];
  return [suited ? 3 : 1, high, middle, low];
}

/** Lexicographic comparison of two keys: > 0 when ``a`` beats ``b``, 0 for a tie. */
function compareKeys(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return a.length - b.length;
}

/** The key of a 3-card group, or of a 4-card group's best triple (HZ-4). */
function groupKey(cards) {
  if (cards.length === 3) return classify(cards);
  let best = null;
  for (let skip = cards.length - 1; skip >= 0; skip -= 1) {
    const key = classify(cards.filter((_, i) => i !== skip));
    if (best === null || compareKeys(key, best) > 0) best = key;
  }
  return best;
}

function combinationName(cards) {
  return CATEGORY_NAMES[groupKey(cards)[0]];
}

function hazariRules(match, byDeal) {
  const tieRule = (match.options && match.options.tie_rule) || "later_wins";
  return {
    deal(state, deal) {
      const detailDealer = deal.detail && Number.isInteger(deal.detail.dealer) ? deal.detail.dealer : null;
      state.dealer = detailDealer ?? (match.first_dealer + deal.number - 1) % 4;
      const first = (state.dealer + 1) % 4;
      state.hands = [0, 1, 2, 3].map((seat) => deal.deck.filter((_, i) => i % 4 === (seat - first + 4) % 4));
      state.groups = Array(4).fill(null);
      state.rounds = 0;
      state.lastWinner = null;
      state.roundsWon = [0, 0, 0, 0];
      badge(state, state.dealer, "dealer");
      return t("replay.hazariDeal", { deal: deal.number, dealer: seatName(match, state.dealer), first: seatName(match, first) });
    },
    act(state, entry, problems) {
      const { seat, action } = entry;
      if (action.kind === "up") {
        state.groups[seat] = action.groups.map((group) => [...group]);
        state.notes[seat] = t("replay.noteUp");
        badge(state, seat, "up");
        const named = action.groups.map((group, i) => t("replay.group", { number: i + 1, combination: combinationName(group) }));
        return t("replay.callsUp", { name: seatName(match, seat), groups: formatList(named, "unit") });
      }
      if (action.kind !== "auto") return null;
      state.rounds += 1;
      const number = state.rounds;
      const leader = number === 1 ? (state.dealer + 1) % 4 : state.lastWinner;
      const plays = [];
      for (let i = 0; i < 4; i += 1) {
        const who = (leader + i) % 4;
        const cards = state.groups[who] ? state.groups[who][number - 1] : null;
        if (!cards) {
          problems.push(t("replay.problemNoArrangement", { deal: state.deal, seat: who + 1, round: number }));
          continue;
        }
        take(state, who, cards, problems, "shows");
        plays.push({ seat: who, cards: [...cards], label: combinationName(cards), key: groupKey(cards) });
      }
      let best = plays[0];
      for (const play of plays.slice(1)) {
        const order = compareKeys(play.key, best.key);
        if (order > 0 || (order === 0 && tieRule === "later_wins")) best = play;
      }
      best.winner = true;
      state.lastWinner = best.seat;
      state.roundsWon[best.seat] += 1;
      plays.forEach((play) => delete play.key);
      state.table = { title: t("replay.round", { round: number }), plays };
      state.tricks.push({ number, seat: best.seat });
      return t("replay.roundTaken", { round: number, leader: seatName(match, leader), name: seatName(match, best.seat),
        combination: best.label });
    },
    dealEnd(state, deal, problems) {
      const counted = deal.detail && deal.detail.rounds_won;
      if (counted && counted.join() !== state.roundsWon.join()) {
        problems.push(t("replay.problemRounds", { deal: deal.number, history: counted.join("-"), page: state.roundsWon.join("-") }));
      }
    },
    entries: byDeal,
  };
}

// --- Azi (AZ-5, AZ-6) ---------------------------------------------------------------------------

function clockwiseAfter(seat, members, seats) {
  const order = [];
  for (let step = 1; step <= seats; step += 1) {
    const next = (seat + step) % seats;
    if (members.includes(next)) order.push(next);
  }
  return order;
}

function aziRules(match, byDeal) {
  const seats = match.seats.length;
  const handSize = Number((match.options && match.options.hand_size) || 3);
  const left = new Set();
  const seatedFrom = (seat) => {
    if (!left.has(seat)) return seat;
    const staying = [...Array(seats).keys()].filter((s) => !left.has(s));
    return staying.length ? clockwiseAfter(seat, staying, seats)[0] : seat;
  };
  let button = match.first_dealer;
  let lastWinner = null;
  return {
    deal(state, deal) {
      const redeal = Boolean(deal.detail && deal.detail.redeal);
      if (!redeal) button = seatedFrom(button);
      // Who took part is read from the log: every participant acts in the deal (a bet, a call, a
      // fold, a discard or a card), and nobody else does.
      const actors = new Set((byDeal.get(deal.number) || [])
        .filter((entry) => entry.seat !== null && IN_DEAL.azi.has(entry.action.kind)).map((entry) => entry.seat));
      state.participants = [...actors].sort((a, b) => a - b);
      const order = clockwiseAfter(button, state.participants, seats);
      const count = handSize * order.length;
      state.hands = Array(seats).fill(null);
      order.forEach((seat) => { state.hands[seat] = []; });
      deal.deck.slice(0, count).forEach((card, i) => state.hands[order[i % order.length]].push(card));
      state.button = button;
      state.folded = new Set();
      state.trick = 0;
      state.groups = Array(seats).fill(null);
      for (let seat = 0; seat < seats; seat += 1) if (!state.hands[seat]) badge(state, seat, "out");
      badge(state, button, "button");
      const exposed = count ? deal.deck[count - 1] : null;
      if (exposed) {
        const words = { suit: suitWord(exposed.slice(-1)), name: seatName(match, order[order.length - 1]) };
        const text = exposed.startsWith("A") ? t("replay.aziTrumpAce", words) : t("replay.aziTrump", words);
        state.info.push({ kind: "trump", text, cards: [exposed] });
      }
      state.info.push({ kind: "notDealt", text: t("replay.cards", { count: deal.deck.length - count }), cards: [] });
      const words = { deal: deal.number, count: handSize, names: formatList(order.map((seat) => seatName(match, seat)), "unit") };
      return redeal ? t("replay.aziRedeal", words) : t("replay.aziDeal", words);
    },
    act(state, entry, problems) {
      const { seat, action } = entry;
      const who = seat === null ? "" : seatName(match, seat);
      switch (action.kind) {
        case "discard":
          take(state, seat, [action.card], problems, "discards");
          state.notes[seat] = t("replay.noteDiscarded");
          state.marks[seat] = t("replay.markDiscarded", { card: cardShort(action.card) });
          return t("replay.aziDiscards", { name: who, card: cardShort(action.card) });
        case "bet":
          state.notes[seat] = t("replay.noteBet", { amount: action.amount });
          return t("replay.bets", { name: who, amount: action.amount });
        case "raise":
          state.notes[seat] = t("replay.noteRaised", { amount: action.to });
          return t("replay.raises", { name: who, amount: action.to });
        case "call":
          state.notes[seat] = t("replay.noteCalled");
          return t("replay.calls", { name: who });
        case "fold":
          state.folded.add(seat);
          state.notes[seat] = t("replay.noteFolded");
          badge(state, seat, "folded");
          return t("replay.folds", { name: who });
        case "play":
          return playCard(state, match, entry, problems, state.participants.length - state.folded.size);
        case "buy_in":
          state.notes[seat] = t("replay.noteBoughtIn");
          return t("replay.buysIn", { name: who });
        case "decline":
          state.notes[seat] = t("replay.noteDeclined");
          return t("replay.declines", { name: who });
        case "leave":
          left.add(seat);
          badge(state, seat, "left");
          return t("replay.leaves", { name: who });
        case "auto":
          button = lastWinner === null ? button : seatedFrom(lastWinner);
          return t("replay.nextGame", { name: seatName(match, button) });
        case "close":
          return t("replay.closes");
        default:
          return null;
      }
    },
    dealEnd(state, deal, problems) {
      const detail = deal.detail || {};
      if (detail.winner !== null && detail.winner !== undefined) lastWinner = detail.winner;
      closeLastTrick(state, match, detail.tricks, problems, (seat) => seatName(match, seat));
    },
    entries: byDeal,
  };
}

/** A card to the table; a full trick stays in view until the next card, whose player took it. */
function playCard(state, match, entry, problems, trickSize) {
  const { seat, action } = entry;
  take(state, seat, [action.card], problems, "plays");
  const current = state.table;
  let took = null;
  if (!current || current.plays.length >= trickSize) {
    if (current) {
      state.tricks.push({ number: current.number, seat, cards: current.plays.map((play) => play.cards[0]) });
      const taken = current.plays.find((play) => play.seat === seat);
      if (taken) taken.winner = true;
      took = current.number;
    }
    const number = current ? current.number + 1 : 1;
    state.table = { title: t("replay.trick", { trick: number }), number, plays: [] };
  }
  state.table.plays.push({ seat, cards: [action.card], label: "" });
  state.notes[seat] = t("replay.notePlayed", { card: cardShort(action.card) });
  const words = { name: seatName(match, seat), card: cardShort(action.card), trick: took };
  return took === null ? t("replay.plays", words) : t("replay.playsAndLeads", words);
}

/**
 * The last trick's taker is whoever the deal's own counts still owe a trick: ``counts`` per seat
 * (Azi) or per team (Hasenpfeffer, where ``teams`` is true).
 */
function closeLastTrick(state, match, counts, problems, nameOf, teams = false) {
  const last = state.table;
  if (!last || !last.number || !Array.isArray(counts)) return;
  const known = counts.map(() => 0);
  for (const trick of state.tricks) known[teams ? trick.seat % 2 : trick.seat] += 1;
  const owed = counts.map((count, i) => count - known[i]);
  const taker = owed.findIndex((n) => n === 1);
  if (owed.filter((n) => n !== 0).length !== 1 || taker < 0) {
    problems.push(t("replay.problemTricks", { deal: state.deal, counts: counts.join("-") }));
    return;
  }
  state.tricks.push({ number: last.number, seat: teams ? null : taker, team: teams ? taker : null });
  last.plays.forEach((play) => { if (teams ? play.seat % 2 === taker : play.seat === taker) play.winner = true; });
  last.taker = nameOf(taker);
}

// --- Hasenpfeffer (HP-4..HP-8) ------------------------------------------------------------------

function hasenpfefferRules(match, byDeal) {
  const lastCall = new Map();
  for (const [number, entries] of byDeal) {
    const calls = entries.filter((entry) => entry.seat !== null && ["bid", "pass"].includes(entry.action.kind));
    if (calls.length) lastCall.set(number, calls[calls.length - 1].seq);
  }
  const deals = new Map(match.deals.map((deal) => [deal.number, deal]));
  return {
    deal(state, deal) {
      state.dealer = (match.first_dealer + deal.number - 1) % 4;
      state.hands = [[], [], [], []];
      for (let packet = 0; packet < 8; packet += 1) {
        state.hands[(state.dealer + 1 + packet) % 4].push(...deal.deck.slice(3 * packet, 3 * packet + 3));
      }
      state.widow = deal.deck[24];
      state.groups = Array(4).fill(null);
      state.info.push({ kind: "widow", text: t("replay.widowDown"), cards: [state.widow] });
      badge(state, state.dealer, "dealer");
      return t("replay.hasenpfefferDeal", { deal: deal.number, dealer: seatName(match, state.dealer),
        first: seatName(match, (state.dealer + 1) % 4) });
    },
    act(state, entry, problems) {
      const { seat, action } = entry;
      const who = seatName(match, seat);
      let text = null;
      if (action.kind === "bid" || action.kind === "pass") {
        state.notes[seat] = action.kind === "pass" ? t("replay.notePassed") : t("replay.noteBid", { contract: bidName(action.value) });
        text = action.kind === "pass" ? t("replay.passes", { name: who }) : t("replay.bids", { name: who, contract: bidName(action.value) });
        if (lastCall.get(state.deal) === entry.seq) {
          text = t("replay.twoSentences", { first: text, second: auctionEnd(state, deals.get(state.deal), match, problems) });
        }
        return text;
      }
      if (action.kind === "trump") {
        state.info.push({ kind: "trump", text: `${SUIT_SYMBOLS[action.suit] || ""} ${suitWord(action.suit)}`, cards: [] });
        return t("replay.namesTrump", { name: who, suit: suitWord(action.suit) });
      }
      if (action.kind === "discard") {
        take(state, seat, [action.card], problems, "discards");
        state.notes[seat] = t("replay.noteDiscarded");
        state.marks[seat] = t("replay.markDiscarded", { card: cardShort(action.card) });
        return t("replay.hasenpfefferDiscards", { name: who, card: cardShort(action.card) });
      }
      if (action.kind === "play") return playCard(state, match, entry, problems, 4);
      return null;
    },
    dealEnd(state, deal, problems) {
      const detail = deal.detail || {};
      if (detail.thrown_in) return;
      closeLastTrick(state, match, detail.tricks, problems, (team) => teamName(match, team), true);
    },
    entries: byDeal,
  };
}

/** HP-5..HP-7 as the deal's summary tells them: who won the auction, and the widow to that hand. */
function auctionEnd(state, deal, match, problems) {
  const detail = (deal && deal.detail) || {};
  state.info = state.info.filter((item) => item.kind !== "widow");
  if (detail.thrown_in) {
    state.info.push({ kind: "widow", text: t("replay.widowJoker"), cards: [state.widow] });
    state.hands = state.hands.map(() => []);
    return t("replay.thrownIn");
  }
  if (!Number.isInteger(detail.bidder)) {
    problems.push(t("replay.problemNoBidder", { deal: state.deal }));
    return "";
  }
  state.hands[detail.bidder].push(state.widow);
  badge(state, detail.bidder, "bidder");
  const words = { name: seatName(match, detail.bidder), contract: bidName(detail.contract), card: cardShort(state.widow) };
  state.info.push({ kind: "widow", text: t("replay.widowTaken", words), cards: [state.widow] });
  state.info.push({ kind: "contract", text: detail.forced ? t("replay.contractForced", words) : t("replay.contract", words), cards: [] });
  return detail.forced ? t("replay.auctionForced", words) : t("replay.auctionWon", words);
}

// --- the steps ----------------------------------------------------------------------------------

function snapshot(state) {
  return JSON.parse(JSON.stringify({
    deal: state.deal, dealer: state.dealer, button: state.button, hands: state.hands, notes: state.notes, marks: state.marks,
    badges: state.badges, groups: state.groups, table: state.table, tricks: state.tricks, info: state.info,
    dealEnd: state.dealEnd, finished: state.finished,
  }));
}

/**
 * The match as a list of steps: step 0 before anything, then one per logged entry, each holding
 * what every hand still holds, the table, and the deal's points once it is over. ``problems`` lists
 * where the log and the rebuilt hands disagree (none for a consistent history).
 */
export function rebuild(match) {
  const seats = match.seats.length;
  const actions = [...match.actions].sort((a, b) => a.seq - b.seq);
  const byDeal = splitByDeal(actions);
  const makeRules = { hazari: hazariRules, azi: aziRules, hasenpfeffer: hasenpfefferRules }[match.game];
  if (!makeRules) throw new Error(t("replay.noReplay", { game: match.game }));
  const rules = makeRules(match, byDeal);
  const deals = new Map(match.deals.map((deal) => [deal.number, deal]));
  const lastOfDeal = new Map();
  for (const [number, entries] of byDeal) {
    const inDeal = entries.filter((entry) => entry.seat !== null ? IN_DEAL[match.game].has(entry.action.kind)
      : match.game === "hazari" && entry.action.kind === "auto");
    if (inDeal.length) lastOfDeal.set(number, inDeal[inDeal.length - 1].seq);
  }
  const problems = [];
  const state = freshState(seats);
  const steps = [{ seq: null, seat: null, text: t("replay.beforeFirstDeal"), dealStart: null, ...snapshot(state) }];
  for (const entry of actions) {
    const { action } = entry;
    let text;
    let dealStart = null;
    if (entry.seat === null && action.kind === "deal") {
      const deal = deals.get(action.deal);
      if (!deal || !deal.deck) {
        problems.push(t("replay.problemNoDeck", { deal: action.deal }));
        break;
      }
      Object.assign(state, freshState(seats), { deal: deal.number });
      text = rules.deal(state, deal);
      dealStart = deal.number;
    } else {
      text = rules.act(state, entry, problems) || (entry.seat === null ? t("replay.serverAction", { action: action.kind })
        : t("replay.seatAction", { name: seatName(match, entry.seat), action: action.kind }));
      if (lastOfDeal.get(state.deal) === entry.seq) {
        const deal = deals.get(state.deal);
        rules.dealEnd(state, deal, problems);
        if (deal && deal.points) {
          state.dealEnd = { number: deal.number, points: deal.points, detail: deal.detail };
          text = t("replay.stepAndDealOver", { text, deal: deal.number });
        }
      }
      if (match.game === "azi" && action.kind === "auto") {
        Object.assign(state, freshState(seats), { deal: state.deal });
      }
    }
    steps.push({ seq: entry.seq, seat: entry.seat, text, dealStart, ...snapshot(state) });
  }
  if (match.status === "finished" && steps.length > 1) steps[steps.length - 1].finished = true;
  return { steps, problems };
}

// --- drawing ------------------------------------------------------------------------------------

/** "Asha 12" for a side of the deal; Azi's winnings signed ("Asha +40"). */
function sideScore(match, side, points) {
  const name = match.game === "hasenpfeffer" ? teamName(match, side) : seatName(match, side);
  return points > 0 && match.game === "azi" ? t("replay.sideGain", { name, points }) : t("replay.sideScore", { name, points });
}

function pointsText(match, deal) {
  if (!deal.points) return t("replay.notScored");
  return formatList(deal.points.map((points, side) => sideScore(match, side, points)), "unit");
}

function dealEndPanel(match, end) {
  const sides = match.game === "hasenpfeffer" ? [0, 1] : end.points.map((_, i) => i);
  const detail = end.detail || {};
  let summary = "";
  if (match.game === "hazari" && detail.rounds_won) {
    summary = t("replay.roundsWon", { rounds: formatList(detail.rounds_won.map((n, seat) =>
      t("replay.sideScore", { name: seatName(match, seat), points: n })), "unit") });
  } else if (match.game === "azi") {
    const words = { name: seatName(match, detail.winner), pot: detail.pot };
    if (detail.reason === "azi") summary = t("replay.aziCarried", words);
    else summary = detail.reason === "folds" ? t("replay.potFolds", words) : t("replay.potTricks", words);
  } else if (match.game === "hasenpfeffer") {
    const words = { name: seatName(match, detail.bidder), contract: bidName(detail.contract), tricks: (detail.tricks || []).join("-") };
    if (detail.thrown_in) summary = t("replay.noScore");
    else summary = detail.made ? t("replay.bidMade", words) : t("replay.bidSet", words);
  }
  const scores = listNodes(sides.map((side) => h("span", { class: "deal-points", dataset: { side: String(side) } },
    t("replay.sideScore", { name: match.game === "hasenpfeffer" ? teamName(match, side) : seatName(match, side), points: end.points[side] }))));
  return h("section", { class: "deal-result replay-deal-end", id: "replay-deal-end", "aria-label": t("replay.dealResult", { deal: end.number }) },
    h("p", {}, ...withNodes(match.game === "azi" ? t("replay.dealOverChips", { deal: end.number })
      : t("replay.dealOverPoints", { deal: end.number }), { scores: h("span", {}, scores) })),
    summary ? h("p", { class: "muted" }, summary) : null);
}

function handView(match, step, seat) {
  const cards = step.hands[seat];
  const groups = step.groups[seat];
  const name = seatName(match, seat);
  const entry = match.seats.find((s) => s.seat === seat) || {};
  const acting = step.seat === seat;
  const label = cards === null ? t("replay.handOut", { name, seat: seat + 1 })
    : t("replay.handCards", { name, seat: seat + 1, count: cards.length });
  let body;
  if (cards === null) {
    body = h("p", { class: "muted" }, t("replay.notInDeal"));
  } else if (groups && match.game === "hazari") {
    body = h("ol", { class: "replay-groups" }, groups.map((group, i) => {
      const held = group.filter((card) => cards.includes(card));
      if (!held.length) return null;
      return h("li", {}, h("span", { class: "muted" }, t("replay.group", { number: i + 1, combination: combinationName(group) })), " ",
        h("span", { class: "card-row" }, held.map((card) => cardImage(card, { small: true }))));
    }));
  } else {
    body = h("div", { class: "card-row" }, cards.length ? sortCards(cards).map((card) => cardImage(card, { small: true }))
      : h("span", { class: "muted" }, t("replay.noCards")));
  }
  return h("section", { class: `replay-hand${acting ? " acting" : ""}`, dataset: { seat: String(seat) },
    "aria-label": label },
  h("h3", {}, h("span", { class: "seat-no" }, formatNumber(seat + 1)), " ",
    entry.player_id ? h("a", { href: `#/player/${encodeURIComponent(entry.player_id)}` }, name) : name,
    match.game === "hasenpfeffer" ? h("span", { class: `badge team-${seat % 2}` }, seat % 2 ? t("replay.teamLetterB") : t("replay.teamLetterA")) : null,
    step.badges[seat].map((text) => h("span", { class: "badge" }, text))),
  h("p", { class: "replay-note" }, step.notes[seat] || "\u00a0"),
  body,
  step.marks[seat] ? h("p", { class: "replay-mark" }, step.marks[seat]) : null);
}

const INFO_LABELS = {
  trump: t("replay.infoTrump"), notDealt: t("replay.infoNotDealt"), widow: t("replay.infoWidow"), contract: t("replay.infoContract"),
};

function tableView(match, step) {
  const parts = [];
  for (const item of step.info) {
    parts.push(h("p", { class: "replay-info" }, h("strong", {}, INFO_LABELS[item.kind]), " ",
      item.cards.map((card) => cardImage(card, { small: true })), item.cards.length ? " " : "", item.text));
  }
  if (step.table) {
    parts.push(h("h3", {}, step.table.taker ? t("replay.takenBy", { title: step.table.title, name: step.table.taker }) : step.table.title));
    parts.push(h("ul", { class: "trick replay-trick", id: "replay-table" }, step.table.plays.map((play) => h("li",
      { class: play.winner ? "winner" : "", dataset: { seat: String(play.seat) } },
      h("span", { class: "who" }, `${seatName(match, play.seat)}${play.winner ? " \u2714" : ""}`),
      h("span", { class: "card-row" }, play.cards.map((card) => cardImage(card, { small: true }))),
      play.label ? h("span", { class: "combo" }, play.label) : null))));
  } else {
    parts.push(h("p", { class: "muted", id: "replay-table" }, t("replay.emptyTable")));
  }
  if (step.tricks.length && match.game !== "hazari") {
    const taken = step.tricks.map((trick) => t("replay.trickTaker", { trick: trick.number,
      name: trick.team !== null && trick.team !== undefined ? teamName(match, trick.team) : seatName(match, trick.seat) }));
    parts.push(h("p", { class: "muted" }, t("replay.tricksTaken", { tricks: taken.join("; ") })));
  }
  return h("section", { class: "replay-centre", "aria-label": t("replay.table") }, parts);
}

function verifyResult(match, deal) {
  const result = h("span", { class: "verify-result", role: "status", dataset: { deal: String(deal.number) } });
  const check = async () => {
    const fairness = deal.fairness;
    result.className = "verify-result";
    if (!deal.deck) {
      result.textContent = t("replay.deckNotPublic");
      return;
    }
    if (!fairness || (!fairness.server_seed && !fairness.commitment)) {
      result.textContent = t("replay.testDeck");
      return;
    }
    if (!fairness.server_seed) {
      result.textContent = t("replay.seedHidden");
      return;
    }
    if (!canVerify()) {
      result.textContent = t("replay.verifyInsecure");
      return;
    }
    result.textContent = t("replay.checking");
    const problems = await verifyDeal({
      game: match.game, deck: deal.deck, deal: deal.number, serverSeed: fairness.server_seed,
      commitment: fairness.commitment, clientSeeds: fairness.client_seeds, seats: match.seats.length,
    });
    result.textContent = problems.length ? t("replay.verifyFailed", { problems: problems.join("; ") }) : t("replay.verified");
    result.className = `verify-result ${problems.length ? "bad" : "ok"}`;
  };
  return { result, check };
}

/** The match's chat up to ``step``: the lines said once that many entries of the log were applied
 * (the latest last, those said at this very step marked), as text. */
function chatView(match, step) {
  const reached = step.seq === null ? 0 : step.seq;
  const lines = (match.chat || []).filter((line) => line.after_seq <= reached);
  if (!(match.chat || []).length) return null;
  return h("section", { class: "replay-chat", id: "replay-chat", "aria-label": t("replay.chat") },
    h("h3", {}, t("replay.chat")),
    lines.length ? h("ol", { class: "chat-log" }, lines.slice(-12).map((line) => {
      const reaction = line.reaction ? REACTIONS[line.reaction] : null;
      const said = line.reaction ? (reaction ? `${reaction.face} ${reaction.label}` : line.reaction) : line.text;
      return h("li", { class: `chat-line${line.after_seq === reached ? " now" : ""}` },
        h("strong", { class: "chat-name" }, line.from.name), " ", h("span", { class: "chat-text" }, said));
    })) : h("p", { class: "muted" }, t("replay.nothingSaid")));
}

function dealList(match, steps, go) {
  const firstStep = new Map();
  steps.forEach((step, index) => { if (step.dealStart !== null && !firstStep.has(step.dealStart)) firstStep.set(step.dealStart, index); });
  return h("ol", { class: "replay-deals", id: "replay-deals" }, match.deals.map((deal) => {
    const { result, check } = verifyResult(match, deal);
    const at = firstStep.get(deal.number);
    return h("li", { dataset: { deal: String(deal.number) } },
      h("button", { type: "button", class: "small-button replay-go", disabled: at === undefined,
        onclick: () => go(at) }, t("replay.deal", { deal: deal.number })),
      h("span", { class: "muted" }, ` ${pointsText(match, deal)} `),
      h("button", { type: "button", class: "small-button", onclick: check }, t("replay.verify")), " ", result);
  }));
}

function finishedText(match) {
  const winners = match.result.winners.map((w) => (match.game === "hasenpfeffer" ? teamName(match, w) : seatName(match, w)));
  return winners.length ? t("replay.matchOverWonBy", { names: formatList(winners) }) : t("replay.matchOverNoWinner");
}

export function showReplay(main, matchId, startStep = null) {
  const box = h("section", { class: "replay", id: "replay" }, h("p", {}, t("replay.loading")));
  main.append(h("p", {}, h("a", { href: `#/match/${encodeURIComponent(matchId)}` }, t("replay.back"))), box);
  let onKey = null;
  let gone = false;
  getMatch(matchId).then((match) => {
    if (gone) return;
    clear(box);
    if (match.archived) {
      put(box, h("h1", {}, t("replay.title")), h("p", { id: "replay-archived" }, ARCHIVED_TEXT));
      return;
    }
    if (match.status !== "finished") {
      box.append(h("h1", {}, t("replay.title")), h("p", {}, t("replay.notOver"), " ",
        match.room_id ? h("a", { href: `#/room/${encodeURIComponent(match.room_id)}` }, t("replay.watch")) : ""));
      return;
    }
    const { steps, problems } = rebuild(match);
    let index = Math.min(Math.max(Number.parseInt(startStep, 10) || 0, 0), steps.length - 1);
    const title = GAME_TITLES[match.game] || match.game;
    const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: steps.length - 1, value: index,
      "aria-label": t("replay.step"), "aria-valuetext": "" });
    const counter = h("span", { id: "replay-counter", class: "replay-counter" });
    const text = h("p", { id: "replay-step-text", class: "replay-step-text", "aria-live": "polite" });
    const board = h("div", { class: "replay-board", id: "replay-board" });
    const buttons = {
      first: h("button", { type: "button", id: "replay-first", "aria-label": t("replay.firstStep"), onclick: () => go(0) },
        t("replay.first")),
      previous: h("button", { type: "button", id: "replay-previous", "aria-label": t("replay.previousStep"),
        onclick: () => go(index - 1) }, t("replay.previous")),
      next: h("button", { type: "button", id: "replay-next", class: "primary", "aria-label": t("replay.nextStep"),
        onclick: () => go(index + 1) }, t("replay.next")),
      last: h("button", { type: "button", id: "replay-last", "aria-label": t("replay.lastStep"),
        onclick: () => go(steps.length - 1) }, t("replay.last")),
    };
    const draw = () => {
      const step = steps[index];
      box.dataset.step = String(index);
      slider.value = String(index);
      const words = { step: index, count: steps.length - 1, deal: step.deal };
      const where = step.deal ? t("replay.stepOfInDeal", words) : t("replay.stepOf", words);
      counter.textContent = where;
      slider.setAttribute("aria-valuetext", where);
      text.textContent = step.text;
      buttons.first.disabled = buttons.previous.disabled = index === 0;
      buttons.next.disabled = buttons.last.disabled = index === steps.length - 1;
      clear(board);
      put(board,
        h("div", { class: `replay-seats seats-${match.seats.length}` }, match.seats.map((seat) => handView(match, step, seat.seat))),
        tableView(match, step),
        step.dealEnd ? dealEndPanel(match, step.dealEnd) : null,
        chatView(match, step),
        step.finished && match.result ? h("p", { class: "finished-banner", id: "replay-finished" }, finishedText(match)) : null);
      for (const item of box.querySelectorAll(".replay-deals li")) {
        if (Number(item.dataset.deal) === step.deal) item.setAttribute("aria-current", "step");
        else item.removeAttribute("aria-current");
      }
      const hash = `#/replay/${encodeURIComponent(match.id)}/${index}`;
      if (window.location.hash !== hash) window.history.replaceState(null, "", hash);
    };
    const go = (target) => {
      const next = Math.min(Math.max(target, 0), steps.length - 1);
      if (next === index) return;
      index = next;
      draw();
    };
    slider.addEventListener("input", () => go(Number(slider.value)));
    onKey = (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target && (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || (target.classList && target.classList.contains("scroll-x")))) return;
      const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: steps.length - 1 };
      if (!(event.key in moves)) return;
      event.preventDefault();
      go(moves[event.key]);
    };
    document.addEventListener("keydown", onKey);
    put(box,
      h("h1", {}, t("replay.heading", { game: title })),
      h("p", { class: "muted" }, t("replay.about")),
      problems.length ? h("div", { class: "message error", role: "alert", id: "replay-problems" },
        h("span", {}, t("replay.problems", { problems: problems.join("; ") }))) : null,
      h("h2", {}, t("replay.deals")),
      scrollBox(dealList(match, steps, (at) => go(at)), t("replay.deals")),
      h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
        buttons.first, buttons.previous, buttons.next, buttons.last,
        h("label", { class: "replay-slider" }, h("span", { class: "sr-only" }, t("replay.step")), slider), counter),
      text,
      board);
    draw();
  }).catch((error) => {
    clear(box);
    box.appendChild(h("p", {}, t("replay.notLoaded", { error: error.message })));
    showMessage(error.message, { code: error.code });
  });
  return () => {
    gone = true;
    if (onKey) document.removeEventListener("keydown", onKey);
  };
}
