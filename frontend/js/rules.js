// The rules page of each game (#/rules/<game>): the project's docs/rules/<game>.md, served at
// /rules/, drawn by a small Markdown reader that builds DOM nodes (headings, paragraphs, lists,
// tables, bold, italics and code spans; any other markup stays plain text), in the reader's language
// where the page is written in it (docs/rules/<game>.<lang>.md), else in English with a note.

import { GAME_TITLES, getGames } from "./api.js";
import { clear, h, showMessage } from "./dom.js";
import { language as pageLanguage, t } from "./i18n.js";
import { LANGUAGE_NAMES, pickLanguage, rememberLanguage } from "./languages.js";
import { rulesNotWrittenIn, withoutRuleNumbers } from "./words.js";

/** Bold, italics and code spans of one line of text, as nodes. */
export function inline(text) {
  const nodes = [];
  const pattern = /(\*\*([^*]+)\*\*|`([^`]+)`|\*([^*]+)\*|_([^_]+)_)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    if (match[2] !== undefined) nodes.push(h("strong", {}, match[2]));
    else if (match[3] !== undefined) nodes.push(h("code", {}, match[3]));
    else nodes.push(h("em", {}, match[4] ?? match[5]));
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

const cells = (line) => line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((cell) => cell.trim());
const isTableRule = (line) => /^\s*\|?\s*:?-{3,}/.test(line);

function table(lines) {
  const [head, , ...body] = lines;
  return h("div", { class: "scroll-x" }, h("table", { class: "scores rules-table" },
    h("thead", {}, h("tr", {}, cells(head).map((cell) => h("th", { scope: "col" }, inline(cell))))),
    h("tbody", {}, body.map((line) => h("tr", {}, cells(line).map((cell) => h("td", {}, inline(cell))))))));
}

function list(lines, ordered) {
  const items = [];
  for (const line of lines) {
    const start = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(line);
    if (start) items.push(start[1]);
    else if (items.length) items[items.length - 1] += ` ${line.trim()}`;
  }
  return h(ordered ? "ol" : "ul", {}, items.map((item) => h("li", {}, inline(item))));
}

/** Splits Markdown into blocks (a heading, a table, a list, a paragraph) and draws each. */
export function renderMarkdown(source) {
  const blocks = [];
  const lines = source.replace(/\r\n/g, "\n").split("\n");
  let index = 0;
  const take = (test) => {
    const taken = [];
    while (index < lines.length && lines[index].trim() !== "" && test(lines[index])) taken.push(lines[index++]);
    return taken;
  };
  while (index < lines.length) {
    const line = lines[index];
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (line.trim() === "") index += 1;
    else if (heading) {
      blocks.push(h(`h${Math.min(4, heading[1].length + 1)}`, {}, inline(heading[2])));
      index += 1;
    } else if (line.trim().startsWith("|") && isTableRule(lines[index + 1] || "")) {
      blocks.push(table(take((next) => next.trim().startsWith("|"))));
    } else if (/^\s*(?:[-*]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      blocks.push(list(take((next) => !/^#/.test(next)), ordered));
    } else {
      const text = take((next) => !/^(#|\s*(?:[-*]|\d+\.)\s|\|)/.test(next)).join(" ");
      blocks.push(h("p", {}, inline(text)));
    }
  }
  return blocks;
}

const RULE_NUMBERS_NOTE = /\([A-Z]{2}-1 \.\.\.\)/;

/** The rules text as a player reads it: no rule numbers, nor the paragraph that explains them. */
export function forPlayers(source) {
  return source.replace(/\r\n/g, "\n").split(/\n\s*\n/)
    .filter((paragraph) => !RULE_NUMBERS_NOTE.test(paragraph))
    .map((paragraph) => paragraph.split("\n").map((line) => withoutRuleNumbers(line)).join("\n"))
    .join("\n\n");
}

/** The rules of ``game`` in ``language`` (``en``: the English page). */
export async function rulesText(game, language = "en") {
  const name = language === "en" ? game : `${game}.${language}`;
  const response = await fetch(`/rules/${encodeURIComponent(name)}.md`);
  if (!response.ok) throw new Error(t("rules.notFound", { game: GAME_TITLES[game] || game, status: String(response.status) }));
  return forPlayers(await response.text());
}

/** Links to the page in each language it is written in, each named in itself. */
function languageLinks(game, languages, shown) {
  return h("nav", { class: "rules-languages", "aria-label": t("rules.languages") },
    h("ul", {}, languages.map((code) => h("li", {}, h("a", {
      href: `#/rules/${game}/${code}`, lang: code, hreflang: code,
      "aria-current": code === shown ? "true" : null,
    }, LANGUAGE_NAMES[code] || code)))));
}

export function showRules(main, game, asked = null) {
  const title = GAME_TITLES[game];
  if (!title) {
    main.append(h("h1", {}, t("rules.title")), h("ul", {}, Object.entries(GAME_TITLES).map(([key, name]) =>
      h("li", {}, h("a", { href: `#/rules/${key}` }, name)))));
    return null;
  }
  const chosen = asked && asked in LANGUAGE_NAMES ? asked : null;
  if (chosen) rememberLanguage(chosen);
  const box = h("article", { class: "card-panel rules-page", id: "rules", dataset: { game } },
    h("p", {}, t("rules.loading")));
  main.append(
    h("nav", { class: "tabs", "aria-label": t("rules.eachGame") }, Object.entries(GAME_TITLES).map(([key, name]) =>
      h("a", { href: `#/rules/${key}`, "aria-current": key === game ? "page" : null }, name))),
    box);
  loadRules(box, game, chosen).catch((error) => {
    clear(box).append(h("p", {}, t("rules.notLoaded")));
    showMessage(error.message, { code: "request/not_found" });
  });
  return null;
}

async function loadRules(box, game, asked) {
  const info = (await getGames()).find((entry) => entry.game === game);
  const languages = info ? info.rules_languages : ["en"];
  const { language, missing } = pickLanguage(languages, asked ? [asked] : undefined);
  const text = await rulesText(game, language);
  box.lang = language;
  box.dataset.language = language;
  clear(box).append(...renderMarkdown(text));
  const heading = box.querySelector("h2");
  if (heading) {
    heading.replaceWith(language === "en"
      ? h("h1", { lang: pageLanguage }, t("rules.howToPlay", { game: GAME_TITLES[game] }))
      : h("h1", {}, heading.textContent));
  }
  const top = box.querySelector("h1") || box.firstChild;
  const note = missing ? h("p", { class: "rules-missing", lang: pageLanguage },
    rulesNotWrittenIn(LANGUAGE_NAMES[missing], LANGUAGE_NAMES[language])) : null;
  top.after(...[languageLinks(game, languages, language), note].filter(Boolean));
}
