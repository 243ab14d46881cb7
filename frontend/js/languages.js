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
