// The replay viewer (#/replay/<match id>[/<step>]): a finished match step by step with every hand
// face up. The match (GET /api/matches/{id}) gives the log, the deals and the chat; the views after
// each step come from the server, deal by deal (GET /api/matches/{id}/replay?deal=n), computed by
// the game's engine. The page only puts them into words: who holds what, the table, who took a
// trick or a round, and what each player did.

import { GAME_TITLES, getMatch, getReplay } from "./api.js";
import { cardImage, cardShort, SUIT_NAMES, SUIT_SYMBOLS } from "./cards.js";
import { clear, h, put, scrollBox, seatWord, showMessage } from "./dom.js";
import { canVerify, verifyDeal } from "./fairness.js";
import { bidName } from "./hasenpfeffer.js";
import { CATEGORY_NAMES } from "./hazari.js";
import { formatList, formatNumber, listNodes, t, withNodes } from "./i18n.js";
import { ARCHIVED_TEXT, REACTIONS, seatName as occupantName } from "./words.js";

const SUIT_SORT = { S: 0, H: 1, C: 2, D: 3 };
const RANK_SORT = { A: 14, K: 13, Q: 12, J: 11, 10: 10, 9: 9, 8: 8, 7: 7, 6: 6, 5: 5, 4: 4, 3: 3, 2: 2 };

/** Cards in a steady order for reading: Joker, then spades, hearts, clubs, diamonds, high to low. */
export function sortCards(cards) {
  const weight = (code) => (code === "JK" ? -1 : SUIT_SORT[code.slice(-1)] * 20 + (14 - RANK_SORT[code.slice(0, -1)]));
  return [...cards].sort((a, b) => weight(a) - weight(b));
}

function seatName(match, seat) {
  const entry = match.seats.find((s) => s.seat === seat);
  return entry ? occupantName(entry) : seatWord(seat);
}

/** The seats of each team, as the match's result names them (Hasenpfeffer). */
function teamsOf(match) {
  return (match.result && match.result.teams) || [];
}

function teamName(match, team) {
  const [first, second] = (teamsOf(match)[team] || []).map((seat) => seatName(match, seat));
  const words = { first, second };
  return team === 0 ? t("replay.teamA", words) : t("replay.teamB", words);
}

/** A side of the scores: a team where the match is played in teams, else a seat. */
function sideName(match, side) {
  return teamsOf(match).length ? teamName(match, side) : seatName(match, side);
}

function suitWord(suit) {
  return SUIT_NAMES[suit] || suit;
}

const BADGES = {
  dealer: t("replay.badgeDealer"), up: t("replay.badgeUp"), out: t("replay.badgeOut"), button: t("replay.badgeButton"),
  folded: t("replay.badgeFolded"), left: t("replay.badgeLeft"), bidder: t("replay.badgeBidder"),
};

// --- the server's views, put into words ---------------------------------------------------------

/** What a seat's own view adds in the face-up view (its hand, its arrangement). */
const own = (view, seat) => (view.seats && view.seats[seat]) || {};
const find = (events, type) => events.find((event) => event.type === type);

/** Each seat's cards, or null for a seat outside the deal (before the first deal, sitting out). */
function handsOf(view, seats, dealt) {
  const playing = Array.isArray(view.participants) && view.participants.length ? view.participants : null;
  return [...Array(seats).keys()].map((seat) => (!dealt || (playing && !playing.includes(seat)) ? null
    : [...(own(view, seat).hand || [])]));
}

function badgesOf(match, view, hands, dealer) {
  return hands.map((hand, seat) => {
    const kinds = [];
    if (match.game === "azi") {
      if (hand === null && (view.participants || []).length) kinds.push("out");
      if (view.button === seat && hand !== null) kinds.push("button");
      if ((view.folded || []).includes(seat)) kinds.push("folded");
      if ((view.left || []).includes(seat)) kinds.push("left");
    } else {
      if (dealer === seat) kinds.push("dealer");
      if (match.game === "hazari" && view.up && view.up[seat]) kinds.push("up");
      if (match.game === "hasenpfeffer" && view.bidder === seat) kinds.push("bidder");
    }
    return kinds.map((kind) => BADGES[kind]);
  });
}

/** The table after a step: the round or trick in play, else the last one completed with its taker. */
function tableOf(match, view) {
  if (match.game === "hazari") {
    const round = (view.rounds || []).at(-1);
    if (!round) return null;
    return { title: t("replay.round", { round: round.number }), plays: round.plays.map((play) => ({
      seat: play.seat, cards: play.cards, label: CATEGORY_NAMES[play.key[0]] || play.combination, winner: play.seat === round.winner })) };
  }
  const done = completedTricks(match, view);
  if (view.trick && view.trick.length) {
    return { title: t("replay.trick", { trick: done.length + 1 }),
      plays: view.trick.map((play) => ({ seat: play.seat, cards: [play.card], label: "" })) };
  }
  if (!done.length || !view.last_trick || !view.last_trick.length) return null;
  const winner = view.last_trick_winner;
  return { title: t("replay.trick", { trick: done.length }), taker: seatName(match, winner),
    plays: view.last_trick.map((play) => ({ seat: play.seat, cards: [play.card], label: "", winner: play.seat === winner })) };
}

function completedTricks(match, view) {
  const tricks = match.game === "azi" ? view.tricks : view.completed_tricks;
  return (tricks || []).map((trick, i) => ({ number: trick.number || i + 1, seat: trick.winner }));
}

/** Notes and marks a seat's action leaves beside its hand for the rest of the deal. */
function noteOf(action) {
  switch (action.kind) {
    case "up": return t("replay.noteUp");
    case "discard": return t("replay.noteDiscarded");
    case "bet": return t("replay.noteBet", { amount: action.amount });
    case "raise": return t("replay.noteRaised", { amount: action.to });
    case "call": return t("replay.noteCalled");
    case "fold": return t("replay.noteFolded");
    case "play": return t("replay.notePlayed", { card: cardShort(action.card) });
    case "buy_in": return t("replay.noteBoughtIn");
    case "decline": return t("replay.noteDeclined");
    case "bid": return t("replay.noteBid", { contract: bidName(action.value) });
    case "pass": return t("replay.notePassed");
    default: return null;
  }
}

function dealText(match, step, deal) {
  const { view, events } = step;
  if (match.game === "hazari") {
    const round = deal.steps.flatMap((s) => s.events).find((event) => event.type === "round" && event.number === 1);
    return t("replay.hazariDeal", { deal: deal.deal, dealer: seatName(match, view.dealer),
      first: round ? seatName(match, round.leader) : "" });
  }
  if (match.game === "hasenpfeffer") {
    return t("replay.hasenpfefferDeal", { deal: deal.deal, dealer: seatName(match, view.dealer),
      first: seatName(match, view.to_act[0]) });
  }
  const dealt = find(events, "deal") || {};
  const order = [...(dealt.participants || view.participants)];
  while (order.length && order[order.length - 1] !== view.exposed_seat) order.unshift(order.pop());
  const words = { deal: deal.deal, count: view.options.hand_size, names: formatList(order.map((seat) => seatName(match, seat)), "unit") };
  return view.redeal ? t("replay.aziRedeal", words) : t("replay.aziDeal", words);
}

function dealInfo(match, view) {
  if (match.game === "azi" && view.exposed_card) {
    const exposed = view.exposed_card;
    const words = { suit: suitWord(exposed.slice(-1)), name: seatName(match, view.exposed_seat) };
    return [{ kind: "trump", text: view.six_on_scene ? t("replay.aziTrumpAce", words) : t("replay.aziTrump", words), cards: [exposed] },
      { kind: "notDealt", text: t("replay.cards", { count: view.face_down.length }), cards: [] }];
  }
  if (match.game === "hasenpfeffer") return [{ kind: "widow", text: t("replay.widowDown"), cards: view.face_down.slice(0, 1) }];
  return [];
}

/** HP-5..HP-7 as the engine tells them: the deal thrown in, or the auction's winner and the widow. */
function auctionEnd(match, events, widow, info) {
  const thrown = find(events, "deal_end");
  const won = find(events, "auction_end");
  if (thrown && thrown.detail && thrown.detail.thrown_in) {
    info.splice(0, info.length, { kind: "widow", text: t("replay.widowJoker"), cards: widow });
    return t("replay.thrownIn");
  }
  if (!won) return null;
  const words = { name: seatName(match, won.bidder), contract: bidName(won.contract), card: widow.map(cardShort).join(" ") };
  info.splice(0, info.length, { kind: "widow", text: t("replay.widowTaken", words), cards: widow },
    { kind: "contract", text: won.forced ? t("replay.contractForced", words) : t("replay.contract", words), cards: [] });
  return won.forced ? t("replay.auctionForced", words) : t("replay.auctionWon", words);
}

function actionText(match, step, view, widow, info) {
  const { seat, action, events } = step;
  const who = seat === null ? "" : seatName(match, seat);
  const card = action.card ? cardShort(action.card) : "";
  switch (action.kind) {
    case "up": {
      const categories = own(view, seat).arrangement_categories || [];
      const named = categories.map((category, i) => t("replay.group", { number: i + 1, combination: CATEGORY_NAMES[category] }));
      return t("replay.callsUp", { name: who, groups: formatList(named, "unit") });
    }
    case "auto": {
      const round = find(events, "round");
      if (round) {
        const best = round.plays.find((play) => play.seat === round.winner);
        return t("replay.roundTaken", { round: round.number, leader: seatName(match, round.leader),
          name: seatName(match, round.winner), combination: CATEGORY_NAMES[best.key[0]] || best.combination });
      }
      return match.game === "azi" ? t("replay.nextGame", { name: seatName(match, view.button) }) : null;
    }
    case "discard": return match.game === "azi" ? t("replay.aziDiscards", { name: who, card })
      : t("replay.hasenpfefferDiscards", { name: who, card });
    case "bet": return t("replay.bets", { name: who, amount: action.amount });
    case "raise": return t("replay.raises", { name: who, amount: action.to });
    case "call": return t("replay.calls", { name: who });
    case "fold": return t("replay.folds", { name: who });
    case "buy_in": return t("replay.buysIn", { name: who });
    case "decline": return t("replay.declines", { name: who });
    case "leave": return t("replay.leaves", { name: who });
    case "close": return t("replay.closes");
    case "trump": {
      info.push({ kind: "trump", text: `${SUIT_SYMBOLS[action.suit] || ""} ${suitWord(action.suit)}`, cards: [] });
      return t("replay.namesTrump", { name: who, suit: suitWord(action.suit) });
    }
    case "play": {
      const taken = completedTricks(match, view).length;
      const leads = view.trick && view.trick.length === 1 && taken > 0;
      const words = { name: who, card, trick: taken };
      return leads ? t("replay.playsAndLeads", words) : t("replay.plays", words);
    }
    case "bid":
    case "pass": {
      const text = action.kind === "pass" ? t("replay.passes", { name: who }) : t("replay.bids", { name: who, contract: bidName(action.value) });
      const end = auctionEnd(match, events, widow, info);
      return end ? t("replay.twoSentences", { first: text, second: end }) : text;
    }
    default:
      return null;
  }
}

/**
 * One deal as the page shows it, step after step, from the server's views (``deal`` is the answer
 * of GET /api/matches/{id}/replay): each hand, the table, the notes beside the hands and the step
 * in words.
 */
export function dealSteps(match, deal) {
  const seats = match.seats.length;
  let notes = Array(seats).fill("");
  let marks = Array(seats).fill("");
  let info = [];
  let widow = [];
  let dealEnd = null;
  let dealer = null;
  let cleared = false;
  return deal.steps.map((step) => {
    const { view, seat, action, events } = step;
    let text;
    if (seat === null && action.kind === "deal") {
      notes = Array(seats).fill("");
      marks = Array(seats).fill("");
      info = dealInfo(match, view);
      widow = match.game === "hasenpfeffer" ? view.face_down.slice(0, 1) : [];
      dealEnd = null;
      dealer = view.dealer;
      cleared = false;
      text = dealText(match, step, deal);
    } else {
      text = actionText(match, step, view, widow, info) || (seat === null ? t("replay.serverAction", { action: action.kind })
        : t("replay.seatAction", { name: seatName(match, seat), action: action.kind }));
      if (seat !== null && noteOf(action)) notes[seat] = noteOf(action);
      if (seat !== null && action.kind === "discard") marks[seat] = t("replay.markDiscarded", { card: cardShort(action.card) });
      const ended = find(events, "deal_end");
      if (ended) {
        dealEnd = { number: ended.number, points: ended.points, detail: ended.detail };
        text = t("replay.stepAndDealOver", { text, deal: ended.number });
      }
      if (match.game === "azi" && action.kind === "auto") {
        cleared = true;
        notes = Array(seats).fill("");
        marks = Array(seats).fill("");
      }
    }
    const hands = handsOf(view, seats, !cleared);
    return {
      number: step.number, seq: step.seq, seat, text, deal: deal.deal, hands,
      groups: hands.map((_, s) => (own(view, s).arrangement ? own(view, s).arrangement.map((group, i) => ({
        cards: group, combination: CATEGORY_NAMES[own(view, s).arrangement_categories[i]] })) : null)),
      notes: [...notes], marks: [...marks], badges: cleared ? hands.map(() => []) : badgesOf(match, view, hands, dealer),
      table: cleared ? null : tableOf(match, view),
      tricks: cleared || match.game === "hazari" ? [] : completedTricks(match, view),
      info: cleared ? [] : info.map((item) => ({ ...item })),
      dealEnd: cleared ? null : dealEnd,
    };
  });
}

/** Step 0: the seats before the first deal. */
function beforeFirstDeal(match) {
  const seats = match.seats.length;
  return { number: 0, seq: null, seat: null, text: t("replay.beforeFirstDeal"), deal: null, hands: Array(seats).fill(null),
    groups: Array(seats).fill(null), notes: Array(seats).fill(""), marks: Array(seats).fill(""),
    badges: Array(seats).fill(null).map(() => []), table: null, tricks: [], info: [], dealEnd: null };
}

/** The steps of a finished match as the page shows them, fetched deal by deal when first wanted. */
export function replaySteps(match) {
  const loaded = new Map();
  const dealOf = (index) => (index === 0 ? null : match.actions[index - 1].deal);
  const load = (number) => {
    if (!loaded.has(number)) {
      loaded.set(number, getReplay(match.id, number).then((deal) => dealSteps(match, deal)).catch((error) => {
        loaded.delete(number);
        throw error;
      }));
    }
    return loaded.get(number);
  };
  return {
    count: match.actions.length + 1,
    dealOf,
    async at(index) {
      if (index === 0) return beforeFirstDeal(match);
      const steps = await load(dealOf(index));
      const step = steps.find((s) => s.number === index);
      return { ...step, finished: match.status === "finished" && index === match.actions.length && index > 0 };
    },
  };
}

/** Every step of ``match`` as the page shows it (tests compare it with the engine). */
export async function rebuild(match) {
  const steps = replaySteps(match);
  const all = [];
  for (let index = 0; index < steps.count; index += 1) all.push(await steps.at(index));
  return { steps: all };
}

// --- drawing ------------------------------------------------------------------------------------

/** "Asha 12" for a side of the deal; Azi's winnings signed ("Asha +40"). */
function sideScore(match, side, points) {
  const name = sideName(match, side);
  return points > 0 && match.game === "azi" ? t("replay.sideGain", { name, points }) : t("replay.sideScore", { name, points });
}

function pointsText(match, deal) {
  if (!deal.points) return t("replay.notScored");
  return formatList(deal.points.map((points, side) => sideScore(match, side, points)), "unit");
}

function dealEndPanel(match, end) {
  const sides = end.points.map((_, i) => i);
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
    t("replay.sideScore", { name: sideName(match, side), points: end.points[side] }))));
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
  const team = teamsOf(match).findIndex((members) => members.includes(seat));
  const label = cards === null ? t("replay.handOut", { name, seat: seat + 1 })
    : t("replay.handCards", { name, seat: seat + 1, count: cards.length });
  let body;
  if (cards === null) {
    body = h("p", { class: "muted" }, t("replay.notInDeal"));
  } else if (groups && match.game === "hazari") {
    body = h("ol", { class: "replay-groups" }, groups.map((group, i) => {
      const held = group.cards.filter((card) => cards.includes(card));
      if (!held.length) return null;
      return h("li", {}, h("span", { class: "muted" }, t("replay.group", { number: i + 1, combination: group.combination })), " ",
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
    team >= 0 ? h("span", { class: `badge team-${team}` }, team ? t("replay.teamLetterB") : t("replay.teamLetterA")) : null,
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
      name: seatName(match, trick.seat) }));
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

function dealList(match, go) {
  const firstStep = new Map();
  match.actions.forEach((entry, index) => { if (!firstStep.has(entry.deal)) firstStep.set(entry.deal, index + 1); });
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
  const winners = match.result.winners.map((w) => sideName(match, w));
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
    const steps = replaySteps(match);
    const last = steps.count - 1;
    let index = Math.min(Math.max(Number.parseInt(startStep, 10) || 0, 0), last);
    const title = GAME_TITLES[match.game] || match.game;
    const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: last, value: index,
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
        onclick: () => go(last) }, t("replay.last")),
    };
    const draw = (step) => {
      box.dataset.step = String(index);
      slider.value = String(index);
      const words = { step: index, count: last, deal: step.deal };
      const where = step.deal ? t("replay.stepOfInDeal", words) : t("replay.stepOf", words);
      counter.textContent = where;
      slider.setAttribute("aria-valuetext", where);
      text.textContent = step.text;
      buttons.first.disabled = buttons.previous.disabled = index === 0;
      buttons.next.disabled = buttons.last.disabled = index === last;
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
    const show = () => {
      const wanted = index;
      steps.at(wanted).then((step) => {
        if (!gone && wanted === index) draw(step);
      }).catch((error) => showMessage(error.message, { code: error.code }));
    };
    const go = (target) => {
      const next = Math.min(Math.max(target, 0), last);
      if (next === index) return;
      index = next;
      show();
    };
    slider.addEventListener("input", () => go(Number(slider.value)));
    onKey = (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target && (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || (target.classList && target.classList.contains("scroll-x")))) return;
      const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: last };
      if (!(event.key in moves)) return;
      event.preventDefault();
      go(moves[event.key]);
    };
    document.addEventListener("keydown", onKey);
    put(box,
      h("h1", {}, t("replay.heading", { game: title })),
      h("p", { class: "muted" }, t("replay.about")),
      h("h2", {}, t("replay.deals")),
      scrollBox(dealList(match, (at) => go(at)), t("replay.deals")),
      h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
        buttons.first, buttons.previous, buttons.next, buttons.last,
        h("label", { class: "replay-slider" }, h("span", { class: "sr-only" }, t("replay.step")), slider), counter),
      text,
      board);
    show();
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
