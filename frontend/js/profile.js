// A player's profile (#/player/<id>): claimed or guest, chips, statistics per game, the rating per
// game and its history (a small line chart per game, with the same figures as a table).

import { GAME_TITLES, getPlayer, savedPlayer } from "./api.js";
import { clear, formatDate, h, scrollBox, showMessage } from "./dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const CHART = { width: 320, height: 120, pad: 26 };

function fixed(value, digits = 2) {
  return value === null || value === undefined ? "\u2014" : Number(value).toFixed(digits);
}

function gameTitle(game) {
  return GAME_TITLES[game] || game;
}

function svg(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

function statsTable(stats) {
  const games = Object.keys(stats);
  if (!games.length) return h("p", { class: "muted", id: "profile-stats" }, "No matches played yet.");
  const columns = [
    ["matches", "Matches"], ["finished", "Finished"], ["wins", "Wins"], ["abandoned", "Left before the end"], ["deals", "Deals"],
    ["avg_points_per_deal", "Average per deal"], ["avg_total", "Average total"], ["best", "Best total"],
  ];
  return scrollBox(h("table", { class: "scores", id: "profile-stats" },
    h("caption", {}, "Statistics per game (Azi in net chips)"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"), columns.map(([, label]) => h("th", { scope: "col" }, label)))),
    h("tbody", {}, games.map((game) => h("tr", { dataset: { game } },
      h("th", { scope: "row" }, gameTitle(game)),
      columns.map(([key]) => h("td", { dataset: { stat: key } },
        stats[game][key] === null || stats[game][key] === undefined ? "\u2014" : String(stats[game][key]))))))), "Statistics table");
}

/** What a rating means, in words: for the player himself, or for someone looking at his profile. */
function ratingMeaning(mine) {
  return mine
    ? "Your rating grows as you win rated matches; it is cautious while you have played few."
    : "A player's rating grows as they win rated matches; it is cautious while they have played few.";
}

function ratingsTable(ratings, mine) {
  const games = Object.keys(ratings);
  if (!games.length) {
    return h("p", { class: "muted", id: "profile-ratings" },
      "No rating yet: a match is rated when every person at the table has a claimed account.");
  }
  return h("div", {},
    h("p", { class: "muted", id: "rating-meaning" }, ratingMeaning(mine)),
    scrollBox(h("table", { class: "scores", id: "profile-ratings" },
      h("caption", {}, "Rating per game"),
      h("thead", {}, h("tr", {}, ["Game", "Rating", "Rated matches", "Last rated"]
        .map((label) => h("th", { scope: "col" }, label)))),
      h("tbody", {}, games.map((game) => {
        const rating = ratings[game];
        return h("tr", { dataset: { game } }, h("th", { scope: "row" }, gameTitle(game)),
          h("td", { class: "ordinal" }, fixed(rating.ordinal)),
          h("td", {}, String(rating.matches)), h("td", {}, formatDate(rating.updated_at)));
      }))), "Ratings table"));
}

/** A line of the rating (ordinal) after each rated match, oldest on the left; points are labelled. */
function ratingChart(game, points) {
  const { width, height, pad } = CHART;
  const values = points.map((point) => point.ordinal);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 1) {
    low -= 0.5;
    high += 0.5;
  }
  const x = (i) => (points.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (points.length - 1));
  const y = (value) => height - pad / 2 - ((value - low) * (height - pad)) / (high - low);
  const first = values[0];
  const last = values[values.length - 1];
  const chart = svg("svg", {
    class: "rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "data-game": game,
    "aria-label": `${gameTitle(game)} rating after each of ${points.length} rated match${points.length === 1 ? "" : "es"}: `
      + `from ${first.toFixed(2)} to ${last.toFixed(2)}`,
  });
  chart.appendChild(svg("title", {}, `${gameTitle(game)} rating history`));
  chart.appendChild(svg("line", { class: "axis", x1: pad, x2: width - pad, y1: height - pad / 2, y2: height - pad / 2 }));
  chart.appendChild(svg("text", { class: "tick", x: 2, y: y(high) + 4 }, high.toFixed(1)));
  chart.appendChild(svg("text", { class: "tick", x: 2, y: y(low) + 4 }, low.toFixed(1)));
  if (points.length > 1) {
    chart.appendChild(svg("polyline", { class: "line", points: values.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  }
  values.forEach((value, i) => {
    const dot = svg("circle", { class: "dot", cx: x(i), cy: y(value), r: 3.5 });
    dot.appendChild(svg("title", {}, `${formatDate(points[i].at)}: ${value.toFixed(2)}`));
    chart.appendChild(dot);
  });
  return chart;
}

function historyTable(game, points) {
  return scrollBox(h("table", { class: "scores rating-history", dataset: { game } },
    h("caption", {}, `${gameTitle(game)}: rating after each rated match, newest first`),
    h("thead", {}, h("tr", {}, ["Finished", "Match", "Rating"].map((label) => h("th", { scope: "col" }, label)))),
    h("tbody", {}, [...points].reverse().map((point) => h("tr", {},
      h("td", {}, formatDate(point.at)),
      h("td", {}, h("a", { href: `#/match/${encodeURIComponent(point.match_id)}` }, "the match")),
      h("td", {}, fixed(point.ordinal)))))), `${gameTitle(game)} rating history`);
}

function ratingHistory(history) {
  const byGame = new Map();
  for (const point of [...history].reverse()) {
    if (!byGame.has(point.game)) byGame.set(point.game, []);
    byGame.get(point.game).push(point);
  }
  if (!byGame.size) return h("p", { class: "muted", id: "rating-history" }, "No rated matches yet.");
  return h("div", { id: "rating-history", class: "rating-charts" }, [...byGame].map(([game, points]) =>
    h("figure", { class: "rating-figure", dataset: { game } },
      h("figcaption", {}, `${gameTitle(game)} \u2014 ${points.length} rated match${points.length === 1 ? "" : "es"}`),
      ratingChart(game, points),
      h("details", {}, h("summary", {}, "The figures as a table"), historyTable(game, points)))));
}

export function showProfile(main, playerId) {
  const me = savedPlayer();
  const box = h("section", { class: "profile", id: "profile" }, h("p", {}, "Loading\u2026"));
  main.appendChild(box);
  if (!playerId) {
    clear(box);
    box.append(h("h1", {}, "Profile"), h("p", {}, "Choose a name in the ", h("a", { href: "#/" }, "lobby"),
      " or ", h("a", { href: "#/account" }, "sign in"), " first."));
    return null;
  }
  getPlayer(playerId).then((player) => {
    clear(box);
    const mine = me && me.id === player.id;
    box.append(
      h("h1", { id: "profile-name" }, player.name),
      h("p", { class: "profile-meta" },
        h("span", { class: `status ${player.claimed ? "" : "playing"}`, id: "profile-claimed" }, player.claimed ? "claimed account" : "guest"),
        ` \u00b7 ${player.chips} chips`,
        mine ? h("span", {}, " \u00b7 this is you (", h("a", { href: "#/account" }, "account"), ")") : null),
      h("p", {}, h("a", { href: `#/history/${encodeURIComponent(player.id)}`, id: "profile-matches" }, `${player.name}'s matches`),
        " \u00b7 ", h("a", { href: "#/leaderboard" }, "Leaderboard")),
      h("section", { class: "card-panel", "aria-labelledby": "stats-heading" }, h("h2", { id: "stats-heading" }, "Statistics"), statsTable(player.stats || {})),
      h("section", { class: "card-panel", "aria-labelledby": "ratings-heading" }, h("h2", { id: "ratings-heading" }, "Ratings"), ratingsTable(player.ratings || {}, mine)),
      h("section", { class: "card-panel", "aria-labelledby": "history-heading" }, h("h2", { id: "history-heading" }, "Rating history"), ratingHistory(player.rating_history || [])));
  }).catch((error) => {
    clear(box);
    box.append(h("h1", {}, "Profile"), h("p", {}, `This player could not be loaded: ${error.message}`));
    showMessage(error.message, { code: error.code });
  });
  return null;
}
