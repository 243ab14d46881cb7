// Hazari at the table: arranging the 13 cards into G1-G3 (3 cards) and G4 (4 cards), calling up,
// then the four rounds the server reveals one by one, and the deal's points.
//
// The combination names and the order check below read the server's table of the hand's groups (the
// view's ``combinations``): the page holds no rule of HZ-4/HZ-5; the server judges every "up" and its
// refusal is shown as it comes. The words are the
// catalog's (area "hazari"); the labels G1-G4 are messages too.

import { YOUR_HAND, cardButton, cardImage, cardShort, dealtIn, enableArrowKeys, listText } from "./cards.js";
import { announce, h, holdRendering, scrollBox, showMessage } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { moveIn } from "./motion.js";

/** Each HZ-5 category's name in the player's language. */
export const CATEGORY_NAMES = {
  6: t("hazari.troy"), 5: t("hazari.colourRun"), 4: t("hazari.run"), 3: t("hazari.colour"), 2: t("hazari.pair"),
  1: t("hazari.indi"),
};
// The engine's own names of the categories, kept in data-combo (as card notation is, never shown).
const CATEGORY_CODES = { 6: "Troy", 5: "Colour Run", 4: "Run", 3: "Colour", 2: "Pair", 1: "Indi" };
export const GROUP_SIZES = [3, 3, 3, 4];
const RANK_ORDER = "A K Q J 10 9 8 7 6 5 4 3 2".split(" ");
const SUIT_ORDER = "SHCD";

const suitOf = (code) => code.slice(-1);

/** Bit masks of the groups of ``size`` positions out of 13, in lexicographic order (the server's). */
function groupMasks(size, from = 0, taken = 0) {
  if (size === 0) return [taken];
  const found = [];
  for (let i = from; i <= 13 - size; i += 1) found.push(...groupMasks(size - 1, i + 1, taken | (1 << i)));
  return found;
}

const TRIPLE_MASKS = groupMasks(3);
const TRIPLE_AT = new Map(TRIPLE_MASKS.map((mask, index) => [mask, index]));
const QUAD_AT = new Map(groupMasks(4).map((mask, index) => [mask, index]));
const tables = new WeakMap();

/**
 * The groups the seat's 13 cards can make, read from the view's ``combinations`` (docs/protocol.md):
 * ``group(cards)`` gives a 3- or 4-card group's ``strength`` (higher beats lower, equal ties), its
 * HZ-5 ``category`` and the ``best`` three cards that give it its value; null for other cards.
 */
export function combinationTable(combinations) {
  if (!combinations) return null;
  if (tables.has(combinations)) return tables.get(combinations);
  const position = new Map(combinations.cards.map((card, i) => [card, i]));
  const digits = (text, index) => parseInt(text.slice(2 * index, 2 * index + 2), 36);
  const table = {
    group(cards) {
      if (cards.length !== 3 && cards.length !== 4) return null;
      let mask = 0;
      for (const card of cards) {
        if (!position.has(card)) return null;
        mask |= 1 << position.get(card);
      }
      const triple = cards.length === 3 ? TRIPLE_AT.get(mask) : digits(combinations.quads, QUAD_AT.get(mask));
      if (triple === undefined || Number.isNaN(triple)) return null;
      const strength = digits(combinations.triples, triple);
      const best = cards.filter((card) => TRIPLE_MASKS[triple] & (1 << position.get(card)));
      return { strength, category: combinations.categories[strength], best };
    },
  };
  tables.set(combinations, table);
  return table;
}

/** The player's-language name of a group's combination (a 4-card group: its best triple's). */
export function combinationName(table, cards) {
  const group = table && table.group(cards);
  return group ? CATEGORY_NAMES[group.category] : "";
}

/** The name of the combination a group shown by the server makes (its key's category). */
function playedCombination(play) {
  return (play.key && CATEGORY_NAMES[play.key[0]]) || play.combination;
}

/** "G2": a group's label. */
function groupName(index) {
  return t("hazari.groupName", { number: index + 1 });
}

function groupLabel(table, index, cards) {
  const combination = combinationName(table, cards);
  return index === 3 ? t("hazari.groupFourLabel", { combination })
    : t("hazari.groupLabel", { group: groupName(index), combination });
}

/**
 * HZ-4 check of an arrangement ``[G1, G2, G3, G4]`` of card codes, by the strengths of ``table``
 * (:func:`combinationTable`): ``complete`` when the sizes are 3-3-3-4, ``valid`` when also
 * G1 >= G2 >= G3 >= G4, and ``problems`` naming each group that outranks the one before it (equal
 * groups are allowed). The server judges the "up" itself.
 */
export function checkArrangement(table, groups) {
  const complete = groups.length === 4 && groups.every((group, i) => group.length === GROUP_SIZES[i]);
  if (!complete) {
    const missing = groups.map((group, i) => (group.length === GROUP_SIZES[i] ? null
      : t("hazari.groupHas", { group: groupName(i), placed: group.length, count: GROUP_SIZES[i] }))).filter(Boolean);
    return { complete: false, valid: false, problems: missing };
  }
  const strengths = groups.map((group) => (table && table.group(group) ? table.group(group).strength : 0));
  const problems = [];
  for (let i = 0; i < 3; i += 1) {
    if (strengths[i + 1] > strengths[i]) {
      problems.push(t("hazari.outranks", { later: groupLabel(table, i + 1, groups[i + 1]),
        earlier: groupLabel(table, i, groups[i]) }));
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
  if (ui.deal !== view.deal_number || !fits(ui.groups || [[], [], [], []])) {
    let saved = null;
    try {
      saved = JSON.parse(window.sessionStorage.getItem(storageKey(ctx, view.deal_number)) || "null");
    } catch (error) {
      saved = null;
    }
    ui.deal = view.deal_number;
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
    showMessage(t("hazari.selectFirst"), { kind: "info" });
    return;
  }
  const groups = ui.groups.map((group) => group.filter((card) => !moving.includes(card)));
  if (target !== null) {
    const room = GROUP_SIZES[target] - groups[target].length;
    if (moving.length > room) {
      showMessage(t("hazari.groupRoom", { group: groupName(target), size: GROUP_SIZES[target], count: room }),
        { kind: "info" });
      return;
    }
    groups[target] = [...groups[target], ...moving];
  }
  ui.groups = groups;
  ui.selected = [];
  saveArrangement(ctx);
  ctx.rerender();
  announce(target === null ? t("hazari.backInHand", { count: moving.length })
    : t("hazari.placedIn", { cards: moving.map(cardShort).join(" "), group: groupName(target) }));
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
    hint: selected ? t("hazari.selected") : where, onPress: () => toggle(ctx, card),
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
  const group = groupName(index);
  const row = h("div", { class: "card-row" }, cards.map((card) => arrangingCard(ctx, card, t("hazari.inGroup", { group }))));
  enableArrowKeys(row);
  const table = combinationTable(ctx.view.combinations);
  const named = full && table ? table.group(cards) : null;
  let name = `${formatNumber(cards.length)}/${formatNumber(size)}`;
  if (named) {
    name = index === 3 ? t("hazari.groupFourName", { combination: CATEGORY_NAMES[named.category],
      cards: named.best.map(cardShort).join(" ") }) : CATEGORY_NAMES[named.category];
  }
  const box = h("div", { class: `group-box${full ? " full" : ""}`, dataset: { group: String(index + 1) },
    role: "group", "aria-label": t("hazari.groupAria", { group, count: size }) },
  h("div", { class: "group-head" },
    h("strong", {}, group),
    h("span", { class: "combo", dataset: { combo: named ? CATEGORY_CODES[named.category] : "" } }, name),
    h("button", { type: "button", class: "small-button", dataset: { focus: `hz-place-${index}` },
      "aria-label": t("hazari.placeIn", { group }),
      onclick: () => placeCards(ctx, ctx.ui.selected, index) }, t("hazari.place"))),
  row);
  return dropZone(box, ctx, index);
}

function verdictLine(ctx, check) {
  if (!check.complete) {
    const left = 13 - ctx.ui.groups.flat().length;
    return h("p", { class: "verdict pending", id: "hz-verdict" },
      left ? t("hazari.stillToPlace", { count: left }) : t("hazari.placeAll", { problems: check.problems.join("; ") }));
  }
  if (check.valid) return h("p", { class: "verdict ok", id: "hz-verdict" }, t("hazari.valid"));
  return h("p", { class: "verdict bad", id: "hz-verdict" }, t("hazari.notInOrder", { problems: check.problems.join("; ") }));
}

function arrangingDock(ctx) {
  const ui = arrangementState(ctx);
  const placed = new Set(ui.groups.flat());
  const loose = sortHand(ctx.view.hand.filter((card) => !placed.has(card)));
  const check = checkArrangement(combinationTable(ctx.view.combinations), ui.groups);
  const handRow = h("div", { class: "card-row hand-row" }, loose.map((card) => arrangingCard(ctx, card, t("hazari.inHand"))));
  handRow.style.setProperty("--hand-count", String(Math.max(7, Math.ceil(loose.length / 2))));
  enableArrowKeys(handRow);
  const hand = dropZone(h("div", { class: "group-box hand-box", role: "group", "aria-label": t("hazari.notPlaced") },
    handRow), ctx, null);
  return h("div", { class: "hazari-arrange" },
    h("p", { class: "sr-only", id: "hz-keys" }, t("hazari.keysHelp")),
    h("section", { class: "hand", role: "region", "aria-label": YOUR_HAND, "aria-describedby": "hz-keys" },
      hand, h("div", { class: "groups" }, [0, 1, 2, 3].map((index) => groupBox(ctx, index)))),
    h("div", { class: "action-bar", role: "group", "aria-label": t("hazari.yourActions") },
      h("div", { role: "status", "aria-live": "polite", class: "verdict-box" }, verdictLine(ctx, check)),
      h("div", { class: "row actions" },
        h("button", { type: "button", dataset: { focus: "hz-back" },
          onclick: () => placeCards(ctx, ui.selected, null) }, t("hazari.backToHand")),
        h("button", { type: "button", id: "hz-suggest", dataset: { focus: "hz-suggest" },
          onclick: () => ctx.send({ type: "hint" }) }, t("hazari.suggest")),
        h("button", { type: "button", dataset: { focus: "hz-clear" }, onclick: () => {
          ui.groups = [[], [], [], []];
          ui.selected = [];
          saveArrangement(ctx);
          ctx.rerender();
        } }, t("hazari.clear")),
        h("button", { type: "button", class: "primary", id: "hz-up", dataset: { focus: "hz-up" },
          disabled: !check.complete,
          onclick: () => ctx.act({ kind: "up", groups: ui.groups }, "up") }, t("hazari.up")))));
}

function lockedDock(ctx) {
  const view = ctx.view;
  const waiting = view.up.map((up, seat) => (up ? null : ctx.name(seat))).filter(Boolean);
  return h("section", { class: "hand hazari-locked", role: "region", "aria-label": YOUR_HAND },
    h("div", { class: "groups" }, view.arrangement.map((group, index) => h("div", { class: "group-box full" },
      h("div", { class: "group-head" }, h("strong", {}, groupName(index)),
        h("span", { class: "combo" }, combinationName(combinationTable(view.combinations), group))),
      h("div", { class: "card-row" }, group.map((card) => cardImage(card, { small: true, extraClass: view.hand.includes(card) ? "" : "played" })))))),
    waiting.length && view.phase === "arranging"
      ? h("p", { class: "muted" }, t("hazari.lockedWaiting", { names: listText(waiting), count: waiting.length })) : null);
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
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("hazari.round")), h("th", { scope: "col" }, t("hazari.groupsShown")),
      h("th", { scope: "col" }, t("hazari.winner")))),
    h("tbody", {}, rounds.map((round) => h("tr", {
      dataset: { round: String(round.number), winner: String(round.winner), points: String(round.points) } },
      h("th", { scope: "row" }, formatNumber(round.number)),
      h("td", {}, h("ul", { class: "plays" }, round.plays.map((play) => h("li", {
        class: play.seat === round.winner ? "winner" : "",
      }, h("span", { class: "who" }, ctx.name(play.seat)),
      h("span", { class: "card-row" }, play.cards.map((card) => cardImage(card, { small: true }))),
      h("span", { class: "combo" }, playedCombination(play)))))),
      h("td", { class: "round-winner" }, t("hazari.roundWinner", { name: ctx.name(round.winner), points: round.points })))))), caption);
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
  if (view.phase === "showing" && view.rounds.length) return { label: t("hazari.dealSoFar", { deal: view.deal_number }), points: view.deal_points };
  const listed = deals.some((deal) => deal.number === view.deal_number);
  if (view.rounds.length === 4 && view.last_deal_points && !listed) return { label: formatNumber(view.deal_number), points: view.last_deal_points };
  return null;
}

function scoreTable(ctx) {
  const view = ctx.view;
  const seats = view.scores.map((_, seat) => seat);
  const deals = ctx.dealResults();
  const current = currentDeal(view, deals);
  const rows = [...deals.map((deal) => ({ label: formatNumber(deal.number), points: deal.points })), ...(current ? [current] : [])];
  return scrollBox(h("table", { class: "scores", id: "hz-scores" },
    h("caption", {}, t("hazari.scoresCaption", { target: view.options.target })),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("hazari.deal")),
      seats.map((seat) => h("th", { scope: "col" }, ctx.name(seat))))),
    h("tbody", {},
      rows.map((row) => h("tr", {}, h("th", { scope: "row" }, row.label),
        row.points.map((points) => h("td", {}, formatNumber(points))))),
      h("tr", { class: "total" }, h("th", { scope: "row" }, t("hazari.total")),
        runningTotals(view).map((total, seat) => h("td", { dataset: { seat: String(seat) } }, formatNumber(total)))))),
  t("hazari.scores"));
}

function rememberDeal(ctx) {
  const view = ctx.view;
  if (view.rounds.length === 4) {
    ctx.ui.lastDeal = { deal: view.deal_number, rounds: view.rounds, points: view.last_deal_points };
  }
}

/** "You 95, Bot 1 120, ...": each seat's points of a deal. */
function seatPoints(ctx, points) {
  return listText(points.map((value, seat) => t("hazari.nameAndPoints", { name: ctx.name(seat), points: value })));
}

function panel(ctx) {
  const view = ctx.view;
  rememberDeal(ctx);
  const parts = [];
  if (view.rounds.length) {
    const scored = view.rounds.length === 4;
    const caption = scored ? t("hazari.allRounds", { deal: view.deal_number })
      : t("hazari.roundOfDeal", { deal: view.deal_number, round: view.rounds.length });
    parts.push(roundsTable(ctx, view.rounds, caption, "hz-rounds"));
  }
  if (view.rounds.length === 4 && view.last_deal_points) {
    parts.push(h("p", { class: "deal-result", id: "hz-deal-result" },
      t("hazari.dealPoints", { deal: view.deal_number, points: seatPoints(ctx, view.last_deal_points) })));
  } else if (view.rounds.length === 0 && ctx.ui.lastDeal && ctx.ui.lastDeal.deal < view.deal_number) {
    const last = ctx.ui.lastDeal;
    parts.push(h("details", { class: "last-deal" }, h("summary", {},
      t("hazari.previousDeal", { deal: last.deal, points: seatPoints(ctx, last.points || []) })),
    roundsTable(ctx, last.rounds, t("hazari.dealCaption", { deal: last.deal }))));
  }
  parts.push(scoreTable(ctx));
  return h("div", { class: "game-panel hazari" }, parts);
}

/** "Round 2 of 4: Bot 1 wins (Pair)", or "... You win ...". */
function roundLine(ctx, round) {
  const combination = playedCombination(round.plays.find((p) => p.seat === round.winner));
  return round.winner === ctx.mySeat ? t("hazari.roundYouWin", { round: round.number, combination })
    : t("hazari.roundWins", { round: round.number, name: ctx.name(round.winner), combination });
}

function centre(ctx) {
  const view = ctx.view;
  const lines = [];
  if (view.phase === "arranging") {
    const up = view.up.filter(Boolean).length;
    lines.push(h("p", { class: "phase-line" }, t("hazari.arrangingLine", { deal: view.deal_number, up })));
  } else if (view.phase === "showing") {
    const round = view.rounds[view.rounds.length - 1];
    lines.push(h("p", { class: "phase-line" }, round ? roundLine(ctx, round) : t("hazari.allUp")));
  } else if (view.phase === "dealing") {
    lines.push(h("p", { class: "phase-line" }, view.deal_number ? t("hazari.dealScored", { deal: view.deal_number }) : t("hazari.dealing")));
  } else if (view.phase === "finished") {
    const winners = view.winners.map((seat) => ctx.name(seat));
    lines.push(h("p", { class: "phase-line" }, t("hazari.matchOver", { names: listText(winners, "and"), count: winners.length })));
  }
  lines.push(h("p", { class: "muted" }, t("hazari.dealer", { name: ctx.name(view.dealer) })));
  return h("div", { class: "centre-info" }, lines);
}

function seatExtras(ctx, seat) {
  const view = ctx.view;
  const parts = [h("span", { class: "score" }, t("hazari.pointsShort", { count: runningTotals(view)[seat] }))];
  if (view.phase === "arranging") {
    parts.push(h("span", { class: view.up[seat] ? "badge ok" : "badge" }, view.up[seat] ? t("hazari.upBadge") : t("hazari.arrangingBadge")));
  }
  const round = view.rounds[view.rounds.length - 1];
  const play = round ? round.plays.find((p) => p.seat === seat) : null;
  if (play) {
    parts.push(h("span", { class: `seat-play${round.winner === seat ? " winner" : ""}` },
      moveIn(h("span", { class: "card-row" }, play.cards.map((card) => cardImage(card, { small: true }))),
        `round:${view.deal_number}:${round.number}:${seat}`, "flip"),
      h("span", { class: "combo" }, round.winner === seat ? t("hazari.playWins", { combination: playedCombination(play) })
        : playedCombination(play))));
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
  announce(t("hazari.suggested"));
}

function onState(ctx, before, after) {
  const was = before ? before.view.rounds || [] : [];
  const now = after.view.rounds || [];
  if (now.length > was.length && now.length > 0) {
    const round = now[now.length - 1];
    announce(round.winner === ctx.mySeat ? t("hazari.youTakeRound", { round: round.number, count: round.points })
      : t("hazari.takesRound", { round: round.number, name: ctx.name(round.winner), count: round.points }));
  }
}

export default { direction: "ccw", panel, dock, centre, seatExtras, onHint, onState };
