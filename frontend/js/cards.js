// Card faces drawn in SVG by this module (no image files): all 52 cards, the Joker and a back.
// Each suit has its own shape as well as its colour, and every card carries a text label. Card
// names and the words shared by the trick games come from the catalog (area "cards"); the card
// notation ("AS", "10H", "JK") stays in data attributes, and the short form "A\u2660" stays notation.

import { PSEUDO, language, t } from "./i18n.js";
import { heading, isFresh, moveIn } from "./motion.js";

const SVG_NS = "http://www.w3.org/2000/svg";

export const SUIT_NAMES = { S: t("cards.spades"), H: t("cards.hearts"), D: t("cards.diamonds"), C: t("cards.clubs") };
export const SUIT_SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
// A card's name is one message per suit ("{rank} of spades"), so that a language can decline the
// suit or put it first; the rank is a word of its own.
const CARD_NAMES = {
  S: (rank) => t("cards.rankOfSpades", { rank }),
  H: (rank) => t("cards.rankOfHearts", { rank }),
  D: (rank) => t("cards.rankOfDiamonds", { rank }),
  C: (rank) => t("cards.rankOfClubs", { rank }),
};
const RANK_WORDS = {
  A: t("cards.ace"), K: t("cards.king"), Q: t("cards.queen"), J: t("cards.jack"), 10: t("cards.rank10"),
  9: t("cards.rank9"), 8: t("cards.rank8"), 7: t("cards.rank7"), 6: t("cards.rank6"), 5: t("cards.rank5"),
  4: t("cards.rank4"), 3: t("cards.rank3"), 2: t("cards.rank2"),
};
const RED = new Set(["H", "D"]);

// Suit shapes in a 100 x 100 box.
const SUIT_PATHS = {
  H: "M50 90 C 22 68 3 50 3 29 C 3 13 15 3 29 3 C 39 3 46 9 50 19 C 54 9 61 3 71 3 "
    + "C 85 3 97 13 97 29 C 97 50 78 68 50 90 Z",
  D: "M50 2 L 88 50 L 50 98 L 12 50 Z",
  S: "M50 3 C 40 22 5 40 5 62 C 5 76 15 85 28 85 C 37 85 44 80 47 74 C 46 84 41 91 32 97 "
    + "L 68 97 C 59 91 54 84 53 74 C 56 80 63 85 72 85 C 85 85 95 76 95 62 C 95 40 60 22 50 3 Z",
  C: "M50 6 A 19 19 0 1 1 49.9 6 Z M27 40 A 19 19 0 1 1 26.9 40 Z M73 40 A 19 19 0 1 1 72.9 40 Z "
    + "M46 52 L 54 52 C 54 75 59 88 68 97 L 32 97 C 41 88 46 75 46 52 Z",
};

/** What a card button says after the card's name in the trick games. */
export const CARD_HINTS = {
  playable: t("cards.playable"),
  notPlayable: t("cards.notPlayableNow"),
  inHand: t("cards.inYourHand"),
  chosenToDiscard: t("cards.chosenToDiscard"),
  mayBeDiscarded: t("cards.mayBeDiscarded"),
};
/** The name of the region holding the player's cards. */
export const YOUR_HAND = t("cards.yourHand");

const LOCALE = language === PSEUDO ? "en" : language;
const LISTS = {
  unit: new Intl.ListFormat(LOCALE, { type: "unit" }),
  and: new Intl.ListFormat(LOCALE, { type: "conjunction" }),
};
const SIGNED = new Intl.NumberFormat(LOCALE, { signDisplay: "exceptZero" });

/** Items as the language lists them: "a, b, c" (``unit``) or "a, b and c" (``and``). */
export function listText(items, kind = "unit") {
  return LISTS[kind].format(items.map(String));
}

/** A gain or loss as the language writes it: "+20", "-10", "0". */
export function signedNumber(value) {
  return SIGNED.format(value);
}

/**
 * Parameters that stand for nodes (cards drawn in a sentence): give them to t() with the others,
 * then hand its text and the same ``nodes`` to withNodes.
 */
export function marks(nodes) {
  return Object.fromEntries(Object.keys(nodes).map((name) => [name, `\u{F8FF}${name}\u{F8FF}`]));
}

/** A message's ``text`` (made with marks(nodes)) as strings and nodes, for an element's children. */
export function withNodes(text, nodes) {
  return text.split(/\u{F8FF}(\w+)\u{F8FF}/u)
    .map((part, index) => (index % 2 ? nodes[part] : part)).filter((part) => part !== "");
}

export function parseCard(code) {
  if (code === "JK") return { rank: "JK", suit: null };
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

/** "Ace of spades", "10 of hearts", "Joker". */
export function cardLabel(code) {
  if (code === "JK") return t("cards.joker");
  const { rank, suit } = parseCard(code);
  return CARD_NAMES[suit] ? CARD_NAMES[suit](RANK_WORDS[rank] || rank) : code;
}

/** "A♠" style short text for lists. */
export function cardShort(code) {
  if (code === "JK") return t("cards.joker");
  const { rank, suit } = parseCard(code);
  return `${rank}${SUIT_SYMBOLS[suit] || suit}`;
}

export function suitColourClass(suit) {
  return RED.has(suit) ? "red" : "black";
}

function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.appendChild(child);
  return node;
}

function text(x, y, content, attrs = {}) {
  const node = el("text", { x, y, ...attrs });
  node.textContent = content;
  return node;
}

/** A suit shape of ``size`` units with its top-left corner at (x, y). */
export function suitShape(suit, x, y, size) {
  return el("path", { d: SUIT_PATHS[suit], transform: `translate(${x} ${y}) scale(${size / 100})` });
}

function corner(rank, suit) {
  const group = el("g");
  const narrow = rank.length > 1;
  group.appendChild(text(narrow ? 5 : 8, 28, rank, {
    class: "rank", "font-size": narrow ? 25 : 28,
    "letter-spacing": narrow ? -2.5 : 0,
  }));
  group.appendChild(suitShape(suit, 7, 33, 19));
  return group;
}

function centre(rank, suit) {
  if (["J", "Q", "K"].includes(rank)) {
    return el("g", {}, [
      el("rect", { x: 31, y: 34, width: 38, height: 72, rx: 5, class: "court-frame" }),
      text(50, 82, rank, { class: "court", "text-anchor": "middle", "font-size": 34 }),
      suitShape(suit, 42, 87, 16),
      suitShape(suit, 42, 38, 16),
    ]);
  }
  const size = rank === "A" ? 54 : 44;
  return suitShape(suit, 50 - size / 2, 70 - size / 2, size);
}

function jokerFace(svg) {
  svg.appendChild(text(50, 30, "JOKER", { class: "joker-word", "text-anchor": "middle", "font-size": 17 }));
  svg.appendChild(el("path", {
    class: "joker-star",
    d: "M50 45 L57 63 L76 63 L61 75 L67 94 L50 83 L33 94 L39 75 L24 63 L43 63 Z",
  }));
  svg.appendChild(text(50, 124, "JOKER", {
    class: "joker-word", "text-anchor": "middle", "font-size": 17,
  }));
}

/** The SVG face of ``code`` (``"AS"``, ``"10H"``, ``"JK"``), or the back when code is null. */
export function cardSvg(code) {
  const svg = el("svg", { viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false" });
  if (code === null) {
    svg.setAttribute("class", "face back");
    svg.appendChild(el("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, class: "edge" }));
    svg.appendChild(el("rect", { x: 9, y: 9, width: 82, height: 122, rx: 5, class: "back-pattern" }));
    svg.appendChild(el("path", { d: "M50 30 L75 70 L50 110 L25 70 Z", class: "back-mark" }));
    return svg;
  }
  const { rank, suit } = parseCard(code);
  svg.setAttribute("class", `face ${code === "JK" ? "joker" : suitColourClass(suit)}`);
  svg.appendChild(el("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, class: "edge" }));
  if (code === "JK") {
    jokerFace(svg);
    return svg;
  }
  svg.appendChild(corner(rank, suit));
  const flipped = corner(rank, suit);
  flipped.setAttribute("transform", "rotate(180 50 70)");
  svg.appendChild(flipped);
  svg.appendChild(centre(rank, suit));
  return svg;
}

/** A card that is only shown: an image with its name as the accessible label. */
export function cardImage(code, { small = false, extraClass = "" } = {}) {
  const span = document.createElement("span");
  span.className = `card${small ? " small" : ""}${extraClass ? ` ${extraClass}` : ""}`;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", code === null ? t("cards.faceDown") : cardLabel(code));
  if (code !== null) span.dataset.card = code;
  span.appendChild(cardSvg(code));
  return span;
}

/**
 * A card the player can act on: a real button (Enter and Space press it) named after the card.
 * ``disabled`` keeps it focusable (aria-disabled) but ignores presses; ``pressed`` marks a selection.
 */
export function cardButton(code, { onPress, disabled = false, pressed = null, hint = "",
  small = false, focusKey = null, extraClass = "" } = {}) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `card${small ? " small" : ""}${extraClass ? ` ${extraClass}` : ""}`;
  button.dataset.card = code;
  if (disabled) button.setAttribute("aria-disabled", "true");
  if (pressed !== null) button.setAttribute("aria-pressed", pressed ? "true" : "false");
  if (focusKey) button.dataset.focus = focusKey;
  // The name is the text of a hidden span (not an aria-label), so that the corner letters drawn in
  // the face are not taken for a visible label that the name would have to contain.
  const name = document.createElement("span");
  name.className = "sr-only card-name";
  name.textContent = hint ? t("cards.cardWithHint", { card: cardLabel(code), hint }) : cardLabel(code);
  button.append(cardSvg(code), name);
  button.addEventListener("click", (event) => {
    if (button.getAttribute("aria-disabled") === "true") {
      event.preventDefault();
      return;
    }
    if (onPress) onPress(code, event);
  });
  return button;
}

/** A row of face-down cards (another player's hand), labelled with its count. */
export function cardBacks(count, { max = 6 } = {}) {
  const row = document.createElement("span");
  row.className = "backs";
  row.setAttribute("role", "img");
  row.setAttribute("aria-label", t("cards.cardsInHand", { count }));
  for (let i = 0; i < Math.min(count, max); i += 1) {
    const back = document.createElement("span");
    back.className = "card tiny";
    back.appendChild(cardSvg(null));
    row.appendChild(back);
  }
  if (count > max) {
    const more = document.createElement("span");
    more.className = "backs-more";
    more.textContent = t("cards.moreCards", { count: count - max });
    row.appendChild(more);
  }
  return row;
}

/**
 * Arrow keys move the focus between the card buttons of ``container`` (Left/Up back, Right/Down on,
 * Home/End to the ends). Enter and Space act through the buttons themselves.
 */
export function enableArrowKeys(container) {
  container.addEventListener("keydown", (event) => {
    const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
    if (!keys.includes(event.key)) return;
    const buttons = [...container.querySelectorAll("button.card")];
    const index = buttons.indexOf(document.activeElement);
    if (index < 0 || buttons.length === 0) return;
    event.preventDefault();
    let next = index;
    if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = Math.max(0, index - 1);
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = Math.min(buttons.length - 1, index + 1);
    if (event.key === "Home") next = 0;
    if (event.key === "End") next = buttons.length - 1;
    buttons[next].focus();
  });
}

/** "Q♥ from Bot 2, 9♥ from you": the trick so far, in words, for the docked action bar. */
export function trickText(ctx, plays) {
  return listText(plays.map((play) => {
    const card = cardShort(play.card);
    return ctx.bySeat(play.seat, (name) => t("cards.playedBy", { card, name }), () => t("cards.playedByYou", { card }));
  }));
}

/**
 * The cards of a trick in play order, each with its player's name; the winner's is marked. With
 * ``towards`` (a seat's direction from the centre, see motion.js) a card just played comes in from
 * its player's side.
 */
export function trickRow(names, plays, winner, towards = null) {
  const list = document.createElement("ol");
  list.className = "trick";
  for (const play of plays) {
    const item = document.createElement("li");
    if (play.seat === winner) item.className = "winner";
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = names(play.seat);
    const card = cardImage(play.card, { small: true });
    if (towards) moveIn(heading(card, towards(play.seat), 3), `trick:${play.seat}:${play.card}`, "play");
    item.append(card, who);
    list.appendChild(item);
  }
  return list;
}

/**
 * The trick just taken, moving off toward its winner's seat and fading, drawn over the new trick
 * for a moment after its first card is played (hidden from screen readers, which hear who won it);
 * null once it has gone.
 */
export function collectedTrick(plays, winner, towards) {
  if (!plays.length || winner === null || winner === undefined) return null;
  if (!isFresh(`collect:${plays.map((play) => `${play.seat}${play.card}`).join(",")}`)) return null;
  const row = trickRow(() => "", plays, winner);
  row.classList.add("motion-collect");
  heading(row, towards(winner), 5);
  const ghost = document.createElement("div");
  ghost.className = "collected-trick";
  ghost.setAttribute("aria-hidden", "true");
  ghost.appendChild(row);
  return ghost;
}

/** A card dealt into the player's hand: it moves in while it is new to the hand. */
export function dealtIn(node, code) {
  return moveIn(node, `hand:${code}`, "deal");
}
