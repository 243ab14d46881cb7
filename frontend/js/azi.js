// Azi at the table: the exposed trump card (and the six on the scene), stacks, pot and bets, the
// betting actions with their allowed ranges (a bet, call or raise of more than a quarter of the
// stack, or all of it, asks first), the 4-card discard, trick play with only the legal cards
// pressable, the Azi re-deal offer, and the chips each game moved.

import {
  SUIT_NAMES, SUIT_SYMBOLS, cardBacks, cardButton, cardImage, cardShort, collectedTrick, dealtIn, enableArrowKeys,
  trickRow, trickText,
} from "./cards.js";
import { confirmDialog } from "./dialog.js";
import { announce, h, scrollBox } from "./dom.js";
import { heading, isFresh, moveIn, seatsAround } from "./motion.js";
import { stillAtTable } from "./stakes.js";
import { MONEY, chipsText } from "./words.js";

const REASONS = { tricks: "by taking two tricks", folds: "when everyone else folded" };
const END_REASONS = { closed: "the owner closed the table", players: "fewer than two players can pay the ante" };

const DIRECTION = "cw";

const signed = (n) => (n > 0 ? `+${n}` : String(n));

function legalOf(ctx, kind) {
  return ctx.legal.filter((entry) => entry.kind === kind);
}

/** The text kept in an amount box across re-renders, reset when the allowed range changes. */
function amountValue(ctx, kind, entry) {
  const ui = ctx.ui;
  ui.amounts = ui.amounts || {};
  const range = `${entry.min}-${entry.max}`;
  if (!ui.amounts[kind] || ui.amounts[kind].range !== range) ui.amounts[kind] = { range, text: String(entry.min) };
  return ui.amounts[kind];
}

/**
 * Sends ``action``, which puts ``put`` chips of the stack in the pot: at once, or after a
 * confirmation showing the amount when that is more than a quarter of the stack or all of it.
 * ``focusKey`` names the control the focus goes back to.
 */
function actWithCare(ctx, action, label, { amount, put, allIn = false }, focusKey) {
  const stack = ctx.view.stacks[ctx.mySeat];
  const all = allIn || put >= stack;
  if (!all && put * 4 <= stack) {
    ctx.act(action, label);
    return;
  }
  const words = MONEY.confirm({ kind: action.kind, amount, put, stack, allIn: all });
  ctx.ui.confirm = confirmDialog({
    id: "bet-confirm", title: words.title, text: words.text, confirmLabel: words.button,
    returnFocus: () => document.querySelector(`[data-focus="${focusKey}"]`),
    onConfirm: () => ctx.act(action, label),
  });
}

/** A bet or raise typed in the box: with care when it is an amount the rules allow now (any other
 * is sent as it is, for the server to refuse in words). */
function sendAmount(ctx, kind, entry, amount) {
  const action = kind === "bet" ? { kind, amount } : { kind, to: amount };
  const label = kind === "bet" ? `bet of ${amount}` : `raise to ${amount}`;
  if (!Number.isInteger(amount) || amount < entry.min || amount > entry.max) {
    ctx.act(action, label);
    return;
  }
  const put = kind === "bet" ? amount : amount - ctx.view.bets[ctx.mySeat];
  actWithCare(ctx, action, label, { amount, put }, `azi-${kind}`);
}

function amountControl(ctx, kind, entry, label, send) {
  const kept = amountValue(ctx, kind, entry);
  const id = `azi-${kind}-amount`;
  const input = h("input", {
    id, type: "number", inputmode: "numeric", min: entry.min, max: entry.max, step: 1, value: kept.text,
    dataset: { focus: id }, "aria-describedby": `${id}-range`,
    oninput: (event) => { kept.text = event.target.value; },
  });
  const submit = () => {
    const amount = Number(input.value);
    send(Number.isInteger(amount) ? amount : input.value);
  };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") submit();
  });
  return h("div", { class: "amount-control" },
    h("label", { for: id }, label),
    input,
    h("small", { id: `${id}-range`, class: "muted" }, `${entry.min} to ${entry.max}`),
    h("button", { type: "button", class: "small-button", dataset: { focus: `${id}-min` },
      onclick: () => { kept.text = String(entry.min); input.value = kept.text; } }, "Min"),
    h("button", { type: "button", class: "small-button", dataset: { focus: `${id}-max` },
      onclick: () => { kept.text = String(entry.max); input.value = kept.text; } }, "Max"),
    h("button", { type: "button", class: "primary", id: `azi-${kind}`, dataset: { focus: `azi-${kind}` }, onclick: submit },
      kind === "bet" ? "Bet" : "Raise"));
}

function actionsBox(ctx) {
  const view = ctx.view;
  const controls = [];
  for (const entry of legalOf(ctx, "bet")) {
    controls.push(amountControl(ctx, "bet", entry, "Opening bet", (amount) => sendAmount(ctx, "bet", entry, amount)));
  }
  for (const entry of legalOf(ctx, "call")) {
    const text = entry.all_in ? `All in (${entry.amount})` : `Call ${entry.amount}`;
    controls.push(h("button", { type: "button", id: "azi-call", dataset: { focus: "azi-call" },
      onclick: () => actWithCare(ctx, { kind: "call" }, "call",
        { amount: entry.amount, put: entry.amount, allIn: entry.all_in }, "azi-call") }, text));
  }
  for (const entry of legalOf(ctx, "raise")) {
    controls.push(amountControl(ctx, "raise", entry, "Raise to", (to) => sendAmount(ctx, "raise", entry, to)));
  }
  if (legalOf(ctx, "fold").length) {
    controls.push(h("button", { type: "button", id: "azi-fold", dataset: { focus: "azi-fold" },
      onclick: () => ctx.act({ kind: "fold" }, "fold") }, "Fold"));
  }
  if (legalOf(ctx, "buy_in").length) {
    controls.push(h("button", { type: "button", class: "primary", id: "azi-buy-in", dataset: { focus: "azi-buy-in" },
      onclick: () => ctx.act({ kind: "buy_in" }, "buy-in") }, `Buy in for ${view.buy_in ? view.buy_in.price : "?"}`));
  }
  if (legalOf(ctx, "decline").length) {
    controls.push(h("button", { type: "button", id: "azi-decline", dataset: { focus: "azi-decline" },
      onclick: () => ctx.act({ kind: "decline" }, "decline") }, "Decline"));
  }
  if (legalOf(ctx, "leave").length) {
    controls.push(h("button", { type: "button", id: "azi-leave", dataset: { focus: "azi-leave" },
      onclick: () => ctx.act({ kind: "leave" }, "leave") }, "Leave the table"));
  }
  let prompt = null;
  if (legalOf(ctx, "play").length) prompt = "Your turn: play one of the highlighted cards.";
  else if (legalOf(ctx, "discard").length) prompt = "Lay one card away face down before the betting.";
  else if (legalOf(ctx, "bet").length) prompt = "You open the betting: choose your bet (you may not fold or check).";
  else if (legalOf(ctx, "call").length) prompt = `The high bet is ${view.high}. Call, raise or fold.`;
  else if (legalOf(ctx, "buy_in").length) prompt = "Azi! Buy in to play the re-deal, or decline.";
  else if (view.to_act.length && !["game_over", "match_over", "needs_deal"].includes(view.phase)) {
    prompt = `Waiting for ${view.to_act.map((seat) => ctx.name(seat)).join(", ")}.`;
  }
  const seat = ctx.mySeat;
  const stack = seat === null ? 0 : view.stacks[seat];
  const mine = seat === null ? null : h("p", { class: "muted my-stack", id: "azi-my-stack" },
    stillAtTable(view, seat) ? MONEY.myStack({ stack }) : MONEY.backInWallet({ stack }),
    view.bets[seat] ? ` \u00b7 your bet: ${view.bets[seat]}` : "",
    ` \u00b7 pot: ${view.pot}`, view.trump ? ` \u00b7 trump: ${SUIT_NAMES[view.trump]} ${SUIT_SYMBOLS[view.trump]}` : "",
    view.my_discard ? ` \u00b7 laid away: ${cardShort(view.my_discard)}` : "",
    view.trick.length ? h("span", { class: "on-table" }, ` \u00b7 on the table: ${trickText(ctx.object, view.trick)}`) : null);
  return h("div", { class: "actions-box action-bar", role: "group", "aria-label": "Your actions" },
    prompt ? h("p", { class: "prompt", id: "azi-prompt" }, prompt) : null, mine,
    controls.length ? h("div", { class: "row actions" }, controls) : null);
}

function handBox(ctx) {
  const view = ctx.view;
  if (ctx.mySeat === null) return null;
  const playable = new Set(legalOf(ctx, "play").map((entry) => entry.card));
  const discardable = new Set(legalOf(ctx, "discard").map((entry) => entry.card));
  const ui = ctx.ui;
  if (!discardable.has(ui.discard)) ui.discard = null;
  const row = h("div", { class: "card-row hand-row" }, view.hand.map((card) => {
    if (discardable.size) {
      return cardButton(card, { pressed: ui.discard === card, focusKey: `azi-card-${card}`,
        hint: ui.discard === card ? "chosen to discard" : "may be discarded",
        onPress: () => { ui.discard = ui.discard === card ? null : card; ctx.rerender(); } });
    }
    if (view.phase === "play" && ctx.legal.length) {
      const legal = playable.has(card);
      return cardButton(card, { disabled: !legal, focusKey: `azi-card-${card}`, extraClass: legal ? "playable" : "",
        hint: legal ? "playable" : "not playable now",
        onPress: () => ctx.act({ kind: "play", card }, `play of ${cardShort(card)}`) });
    }
    return cardButton(card, { disabled: true, focusKey: `azi-card-${card}`, hint: "in your hand" });
  }));
  for (const node of row.children) dealtIn(node, node.dataset.card);
  row.style.setProperty("--hand-count", String(Math.max(5, view.hand.length)));
  enableArrowKeys(row);
  const parts = [row];
  if (discardable.size) {
    parts.push(h("div", { class: "row actions" }, h("button", {
      type: "button", class: "primary", id: "azi-discard", disabled: !ui.discard, dataset: { focus: "azi-discard" },
      onclick: () => ctx.act({ kind: "discard", card: ui.discard }, `discard of ${cardShort(ui.discard)}`),
    }, ui.discard ? `Discard ${cardShort(ui.discard)}` : "Choose a card to discard")));
  }
  if (view.hand.length === 0) parts.push(h("p", { class: "muted" }, "No cards in your hand now."));
  return h("section", { class: "hand", role: "region", "aria-label": "Your hand" }, parts);
}

function tricksList(ctx, tricks, caption) {
  if (!tricks.length) return null;
  return h("div", { class: "tricks-list" }, h("h3", {}, caption),
    h("ol", {}, tricks.map((trick) => h("li", { dataset: { trick: String(trick.number) } },
      `Trick ${trick.number}: `, h("span", { class: "card-row" }, trick.cards.map((play) => cardImage(play.card, { small: true }))),
      ` won by ${ctx.object(trick.winner)}`))));
}

function lastGameText(ctx, game) {
  const nets = game.net.map((net, seat) => `${ctx.name(seat)} ${signed(net)}`).join(", ");
  return `Game ${game.number}: ${ctx.name(game.winner)} won the pot of ${game.pot} ${REASONS[game.reason] || game.reason}`
    + `${game.deals > 1 ? ` after ${game.deals} deals` : ""}. Chips: ${nets}.`;
}

function chipsTable(ctx) {
  const view = ctx.view;
  const seats = view.stacks.map((_, seat) => seat);
  const deals = ctx.dealResults();
  return scrollBox(h("table", { class: "scores", id: "azi-chips" },
    h("caption", {}, "Chips won or lost"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Deal"), seats.map((seat) => h("th", { scope: "col" }, ctx.name(seat))),
      h("th", { scope: "col" }, "Result"))),
    h("tbody", {},
      deals.map((deal) => h("tr", {}, h("th", { scope: "row" }, String(deal.number)),
        deal.points.map((points) => h("td", {}, signed(points))),
        h("td", {}, deal.detail && deal.detail.reason === "azi" ? "Azi: pot carried over"
          : deal.detail ? `${ctx.name(deal.detail.winner)} ${REASONS[deal.detail.reason] || ""}` : ""))),
      h("tr", { class: "total" }, h("th", { scope: "row" }, "Session"), view.scores.map((score) => h("td", {}, signed(score))), h("td")),
      h("tr", {}, h("th", { scope: "row" }, "Stack"), view.stacks.map((stack) => h("td", {}, String(stack))), h("td")))),
  "Chips won or lost");
}

function rememberDeal(ctx) {
  const view = ctx.view;
  if (view.tricks.length) ctx.ui.lastTricks = { deal: view.deal_number, tricks: view.tricks };
}

function panel(ctx) {
  const view = ctx.view;
  rememberDeal(ctx);
  const parts = [];
  if (view.buy_in && view.phase === "azi_buy_in") {
    const offer = view.buy_in;
    parts.push(h("p", { class: "azi-offer", id: "azi-offer" },
      `Azi! ${offer.free.map((seat) => ctx.name(seat)).join(", ")} play the re-deal for free; `,
      `the others may buy in for ${offer.price} chips`,
      offer.waiting.length ? ` (now asking ${ctx.name(offer.waiting[0])}).` : "."));
  }
  if (view.tricks.length) parts.push(tricksList(ctx, view.tricks, `Tricks of deal ${view.deal_number}`));
  else if (ctx.ui.lastTricks) {
    parts.push(tricksList(ctx, ctx.ui.lastTricks.tricks, `Tricks of the last deal (${ctx.ui.lastTricks.deal})`));
  }
  if (view.last_game) parts.push(h("p", { class: "deal-result", id: "azi-last-game" }, lastGameText(ctx, view.last_game)));
  if (view.match_end) parts.push(h("p", { class: "deal-result" }, `The session is over: ${END_REASONS[view.match_end] || view.match_end}.`));
  parts.push(chipsTable(ctx));
  return h("div", { class: "game-panel azi" }, parts);
}

function trumpBox(ctx) {
  const view = ctx.view;
  if (!view.exposed_card) return null;
  const suit = view.trump;
  return h("div", { class: "trump-box", id: "azi-trump" },
    cardImage(view.exposed_card, { small: true }),
    h("div", {},
      h("div", {}, h("strong", {}, `Trump: ${SUIT_NAMES[suit]} ${SUIT_SYMBOLS[suit]}`)),
      h("div", { class: "muted" }, `turned up by ${ctx.object(view.exposed_seat)}`),
      view.six_on_scene
        ? h("div", { class: "six", id: "azi-six" }, `Six on the scene: the 6 of ${SUIT_NAMES[suit]} is the highest card`)
        : null));
}

function phaseLine(ctx) {
  const view = ctx.view;
  const deal = `Game ${view.game_number}${view.redeal ? ", Azi re-deal" : ""}`;
  switch (view.phase) {
    case "discard": return `${deal}: everyone discards one card`;
    case "betting": return `${deal}: betting, ${ctx.object(view.to_act[0])} to act`;
    case "play": return `${deal}: trick ${view.tricks.length + 1}, ${ctx.object(view.to_act[0])} to play`;
    case "azi_buy_in": return `${deal}: Azi! The pot is carried over`;
    case "game_over": return view.last_game ? `${ctx.name(view.last_game.winner)} ${view.last_game.winner === ctx.mySeat ? "win" : "wins"} the pot of ${view.last_game.pot}` : "Game over";
    case "needs_deal":
      if (view.redeal) return "The Azi re-deal comes next";
      return view.last_game ? `Game ${view.last_game.number}: ${ctx.name(view.last_game.winner)} won the pot of ${view.last_game.pot}; the next game comes`
        : "The next game is being dealt";
    case "match_over": return "The session is over";
    default: return view.phase;
  }
}

function centre(ctx) {
  const view = ctx.view;
  const towards = seatsAround(ctx, DIRECTION);
  const pot = h("p", { class: "pot", id: "azi-pot" }, moveIn(h("span", { class: "pot-amount" }, `Pot ${view.pot}`),
    `pot:${view.game_number}:${view.pot}`, "pulse"),
    view.dead_money ? h("span", { class: "muted" }, ` (${view.dead_money} carried)`) : null,
    view.high ? h("span", {}, ` \u00b7 high bet ${view.high}${view.high_bidder !== null ? ` by ${ctx.object(view.high_bidder)}` : ""}`) : null);
  let trick = null;
  if (view.trick.length) {
    trick = [collectedTrick(view.last_trick, view.last_trick_winner, towards),
      trickRow((seat) => ctx.name(seat), view.trick, null, towards)];
  } else if (view.last_trick.length) {
    trick = h("div", {}, trickRow((seat) => ctx.name(seat), view.last_trick, view.last_trick_winner, towards),
      h("p", { class: "muted", id: "azi-trick-winner" }, `Trick won by ${ctx.object(view.last_trick_winner)}`));
  }
  return h("div", { class: "centre-info" }, h("p", { class: "phase-line" }, phaseLine(ctx)), trumpBox(ctx), pot, trick);
}

function seatExtras(ctx, seat) {
  const view = ctx.view;
  const stack = view.stacks[seat];
  const parts = [h("span", { class: "stack" }, seat === ctx.mySeat && stillAtTable(view, seat)
    ? MONEY.atTable({ stack }) : chipsText(stack))];
  if (view.button === seat) parts.push(h("span", { class: "badge dealer" }, "button"));
  if (view.bets[seat]) parts.push(h("span", { class: "bet" }, `bet ${view.bets[seat]}`, chipToken(ctx, seat, "to-pot")));
  if (view.folded.includes(seat)) parts.push(h("span", { class: "badge out" }, "folded"));
  if (view.all_in.includes(seat)) parts.push(h("span", { class: "badge" }, "all in"));
  if (view.sitting_out.includes(seat)) parts.push(h("span", { class: "badge out" }, "sitting out"));
  if (view.left.includes(seat)) parts.push(h("span", { class: "badge out" }, "left"));
  if (view.phase === "discard" && view.discarded.includes(seat)) parts.push(h("span", { class: "badge ok" }, "discarded"));
  if (view.tricks_won[seat]) parts.push(h("span", { class: "badge" }, `${view.tricks_won[seat]} trick${view.tricks_won[seat] > 1 ? "s" : ""}`));
  if (seat !== ctx.mySeat && view.cards_held[seat]) parts.push(cardBacks(view.cards_held[seat]));
  if (view.exposed_seat === seat && view.exposed_card) parts.push(h("span", { class: "muted" }, `turned up ${cardShort(view.exposed_card)}`));
  const gameShown = view.phase === "game_over" || (view.phase === "needs_deal" && !view.redeal);
  if (gameShown && view.last_game) {
    parts.push(h("span", { class: "net" }, signed(view.last_game.net[seat]),
      view.last_game.winner === seat ? chipToken(ctx, seat, "to-winner") : null));
  }
  return parts;
}

/**
 * A chip moving between a seat and the pot for a moment: ``to-pot`` when the seat's bet goes in,
 * ``to-winner`` when the pot goes to the seat; null once it has moved (or is not new).
 */
function chipToken(ctx, seat, kind) {
  const view = ctx.view;
  const amount = kind === "to-pot" ? view.bets[seat] : view.last_game.number;
  if (!isFresh(`chip:${kind}:${view.game_number}:${seat}:${amount}`)) return null;
  const vector = seatsAround(ctx, DIRECTION)(seat);
  const token = h("span", { class: `chip-token motion-${kind}`, "aria-hidden": "true" });
  return heading(token, { x: -vector.x, y: -vector.y }, 4);
}

function ownerControls(ctx) {
  if (ctx.room.status === "finished") return null;
  return h("section", { class: "card-panel owner-controls", "aria-label": "Owner" },
    h("div", { class: "row" },
      h("button", { type: "button", id: "azi-close", dataset: { focus: "azi-close" }, onclick: () => ctx.send({ type: "close" }) },
        "Close the table"),
      h("small", { class: "muted" }, "Closing is possible between games; the server says when it is not.")));
}

function onState(ctx, before, after) {
  if (ctx.ui.confirm && (!before || JSON.stringify(before.legal) !== JSON.stringify(after.legal))) {
    // The decision it asks about has passed (the autopilot made it, the table moved on).
    ctx.ui.confirm.close();
    ctx.ui.confirm = null;
  }
  const was = before && before.view.tricks ? before.view.tricks.length : 0;
  const tricks = after.view.tricks || [];
  if (tricks.length > was) {
    announce(`Trick ${tricks.length} won by ${ctx.object(tricks[tricks.length - 1].winner)}.`);
  }
  const game = after.view.last_game;
  if (game && (!before || !before.view.last_game || before.view.last_game.number !== game.number)) {
    announce(lastGameText(ctx, game));
  }
}

/** The docked part: the decision's prompt and controls, and the player's hand. */
function dock(ctx) {
  return h("div", { class: "azi-dock" }, actionsBox(ctx), handBox(ctx));
}

export default { direction: DIRECTION, panel, dock, centre, seatExtras, ownerControls, onState };
