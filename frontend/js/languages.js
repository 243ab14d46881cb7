// The languages of cardroom's players, each named in itself, and the one a player reads best among
// those a page is written in: his own choice (a language link he followed), else his browser's
// languages in order, else English. Also lists, fixed decimals and messages holding links, as the
// page's language writes them.

export const LANGUAGE_NAMES = {
  en: "English",
  bn: "বাংলা",
  hi: "हिन्दी",
  ru: "Русский",
  ka: "ქართული",
  kk: "Қазақша",
  el: "Ελληνικά",
  pl: "Polski",
  de: "Deutsch",
};

const CHOSEN_KEY = "cardroom.language";

/** Primary language subtags the player reads, best first: his saved choice, then the browser's. */
export function preferredLanguages() {
  const chosen = window.localStorage.getItem(CHOSEN_KEY);
  const browser = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language])
    .filter(Boolean).map((tag) => tag.toLowerCase().split("-")[0]);
  return [...new Set([chosen, ...browser].filter((code) => code && code in LANGUAGE_NAMES))];
}

export function rememberLanguage(code) {
  if (code in LANGUAGE_NAMES) window.localStorage.setItem(CHOSEN_KEY, code);
}

/**
 * The language to show among ``available`` (English among them): the first preferred one written,
 * and ``missing``, the preferred language it stands in for when that one is not written (else null).
 */
export function pickLanguage(available, preferred = preferredLanguages()) {
  const first = preferred[0] || "en";
  if (available.includes(first)) return { language: first, missing: null };
  const written = preferred.find((code) => available.includes(code));
  return { language: written || "en", missing: first === "en" ? null : first };
}

// --- lists, decimals and messages holding nodes, in the page's language (<html lang>, from i18n.js) --

function pageLocale() {
  return document.documentElement.lang || "en";
}

/** Items joined as the page's language lists them: ``conjunction`` ("Ana and Bo", "Ana, Bo, and
 * Cy"), or ``unit`` for a plain enumeration ("Ana 12, Bo 3"). */
export function formatList(items, type = "conjunction") {
  return new Intl.ListFormat(pageLocale(), { type, style: "long" }).format(items.map(String));
}

/** A number with exactly ``digits`` decimals as the page's language writes it ("25.50"). */
export function formatDecimal(value, digits = 2) {
  return new Intl.NumberFormat(pageLocale(), { minimumFractionDigits: digits, maximumFractionDigits: digits })
    .format(Number(value));
}

/** A message with nodes in it: its ``{name}`` placeholders that ``t()`` left unfilled become
 * ``nodes[name]`` (a link, say), the text around them stays text. */
export function withNodes(text, nodes) {
  return text.split(/\{(\w+)\}/).map((part, i) => (i % 2 ? nodes[part] ?? `{${part}}` : part)).filter((part) => part !== "");
}

/** Nodes (or texts) listed as ``formatList`` lists texts, the separators as text between them. */
export function listNodes(items, type = "unit") {
  const parts = new Intl.ListFormat(pageLocale(), { type, style: "long" }).formatToParts(items.map((_, i) => `\u0000${i}`));
  return parts.map((part) => (part.type === "element" ? items[Number(part.value.slice(1))] : part.value));
}
