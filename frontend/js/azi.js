// Azi at the table: the exposed trump card (and the six on the scene), stacks, pot and bets, the
// betting actions with their allowed ranges (a bet, call or raise of more than a quarter of the
// stack, or all of it, asks first), the 4-card discard, trick play with only the legal cards
// pressable, the Azi re-deal offer, and the chips each game moved. The words are the catalog's
// (area "azi"), each sentence whole: how a game was won, each phase with and without the re-deal.

import {
  CARD_HINTS, SUIT_NAMES, SUIT_SYMBOLS, YOUR_HAND, cardBacks, cardButton, cardImage, cardShort, collectedTrick, dealtIn,
  enableArrowKeys, listText, marks, signedNumber, trickRow, trickText, withNodes,
} from "./cards.js";
import { confirmDialog } from "./dialog.js";
import { announce, h, scrollBox } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { heading, isFresh, moveIn, seatsAround } from "./motion.js";
import { stillAtTable } from "./stakes.js";
import { MONEY, chipsText } from "./words.js";

// How a game was won: [the sentence, the sentence when the game took more than one deal].
const GAME_WON = {
  tricks: [(p) => t("azi.gameWonByTricks", p), (p) => t("azi.gameWonByTricksAfter", p)],
  folds: [(p) => t("azi.gameWonByFolds", p), (p) => t("azi.gameWonByFoldsAfter", p)],
};
const GAME_WON_OTHERWISE = [(p) => t("azi.gameWon", p), (p) => t("azi.gameWonAfter", p)];
// The winner of a deal in the chips table, by how he won it.
const DEAL_WON = { tricks: (p) => t("azi.dealWonByTricks", p), folds: (p) => t("azi.dealWonByFolds", p) };
const END_REASONS = { closed: () => t("azi.sessionClosed"), players: () => t("azi.sessionNoPlayers") };
// The phase line of a game: [in its first deal, in an Azi re-deal].
const PHASES = {
  discard: [(p) => t("azi.phaseDiscard", p), (p) => t("azi.phaseDiscardRedeal", p)],
  betting: [(p) => (p.mine ? t("azi.phaseBettingYou", p) : t("azi.phaseBetting", p)),
    (p) => (p.mine ? t("azi.phaseBettingRedealYou", p) : t("azi.phaseBettingRedeal", p))],
  play: [(p) => (p.mine ? t("azi.phasePlayYou", p) : t("azi.phasePlay", p)),
    (p) => (p.mine ? t("azi.phasePlayRedealYou", p) : t("azi.phasePlayRedeal", p))],
  azi_buy_in: [(p) => t("azi.phaseAzi", p), (p) => t("azi.phaseAziRedeal", p)],
};
// "Six on the scene" for each of Azi's three suits.
const SIX_ON_SCENE = {
  H: () => t("azi.sixOnSceneHearts"), D: () => t("azi.sixOnSceneDiamonds"), S: () => t("azi.sixOnSceneSpades"),
};
const SEPARATOR = " \u00b7 ";

const DIRECTION = "cw";

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
    // Text with a numeric keyboard rather than a number field: a text field's caret and selection
    // can be kept when the table is drawn again while the player types.
    id, type: "text", inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off", value: kept.text,
    dataset: { focus: id, min: entry.min, max: entry.max }, "aria-describedby": `${id}-range`,
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
    h("small", { id: `${id}-range`, class: "muted" }, t("azi.range", { min: entry.min, max: entry.max })),
    h("button", { type: "button", class: "small-button", dataset: { focus: `${id}-min` },
      onclick: () => { kept.text = String(entry.min); input.value = kept.text; } }, t("azi.min")),
    h("button", { type: "button", class: "small-button", dataset: { focus: `${id}-max` },
      onclick: () => { kept.text = String(entry.max); input.value = kept.text; } }, t("azi.max")),
    h("button", { type: "button", class: "primary", id: `azi-${kind}`, dataset: { focus: `azi-${kind}` }, onclick: submit },
      kind === "bet" ? t("azi.bet") : t("azi.raise")));
}

/** What the player is asked to do now, or whom the table waits for. */
function promptText(ctx) {
  const view = ctx.view;
  if (legalOf(ctx, "play").length) return t("azi.yourTurnPlay");
  if (legalOf(ctx, "discard").length) return t("azi.layAway");
  if (legalOf(ctx, "bet").length) return t("azi.youOpen");
  if (legalOf(ctx, "call").length) return t("azi.highBetPrompt", { high: view.high });
  if (legalOf(ctx, "buy_in").length) return t("azi.buyInPrompt");
  if (view.to_act.length && !["game_over", "match_over", "needs_deal"].includes(view.phase)) {
    return t("azi.waitingFor", { names: listText(view.to_act.map((seat) => ctx.name(seat))), count: view.to_act.length });
  }
  return null;
}

function actionsBox(ctx) {
  const view = ctx.view;
  const controls = [];
  for (const entry of legalOf(ctx, "bet")) {
    controls.push(amountControl(ctx, "bet", entry, t("azi.openingBet"), (amount) => sendAmount(ctx, "bet", entry, amount)));
  }
  for (const entry of legalOf(ctx, "call")) {
    const text = entry.all_in ? t("azi.allInButton", { amount: entry.amount }) : t("azi.callButton", { amount: entry.amount });
    controls.push(h("button", { type: "button", id: "azi-call", dataset: { focus: "azi-call" },
      onclick: () => actWithCare(ctx, { kind: "call" }, "call",
        { amount: entry.amount, put: entry.amount, allIn: entry.all_in }, "azi-call") }, text));
  }
  for (const entry of legalOf(ctx, "raise")) {
    controls.push(amountControl(ctx, "raise", entry, t("azi.raiseTo"), (to) => sendAmount(ctx, "raise", entry, to)));
  }
  if (legalOf(ctx, "fold").length) {
    controls.push(h("button", { type: "button", id: "azi-fold", dataset: { focus: "azi-fold" },
      onclick: () => ctx.act({ kind: "fold" }, "fold") }, t("azi.fold")));
  }
  if (legalOf(ctx, "buy_in").length) {
    controls.push(h("button", { type: "button", class: "primary", id: "azi-buy-in", dataset: { focus: "azi-buy-in" },
      onclick: () => ctx.act({ kind: "buy_in" }, "buy-in") },
    view.buy_in ? t("azi.buyInFor", { price: view.buy_in.price }) : t("azi.buyIn")));
  }
  if (legalOf(ctx, "decline").length) {
    controls.push(h("button", { type: "button", id: "azi-decline", dataset: { focus: "azi-decline" },
      onclick: () => ctx.act({ kind: "decline" }, "decline") }, t("azi.decline")));
  }
  if (legalOf(ctx, "leave").length) {
    controls.push(h("button", { type: "button", id: "azi-leave", dataset: { focus: "azi-leave" },
      onclick: () => ctx.act({ kind: "leave" }, "leave") }, t("azi.leaveTable")));
  }
  const seat = ctx.mySeat;
  const stack = seat === null ? 0 : view.stacks[seat];
  const mine = seat === null ? null : h("p", { class: "muted my-stack", id: "azi-my-stack" },
    stillAtTable(view, seat) ? MONEY.myStack({ stack }) : MONEY.backInWallet({ stack }),
    view.bets[seat] ? SEPARATOR + t("azi.yourBet", { amount: view.bets[seat] }) : "",
    SEPARATOR + t("azi.potItem", { pot: view.pot }),
    view.trump ? SEPARATOR + t("azi.trumpItem", { suit: SUIT_NAMES[view.trump], symbol: SUIT_SYMBOLS[view.trump] }) : "",
    view.my_discard ? SEPARATOR + t("azi.laidAway", { card: cardShort(view.my_discard) }) : "",
    view.trick.length ? h("span", { class: "on-table" },
      SEPARATOR + t("azi.onTheTable", { plays: trickText(ctx, view.trick) })) : null);
  const prompt = promptText(ctx);
  return h("div", { class: "actions-box action-bar", role: "group", "aria-label": t("azi.yourActions") },
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
        hint: ui.discard === card ? CARD_HINTS.chosenToDiscard : CARD_HINTS.mayBeDiscarded,
        onPress: () => { ui.discard = ui.discard === card ? null : card; ctx.rerender(); } });
    }
    if (view.phase === "play" && ctx.legal.length) {
      const legal = playable.has(card);
      return cardButton(card, { disabled: !legal, focusKey: `azi-card-${card}`, extraClass: legal ? "playable" : "",
        hint: legal ? CARD_HINTS.playable : CARD_HINTS.notPlayable,
        onPress: () => ctx.act({ kind: "play", card }, `play of ${cardShort(card)}`) });
    }
    return cardButton(card, { disabled: true, focusKey: `azi-card-${card}`, hint: CARD_HINTS.inHand });
  }));
  for (const node of row.children) dealtIn(node, node.dataset.card);
  row.style.setProperty("--hand-count", String(Math.max(5, view.hand.length)));
  enableArrowKeys(row);
  const parts = [row];
  if (discardable.size) {
    parts.push(h("div", { class: "row actions" }, h("button", {
      type: "button", class: "primary", id: "azi-discard", disabled: !ui.discard, dataset: { focus: "azi-discard" },
      onclick: () => ctx.act({ kind: "discard", card: ui.discard }, `discard of ${cardShort(ui.discard)}`),
    }, ui.discard ? t("azi.discardCard", { card: cardShort(ui.discard) }) : t("azi.chooseDiscard"))));
  }
  if (view.hand.length === 0) parts.push(h("p", { class: "muted" }, t("azi.noCards")));
  return h("section", { class: "hand", role: "region", "aria-label": YOUR_HAND }, parts);
}

function tricksList(ctx, tricks, caption) {
  if (!tricks.length) return null;
  return h("div", { class: "tricks-list" }, h("h3", {}, caption),
    h("ol", {}, tricks.map((trick) => h("li", { dataset: { trick: String(trick.number) } },
      trickLine(ctx, trick)))));
}

/** "Trick 1: [the cards] won by Bot 2". */
function trickLine(ctx, trick) {
  const nodes = { cards: h("span", { class: "card-row" }, trick.cards.map((play) => cardImage(play.card, { small: true }))) };
  return withNodes(ctx.bySeat(trick.winner, (name) => t("azi.trickLine", { number: trick.number, name, ...marks(nodes) }),
    () => t("azi.trickLineYou", { number: trick.number, ...marks(nodes) })), nodes);
}

function lastGameText(ctx, game) {
  const nets = listText(game.net.map((net, seat) => t("azi.nameAndNet", { name: ctx.name(seat), net: signedNumber(net) })));
  const [once, after] = GAME_WON[game.reason] || GAME_WON_OTHERWISE;
  const won = (game.deals > 1 ? after : once)({ game: game.number, name: ctx.name(game.winner), pot: game.pot, count: game.deals });
  return `${won} ${t("azi.gameChips", { nets })}`;
}

/** The result column of the chips table: an Azi, or who won the deal and how. */
function dealResult(ctx, detail) {
  if (!detail) return "";
  if (detail.reason === "azi") return t("azi.potCarriedOver");
  return DEAL_WON[detail.reason] ? DEAL_WON[detail.reason]({ name: ctx.name(detail.winner) }) : ctx.name(detail.winner);
}

function chipsTable(ctx) {
  const view = ctx.view;
  const seats = view.stacks.map((_, seat) => seat);
  const deals = ctx.dealResults();
  return scrollBox(h("table", { class: "scores", id: "azi-chips" },
    h("caption", {}, t("azi.chipsWonOrLost")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("azi.deal")), seats.map((seat) => h("th", { scope: "col" }, ctx.name(seat))),
      h("th", { scope: "col" }, t("azi.result")))),
    h("tbody", {},
      deals.map((deal) => h("tr", {}, h("th", { scope: "row" }, formatNumber(deal.number)),
        deal.points.map((points) => h("td", {}, signedNumber(points))),
        h("td", {}, dealResult(ctx, deal.detail)))),
      h("tr", { class: "total" }, h("th", { scope: "row" }, t("azi.session")), view.scores.map((score) => h("td", {}, signedNumber(score))), h("td")),
      h("tr", {}, h("th", { scope: "row" }, t("azi.stack")), view.stacks.map((stack) => h("td", {}, formatNumber(stack))), h("td")))),
  t("azi.chipsWonOrLost"));
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
    const names = listText(offer.free.map((seat) => ctx.name(seat)));
    parts.push(h("p", { class: "azi-offer", id: "azi-offer" }, offer.waiting.length
      ? ctx.bySeat(offer.waiting[0], (name) => t("azi.offerAsking", { names, count: offer.price, name }),
        () => t("azi.offerAskingYou", { names, count: offer.price }))
      : t("azi.offer", { names, count: offer.price })));
  }
  if (view.tricks.length) parts.push(tricksList(ctx, view.tricks, t("azi.tricksOfDeal", { deal: view.deal_number })));
  else if (ctx.ui.lastTricks) {
    parts.push(tricksList(ctx, ctx.ui.lastTricks.tricks, t("azi.tricksOfLastDeal", { deal: ctx.ui.lastTricks.deal })));
  }
  if (view.last_game) parts.push(h("p", { class: "deal-result", id: "azi-last-game" }, lastGameText(ctx, view.last_game)));
  if (view.match_end) {
    parts.push(h("p", { class: "deal-result" }, END_REASONS[view.match_end] ? END_REASONS[view.match_end]() : t("azi.sessionEnded")));
  }
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
      h("div", {}, h("strong", {}, t("azi.trump", { suit: SUIT_NAMES[suit], symbol: SUIT_SYMBOLS[suit] }))),
      h("div", { class: "muted" }, ctx.bySeat(view.exposed_seat, (name) => t("azi.turnedUpBy", { name }),
        () => t("azi.turnedUpByYou"))),
      view.six_on_scene && SIX_ON_SCENE[suit]
        ? h("div", { class: "six", id: "azi-six" }, SIX_ON_SCENE[suit]())
        : null));
}

function gameOverLine(ctx, game) {
  if (!game) return t("azi.gameOver");
  return game.winner === ctx.mySeat ? t("azi.youWinPot", { pot: game.pot })
    : t("azi.winsPot", { name: ctx.name(game.winner), pot: game.pot });
}

function phaseLine(ctx) {
  const view = ctx.view;
  const phase = PHASES[view.phase];
  if (phase) {
    const seat = view.to_act.length ? view.to_act[0] : null;
    return phase[view.redeal ? 1 : 0]({ game: view.game_number, trick: view.tricks.length + 1,
      mine: seat !== null && seat === ctx.mySeat, name: seat === null ? "" : ctx.name(seat) });
  }
  switch (view.phase) {
    case "game_over": return gameOverLine(ctx, view.last_game);
    case "needs_deal":
      if (view.redeal) return t("azi.redealNext");
      return view.last_game ? t("azi.nextGame", { game: view.last_game.number, name: ctx.name(view.last_game.winner),
        pot: view.last_game.pot }) : t("azi.dealingNext");
    case "match_over": return t("azi.sessionOver");
    default: return "";
  }
}

function centre(ctx) {
  const view = ctx.view;
  const towards = seatsAround(ctx, DIRECTION);
  const pot = h("p", { class: "pot", id: "azi-pot" }, moveIn(h("span", { class: "pot-amount" }, t("azi.pot", { pot: view.pot })),
    `pot:${view.game_number}:${view.pot}`, "pulse"),
    view.dead_money ? h("span", { class: "muted" }, ` ${t("azi.carried", { amount: view.dead_money })}`) : null,
    view.high ? h("span", {}, SEPARATOR + (view.high_bidder !== null
      ? ctx.bySeat(view.high_bidder, (name) => t("azi.highBetBy", { high: view.high, name }),
        () => t("azi.highBetByYou", { high: view.high }))
      : t("azi.highBet", { high: view.high }))) : null);
  let trick = null;
  if (view.trick.length) {
    trick = [collectedTrick(view.last_trick, view.last_trick_winner, towards),
      trickRow((seat) => ctx.name(seat), view.trick, null, towards)];
  } else if (view.last_trick.length) {
    trick = h("div", {}, trickRow((seat) => ctx.name(seat), view.last_trick, view.last_trick_winner, towards),
      h("p", { class: "muted", id: "azi-trick-winner" }, ctx.bySeat(view.last_trick_winner,
        (name) => t("azi.trickWonBy", { name }), () => t("azi.trickWonByYou"))));
  }
  return h("div", { class: "centre-info" }, h("p", { class: "phase-line" }, phaseLine(ctx)), trumpBox(ctx), pot, trick);
}

function seatExtras(ctx, seat) {
  const view = ctx.view;
  const stack = view.stacks[seat];
  const parts = [h("span", { class: "stack" }, seat === ctx.mySeat && stillAtTable(view, seat)
    ? MONEY.atTable({ stack }) : chipsText(stack))];
  if (view.button === seat) parts.push(h("span", { class: "badge dealer" }, t("azi.buttonBadge")));
  if (view.bets[seat]) parts.push(h("span", { class: "bet" }, t("azi.betBadge", { amount: view.bets[seat] }), chipToken(ctx, seat, "to-pot")));
  if (view.folded.includes(seat)) parts.push(h("span", { class: "badge out" }, t("azi.folded")));
  if (view.all_in.includes(seat)) parts.push(h("span", { class: "badge" }, t("azi.allIn")));
  if (view.sitting_out.includes(seat)) parts.push(h("span", { class: "badge out" }, t("azi.sittingOut")));
  if (view.left.includes(seat)) parts.push(h("span", { class: "badge out" }, t("azi.left")));
  if (view.phase === "discard" && view.discarded.includes(seat)) parts.push(h("span", { class: "badge ok" }, t("azi.discarded")));
  if (view.tricks_won[seat]) parts.push(h("span", { class: "badge" }, t("azi.tricksWon", { count: view.tricks_won[seat] })));
  if (seat !== ctx.mySeat && view.hand_sizes[seat]) parts.push(cardBacks(view.hand_sizes[seat]));
  if (view.exposed_seat === seat && view.exposed_card) {
    parts.push(h("span", { class: "muted" }, t("azi.turnedUp", { card: cardShort(view.exposed_card) })));
  }
  const gameShown = view.phase === "game_over" || (view.phase === "needs_deal" && !view.redeal);
  if (gameShown && view.last_game) {
    parts.push(h("span", { class: "net" }, signedNumber(view.last_game.net[seat]),
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
  return h("section", { class: "card-panel owner-controls", "aria-label": t("azi.owner") },
    h("div", { class: "row" },
      h("button", { type: "button", id: "azi-close", dataset: { focus: "azi-close" }, onclick: () => ctx.send({ type: "close" }) },
        t("azi.closeTable")),
      h("small", { class: "muted" }, t("azi.closeHelp"))));
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
    announce(ctx.bySeat(tricks[tricks.length - 1].winner, (name) => t("azi.trickTaken", { number: tricks.length, name }),
      () => t("azi.trickTakenYou", { number: tricks.length })));
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
