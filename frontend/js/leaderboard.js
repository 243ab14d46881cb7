// The leaderboard (#/leaderboard[/<game>]): one tab per game, the rated players best first.

import { GAME_TITLES, api, savedPlayer } from "./api.js";
import { clear, formatDate, h, scrollBox, showMessage } from "./dom.js";

const GAMES = ["hazari", "azi", "hasenpfeffer"];
const LIMIT = 50;

function fixed(value) {
  return Number(value).toFixed(2);
}

function board(game, data) {
  const me = savedPlayer();
  if (!data.players.length) {
    return h("p", { class: "muted", id: "leaderboard-empty" },
      `Nobody has a ${GAME_TITLES[game] || game} rating yet: a match is rated when every person at the table has a claimed account.`);
  }
  return scrollBox(h("table", { class: "scores leaderboard", id: "leaderboard-table", dataset: { game } },
    h("caption", {}, `${GAME_TITLES[game] || game}: rated players, best first`),
    h("thead", {}, h("tr", {}, ["Rank", "Player", "Rating", "Rated matches", "Last rated"]
      .map((label) => h("th", { scope: "col" }, label)))),
    h("tbody", {}, data.players.map((entry) => h("tr", {
      class: me && me.id === entry.player_id ? "me" : "", dataset: { player: entry.player_id },
    },
    h("td", { class: "rank" }, String(entry.rank)),
    h("th", { scope: "row" }, h("a", { href: `#/player/${encodeURIComponent(entry.player_id)}` }, entry.name),
      me && me.id === entry.player_id ? " (you)" : ""),
    h("td", { class: "ordinal" }, fixed(entry.ordinal)),
    h("td", {}, String(entry.matches)), h("td", {}, formatDate(entry.updated_at)))))), "Leaderboard");
}

export function showLeaderboard(main, game) {
  const chosen = GAMES.includes(game) ? game : GAMES[0];
  const tabs = h("nav", { class: "tabs", "aria-label": "Games" }, GAMES.map((name) => h("a", {
    href: `#/leaderboard/${name}`, class: `tab${name === chosen ? " current" : ""}`,
    "aria-current": name === chosen ? "page" : null, dataset: { game: name },
  }, GAME_TITLES[name])));
  const body = h("section", { class: "card-panel", id: "leaderboard", "aria-live": "polite" }, h("p", {}, "Loading\u2026"));
  main.append(
    h("h1", {}, "Leaderboard"),
    h("p", { class: "lead", id: "leaderboard-about" }, "Players are ranked by their rating. A rating grows as a player "
      + "wins rated matches; it is cautious while he has played few, so it rises as his results confirm it."),
    tabs, body);
  api(`/api/leaderboard?game=${encodeURIComponent(chosen)}&limit=${LIMIT}`).then((data) => {
    clear(body);
    body.appendChild(board(chosen, data));
  }).catch((error) => {
    clear(body);
    body.appendChild(h("p", {}, `The leaderboard could not be loaded: ${error.message}`));
    showMessage(error.message, { code: error.code });
  });
  return null;
}
