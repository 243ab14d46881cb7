// Hasenpfeffer at the table: partners opposite, the bidding box (standard 1-6, or 1-5 with Little
// and Big Pepper), trump and discard for the bidder who took the widow, trick play with only the
// legal cards pressable, tricks per team, and the deal and game scores. The words are the catalog's
// (area "hasenpfeffer"), each sentence whole (a deal's line in the scores: made or set, forced or not).

import {
  CARD_HINTS, SUIT_NAMES, SUIT_SYMBOLS, YOUR_HAND, cardBacks, cardButton, cardImage, cardShort, collectedTrick, dealtIn,
  enableArrowKeys, listText, marks, signedNumber, trickRow, trickText, withNodes,
} from "./cards.js";
import { announce, h, scrollBox } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { seatsAround } from "./motion.js";

const TEAM_NAMES = [t("hasenpfeffer.teamA"), t("hasenpfeffer.teamB")];
const BIDS = { standard: [1, 2, 3, 4, 5, 6], pepper: [1, 2, 3, 4, 5, "little_pepper", "big_pepper"] };
const SAME_COLOUR = { S: "C", C: "S", H: "D", D: "H" };
const DIRECTION = "cw";
// A deal's line in the scores: [made, set], without and with the forced bid of HP-6.
const DEAL_LINES = {
  bid: [(p) => t("hasenpfeffer.dealMade", p), (p) => t("hasenpfeffer.dealSet", p)],
  forced: [(p) => t("hasenpfeffer.dealForcedMade", p), (p) => t("hasenpfeffer.dealForcedSet", p)],
};

export function bidName(value) {
  if (value === "little_pepper") return t("hasenpfeffer.littlePepper");
  if (value === "big_pepper") return t("hasenpfeffer.bigPepper");
  return typeof value === "number" ? formatNumber(value) : String(value);
}

/** "Bot 2 bid 1", "You passed", "Ana bid Little Pepper". */
export function callText(name, call) {
  return call === "pass" ? t("hasenpfeffer.passed", { name }) : t("hasenpfeffer.bidCall", { name, bid: bidName(call) });
}

/** The auction as bids in order: "Bot 2 bid 1, Bot 3 passed, You bid 2". */
function auctionList(ctx, auction, id = null) {
  return h("ol", { class: "auction", id, "aria-label": t("hasenpfeffer.bidsSoFar") },
    auction.map((call) => h("li", {}, callText(ctx.name(call.seat), call.call))));
}

function teamOf(seat) {
  return seat % 2;
}

function teamText(ctx, team) {
  const [first, second] = ctx.view.teams[team].map((seat) => ctx.name(seat));
  return t("hasenpfeffer.teamWithPartners", { team: TEAM_NAMES[team], first, second });
}

function legalOf(ctx, kind) {
  return ctx.legal.filter((entry) => entry.kind === kind);
}

function biddingBox(ctx) {
  const view = ctx.view;
  const legalBids = new Set(legalOf(ctx, "bid").map((entry) => JSON.stringify(entry.value)));
  const canPass = legalOf(ctx, "pass").length > 0;
  const high = view.high_bid === null ? t("hasenpfeffer.noBidYet")
    : ctx.bySeat(view.high_bidder, (name) => t("hasenpfeffer.highBid", { bid: bidName(view.high_bid), name }),
      () => t("hasenpfeffer.highBidYou", { bid: bidName(view.high_bid) }));
  const passed = view.passed.length
    ? t("hasenpfeffer.passedList", { names: listText(view.passed.map((seat) => ctx.name(seat))), count: view.passed.length })
    : t("hasenpfeffer.nobodyPassed");
  const title = {
    high: h("span", { class: "high-bid", id: "hp-high-bid" }, high),
    passed: h("span", { class: "muted", id: "hp-passed" }, passed),
  };
  const parts = [
    h("h2", { id: "hp-bidding-title", class: "dock-title" }, withNodes(t("hasenpfeffer.biddingTitle", marks(title)), title)),
  ];
  if (view.auction.length) {
    parts.push(auctionList(ctx, view.auction, "hp-auction"));
  }
  if (legalBids.size || canPass) {
    parts.push(h("p", { class: "muted bid-help", id: "hp-bid-help" },
      t("hasenpfeffer.bidHelp")));
    const form = view.options.bidding === "pepper" ? "pepper" : "standard";
    parts.push(h("div", { class: "bid-buttons", role: "group", "aria-label": t("hasenpfeffer.yourCall") },
      BIDS[form].map((value) => {
        const allowed = legalBids.has(JSON.stringify(value));
        return h("button", {
          type: "button", class: "bid", dataset: { bid: String(value), focus: `hp-bid-${value}` },
          "aria-disabled": allowed ? null : "true",
          "aria-label": allowed ? t("hasenpfeffer.bidButton", { bid: bidName(value) })
            : t("hasenpfeffer.bidNotAllowed", { bid: bidName(value) }),
          onclick: () => { if (allowed) ctx.act({ kind: "bid", value }, `bid of ${bidName(value)}`); },
        }, bidName(value));
      }),
      h("button", { type: "button", class: "bid pass", dataset: { bid: "pass", focus: "hp-pass" },
        "aria-disabled": canPass ? null : "true",
        onclick: () => { if (canPass) ctx.act({ kind: "pass" }, "pass"); } }, t("hasenpfeffer.pass"))));
  }
  return h("section", { class: "bidding-box", id: "hp-bidding", "aria-labelledby": "hp-bidding-title" }, parts);
}

function trumpChooser(ctx) {
  const choices = legalOf(ctx, "trump");
  if (!choices.length) return null;
  const widow = ctx.view.widow ? { card: cardImage(ctx.view.widow, { small: true }) } : null;
  return h("section", { class: "trump-chooser", "aria-labelledby": "hp-trump-title" },
    h("h2", { id: "hp-trump-title", class: "dock-title" }, t("hasenpfeffer.nameTrump")),
    widow ? h("p", {}, withNodes(t("hasenpfeffer.youTookWidow", marks(widow)), widow)) : null,
    h("div", { class: "row actions" }, choices.map((entry) => h("button", {
      type: "button", class: `suit-button ${entry.suit === "H" || entry.suit === "D" ? "red" : "black"}`,
      dataset: { suit: entry.suit, focus: `hp-trump-${entry.suit}` },
      onclick: () => ctx.act({ kind: "trump", suit: entry.suit }, `trump of ${SUIT_NAMES[entry.suit]}`),
    }, t("hasenpfeffer.suitButton", { symbol: SUIT_SYMBOLS[entry.suit], suit: SUIT_NAMES[entry.suit] })))));
}

function handBox(ctx) {
  const view = ctx.view;
  if (ctx.mySeat === null) return null;
  const ui = ctx.ui;
  const playable = new Set(legalOf(ctx, "play").map((entry) => entry.card));
  const discardable = new Set(legalOf(ctx, "discard").map((entry) => entry.card));
  if (!discardable.has(ui.discard)) ui.discard = null;
  const row = h("div", { class: "card-row hand-row" }, view.hand.map((card) => {
    const widow = view.widow === card ? " widow-card" : "";
    if (discardable.size) {
      return cardButton(card, { pressed: ui.discard === card, focusKey: `hp-card-${card}`, extraClass: widow,
        hint: ui.discard === card ? CARD_HINTS.chosenToDiscard : widow ? t("hasenpfeffer.widowCard") : CARD_HINTS.mayBeDiscarded,
        onPress: () => { ui.discard = ui.discard === card ? null : card; ctx.rerender(); } });
    }
    if (view.phase === "play" && ctx.legal.length) {
      const legal = playable.has(card);
      return cardButton(card, { disabled: !legal, focusKey: `hp-card-${card}`, extraClass: legal ? "playable" : "",
        hint: legal ? CARD_HINTS.playable : CARD_HINTS.notPlayable,
        onPress: () => ctx.act({ kind: "play", card }, `play of ${cardShort(card)}`) });
    }
    return cardButton(card, { disabled: true, focusKey: `hp-card-${card}`, extraClass: widow, hint: CARD_HINTS.inHand });
  }));
  for (const node of row.children) dealtIn(node, node.dataset.card);
  row.style.setProperty("--hand-count", String(Math.max(5, view.hand.length)));
  enableArrowKeys(row);
  const parts = [row];
  if (view.hand.length === 0) parts.push(h("p", { class: "muted" }, t("hasenpfeffer.noCards")));
  if (discardable.size) {
    parts.push(h("p", { class: "prompt" }, t("hasenpfeffer.chooseDiscardHelp")),
      h("div", { class: "row actions" }, h("button", {
        type: "button", class: "primary", id: "hp-discard", disabled: !ui.discard, dataset: { focus: "hp-discard" },
        onclick: () => ctx.act({ kind: "discard", card: ui.discard }, `discard of ${cardShort(ui.discard)}`),
      }, ui.discard ? t("hasenpfeffer.discardCard", { card: cardShort(ui.discard) }) : t("hasenpfeffer.chooseDiscard"))));
  } else if (playable.size) {
    parts.push(h("p", { class: "prompt", id: "hp-prompt" }, t("hasenpfeffer.yourTurnPlay"),
      view.trick.length ? h("span", { class: "on-table" },
        ` ${t("hasenpfeffer.onTheTable", { plays: trickText(ctx, view.trick) })}`) : null));
  }
  return h("section", { class: "hand", role: "region", "aria-label": YOUR_HAND }, parts);
}

function tricksList(ctx, tricks, caption) {
  if (!tricks.length) return null;
  return h("div", { class: "tricks-list" }, h("h3", {}, caption),
    h("ol", {}, tricks.map((trick) => h("li", { dataset: { trick: String(trick.number) } },
      trickLine(ctx, trick)))));
}

/** "Trick 1: [the cards] won by Bot 2 (Team B)". */
function trickLine(ctx, trick) {
  const nodes = { cards: h("span", { class: "card-row" }, trick.plays.map((play) => cardImage(play.card, { small: true }))) };
  const params = { number: trick.number, team: TEAM_NAMES[teamOf(trick.winner)], ...marks(nodes) };
  return withNodes(ctx.bySeat(trick.winner, (name) => t("hasenpfeffer.trickLine", { ...params, name }),
    () => t("hasenpfeffer.trickLineYou", params)), nodes);
}

function dealText(ctx, deal) {
  const detail = deal.detail || {};
  if (detail.thrown_in) return t("hasenpfeffer.thrownIn");
  if (detail.contract === undefined || detail.contract === null) return "";
  const [made, set] = DEAL_LINES[detail.forced ? "forced" : "bid"];
  return (detail.made ? made : set)({ name: ctx.name(detail.bidder), bid: bidName(detail.contract),
    suit: SUIT_NAMES[detail.trump] || "?", tricks: detail.tricks.map(formatNumber).join("-") });
}

function scoreTable(ctx) {
  const view = ctx.view;
  const deals = ctx.dealResults();
  return scrollBox(h("table", { class: "scores", id: "hp-scores" },
    h("caption", {}, t("hasenpfeffer.scoresCaption", { target: view.options.target })),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("hasenpfeffer.deal")),
      [0, 1].map((team) => h("th", { scope: "col" }, teamText(ctx, team))), h("th", { scope: "col" }, t("hasenpfeffer.contractColumn")))),
    h("tbody", {},
      deals.map((deal) => h("tr", {}, h("th", { scope: "row" }, formatNumber(deal.number)),
        deal.points.map((points) => h("td", {}, signedNumber(points))),
        h("td", {}, dealText(ctx, deal)))),
      h("tr", { class: "total" }, h("th", { scope: "row" }, t("hasenpfeffer.game")),
        view.scores.map((score) => h("td", {}, formatNumber(score))), h("td")))),
  t("hasenpfeffer.scores"));
}

function rememberDeal(ctx) {
  const view = ctx.view;
  if (view.completed_tricks.length) ctx.ui.lastTricks = { deal: view.deal_number, tricks: view.completed_tricks };
}

function panel(ctx) {
  const view = ctx.view;
  rememberDeal(ctx);
  const parts = [];
  if (view.phase !== "bidding" && view.phase !== "needs_deal" && view.auction.length) {
    parts.push(h("details", { class: "auction-summary" }, h("summary", {}, t("hasenpfeffer.theBidding")),
      auctionList(ctx, view.auction)));
  }
  parts.push(h("p", { class: "team-tricks", id: "hp-team-tricks" },
    t("hasenpfeffer.tricksThisDeal", { teamA: TEAM_NAMES[0], a: view.tricks[0], teamB: TEAM_NAMES[1], b: view.tricks[1] })));
  if (view.completed_tricks.length) {
    parts.push(tricksList(ctx, view.completed_tricks, t("hasenpfeffer.tricksOfDeal", { deal: view.deal_number })));
  } else if (ctx.ui.lastTricks) {
    parts.push(tricksList(ctx, ctx.ui.lastTricks.tricks, t("hasenpfeffer.tricksOfLastDeal", { deal: ctx.ui.lastTricks.deal })));
  }
  parts.push(scoreTable(ctx));
  return h("div", { class: "game-panel hasenpfeffer" }, parts);
}

function contractText(ctx) {
  const view = ctx.view;
  if (view.bidder === null) return null;
  const params = { bid: bidName(view.contract), name: ctx.name(view.bidder), team: TEAM_NAMES[view.bidding_team] };
  return view.forced ? t("hasenpfeffer.contractForced", params) : t("hasenpfeffer.contract", params);
}

function trumpText(trump) {
  return t("hasenpfeffer.trumpLine", { suit: SUIT_NAMES[trump], symbol: SUIT_SYMBOLS[trump],
    sameColour: SUIT_SYMBOLS[SAME_COLOUR[trump]] });
}

function phaseLine(ctx) {
  const view = ctx.view;
  const seat = view.to_act.length ? view.to_act[0] : null;
  const mine = seat !== null && seat === ctx.mySeat;
  switch (view.phase) {
    case "bidding": return mine ? t("hasenpfeffer.phaseBiddingYou", { deal: view.deal_number })
      : t("hasenpfeffer.phaseBidding", { deal: view.deal_number, name: ctx.name(seat) });
    case "trump": return mine ? t("hasenpfeffer.youNameTrump") : t("hasenpfeffer.namesTrump", { name: ctx.name(seat) });
    case "discard": return mine ? t("hasenpfeffer.youDiscard") : t("hasenpfeffer.discards", { name: ctx.name(seat) });
    case "play": return mine ? t("hasenpfeffer.phasePlayYou", { trick: view.trick_number })
      : t("hasenpfeffer.phasePlay", { trick: view.trick_number, name: ctx.name(seat) });
    case "needs_deal": return view.deal_number ? t("hasenpfeffer.dealScored", { deal: view.deal_number }) : t("hasenpfeffer.dealing");
    case "finished": {
      const winners = (view.winners || []).map((team) => TEAM_NAMES[team]);
      return t("hasenpfeffer.gameOver", { teams: listText(winners, "and"), count: winners.length });
    }
    default: return "";
  }
}

function centre(ctx) {
  const view = ctx.view;
  const towards = seatsAround(ctx, DIRECTION);
  let trick = null;
  if (view.trick.length) {
    trick = [collectedTrick(view.last_trick, view.last_trick_winner, towards),
      trickRow((seat) => ctx.name(seat), view.trick, null, towards)];
  } else if (view.last_trick.length && view.phase !== "bidding") {
    trick = h("div", {}, trickRow((seat) => ctx.name(seat), view.last_trick, view.last_trick_winner, towards),
      h("p", { class: "muted", id: "hp-trick-winner" }, ctx.bySeat(view.last_trick_winner,
        (name) => t("hasenpfeffer.trickWonBy", { name }), () => t("hasenpfeffer.trickWonByYou"))));
  }
  return h("div", { class: "centre-info" },
    h("p", { class: "phase-line" }, phaseLine(ctx)),
    view.trump ? h("p", { class: "trump-line", id: "hp-trump" }, trumpText(view.trump)) : null,
    contractText(ctx) ? h("p", { id: "hp-contract" }, contractText(ctx)) : null,
    h("p", { class: "muted" }, t("hasenpfeffer.teamTricks", { teamA: TEAM_NAMES[0], a: view.tricks[0], teamB: TEAM_NAMES[1], b: view.tricks[1] })),
    trick);
}

function seatExtras(ctx, seat) {
  const view = ctx.view;
  const team = teamOf(seat);
  const parts = [h("span", { class: `badge team team-${team}` }, TEAM_NAMES[team])];
  if (ctx.mySeat !== null && seat !== ctx.mySeat && teamOf(ctx.mySeat) === team) {
    parts.push(h("span", { class: "badge" }, t("hasenpfeffer.partner")));
  }
  if (view.dealer === seat) parts.push(h("span", { class: "badge dealer" }, t("hasenpfeffer.dealer")));
  if (view.bidder === seat) parts.push(h("span", { class: "badge ok" }, t("hasenpfeffer.bidderBadge", { bid: bidName(view.contract) })));
  const calls = view.auction.filter((call) => call.seat === seat);
  if (view.phase === "bidding" && calls.length) {
    const lastCall = calls[calls.length - 1].call;
    parts.push(h("span", { class: `call${lastCall === "pass" ? " passed" : ""}` },
      lastCall === "pass" ? t("hasenpfeffer.passedBadge") : t("hasenpfeffer.bidBadge", { bid: bidName(lastCall) })));
  }
  if (seat !== ctx.mySeat && view.hand_sizes[seat]) parts.push(cardBacks(view.hand_sizes[seat]));
  return parts;
}

function onState(ctx, before, after) {
  const was = before && before.view.completed_tricks ? before.view.completed_tricks.length : 0;
  const tricks = after.view.completed_tricks || [];
  if (tricks.length > was) {
    announce(ctx.bySeat(tricks[tricks.length - 1].winner,
      (name) => t("hasenpfeffer.trickTaken", { number: tricks.length, name }),
      () => t("hasenpfeffer.trickTakenYou", { number: tricks.length })));
  }
  if (after.view.trump && (!before || before.view.trump !== after.view.trump)) announce(trumpText(after.view.trump));
}

/** The docked part: the bidding or trump choice, and the player's hand with its prompt. */
function dock(ctx) {
  const view = ctx.view;
  return h("div", { class: "hp-dock" },
    view.phase === "bidding" || legalOf(ctx, "bid").length ? biddingBox(ctx) : null,
    trumpChooser(ctx),
    handBox(ctx));
}

export default { direction: DIRECTION, panel, dock, centre, seatExtras, onState };
