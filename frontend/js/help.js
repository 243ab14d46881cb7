// Help where it is needed at the table: a "How it works" popover per game (Hazari's ranking with an
// example of each combination and how a deal's points are counted, the words of Azi, what a
// Hasenpfeffer bid commits a team to), and a short guided first deal, remembered once done. The
// words are the catalog's (area "help"); the example cards are drawn, their notation stays.

import { cardImage } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const RANKING = [
  [t("help.troy"), t("help.troyWhat"), ["AS", "AH", "AD"]],
  [t("help.colourRun"), t("help.colourRunWhat"), ["QS", "KS", "AS"]],
  [t("help.run"), t("help.runWhat"), ["QS", "KH", "AD"]],
  [t("help.colour"), t("help.colourWhat"), ["AS", "KS", "JS"]],
  [t("help.pair"), t("help.pairWhat"), ["9S", "9H", "KD"]],
  [t("help.indi"), t("help.indiWhat"), ["AS", "KH", "JD"]],
];

/** A card pictured in the help (not marked as one of the table's cards). */
function exampleCard(card) {
  const image = cardImage(card, { small: true });
  delete image.dataset.card;
  return image;
}

function hazariHelp() {
  return [
    h("h3", {}, t("help.strongestFirst")),
    h("ol", { class: "ranking" }, RANKING.map(([name, what, cards]) => h("li", {},
      h("strong", {}, name), ` \u2014 ${what} `,
      h("span", { class: "card-row" }, cards.map(exampleCard))))),
    h("p", {}, t("help.withinOneKind")),
    h("h3", {}, t("help.pointsTitle")),
    h("p", {}, t("help.pointsCounted")),
    h("p", {}, t("help.pointsExample")),
  ];
}

/** A list of terms and what they mean. */
function glossary(entries) {
  return [h("dl", { class: "glossary" }, entries.map(([term, meaning]) => [h("dt", {}, term), h("dd", {}, meaning)]))];
}

const AZI_WORDS = [
  [t("help.aziTrump"), t("help.aziTrumpMeaning")],
  [t("help.aziSix"), t("help.aziSixMeaning")],
  [t("help.aziAnte"), t("help.aziAnteMeaning")],
  [t("help.aziBetting"), t("help.aziBettingMeaning")],
  [t("help.aziAllIn"), t("help.aziAllInMeaning")],
  [t("help.aziAzi"), t("help.aziAziMeaning")],
  [t("help.aziBuyIn"), t("help.aziBuyInMeaning")],
  [t("help.aziBuyInAfterAzi"), t("help.aziBuyInAfterAziMeaning")],
];

const HASENPFEFFER_WORDS = [
  [t("help.hpBid"), t("help.hpBidMeaning")],
  [t("help.hpPass"), t("help.hpPassMeaning")],
  [t("help.hpWidow"), t("help.hpWidowMeaning")],
  [t("help.hpTrumps"), t("help.hpTrumpsMeaning")],
  [t("help.hpPepper"), t("help.hpPepperMeaning")],
];

const HELP = {
  hazari: [t("help.hazariTitle"), hazariHelp],
  azi: [t("help.aziTitle"), () => glossary(AZI_WORDS)],
  hasenpfeffer: [t("help.hasenpfefferTitle"), () => glossary(HASENPFEFFER_WORDS)],
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
        h("p", {}, h("a", { href: `#/rules/${game}` }, t("help.allRules"))))));
}

// --- the guided first deal ------------------------------------------------------------------------

// Each tip with the phases it belongs to: the guide moves on by itself when the deal does.
const GUIDES = {
  hazari: [
    [["arranging"], t("help.hazariTip1")],
    [["arranging"], t("help.hazariTip2", { place: t("hazari.place") })],
    [["arranging"], t("help.hazariTip3", { suggest: t("hazari.suggest"), help: t("help.hazariTitle") })],
    [["arranging", "showing"], t("help.hazariTip4", { up: t("hazari.up") })],
  ],
  azi: [
    [["discard", "betting"], t("help.aziTip1")],
    [["betting"], t("help.aziTip2")],
    [["play"], t("help.aziTip3")],
  ],
  hasenpfeffer: [
    [["bidding"], t("help.hasenpfefferTip1")],
    [["trump", "discard"], t("help.hasenpfefferTip2")],
    [["play"], t("help.hasenpfefferTip3")],
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
  return h("aside", { class: "guide", id: "guide", "aria-label": t("help.guide") },
    h("p", {}, h("strong", {}, t("help.tipOf", { step: step + 1, count: steps.length })), " ", steps[step][1]),
    h("div", { class: "row" },
      h("button", { type: "button", class: "small-button", id: "guide-next", dataset: { focus: "guide-next" },
        onclick: () => {
          if (last) close();
          else { ui.guideStep = step + 1; rerender(); }
        } }, last ? t("help.gotIt") : t("help.nextTip")),
      last ? null : h("button", { type: "button", class: "small-button", id: "guide-skip", dataset: { focus: "guide-skip" },
        onclick: close }, t("help.skipTips"))));
}
