// Hasenpfeffer at the table: partners opposite, the bidding box (standard 1-6, or 1-5 with Little
// and Big Pepper), trump and discard for the bidder who took the widow, trick play with only the
// legal cards pressable, tricks per team, and the deal and game scores.

import {
  SUIT_NAMES, SUIT_SYMBOLS, cardBacks, cardButton, cardImage, cardShort, collectedTrick, dealtIn, enableArrowKeys,
  trickRow, trickText,
} from "./cards.js";
import { announce, h, scrollBox } from "./dom.js";
import { seatsAround } from "./motion.js";

const TEAM_NAMES = ["Team A", "Team B"];
const BIDS = { standard: [1, 2, 3, 4, 5, 6], pepper: [1, 2, 3, 4, 5, "little_pepper", "big_pepper"] };
const SAME_COLOUR = { S: "C", C: "S", H: "D", D: "H" };
const DIRECTION = "cw";

export function bidName(value) {
  if (value === "little_pepper") return "Little Pepper";
  if (value === "big_pepper") return "Big Pepper";
  if (value === "pass") return "pass";
  return String(value);
}

/** "Bot 2 bid 1", "You passed", "Ana bid Little Pepper". */
export function callText(name, call) {
  return call === "pass" ? `${name} passed` : `${name} bid ${bidName(call)}`;
}

/** The auction as bids in order: "Bot 2 bid 1, Bot 3 passed, You bid 2". */
function auctionList(ctx, auction, id = null) {
  return h("ol", { class: "auction", id, "aria-label": "The bids so far" },
    auction.map((call) => h("li", {}, callText(ctx.name(call.seat), call.call))));
}

function teamOf(seat) {
  return seat % 2;
}

function teamText(ctx, team) {
  const members = ctx.view.teams[team].map((seat) => ctx.name(seat)).join(" & ");
  return `${TEAM_NAMES[team]} (${members})`;
}

function legalOf(ctx, kind) {
  return ctx.legal.filter((entry) => entry.kind === kind);
}

function biddingBox(ctx) {
  const view = ctx.view;
  const legalBids = new Set(legalOf(ctx, "bid").map((entry) => JSON.stringify(entry.value)));
  const canPass = legalOf(ctx, "pass").length > 0;
  const high = view.high_bid === null ? "No bid yet"
    : `High bid: ${bidName(view.high_bid)} by ${ctx.object(view.high_bidder)}`;
  const passed = view.passed.length ? `Passed: ${view.passed.map((seat) => ctx.name(seat)).join(", ")}` : "Nobody has passed";
  const parts = [
    h("h2", { id: "hp-bidding-title", class: "dock-title" }, "Bidding: ",
      h("span", { class: "high-bid", id: "hp-high-bid" }, high), " \u00b7 ",
      h("span", { class: "muted", id: "hp-passed" }, passed)),
  ];
  if (view.auction.length) {
    parts.push(auctionList(ctx, view.auction, "hp-auction"));
  }
  if (legalBids.size || canPass) {
    parts.push(h("p", { class: "muted bid-help", id: "hp-bid-help" },
      "A bid of N: your team promises to take at least N of the 6 tricks, or loses N points."));
    const form = view.options.bidding === "pepper" ? "pepper" : "standard";
    parts.push(h("div", { class: "bid-buttons", role: "group", "aria-label": "Your call" },
      BIDS[form].map((value) => {
        const allowed = legalBids.has(JSON.stringify(value));
        return h("button", {
          type: "button", class: "bid", dataset: { bid: String(value), focus: `hp-bid-${value}` },
          "aria-disabled": allowed ? null : "true",
          "aria-label": `Bid ${bidName(value)}${allowed ? "" : " (not allowed now)"}`,
          onclick: () => { if (allowed) ctx.act({ kind: "bid", value }, `bid of ${bidName(value)}`); },
        }, bidName(value));
      }),
      h("button", { type: "button", class: "bid pass", dataset: { bid: "pass", focus: "hp-pass" },
        "aria-disabled": canPass ? null : "true",
        onclick: () => { if (canPass) ctx.act({ kind: "pass" }, "pass"); } }, "Pass")));
  }
  return h("section", { class: "bidding-box", id: "hp-bidding", "aria-labelledby": "hp-bidding-title" }, parts);
}

function trumpChooser(ctx) {
  const choices = legalOf(ctx, "trump");
  if (!choices.length) return null;
  return h("section", { class: "trump-chooser", "aria-labelledby": "hp-trump-title" },
    h("h2", { id: "hp-trump-title", class: "dock-title" }, "Name trump"),
    ctx.view.widow ? h("p", {}, "You took the widow: ", cardImage(ctx.view.widow, { small: true })) : null,
    h("div", { class: "row actions" }, choices.map((entry) => h("button", {
      type: "button", class: `suit-button ${entry.suit === "H" || entry.suit === "D" ? "red" : "black"}`,
      dataset: { suit: entry.suit, focus: `hp-trump-${entry.suit}` },
      onclick: () => ctx.act({ kind: "trump", suit: entry.suit }, `trump of ${SUIT_NAMES[entry.suit]}`),
    }, `${SUIT_SYMBOLS[entry.suit]} ${SUIT_NAMES[entry.suit]}`))));
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
        hint: ui.discard === card ? "chosen to discard" : widow ? "the widow card" : "may be discarded",
        onPress: () => { ui.discard = ui.discard === card ? null : card; ctx.rerender(); } });
    }
    if (view.phase === "play" && ctx.legal.length) {
      const legal = playable.has(card);
      return cardButton(card, { disabled: !legal, focusKey: `hp-card-${card}`, extraClass: legal ? "playable" : "",
        hint: legal ? "playable" : "not playable now",
        onPress: () => ctx.act({ kind: "play", card }, `play of ${cardShort(card)}`) });
    }
    return cardButton(card, { disabled: true, focusKey: `hp-card-${card}`, extraClass: widow, hint: "in your hand" });
  }));
  for (const node of row.children) dealtIn(node, node.dataset.card);
  row.style.setProperty("--hand-count", String(Math.max(5, view.hand.length)));
  enableArrowKeys(row);
  const parts = [row];
  if (view.hand.length === 0) parts.push(h("p", { class: "muted" }, "No cards in your hand now."));
  if (discardable.size) {
    parts.push(h("p", { class: "prompt" }, "Choose one card to discard face down (any card, the widow and the Joker included)."),
      h("div", { class: "row actions" }, h("button", {
        type: "button", class: "primary", id: "hp-discard", disabled: !ui.discard, dataset: { focus: "hp-discard" },
        onclick: () => ctx.act({ kind: "discard", card: ui.discard }, `discard of ${cardShort(ui.discard)}`),
      }, ui.discard ? `Discard ${cardShort(ui.discard)}` : "Choose a card to discard")));
  } else if (playable.size) {
    parts.push(h("p", { class: "prompt", id: "hp-prompt" }, "Your turn: play one of the highlighted cards.",
      view.trick.length ? h("span", { class: "on-table" }, ` On the table: ${trickText(ctx.object, view.trick)}.`) : null));
  }
  return h("section", { class: "hand", role: "region", "aria-label": "Your hand" }, parts);
}

function tricksList(ctx, tricks, caption) {
  if (!tricks.length) return null;
  return h("div", { class: "tricks-list" }, h("h3", {}, caption),
    h("ol", {}, tricks.map((trick) => h("li", { dataset: { trick: String(trick.number) } },
      `Trick ${trick.number}: `, h("span", { class: "card-row" }, trick.plays.map((play) => cardImage(play.card, { small: true }))),
      ` won by ${ctx.object(trick.winner)} (${TEAM_NAMES[teamOf(trick.winner)]})`))));
}

function dealText(ctx, deal) {
  const detail = deal.detail || {};
  if (detail.thrown_in) return "Thrown in (the Joker was the widow)";
  if (detail.contract === undefined || detail.contract === null) return "";
  const made = detail.made ? "made" : "set";
  return `${ctx.name(detail.bidder)} bid ${bidName(detail.contract)}${detail.forced ? " (forced)" : ""}, `
    + `trump ${SUIT_NAMES[detail.trump] || "?"}, tricks ${detail.tricks.join("-")}: ${made}`;
}

function scoreTable(ctx) {
  const view = ctx.view;
  const deals = ctx.dealResults();
  return scrollBox(h("table", { class: "scores", id: "hp-scores" },
    h("caption", {}, `Scores (game to ${view.options.target})`),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Deal"),
      [0, 1].map((team) => h("th", { scope: "col" }, teamText(ctx, team))), h("th", { scope: "col" }, "Contract"))),
    h("tbody", {},
      deals.map((deal) => h("tr", {}, h("th", { scope: "row" }, String(deal.number)),
        deal.points.map((points) => h("td", {}, points > 0 ? `+${points}` : String(points))),
        h("td", {}, dealText(ctx, deal)))),
      h("tr", { class: "total" }, h("th", { scope: "row" }, "Game"), view.scores.map((score) => h("td", {}, String(score))), h("td")))),
  "Scores");
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
    parts.push(h("details", { class: "auction-summary" }, h("summary", {}, "The bidding"),
      auctionList(ctx, view.auction)));
  }
  parts.push(h("p", { class: "team-tricks", id: "hp-team-tricks" },
    `Tricks this deal: ${TEAM_NAMES[0]} ${view.tricks[0]}, ${TEAM_NAMES[1]} ${view.tricks[1]}`));
  if (view.completed_tricks.length) parts.push(tricksList(ctx, view.completed_tricks, `Tricks of deal ${view.deal_number}`));
  else if (ctx.ui.lastTricks) {
    parts.push(tricksList(ctx, ctx.ui.lastTricks.tricks, `Tricks of the last deal (${ctx.ui.lastTricks.deal})`));
  }
  parts.push(scoreTable(ctx));
  return h("div", { class: "game-panel hasenpfeffer" }, parts);
}

function contractText(ctx) {
  const view = ctx.view;
  if (view.bidder === null) return null;
  const forced = view.forced ? " (everyone passed: the Joker's holder plays 3)" : "";
  return `Contract: ${bidName(view.contract)} by ${ctx.name(view.bidder)}, ${TEAM_NAMES[view.bidding_team]}${forced}`;
}

function trumpText(trump) {
  return `Trump: ${SUIT_NAMES[trump]} ${SUIT_SYMBOLS[trump]} (Joker, J${SUIT_SYMBOLS[trump]}, J${SUIT_SYMBOLS[SAME_COLOUR[trump]]} on top)`;
}

function phaseLine(ctx) {
  const view = ctx.view;
  const who = view.to_act.length ? ctx.name(view.to_act[0]) : "";
  switch (view.phase) {
    case "bidding": return `Deal ${view.deal_number}: bidding, ${ctx.object(view.to_act[0])} to speak`;
    case "trump": return who === "You" ? "You took the widow: name trump" : `${who} took the widow and names trump`;
    case "discard": return who === "You" ? "You discard one card" : `${who} discards one card`;
    case "play": return `Trick ${view.trick_number} of 6: ${ctx.object(view.to_act[0])} to play`;
    case "needs_deal": return view.deal_number ? `Deal ${view.deal_number} is scored; the next deal comes` : "Dealing";
    case "finished": return `Game over: ${(view.winners || []).map((team) => TEAM_NAMES[team]).join(", ")} won`;
    default: return view.phase;
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
      h("p", { class: "muted", id: "hp-trick-winner" }, `Trick won by ${ctx.object(view.last_trick_winner)}`));
  }
  return h("div", { class: "centre-info" },
    h("p", { class: "phase-line" }, phaseLine(ctx)),
    view.trump ? h("p", { class: "trump-line", id: "hp-trump" }, trumpText(view.trump)) : null,
    contractText(ctx) ? h("p", { id: "hp-contract" }, contractText(ctx)) : null,
    h("p", { class: "muted" }, `${TEAM_NAMES[0]} ${view.tricks[0]} \u00b7 ${TEAM_NAMES[1]} ${view.tricks[1]} tricks`),
    trick);
}

function seatExtras(ctx, seat) {
  const view = ctx.view;
  const team = teamOf(seat);
  const parts = [h("span", { class: `badge team team-${team}` }, TEAM_NAMES[team])];
  if (ctx.mySeat !== null && seat !== ctx.mySeat && teamOf(ctx.mySeat) === team) parts.push(h("span", { class: "badge" }, "partner"));
  if (view.dealer === seat) parts.push(h("span", { class: "badge dealer" }, "dealer"));
  if (view.bidder === seat) parts.push(h("span", { class: "badge ok" }, `bidder \u00b7 ${bidName(view.contract)}`));
  const calls = view.auction.filter((call) => call.seat === seat);
  if (view.phase === "bidding" && calls.length) {
    const lastCall = calls[calls.length - 1].call;
    parts.push(h("span", { class: `call${lastCall === "pass" ? " passed" : ""}` }, lastCall === "pass" ? "passed" : `bid ${bidName(lastCall)}`));
  }
  if (seat !== ctx.mySeat && view.hand_sizes[seat]) parts.push(cardBacks(view.hand_sizes[seat]));
  return parts;
}

function onState(ctx, before, after) {
  const was = before && before.view.completed_tricks ? before.view.completed_tricks.length : 0;
  const tricks = after.view.completed_tricks || [];
  if (tricks.length > was) announce(`Trick ${tricks.length} won by ${ctx.object(tricks[tricks.length - 1].winner)}.`);
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
