// Hazari at the table: arranging the 13 cards into G1-G3 (3 cards) and G4 (4 cards), calling up,
// then the four rounds the server reveals one by one, and the deal's points.
//
// The combination names and the order check below are a display aid that follows HZ-4/HZ-5 of the
// rules file; the server judges every "up" and its refusal is shown as it comes.

import { cardButton, cardImage, cardShort, dealtIn, enableArrowKeys } from "./cards.js";
import { announce, h, holdRendering, scrollBox, showMessage } from "./dom.js";
import { moveIn } from "./motion.js";

const RANK_VALUE = { 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, J: 11, Q: 12, K: 13, A: 14 };
export const CATEGORY_NAMES = { 6: "Troy", 5: "Colour Run", 4: "Run", 3: "Colour", 2: "Pair", 1: "Indi" };
export const GROUP_SIZES = [3, 3, 3, 4];
const RANK_ORDER = "A K Q J 10 9 8 7 6 5 4 3 2".split(" ");
const SUIT_ORDER = "SHCD";

const rankOf = (code) => RANK_VALUE[code.slice(0, -1)];
const suitOf = (code) => code.slice(-1);

/** HZ-5 runIndex of three distinct ranks, high first: A-K-Q 12, A-2-3 11, K-Q-J 10 ... 4-3-2 1; 0 if none. */
export function runIndex(high, middle, low) {
  if (high === 14 && middle === 3 && low === 2) return 11;
  if (high - middle === 1 && middle - low === 1) return low === 12 ? 12 : low - 1;
  return 0;
}

/** The HZ-5 key of three cards, e.g. [6, 14] for A-A-A, [2, 9, 13] for 9-9-K, [1, 14, 13, 11]. */
export function classify(cards) {
  if (cards.length !== 3) throw new Error(`a combination has 3 cards, got ${cards.length}`);
  const [high, middle, low] = cards.map(rankOf).sort((a, b) => b - a);
  const suited = cards.every((card) => suitOf(card) === suitOf(cards[0]));
  if (high === low) return [6, high];
  if (high === middle) return [2, high, low];
  if (middle === low) return [2, low, high];
  const run = runIndex(high, middle, low);
  if (run) return [suited ? 5 : 4, run];
  return [suited ? 3 : 1, high, middle, low];
}

/** Lexicographic comparison of two keys: > 0 when ``a`` beats ``b``, 0 for a tie. */
export function compareKeys(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return a.length - b.length;
}

function triples(cards) {
  const found = [];
  for (let i = 0; i < cards.length; i += 1) {
    for (let j = i + 1; j < cards.length; j += 1) {
      for (let k = j + 1; k < cards.length; k += 1) found.push([cards[i], cards[j], cards[k]]);
    }
  }
  return found;
}

/** The three cards that give a group its value: the group itself, or G4's best triple (HZ-4). */
export function bestTriple(cards) {
  if (cards.length === 3) return cards;
  let best = null;
  for (const trio of triples(cards)) {
    if (best === null || compareKeys(classify(trio), classify(best)) > 0) best = trio;
  }
  return best;
}

/** The key of a 3-card group, or of a 4-card group's best triple (HZ-4). */
export function groupKey(cards) {
  return classify(bestTriple(cards));
}

export function combinationName(cards) {
  return CATEGORY_NAMES[groupKey(cards)[0]];
}

function groupLabel(index, cards) {
  const name = combinationName(cards);
  return index === 3 ? `G4 (best three: ${name})` : `G${index + 1} (${name})`;
}

/**
 * HZ-4 check of an arrangement ``[G1, G2, G3, G4]`` of card codes: ``complete`` when the sizes are
 * 3-3-3-4, ``valid`` when also key(G1) >= key(G2) >= key(G3) >= key(G4), and ``problems`` naming
 * each group that outranks the one before it (equal keys are allowed).
 */
export function checkArrangement(groups) {
  const complete = groups.length === 4 && groups.every((group, i) => group.length === GROUP_SIZES[i]);
  if (!complete) {
    const missing = groups.map((group, i) => (group.length === GROUP_SIZES[i] ? null
      : `G${i + 1} has ${group.length} of ${GROUP_SIZES[i]} cards`)).filter(Boolean);
    return { complete: false, valid: false, problems: missing };
  }
  const keys = groups.map(groupKey);
  const problems = [];
  for (let i = 0; i < 3; i += 1) {
    if (compareKeys(keys[i + 1], keys[i]) > 0) {
      problems.push(`${groupLabel(i + 1, groups[i + 1])} outranks ${groupLabel(i, groups[i])}`);
    }
  }
  return { complete: true, valid: problems.length === 0, problems };
}

function sortHand(cards) {
  return [...cards].sort((a, b) => SUIT_ORDER.indexOf(suitOf(a)) - SUIT_ORDER.indexOf(suitOf(b))
    || RANK_ORDER.indexOf(a.slice(0, -1)) - RANK_ORDER.indexOf(b.slice(0, -1)));
}

// --- the arrangement kept while the player works on it --------------------------------------------

function storageKey(ctx, deal) {
  return `cardroom.hazari.${ctx.room.match_id || ctx.roomId}.${deal}`;
}

function arrangementState(ctx) {
  const view = ctx.view;
  const ui = ctx.ui;
  const hand = view.hand || [];
  const held = new Set(hand);
  const fits = (groups) => groups.every((group) => group.every((card) => held.has(card)));
  if (ui.deal !== view.deal || !fits(ui.groups || [[], [], [], []])) {
    let saved = null;
    try {
      saved = JSON.parse(window.sessionStorage.getItem(storageKey(ctx, view.deal)) || "null");
    } catch (error) {
      saved = null;
    }
    ui.deal = view.deal;
    ui.groups = saved && saved.length === 4 && fits(saved) ? saved : [[], [], [], []];
    ui.selected = [];
  }
  ui.selected = (ui.selected || []).filter((card) => held.has(card));
  return ui;
}

function saveArrangement(ctx) {
  window.sessionStorage.setItem(storageKey(ctx, ctx.ui.deal), JSON.stringify(ctx.ui.groups));
  // The server keeps the draft so that a timeout completes it rather than starting afresh.
  ctx.send({ type: "draft", groups: ctx.ui.groups });
}

function placeCards(ctx, cards, target) {
  const ui = ctx.ui;
  const moving = cards.filter(Boolean);
  if (moving.length === 0) {
    showMessage("Select one or more cards first (tap them or press Enter on them).", { kind: "info" });
    return;
  }
  const groups = ui.groups.map((group) => group.filter((card) => !moving.includes(card)));
  if (target !== null) {
    const room = GROUP_SIZES[target] - groups[target].length;
    if (moving.length > room) {
      showMessage(`G${target + 1} holds ${GROUP_SIZES[target]} cards and has room for ${room} more.`,
        { kind: "info" });
      return;
    }
    groups[target] = [...groups[target], ...moving];
  }
  ui.groups = groups;
  ui.selected = [];
  saveArrangement(ctx);
  ctx.rerender();
  announce(target === null ? `${moving.length} card(s) back in hand`
    : `${moving.map(cardShort).join(" ")} placed in G${target + 1}`);
}

function toggle(ctx, card) {
  const ui = ctx.ui;
  ui.selected = ui.selected.includes(card) ? ui.selected.filter((c) => c !== card) : [...ui.selected, card];
  ctx.rerender();
}

function cardKeys(ctx, card) {
  return (event) => {
    const digit = "01234".indexOf(event.key);
    if (digit < 0 && event.key !== "h") return;
    event.preventDefault();
    const cards = ctx.ui.selected.length ? ctx.ui.selected : [card];
    placeCards(ctx, cards, digit > 0 ? digit - 1 : null);
  };
}

function arrangingCard(ctx, card, where) {
  const selected = ctx.ui.selected.includes(card);
  const button = cardButton(card, {
    pressed: selected, focusKey: `hz-${card}`,
    hint: selected ? "selected" : where, onPress: () => toggle(ctx, card),
  });
  button.draggable = true;
  button.addEventListener("dragstart", (event) => {
    event.dataTransfer.setData("text/plain", card);
    event.dataTransfer.effectAllowed = "move";
    holdRendering(true);
  });
  button.addEventListener("dragend", () => holdRendering(false));
  button.addEventListener("keydown", cardKeys(ctx, card));
  return dealtIn(button, card);
}

function dropZone(node, ctx, target) {
  node.addEventListener("dragover", (event) => {
    event.preventDefault();
    node.classList.add("drag-over");
  });
  node.addEventListener("dragleave", () => node.classList.remove("drag-over"));
  node.addEventListener("drop", (event) => {
    event.preventDefault();
    node.classList.remove("drag-over");
    const card = event.dataTransfer.getData("text/plain");
    if (card) placeCards(ctx, [card], target);
  });
  return node;
}

function groupBox(ctx, index) {
  const cards = ctx.ui.groups[index];
  const size = GROUP_SIZES[index];
  const full = cards.length === size;
  const row = h("div", { class: "card-row" }, cards.map((card) => arrangingCard(ctx, card, `in G${index + 1}`)));
  enableArrowKeys(row);
  let name = `${cards.length}/${size}`;
  if (full) name = index === 3 ? `${combinationName(cards)} (best three: ${bestTriple(cards).map(cardShort).join(" ")})`
    : combinationName(cards);
  const box = h("div", { class: `group-box${full ? " full" : ""}`, dataset: { group: String(index + 1) },
    role: "group", "aria-label": `Group G${index + 1}, ${size} cards` },
  h("div", { class: "group-head" },
    h("strong", {}, `G${index + 1}`),
    h("span", { class: "combo", dataset: { combo: full ? combinationName(cards) : "" } }, name),
    h("button", { type: "button", class: "small-button", dataset: { focus: `hz-place-${index}` },
      "aria-label": `Place in G${index + 1}`,
      onclick: () => placeCards(ctx, ctx.ui.selected, index) }, "Place")),
  row);
  return dropZone(box, ctx, index);
}

function verdictLine(ctx, check) {
  if (!check.complete) {
    const left = 13 - ctx.ui.groups.flat().length;
    return h("p", { class: "verdict pending", id: "hz-verdict" },
      left ? `${left} card${left === 1 ? "" : "s"} still to place.` : `Place all 13 cards: ${check.problems.join("; ")}.`);
  }
  if (check.valid) return h("p", { class: "verdict ok", id: "hz-verdict" }, "\u2714 Valid arrangement: G1 \u2265 G2 \u2265 G3 \u2265 G4.");
  return h("p", { class: "verdict bad", id: "hz-verdict" }, `\u2716 Not in descending order: ${check.problems.join("; ")}.`);
}

function arrangingDock(ctx) {
  const ui = arrangementState(ctx);
  const placed = new Set(ui.groups.flat());
  const loose = sortHand(ctx.view.hand.filter((card) => !placed.has(card)));
  const check = checkArrangement(ui.groups);
  const handRow = h("div", { class: "card-row hand-row" }, loose.map((card) => arrangingCard(ctx, card, "in hand")));
  handRow.style.setProperty("--hand-count", String(Math.max(7, Math.ceil(loose.length / 2))));
  enableArrowKeys(handRow);
  const hand = dropZone(h("div", { class: "group-box hand-box", role: "group", "aria-label": "Cards not yet placed" },
    handRow), ctx, null);
  return h("div", { class: "hazari-arrange" },
    h("p", { class: "sr-only", id: "hz-keys" }, "Tap or drag cards into the groups: G1 strongest, G4 (four cards) weakest. ",
      "Keys: Enter or Space selects a card, arrows move, 1 to 4 place the selection in a group, 0 returns it."),
    h("section", { class: "hand", role: "region", "aria-label": "Your hand", "aria-describedby": "hz-keys" },
      hand, h("div", { class: "groups" }, [0, 1, 2, 3].map((index) => groupBox(ctx, index)))),
    h("div", { class: "action-bar", role: "group", "aria-label": "Your actions" },
      h("div", { role: "status", "aria-live": "polite", class: "verdict-box" }, verdictLine(ctx, check)),
      h("div", { class: "row actions" },
        h("button", { type: "button", dataset: { focus: "hz-back" },
          onclick: () => placeCards(ctx, ui.selected, null) }, "Back to hand"),
        h("button", { type: "button", id: "hz-suggest", dataset: { focus: "hz-suggest" },
          onclick: () => ctx.send({ type: "hint" }) }, "Suggest"),
        h("button", { type: "button", dataset: { focus: "hz-clear" }, onclick: () => {
          ui.groups = [[], [], [], []];
          ui.selected = [];
          saveArrangement(ctx);
          ctx.rerender();
        } }, "Clear"),
        h("button", { type: "button", class: "primary", id: "hz-up", dataset: { focus: "hz-up" },
          disabled: !check.complete,
          onclick: () => ctx.act({ kind: "up", groups: ui.groups }, "up") }, "Up"))));
}

function lockedDock(ctx) {
  const view = ctx.view;
  const waiting = view.up.map((up, seat) => (up ? null : ctx.name(seat))).filter(Boolean);
  return h("section", { class: "hand hazari-locked", role: "region", "aria-label": "Your hand" },
    h("div", { class: "groups" }, view.arrangement.map((group, index) => h("div", { class: "group-box full" },
      h("div", { class: "group-head" }, h("strong", {}, `G${index + 1}`),
        h("span", { class: "combo" }, combinationName(group))),
      h("div", { class: "card-row" }, group.map((card) => cardImage(card, { small: true, extraClass: view.hand.includes(card) ? "" : "played" })))))),
    waiting.length && view.phase === "arranging"
      ? h("p", { class: "muted" }, `Your groups are locked. Waiting for ${waiting.join(", ")} to say up.`) : null);
}

/** The docked part: the arrangement while it is to be made, then the locked groups. */
function dock(ctx) {
  const view = ctx.view;
  if (ctx.legal.some((entry) => entry.kind === "up")) return arrangingDock(ctx);
  if (ctx.mySeat !== null && view.arrangement && view.phase !== "dealing" && view.phase !== "finished") return lockedDock(ctx);
  return null;
}

function roundsTable(ctx, rounds, caption, id = null) {
  if (!rounds.length) return null;
  return scrollBox(h("table", { class: "rounds", id },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Round"), h("th", { scope: "col" }, "Groups shown, in order"),
      h("th", { scope: "col" }, "Winner"))),
    h("tbody", {}, rounds.map((round) => h("tr", {
      dataset: { round: String(round.number), winner: String(round.winner), points: String(round.points) } },
      h("th", { scope: "row" }, String(round.number)),
      h("td", {}, h("ul", { class: "plays" }, round.plays.map((play) => h("li", {
        class: play.seat === round.winner ? "winner" : "",
      }, h("span", { class: "who" }, ctx.name(play.seat)),
      h("span", { class: "card-row" }, play.cards.map((card) => cardImage(card, { small: true }))),
      h("span", { class: "combo" }, play.combination))))),
      h("td", { class: "round-winner" }, `${ctx.name(round.winner)} (+${round.points})`))))), caption);
}

/** Each seat's match total with the points of the rounds shown so far (a deal is scored with its
 * fourth round, HZ-8, so the totals move as each round is revealed). */
function runningTotals(view) {
  const showing = view.phase === "showing";
  return view.scores.map((score, seat) => score + (showing ? view.deal_points[seat] : 0));
}

/** The deal of the view as a row of the score table until the history has it: its points so far
 * while its rounds are shown, then its points once scored. */
function currentDeal(view, deals) {
  if (view.phase === "showing" && view.rounds.length) return { label: `${view.deal} (so far)`, points: view.deal_points };
  const listed = deals.some((deal) => deal.number === view.deal);
  if (view.rounds.length === 4 && view.last_deal_points && !listed) return { label: String(view.deal), points: view.last_deal_points };
  return null;
}

function scoreTable(ctx) {
  const view = ctx.view;
  const seats = view.scores.map((_, seat) => seat);
  const deals = ctx.dealResults();
  const current = currentDeal(view, deals);
  const rows = [...deals.map((deal) => ({ label: String(deal.number), points: deal.points })), ...(current ? [current] : [])];
  return scrollBox(h("table", { class: "scores", id: "hz-scores" },
    h("caption", {}, `Scores (match to ${view.options.target})`),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Deal"),
      seats.map((seat) => h("th", { scope: "col" }, ctx.name(seat))))),
    h("tbody", {},
      rows.map((row) => h("tr", {}, h("th", { scope: "row" }, row.label),
        row.points.map((points) => h("td", {}, String(points))))),
      h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"),
        runningTotals(view).map((total, seat) => h("td", { dataset: { seat: String(seat) } }, String(total)))))), "Scores");
}

function rememberDeal(ctx) {
  const view = ctx.view;
  if (view.rounds.length === 4) {
    ctx.ui.lastDeal = { deal: view.deal, rounds: view.rounds, points: view.last_deal_points };
  }
}

function panel(ctx) {
  const view = ctx.view;
  rememberDeal(ctx);
  const parts = [];
  if (view.rounds.length) {
    const scored = view.rounds.length === 4;
    const caption = scored ? `Deal ${view.deal}: all four rounds` : `Deal ${view.deal}: round ${view.rounds.length} of 4`;
    parts.push(roundsTable(ctx, view.rounds, caption, "hz-rounds"));
  }
  if (view.rounds.length === 4 && view.last_deal_points) {
    parts.push(h("p", { class: "deal-result", id: "hz-deal-result" }, `Deal ${view.deal} points: `,
      view.last_deal_points.map((points, seat) => `${ctx.name(seat)} ${points}`).join(", "), "."));
  } else if (view.rounds.length === 0 && ctx.ui.lastDeal && ctx.ui.lastDeal.deal < view.deal) {
    const last = ctx.ui.lastDeal;
    parts.push(h("details", { class: "last-deal" }, h("summary", {}, `Previous deal (${last.deal}): `,
      (last.points || []).map((points, seat) => `${ctx.name(seat)} ${points}`).join(", ")),
    roundsTable(ctx, last.rounds, `Deal ${last.deal}`)));
  }
  parts.push(scoreTable(ctx));
  return h("div", { class: "game-panel hazari" }, parts);
}

function centre(ctx) {
  const view = ctx.view;
  const lines = [];
  if (view.phase === "arranging") {
    const up = view.up.filter(Boolean).length;
    lines.push(h("p", { class: "phase-line" }, `Deal ${view.deal}: arranging \u2014 ${up} of 4 up`));
  } else if (view.phase === "showing") {
    const round = view.rounds[view.rounds.length - 1];
    lines.push(h("p", { class: "phase-line" }, round
      ? `Round ${round.number} of 4: ${ctx.name(round.winner)} ${round.winner === ctx.mySeat ? "win" : "wins"} (${round.plays.find((p) => p.seat === round.winner).combination})`
      : "All up: the rounds are shown next"));
  } else if (view.phase === "dealing") {
    lines.push(h("p", { class: "phase-line" }, view.deal ? `Deal ${view.deal} scored; the next deal comes` : "Dealing"));
  } else if (view.phase === "finished") {
    lines.push(h("p", { class: "phase-line" }, `Match over: ${view.winners.map((seat) => ctx.name(seat)).join(" and ")} won`));
  }
  lines.push(h("p", { class: "muted" }, `Dealer: ${ctx.name(view.dealer)}`));
  return h("div", { class: "centre-info" }, lines);
}

function seatExtras(ctx, seat) {
  const view = ctx.view;
  const parts = [h("span", { class: "score" }, `${runningTotals(view)[seat]} pts`)];
  if (view.phase === "arranging") parts.push(h("span", { class: view.up[seat] ? "badge ok" : "badge" }, view.up[seat] ? "up \u2714" : "arranging"));
  const round = view.rounds[view.rounds.length - 1];
  const play = round ? round.plays.find((p) => p.seat === seat) : null;
  if (play) {
    parts.push(h("span", { class: `seat-play${round.winner === seat ? " winner" : ""}` },
      moveIn(h("span", { class: "card-row" }, play.cards.map((card) => cardImage(card, { small: true }))),
        `round:${view.deal}:${round.number}:${seat}`, "flip"),
      h("span", { class: "combo" }, `${play.combination}${round.winner === seat ? " \u2014 wins" : ""}`)));
  }
  return parts;
}

function onHint(ctx, action) {
  if (!action || action.kind !== "up" || !Array.isArray(action.groups)) return;
  arrangementState(ctx);
  ctx.ui.groups = action.groups.map((group) => [...group]);
  ctx.ui.selected = [];
  saveArrangement(ctx);
  ctx.rerender();
  announce("A suggested arrangement is filled in; check it and press Up.");
}

function onState(ctx, before, after) {
  const was = before ? before.view.rounds || [] : [];
  const now = after.view.rounds || [];
  if (now.length > was.length && now.length > 0) {
    const round = now[now.length - 1];
    announce(`Round ${round.number}: ${ctx.name(round.winner)} ${round.winner === ctx.mySeat ? "win" : "wins"} ${round.points} points.`);
  }
}

export default { direction: "ccw", panel, dock, centre, seatExtras, onHint, onState };
