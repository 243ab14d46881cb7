// The languages of cardroom's players, each named in itself, and the one a player reads the rules
// in best among those a rules page is written in: his own choice for the rules (a language link he
// followed), else the interface's language, else his browser's languages in order, else English.

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

// The language picked for the rules pages, apart from the interface's (i18n.js): a player may read
// the Georgian rules in a Russian interface.
const RULES_KEY = "cardroom.rulesLanguage";

/** Primary language subtags the player reads the rules in, best first: the one he picked for them,
 * the interface's, then the browser's. */
export function preferredLanguages() {
  const chosen = window.localStorage.getItem(RULES_KEY);
  const page = document.documentElement.lang;
  const browser = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language])
    .filter(Boolean).map((tag) => tag.toLowerCase().split("-")[0]);
  return [...new Set([chosen, page, ...browser].filter((code) => code && code in LANGUAGE_NAMES))];
}

export function rememberLanguage(code) {
  if (code in LANGUAGE_NAMES) window.localStorage.setItem(RULES_KEY, code);
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
