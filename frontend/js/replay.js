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
import { clear, h, put, scrollBox, showMessage } from "./dom.js";
import { canVerify, verifyDeal } from "./fairness.js";
import { combinationName, compareKeys, groupKey } from "./hazari.js";
import { ARCHIVED_TEXT, REACTIONS } from "./words.js";

const SUIT_SORT = { S: 0, H: 1, C: 2, D: 3 };
const RANK_SORT = { A: 14, K: 13, Q: 12, J: 11, 10: 10, 9: 9, 8: 8, 7: 7, 6: 6, 5: 5, 4: 4, 3: 3, 2: 2 };
const IN_DEAL = {
  hazari: new Set(["up", "auto"]),
  azi: new Set(["discard", "bet", "call", "raise", "fold", "play"]),
  hasenpfeffer: new Set(["bid", "pass", "trump", "discard", "play"]),
};
const CONTRACTS = { little_pepper: "Little Pepper", big_pepper: "Big Pepper" };

/** Cards in a steady order for reading: Joker, then spades, hearts, clubs, diamonds, high to low. */
export function sortCards(cards) {
  const weight = (code) => (code === "JK" ? -1 : SUIT_SORT[code.slice(-1)] * 20 + (14 - RANK_SORT[code.slice(0, -1)]));
  return [...cards].sort((a, b) => weight(a) - weight(b));
}

function seatName(match, seat) {
  const entry = match.seats.find((s) => s.seat === seat);
  return entry ? entry.name : `Seat ${seat + 1}`;
}

function teamName(match, team) {
  return `Team ${team === 0 ? "A" : "B"} (${seatName(match, team)} & ${seatName(match, team + 2)})`;
}

function suitWord(suit) {
  return SUIT_NAMES[suit] || suit;
}

function contractName(value) {
  return CONTRACTS[value] || String(value);
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

function take(state, seat, cards, problems, what) {
  const hand = state.hands[seat] || [];
  for (const card of cards) {
    const at = hand.indexOf(card);
    if (at < 0) problems.push(`deal ${state.deal}: ${what} ${card}, which the rebuilt hand of seat ${seat + 1} does not hold`);
    else hand.splice(at, 1);
  }
  state.hands[seat] = hand;
}

function badge(state, seat, text) {
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
      return `Deal ${deal.number}: ${seatName(match, state.dealer)} deals 13 cards each, one at a time from ${seatName(match, first)} on (HZ-3).`;
    },
    act(state, entry, problems) {
      const { seat, action } = entry;
      if (action.kind === "up") {
        state.groups[seat] = action.groups.map((group) => [...group]);
        state.notes[seat] = "called up";
        badge(state, seat, "up");
        const named = action.groups.map((group, i) => `G${i + 1} ${combinationName(group)}`).join(", ");
        return `${seatName(match, seat)} arranges the hand and calls up: ${named}.`;
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
          problems.push(`deal ${state.deal}: seat ${who + 1} shows round ${number} without an arrangement`);
          continue;
        }
        take(state, who, cards, problems, `seat ${who + 1} shows`);
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
      state.table = { title: `Round ${number}`, plays };
      state.tricks.push({ number, seat: best.seat });
      return `Round ${number}, led by ${seatName(match, leader)}: ${seatName(match, best.seat)} takes it with a ${best.label}.`;
    },
    dealEnd(state, deal, problems) {
      const counted = deal.detail && deal.detail.rounds_won;
      if (counted && counted.join() !== state.roundsWon.join()) {
        problems.push(`deal ${deal.number}: rounds won per seat are ${counted.join("-")} in the history, `
          + `${state.roundsWon.join("-")} as this page judged them`);
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
      for (let seat = 0; seat < seats; seat += 1) if (!state.hands[seat]) badge(state, seat, "sits out");
      badge(state, button, "button");
      const exposed = count ? deal.deck[count - 1] : null;
      if (exposed) {
        const six = exposed.startsWith("A") ? `; an Ace: the 6 of ${suitWord(exposed.slice(-1))} is the highest card of the deal (AZ-6)` : "";
        state.info.push({ label: "Trump", text: `${suitWord(exposed.slice(-1))}: the last card dealt, shown to all, went to ${seatName(match, order[order.length - 1])}${six}`, cards: [exposed] });
      }
      state.info.push({ label: "Not dealt", text: `${deal.deck.length - count} cards`, cards: [] });
      return `Deal ${deal.number}${redeal ? " (re-deal after an Azi)" : ""}: ${handSize} cards each to `
        + `${order.map((seat) => seatName(match, seat)).join(", ")}, one at a time clockwise after the button (AZ-6).`;
    },
    act(state, entry, problems) {
      const { seat, action } = entry;
      const who = seat === null ? "" : seatName(match, seat);
      switch (action.kind) {
        case "discard":
          take(state, seat, [action.card], problems, `seat ${seat + 1} discards`);
          state.notes[seat] = "discarded";
          state.marks[seat] = `Discarded face down: ${cardShort(action.card)}`;
          return `${who} lays ${cardShort(action.card)} away face down.`;
        case "bet":
          state.notes[seat] = `bet ${action.amount}`;
          return `${who} opens with a bet of ${action.amount}.`;
        case "raise":
          state.notes[seat] = `raised to ${action.to}`;
          return `${who} raises to ${action.to}.`;
        case "call":
          state.notes[seat] = "called";
          return `${who} calls.`;
        case "fold":
          state.folded.add(seat);
          state.notes[seat] = "folded";
          badge(state, seat, "folded");
          return `${who} folds.`;
        case "play":
          return playCard(state, match, entry, problems, state.participants.length - state.folded.size);
        case "buy_in":
          state.notes[seat] = "bought in";
          return `${who} buys into the re-deal (AZ-13).`;
        case "decline":
          state.notes[seat] = "declined the buy-in";
          return `${who} declines the buy-in.`;
        case "leave":
          left.add(seat);
          badge(state, seat, "left");
          return `${who} leaves the table; the chips stay theirs.`;
        case "auto":
          button = lastWinner === null ? button : seatedFrom(lastWinner);
          return `Next game: the button goes to ${seatName(match, button)} (AZ-14).`;
        case "close":
          return "The owner closes the table.";
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
  take(state, seat, [action.card], problems, `seat ${seat + 1} plays`);
  const current = state.table;
  let note = "";
  if (!current || current.plays.length >= trickSize) {
    if (current) {
      state.tricks.push({ number: current.number, seat, cards: current.plays.map((play) => play.cards[0]) });
      const taken = current.plays.find((play) => play.seat === seat);
      if (taken) taken.winner = true;
      note = ` (${seatName(match, seat)} took trick ${current.number} and leads)`;
    }
    const number = current ? current.number + 1 : 1;
    state.table = { title: `Trick ${number}`, number, plays: [] };
  }
  state.table.plays.push({ seat, cards: [action.card], label: "" });
  state.notes[seat] = `played ${cardShort(action.card)}`;
  return `${seatName(match, seat)} plays ${cardShort(action.card)}${note}.`;
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
    problems.push(`deal ${state.deal}: the tricks counted in the history (${counts.join("-")}) do not fit the log`);
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
      state.info.push({ label: "Widow", text: "the 25th card, face down", cards: [state.widow] });
      badge(state, state.dealer, "dealer");
      return `Deal ${deal.number}: ${seatName(match, state.dealer)} deals packets of three from `
        + `${seatName(match, (state.dealer + 1) % 4)} on, twice round; the 25th card is the widow (HP-4).`;
    },
    act(state, entry, problems) {
      const { seat, action } = entry;
      const who = seatName(match, seat);
      let text = null;
      if (action.kind === "bid" || action.kind === "pass") {
        state.notes[seat] = action.kind === "pass" ? "passed" : `bid ${contractName(action.value)}`;
        text = action.kind === "pass" ? `${who} passes.` : `${who} bids ${contractName(action.value)}.`;
        if (lastCall.get(state.deal) === entry.seq) text += ` ${auctionEnd(state, deals.get(state.deal), match, problems)}`;
        return text;
      }
      if (action.kind === "trump") {
        state.info.push({ label: "Trump", text: `${SUIT_SYMBOLS[action.suit] || ""} ${suitWord(action.suit)}`, cards: [] });
        return `${who} names ${suitWord(action.suit)} trump.`;
      }
      if (action.kind === "discard") {
        take(state, seat, [action.card], problems, `seat ${seat + 1} discards`);
        state.notes[seat] = "discarded";
        state.marks[seat] = `Discarded face down: ${cardShort(action.card)}`;
        return `${who} lays ${cardShort(action.card)} away face down (HP-7).`;
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
  state.info = state.info.filter((item) => item.label !== "Widow");
  if (detail.thrown_in) {
    state.info.push({ label: "Widow", text: "the Joker: the deal is thrown in (HP-6)", cards: [state.widow] });
    state.hands = state.hands.map(() => []);
    return "Everybody passed and the Joker is the widow: the cards are thrown in (HP-6).";
  }
  if (!Number.isInteger(detail.bidder)) {
    problems.push(`deal ${state.deal}: the history does not name the bidder`);
    return "";
  }
  state.hands[detail.bidder].push(state.widow);
  badge(state, detail.bidder, "bidder");
  state.info.push({ label: "Widow", text: `taken by ${seatName(match, detail.bidder)}`, cards: [state.widow] });
  state.info.push({ label: "Contract", text: `${contractName(detail.contract)} by ${seatName(match, detail.bidder)}${detail.forced ? " (forced: the Joker's holder, HP-6)" : ""}`, cards: [] });
  return detail.forced
    ? `Everybody passed: ${seatName(match, detail.bidder)} holds the Joker, must play ${contractName(detail.contract)} and takes the widow ${cardShort(state.widow)} (HP-6).`
    : `${seatName(match, detail.bidder)} wins the auction at ${contractName(detail.contract)} and takes the widow ${cardShort(state.widow)} (HP-7).`;
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
  if (!makeRules) throw new Error(`no replay for the game ${match.game}`);
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
  const steps = [{ seq: null, seat: null, text: "Before the first deal.", dealStart: null, ...snapshot(state) }];
  for (const entry of actions) {
    const { action } = entry;
    let text;
    let dealStart = null;
    if (entry.seat === null && action.kind === "deal") {
      const deal = deals.get(action.deal);
      if (!deal || !deal.deck) {
        problems.push(`deal ${action.deal}: no deck in the history (still being played?)`);
        break;
      }
      Object.assign(state, freshState(seats), { deal: deal.number });
      text = rules.deal(state, deal);
      dealStart = deal.number;
    } else {
      text = rules.act(state, entry, problems) || `${entry.seat === null ? "The server" : seatName(match, entry.seat)}: ${action.kind}.`;
      if (lastOfDeal.get(state.deal) === entry.seq) {
        const deal = deals.get(state.deal);
        rules.dealEnd(state, deal, problems);
        if (deal && deal.points) {
          state.dealEnd = { number: deal.number, points: deal.points, detail: deal.detail };
          text += ` Deal ${deal.number} is over.`;
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

function pointsText(match, deal) {
  if (!deal.points) return "not scored";
  if (match.game === "hasenpfeffer") return deal.points.map((p, team) => `${teamName(match, team)} ${p}`).join(", ");
  return deal.points.map((p, seat) => `${seatName(match, seat)} ${p > 0 && match.game === "azi" ? "+" : ""}${p}`).join(", ");
}

function dealEndPanel(match, end) {
  const sides = match.game === "hasenpfeffer" ? [0, 1] : end.points.map((_, i) => i);
  const unit = match.game === "azi" ? "chips won or lost" : "points";
  const detail = end.detail || {};
  let summary = "";
  if (match.game === "hazari" && detail.rounds_won) {
    summary = `Rounds won: ${detail.rounds_won.map((n, seat) => `${seatName(match, seat)} ${n}`).join(", ")}.`;
  } else if (match.game === "azi") {
    summary = detail.reason === "azi" ? `Azi: three single tricks; the pot of ${detail.pot} is carried over.`
      : `${seatName(match, detail.winner)} wins the pot of ${detail.pot} ${detail.reason === "folds" ? "(the others folded)" : "(two tricks)"}.`;
  } else if (match.game === "hasenpfeffer") {
    summary = detail.thrown_in ? "Thrown in: no score."
      : `${seatName(match, detail.bidder)} bid ${contractName(detail.contract)}; tricks ${detail.tricks.join("-")}: ${detail.made ? "made" : "set"}.`;
  }
  return h("section", { class: "deal-result replay-deal-end", id: "replay-deal-end", "aria-label": `Deal ${end.number} result` },
    h("p", {}, `Deal ${end.number} is over \u2014 ${unit}: `,
      sides.map((side, i) => h("span", { class: "deal-points", dataset: { side: String(side) } },
        `${i ? ", " : ""}${match.game === "hasenpfeffer" ? teamName(match, side) : seatName(match, side)} ${end.points[side]}`))),
    summary ? h("p", { class: "muted" }, summary) : null);
}

function handView(match, step, seat) {
  const cards = step.hands[seat];
  const groups = step.groups[seat];
  const name = seatName(match, seat);
  const entry = match.seats.find((s) => s.seat === seat) || {};
  const acting = step.seat === seat;
  const label = cards === null ? "sits out" : `${cards.length} card${cards.length === 1 ? "" : "s"}`;
  let body;
  if (cards === null) {
    body = h("p", { class: "muted" }, "Not in this deal.");
  } else if (groups && match.game === "hazari") {
    body = h("ol", { class: "replay-groups" }, groups.map((group, i) => {
      const held = group.filter((card) => cards.includes(card));
      if (!held.length) return null;
      return h("li", {}, h("span", { class: "muted" }, `G${i + 1} ${combinationName(group)} `),
        h("span", { class: "card-row" }, held.map((card) => cardImage(card, { small: true }))));
    }));
  } else {
    body = h("div", { class: "card-row" }, cards.length ? sortCards(cards).map((card) => cardImage(card, { small: true }))
      : h("span", { class: "muted" }, "no cards"));
  }
  return h("section", { class: `replay-hand${acting ? " acting" : ""}`, dataset: { seat: String(seat) },
    "aria-label": `${name}, seat ${seat + 1}: ${label}` },
  h("h3", {}, h("span", { class: "seat-no" }, String(seat + 1)), " ",
    entry.player_id ? h("a", { href: `#/player/${encodeURIComponent(entry.player_id)}` }, name) : name,
    entry.bot ? " (bot)" : "",
    match.game === "hasenpfeffer" ? h("span", { class: `badge team-${seat % 2}` }, seat % 2 ? "B" : "A") : null,
    step.badges[seat].map((text) => h("span", { class: "badge" }, text))),
  h("p", { class: "replay-note" }, step.notes[seat] || "\u00a0"),
  body,
  step.marks[seat] ? h("p", { class: "replay-mark" }, step.marks[seat]) : null);
}

function tableView(match, step) {
  const parts = [];
  for (const item of step.info) {
    parts.push(h("p", { class: "replay-info" }, h("strong", {}, `${item.label}: `),
      item.cards.map((card) => cardImage(card, { small: true })), item.cards.length ? " " : "", item.text));
  }
  if (step.table) {
    parts.push(h("h3", {}, step.table.title, step.table.taker ? ` \u2014 taken by ${step.table.taker}` : ""));
    parts.push(h("ul", { class: "trick replay-trick", id: "replay-table" }, step.table.plays.map((play) => h("li",
      { class: play.winner ? "winner" : "", dataset: { seat: String(play.seat) } },
      h("span", { class: "who" }, `${seatName(match, play.seat)}${play.winner ? " \u2714" : ""}`),
      h("span", { class: "card-row" }, play.cards.map((card) => cardImage(card, { small: true }))),
      play.label ? h("span", { class: "combo" }, play.label) : null))));
  } else {
    parts.push(h("p", { class: "muted", id: "replay-table" }, "No cards on the table."));
  }
  if (step.tricks.length && match.game !== "hazari") {
    const taken = step.tricks.map((trick) => `${trick.number}: ${trick.team !== null && trick.team !== undefined
      ? teamName(match, trick.team) : seatName(match, trick.seat)}`);
    parts.push(h("p", { class: "muted" }, `Tricks taken \u2014 ${taken.join("; ")}`));
  }
  return h("section", { class: "replay-centre", "aria-label": "The table" }, parts);
}

function verifyResult(match, deal) {
  const result = h("span", { class: "verify-result", role: "status", dataset: { deal: String(deal.number) } });
  const check = async () => {
    const fairness = deal.fairness;
    result.className = "verify-result";
    if (!deal.deck) {
      result.textContent = "This deal's deck is not public yet.";
      return;
    }
    if (!fairness || (!fairness.server_seed && !fairness.commitment)) {
      result.textContent = "Dealt from a fixed test deck (test mode): there are no seeds to check.";
      return;
    }
    if (!fairness.server_seed) {
      result.textContent = "The server seed is not revealed yet.";
      return;
    }
    if (!canVerify()) {
      result.textContent = "This browser can check deals only on a secure (HTTPS or local) page.";
      return;
    }
    result.textContent = "Checking\u2026";
    const problems = await verifyDeal({
      game: match.game, deck: deal.deck, deal: deal.number, serverSeed: fairness.server_seed,
      commitment: fairness.commitment, clientSeeds: fairness.client_seeds, seats: match.seats.length,
    });
    result.textContent = problems.length ? `\u2716 ${problems.join("; ")}`
      : "\u2714 This deal checks out: the server seed matches its commitment and the seeds give this deck.";
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
  return h("section", { class: "replay-chat", id: "replay-chat", "aria-label": "Chat" },
    h("h3", {}, "Chat"),
    lines.length ? h("ol", { class: "chat-log" }, lines.slice(-12).map((line) => {
      const reaction = line.reaction ? REACTIONS[line.reaction] : null;
      const said = line.reaction ? (reaction ? `${reaction.face} ${reaction.label}` : line.reaction) : line.text;
      return h("li", { class: `chat-line${line.after_seq === reached ? " now" : ""}` },
        h("strong", { class: "chat-name" }, line.from.name), " ", h("span", { class: "chat-text" }, said));
    })) : h("p", { class: "muted" }, "Nothing said yet."));
}

function dealList(match, steps, go) {
  const firstStep = new Map();
  steps.forEach((step, index) => { if (step.dealStart !== null && !firstStep.has(step.dealStart)) firstStep.set(step.dealStart, index); });
  return h("ol", { class: "replay-deals", id: "replay-deals" }, match.deals.map((deal) => {
    const { result, check } = verifyResult(match, deal);
    const at = firstStep.get(deal.number);
    return h("li", { dataset: { deal: String(deal.number) } },
      h("button", { type: "button", class: "small-button replay-go", disabled: at === undefined,
        onclick: () => go(at) }, `Deal ${deal.number}`),
      h("span", { class: "muted" }, ` ${pointsText(match, deal)} `),
      h("button", { type: "button", class: "small-button", onclick: check }, "Verify this deal"), " ", result);
  }));
}

export function showReplay(main, matchId, startStep = null) {
  const box = h("section", { class: "replay", id: "replay" }, h("p", {}, "Loading\u2026"));
  main.append(h("p", {}, h("a", { href: `#/match/${encodeURIComponent(matchId)}` }, "\u2190 The match in the history")), box);
  let onKey = null;
  let gone = false;
  getMatch(matchId).then((match) => {
    if (gone) return;
    clear(box);
    if (match.archived) {
      put(box, h("h1", {}, "Replay"), h("p", { id: "replay-archived" }, ARCHIVED_TEXT));
      return;
    }
    if (match.status !== "finished") {
      box.append(h("h1", {}, "Replay"), h("p", {}, "This match is still being played; its replay opens once it is over. ",
        match.room_id ? h("a", { href: `#/room/${encodeURIComponent(match.room_id)}` }, "Watch it at the table") : ""));
      return;
    }
    const { steps, problems } = rebuild(match);
    let index = Math.min(Math.max(Number.parseInt(startStep, 10) || 0, 0), steps.length - 1);
    const title = GAME_TITLES[match.game] || match.game;
    const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: steps.length - 1, value: index,
      "aria-label": "Step", "aria-valuetext": "" });
    const counter = h("span", { id: "replay-counter", class: "replay-counter" });
    const text = h("p", { id: "replay-step-text", class: "replay-step-text", "aria-live": "polite" });
    const board = h("div", { class: "replay-board", id: "replay-board" });
    const buttons = {
      first: h("button", { type: "button", id: "replay-first", "aria-label": "First step", onclick: () => go(0) }, "\u00ab First"),
      previous: h("button", { type: "button", id: "replay-previous", "aria-label": "Previous step", onclick: () => go(index - 1) }, "\u25c0 Previous"),
      next: h("button", { type: "button", id: "replay-next", class: "primary", "aria-label": "Next step", onclick: () => go(index + 1) }, "Next \u25b6"),
      last: h("button", { type: "button", id: "replay-last", "aria-label": "Last step", onclick: () => go(steps.length - 1) }, "Last \u00bb"),
    };
    const draw = () => {
      const step = steps[index];
      box.dataset.step = String(index);
      slider.value = String(index);
      const where = step.deal ? ` \u00b7 deal ${step.deal}` : "";
      counter.textContent = `Step ${index} of ${steps.length - 1}${where}`;
      slider.setAttribute("aria-valuetext", `Step ${index} of ${steps.length - 1}${where}`);
      text.textContent = step.text;
      buttons.first.disabled = buttons.previous.disabled = index === 0;
      buttons.next.disabled = buttons.last.disabled = index === steps.length - 1;
      clear(board);
      put(board,
        h("div", { class: `replay-seats seats-${match.seats.length}` }, match.seats.map((seat) => handView(match, step, seat.seat))),
        tableView(match, step),
        step.dealEnd ? dealEndPanel(match, step.dealEnd) : null,
        chatView(match, step),
        step.finished && match.result ? h("p", { class: "finished-banner", id: "replay-finished" }, "Match over. ",
          match.result.winners.length ? `Won by ${match.result.winners.map((w) => (match.game === "hasenpfeffer" ? teamName(match, w) : seatName(match, w))).join(" and ")}.` : "No winner.") : null);
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
      h("h1", {}, `Replay: ${title} match`),
      h("p", { class: "muted" }, "Every hand face up, one logged step at a time. Keys: \u2190 and \u2192 step, Home and End jump to the ends."),
      problems.length ? h("div", { class: "message error", role: "alert", id: "replay-problems" },
        h("span", {}, "The hands could not be rebuilt exactly from the history: ", problems.join("; "))) : null,
      h("h2", {}, "Deals"),
      scrollBox(dealList(match, steps, (at) => go(at)), "Deals"),
      h("div", { class: "replay-controls", role: "group", "aria-label": "Replay controls" },
        buttons.first, buttons.previous, buttons.next, buttons.last,
        h("label", { class: "replay-slider" }, h("span", { class: "sr-only" }, "Step"), slider), counter),
      text,
      board);
    draw();
  }).catch((error) => {
    clear(box);
    box.appendChild(h("p", {}, `This match could not be loaded: ${error.message}`));
    showMessage(error.message, { code: error.code });
  });
  return () => {
    gone = true;
    if (onKey) document.removeEventListener("keydown", onKey);
  };
}
