// Help where it is needed at the table: a "How it works" popover per game (Hazari's ranking with an
// example of each combination and how a deal's points are counted, the words of Azi, what a
// Hasenpfeffer bid commits a team to), and a short guided first deal, remembered once done.

import { cardImage } from "./cards.js";
import { h } from "./dom.js";

const RANKING = [
  ["Troy", "three cards of one rank", ["AS", "AH", "AD"]],
  ["Colour run", "a run of three in one suit", ["QS", "KS", "AS"]],
  ["Run", "a run of three in mixed suits", ["QS", "KH", "AD"]],
  ["Colour", "three cards of one suit", ["AS", "KS", "JS"]],
  ["Pair", "two of one rank and one other", ["9S", "9H", "KD"]],
  ["Indi", "anything else", ["AS", "KH", "JD"]],
];

/** A card pictured in the help (not marked as one of the table's cards). */
function exampleCard(card) {
  const image = cardImage(card, { small: true });
  delete image.dataset.card;
  return image;
}

function hazariHelp() {
  return [
    h("h3", {}, "Strongest groups first"),
    h("ol", { class: "ranking" }, RANKING.map(([name, what, cards]) => h("li", {},
      h("strong", {}, name), ` \u2014 ${what} `,
      h("span", { class: "card-row" }, cards.map(exampleCard))))),
    h("p", {}, "Within one kind the higher cards win; a run A-K-Q is the best run, then A-2-3. "
      + "G1 must be at least as strong as G2, G2 as G3, and G3 as G4 (its best three cards)."),
    h("h3", {}, "How a deal's points are counted"),
    h("p", {}, "The best group of each round takes every card shown in it. Aces, kings, queens, jacks "
      + "and tens are worth 10, the other cards 5; a deal shares out 360 points."),
    h("p", {}, "Example: winning a round in which A\u2660 A\u2665 A\u2666 K\u2660 Q\u2660 J\u2660 9\u2665 9\u2666 2\u2663 "
      + "10\u2660 8\u2665 6\u2663 were shown gives +95 = 10+10+10 + 10+10+10 + 5+5+5 + 10+5+5."),
  ];
}

/** A list of terms and what they mean. */
function glossary(entries) {
  return [h("dl", { class: "glossary" }, entries.map(([term, meaning]) => [h("dt", {}, term), h("dd", {}, meaning)]))];
}

const AZI_WORDS = [
  ["Trump and the turned-up card", "The last card dealt is shown face up; its suit is trump for the deal."],
  ["Six on the scene", "When the turned-up card is an Ace, the 6 of trumps becomes the highest card of the deal."],
  ["Ante and pot", "Everyone pays the stake into the pot at the start of a game; the first to take two tricks wins the pot."],
  ["Bet, call, raise, fold", "The highest bet wins the right to lead. Call to match it, raise to bid more, fold to drop out (what you put in stays in the pot)."],
  ["All-in", "Calling with every chip you have left: you stay in the deal but can only win as much from each player as you put in."],
  ["Azi", "Three players took one trick each: nobody wins, the pot stays and the game is dealt again."],
  ["Buy-in", "The chips you bring from your wallet to a chip table; what is left of them goes back to your wallet when you leave."],
  ["Buy-in after an Azi", "Players without a trick may pay half the pot to play the re-deal; the three with a trick play for free."],
];

const HASENPFEFFER_WORDS = [
  ["A bid of N", "Your team promises to take at least N of the six tricks. Make it and your team scores a point per trick taken; "
        + "fall short and it loses N points. The other team scores a point per trick it takes."],
  ["Pass", "A pass is final for the deal. When three have passed, the last bidder wins the bidding."],
  ["The widow", "The card left over: the winner of the bidding takes it, names trump and lays one card away."],
  ["Trumps", "The Joker is the best card, then the Jack of trumps, then the other Jack of the same colour, then A K Q 10 9."],
  ["Little and Big Pepper", "At pepper tables: a promise of all six tricks, Big Pepper for double points."],
];

const HELP = {
  hazari: ["Which group is stronger?", hazariHelp],
  azi: ["What the words mean", () => glossary(AZI_WORDS)],
  hasenpfeffer: ["What a bid means", () => glossary(HASENPFEFFER_WORDS)],
};

/**
 * The game's help as a small popover that opens above the hand, and a link to its rules page;
 * ``kept.open`` keeps it open across redraws.
 */
export function tableHelp(game, kept) {
  const entry = HELP[game];
  if (!entry) return null;
  const [title, body] = entry;
  return h("div", { class: "table-help" },
    h("details", { class: "help-popover", id: "table-help", open: Boolean(kept.open),
      ontoggle: (event) => { kept.open = event.target.open; } },
      h("summary", {}, title),
      h("div", { class: "help-body", role: "note", "aria-label": title }, body(),
        h("p", {}, h("a", { href: `#/rules/${game}` }, "All the rules")))));
}

// --- the guided first deal ------------------------------------------------------------------------

// Each tip with the phases it belongs to: the guide moves on by itself when the deal does.
const GUIDES = {
  hazari: [
    [["arranging"], "Your 13 cards are at the bottom. Sort them into four groups: G1, G2 and G3 of three cards, G4 of four."],
    [["arranging"], "Tap cards, then \"Place\" on a group (or drag them). G1 must be your strongest group, G4 your weakest."],
    [["arranging"], "Stuck? \"Suggest\" fills in a good arrangement. \"Which group is stronger?\" shows the ranking."],
    [["arranging", "showing"], "When the check says the arrangement is valid, press \"Up\". The four rounds are then shown one by one."],
  ],
  azi: [
    [["discard", "betting"], "Every player has paid the stake into the pot. The turned-up card shows the trump suit."],
    [["betting"], "Bet to win the right to lead: call to match the highest bet, raise to bid more, or fold."],
    [["play"], "Now play: follow the suit led if you can, else play a trump. Two tricks win the pot."],
  ],
  hasenpfeffer: [
    [["bidding"], "You and the player opposite are partners. Bid how many of the six tricks your team will take, or pass."],
    [["trump", "discard"], "The winner of the bidding takes the widow card, names trump and lays one card away."],
    [["play"], "Follow the suit led if you can. The Joker and the two Jacks of trump's colour are the best trumps."],
  ],
};

const guideKey = (game) => `cardroom.guide.${game}`;

export function guideDone(game) {
  try {
    return window.localStorage.getItem(guideKey(game)) === "done";
  } catch (error) {
    return true;
  }
}

function finishGuide(game) {
  try {
    window.localStorage.setItem(guideKey(game), "done");
  } catch (error) {
    // A browser that keeps nothing shows the guide again next time.
  }
}

/**
 * The guide's current tip for ``game`` in ``phase`` (the tip the player has reached, ``ui.guideStep``,
 * or the first tip of a later phase), with Next and Skip; null once done.
 */
export function guideBox(game, phase, ui, rerender) {
  const steps = GUIDES[game];
  if (!steps || guideDone(game)) return null;
  const ofPhase = steps.findIndex(([phases]) => phases.includes(phase));
  const step = Math.min(Math.max(ui.guideStep || 0, ofPhase), steps.length - 1);
  ui.guideStep = step;
  const last = step === steps.length - 1;
  const close = () => { finishGuide(game); rerender(); };
  return h("aside", { class: "guide", id: "guide", "aria-label": "First deal guide" },
    h("p", {}, h("strong", {}, `Tip ${step + 1} of ${steps.length}: `), steps[step][1]),
    h("div", { class: "row" },
      h("button", { type: "button", class: "small-button", id: "guide-next", dataset: { focus: "guide-next" },
        onclick: () => {
          if (last) close();
          else { ui.guideStep = step + 1; rerender(); }
        } }, last ? "Got it" : "Next tip"),
      last ? null : h("button", { type: "button", class: "small-button", id: "guide-skip", dataset: { focus: "guide-skip" },
        onclick: close }, "Skip the tips")));
}
