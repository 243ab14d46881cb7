// The page's words in the player's language. One catalog per language (frontend/i18n/<code>.json,
// loaded as a JSON module), keys by area ("table.playAgain"), parameters by name ("{name}"), plural
// forms by the language's own categories (Intl.PluralRules), numbers and dates by Intl. The
// pseudo-locale en-XA shows English accented and lengthened, so that any text that did not come
// from a catalog, and any layout that breaks with longer words, stands out.

import en from "../i18n/en.json" with { type: "json" };
import { LANGUAGE_NAMES } from "./languages.js";

export const PSEUDO = "en-XA";
/** The languages with a catalog, English first. */
export const CATALOG_LANGUAGES = ["en", "bn", "hi", "ru", "ka", "kk", "el", "pl", "de"];
const CHOSEN_KEY = "cardroom.language";

const ACCENTS = Object.fromEntries([..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((letter, index) =>
  [letter, [..."àƀçđéƒĝĥíĵķļɱñöþǫŕšţûṽŵẋýžÀßÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"][index]]));

/** English made strange but readable: accented, a third longer, in brackets; ``{parameters}`` kept. */
export function pseudoText(text) {
  const accented = text.split(/(\{\w+\})/).map((part) => (part.startsWith("{") ? part
    : [...part].map((char) => ACCENTS[char] || char).join(""))).join("");
  return `\u27e6${accented}${"\u00b7".repeat(Math.ceil(text.length / 3))}\u27e7`;
}

function pseudoCatalog(source) {
  return Object.fromEntries(Object.entries(source).map(([key, value]) => [key, typeof value === "string"
    ? pseudoText(value) : Object.fromEntries(Object.entries(value).map(([form, text]) => [form, pseudoText(text)]))]));
}

function supported(code) {
  return code === PSEUDO || CATALOG_LANGUAGES.includes(code);
}

/** The language to show: a ``?lang=`` in the address (then remembered), the player's saved choice,
 * the browser's languages in order, the language the server chose from Accept-Language, English. */
function initialLanguage() {
  const asked = new URLSearchParams(window.location.search).get("lang");
  if (supported(asked)) {
    window.localStorage.setItem(CHOSEN_KEY, asked);
    return asked;
  }
  const chosen = window.localStorage.getItem(CHOSEN_KEY);
  if (supported(chosen)) return chosen;
  const browser = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language])
    .filter(Boolean).map((tag) => tag.toLowerCase().split("-")[0]);
  return browser.find(supported) || (supported(document.documentElement.lang) ? document.documentElement.lang : "en");
}

async function loadCatalog(code) {
  if (code === PSEUDO) return pseudoCatalog(en);
  if (code === "en") return en;
  const module = await import(`../i18n/${code}.json`, { with: { type: "json" } });
  return module.default;
}

export const language = initialLanguage();
const catalog = await loadCatalog(language);
const locale = language === PSEUDO ? "en" : language;
const plurals = new Intl.PluralRules(locale);
const numbers = new Intl.NumberFormat(locale);
document.documentElement.lang = language;

/** The chosen language's name for a number. */
export function formatNumber(value) {
  return numbers.format(value);
}

/** A moment (a Date, or what ``new Date`` takes) as the language writes it. */
export function formatDate(moment, options = { dateStyle: "medium", timeStyle: "short" }) {
  const text = new Intl.DateTimeFormat(locale, options).format(new Date(moment));
  return language === PSEUDO ? pseudoText(text) : text;
}

/** Items joined as the page's language lists them: ``conjunction`` ("Ana and Bo", "Ana, Bo, and
 * Cy"), or ``unit`` for a plain enumeration ("Ana 12, Bo 3"). */
export function formatList(items, type = "conjunction") {
  return new Intl.ListFormat(locale, { type, style: "long" }).format(items.map(String));
}

/** A number with exactly ``digits`` decimals as the page's language writes it ("25.50"). */
export function formatDecimal(value, digits = 2) {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })
    .format(Number(value));
}

/** A message with nodes in it: its ``{name}`` placeholders that ``t()`` left unfilled become
 * ``nodes[name]`` (a link, say), the text around them stays text. */
export function withNodes(text, nodes) {
  return text.split(/\{(\w+)\}/).map((part, i) => (i % 2 ? nodes[part] ?? `{${part}}` : part)).filter((part) => part !== "");
}

/** Nodes (or texts) listed as ``formatList`` lists texts, the separators as text between them. */
export function listNodes(items, type = "unit") {
  const parts = new Intl.ListFormat(locale, { type, style: "long" }).formatToParts(items.map((_, i) => `\u0000${i}`));
  return parts.map((part) => (part.type === "element" ? items[Number(part.value.slice(1))] : part.value));
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? formatNumber(value) : String(value);
  });
}

/** The message ``key`` in the page's language (English where its catalog lacks it), with ``params``
 * filled in; a message with plural forms takes the form of ``params.count``. */
export function t(key, params = {}) {
  const entry = key in catalog ? catalog[key] : en[key];
  if (entry === undefined) {
    console.error(`no message ${key}`);
    return key;
  }
  const text = typeof entry === "string" ? entry : entry[plurals.select(params.count)] || entry.other;
  return fill(text, params);
}

/** Whether the catalogs have a message ``key`` (for codes whose sentence may be missing). */
export function hasMessage(key) {
  return key in en;
}

/** Switches to ``code`` (a language with a catalog, or the pseudo-locale) and reloads the page in it. */
export function switchLanguage(code) {
  if (!supported(code)) return;
  window.localStorage.setItem(CHOSEN_KEY, code);
  if (new URLSearchParams(window.location.search).has("lang")) window.location.search = "";
  else window.location.reload();
}

/** A signed-in account's saved language becomes this browser's choice (and the page's, at once). */
export function adoptLanguage(code) {
  if (supported(code) && code !== language) switchLanguage(code);
}

/** Each language with a catalog, named in itself. */
export function languageChoices() {
  return CATALOG_LANGUAGES.map((code) => ({ code, name: LANGUAGE_NAMES[code] }));
}
