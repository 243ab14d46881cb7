// The leaderboard (#/leaderboard[/<game>]): one tab per game, the rated players best first.

import { GAME_TITLES, api, savedPlayer } from "./api.js";
import { clear, formatDate, h, scrollBox, showMessage } from "./dom.js";
import { formatDecimal, formatNumber, t } from "./i18n.js";

const GAMES = ["hazari", "azi", "hasenpfeffer"];
const LIMIT = 50;

function board(game, data) {
  const me = savedPlayer();
  const title = GAME_TITLES[game] || game;
  if (!data.players.length) {
    return h("p", { class: "muted", id: "leaderboard-empty" }, t("leaderboard.empty", { game: title }));
  }
  const columns = [t("leaderboard.rank"), t("leaderboard.player"), t("leaderboard.rating"), t("leaderboard.ratedMatches"),
    t("leaderboard.lastRated")];
  return scrollBox(h("table", { class: "scores leaderboard", id: "leaderboard-table", dataset: { game } },
    h("caption", {}, t("leaderboard.caption", { game: title })),
    h("thead", {}, h("tr", {}, columns.map((label) => h("th", { scope: "col" }, label)))),
    h("tbody", {}, data.players.map((entry) => h("tr", {
      class: me && me.id === entry.player_id ? "me" : "", dataset: { player: entry.player_id },
    },
    h("td", { class: "rank" }, formatNumber(entry.rank)),
    h("th", { scope: "row" }, h("a", { href: `#/player/${encodeURIComponent(entry.player_id)}` }, entry.name),
      me && me.id === entry.player_id ? t("leaderboard.you") : ""),
    h("td", { class: "ordinal" }, formatDecimal(entry.ordinal)),
    h("td", {}, formatNumber(entry.matches)), h("td", {}, formatDate(entry.updated_at)))))),
  t("leaderboard.title"));
}

export function showLeaderboard(main, game) {
  const chosen = GAMES.includes(game) ? game : GAMES[0];
  const tabs = h("nav", { class: "tabs", "aria-label": t("leaderboard.games") }, GAMES.map((name) => h("a", {
    href: `#/leaderboard/${name}`, class: `tab${name === chosen ? " current" : ""}`,
    "aria-current": name === chosen ? "page" : null, dataset: { game: name },
  }, GAME_TITLES[name])));
  const body = h("section", { class: "card-panel", id: "leaderboard", "aria-live": "polite" }, h("p", {}, t("leaderboard.loading")));
  main.append(
    h("h1", {}, t("leaderboard.title")),
    h("p", { class: "lead", id: "leaderboard-about" }, t("leaderboard.about")),
    tabs, body);
  api(`/api/leaderboard?game=${encodeURIComponent(chosen)}&limit=${LIMIT}`).then((data) => {
    clear(body);
    body.appendChild(board(chosen, data));
  }).catch((error) => {
    clear(body);
    body.appendChild(h("p", {}, t("leaderboard.notLoaded", { error: error.message })));
    showMessage(error.message, { code: error.code });
  });
  return null;
}
