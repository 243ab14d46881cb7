// A player's profile (#/player/<id>): claimed or guest, chips, statistics per game, the rating per
// game and its history (a small line chart per game, with the same figures as a table).

import { GAME_TITLES, getPlayer, savedPlayer } from "./api.js";
import { clear, formatDate, h, scrollBox, showMessage } from "./dom.js";
import { formatDecimal, formatNumber, t, withNodes } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const CHART = { width: 320, height: 120, pad: 26 };

function fixed(value, digits = 2) {
  return value === null || value === undefined ? "\u2014" : formatDecimal(value, digits);
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

function statText(value) {
  return value === null || value === undefined ? "\u2014" : formatNumber(value);
}

function statsTable(stats) {
  const games = Object.keys(stats);
  if (!games.length) return h("p", { class: "muted", id: "profile-stats" }, t("profile.noMatches"));
  const columns = [
    ["matches", t("profile.matches")], ["finished", t("profile.finished")], ["wins", t("profile.wins")],
    ["abandoned", t("profile.abandoned")], ["deals", t("profile.deals")], ["avg_points_per_deal", t("profile.averagePerDeal")],
    ["avg_total", t("profile.averageTotal")], ["best", t("profile.best")],
  ];
  return scrollBox(h("table", { class: "scores", id: "profile-stats" },
    h("caption", {}, t("profile.statsCaption")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("profile.game")), columns.map(([, label]) => h("th", { scope: "col" }, label)))),
    h("tbody", {}, games.map((game) => h("tr", { dataset: { game } },
      h("th", { scope: "row" }, gameTitle(game)),
      columns.map(([key]) => h("td", { dataset: { stat: key } },
        statText(stats[game][key]))))))), t("profile.statsLabel"));
}

/** What a rating means, in words: for the player himself, or for someone looking at his profile. */
function ratingMeaning(mine) {
  return mine ? t("profile.ratingMeaningMine") : t("profile.ratingMeaning");
}

function ratingsTable(ratings, mine) {
  const games = Object.keys(ratings);
  if (!games.length) {
    return h("p", { class: "muted", id: "profile-ratings" },
      t("profile.noRating"));
  }
  return h("div", {},
    h("p", { class: "muted", id: "rating-meaning" }, ratingMeaning(mine)),
    scrollBox(h("table", { class: "scores", id: "profile-ratings" },
      h("caption", {}, t("profile.ratingsCaption")),
      h("thead", {}, h("tr", {}, [t("profile.game"), t("profile.rating"), t("profile.ratedMatches"), t("profile.lastRated")]
        .map((label) => h("th", { scope: "col" }, label)))),
      h("tbody", {}, games.map((game) => {
        const rating = ratings[game];
        return h("tr", { dataset: { game } }, h("th", { scope: "row" }, gameTitle(game)),
          h("td", { class: "ordinal" }, fixed(rating.ordinal)),
          h("td", {}, formatNumber(rating.matches)), h("td", {}, formatDate(rating.updated_at)));
      }))), t("profile.ratingsLabel")));
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
    "aria-label": t("profile.chartLabel", { game: gameTitle(game), count: points.length, first: fixed(first), last: fixed(last) }),
  });
  chart.appendChild(svg("title", {}, t("profile.historyOf", { game: gameTitle(game) })));
  chart.appendChild(svg("line", { class: "axis", x1: pad, x2: width - pad, y1: height - pad / 2, y2: height - pad / 2 }));
  chart.appendChild(svg("text", { class: "tick", x: 2, y: y(high) + 4 }, fixed(high, 1)));
  chart.appendChild(svg("text", { class: "tick", x: 2, y: y(low) + 4 }, fixed(low, 1)));
  if (points.length > 1) {
    chart.appendChild(svg("polyline", { class: "line", points: values.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  }
  values.forEach((value, i) => {
    const dot = svg("circle", { class: "dot", cx: x(i), cy: y(value), r: 3.5 });
    dot.appendChild(svg("title", {}, t("profile.point", { when: formatDate(points[i].at), rating: fixed(value) })));
    chart.appendChild(dot);
  });
  return chart;
}

function historyTable(game, points) {
  return scrollBox(h("table", { class: "scores rating-history", dataset: { game } },
    h("caption", {}, t("profile.historyCaption", { game: gameTitle(game) })),
    h("thead", {}, h("tr", {}, [t("profile.finished"), t("profile.match"), t("profile.rating")].map((label) => h("th", { scope: "col" }, label)))),
    h("tbody", {}, [...points].reverse().map((point) => h("tr", {},
      h("td", {}, formatDate(point.at)),
      h("td", {}, h("a", { href: `#/match/${encodeURIComponent(point.match_id)}` }, t("profile.theMatch"))),
      h("td", {}, fixed(point.ordinal)))))), t("profile.historyOf", { game: gameTitle(game) }));
}

function ratingHistory(history) {
  const byGame = new Map();
  for (const point of [...history].reverse()) {
    if (!byGame.has(point.game)) byGame.set(point.game, []);
    byGame.get(point.game).push(point);
  }
  if (!byGame.size) return h("p", { class: "muted", id: "rating-history" }, t("profile.noRatedMatches"));
  return h("div", { id: "rating-history", class: "rating-charts" }, [...byGame].map(([game, points]) =>
    h("figure", { class: "rating-figure", dataset: { game } },
      h("figcaption", {}, t("profile.figureCaption", { game: gameTitle(game), count: points.length })),
      ratingChart(game, points),
      h("details", {}, h("summary", {}, t("profile.asTable")), historyTable(game, points)))));
}

export function showProfile(main, playerId) {
  const me = savedPlayer();
  const box = h("section", { class: "profile", id: "profile" }, h("p", {}, t("profile.loading")));
  main.appendChild(box);
  if (!playerId) {
    clear(box);
    box.append(h("h1", {}, t("profile.title")), h("p", {}, ...withNodes(t("profile.nobody"), {
      lobby: h("a", { href: "#/" }, t("profile.lobbyLink")), signIn: h("a", { href: "#/account" }, t("profile.signInLink")) })));
    return null;
  }
  getPlayer(playerId).then((player) => {
    clear(box);
    const mine = me && me.id === player.id;
    box.append(
      h("h1", { id: "profile-name" }, player.name),
      h("p", { class: "profile-meta" },
        h("span", { class: `status ${player.claimed ? "" : "playing"}`, id: "profile-claimed" }, player.claimed ? t("profile.claimed") : t("profile.guest")),
        " \u00b7 ", t("profile.chips", { count: player.chips }),
        mine ? h("span", {}, " \u00b7 ", ...withNodes(t("profile.thisIsYou"), { account: h("a", { href: "#/account" }, t("profile.accountLink")) }))
          : null),
      h("p", {}, h("a", { href: `#/history/${encodeURIComponent(player.id)}`, id: "profile-matches" }, t("profile.matchesOf", { name: player.name })),
        " \u00b7 ", h("a", { href: "#/leaderboard" }, t("profile.leaderboard"))),
      h("section", { class: "card-panel", "aria-labelledby": "stats-heading" }, h("h2", { id: "stats-heading" }, t("profile.stats")), statsTable(player.stats || {})),
      h("section", { class: "card-panel", "aria-labelledby": "ratings-heading" }, h("h2", { id: "ratings-heading" }, t("profile.ratings")), ratingsTable(player.ratings || {}, mine)),
      h("section", { class: "card-panel", "aria-labelledby": "history-heading" }, h("h2", { id: "history-heading" }, t("profile.ratingHistory")), ratingHistory(player.rating_history || [])));
  }).catch((error) => {
    clear(box);
    box.append(h("h1", {}, t("profile.title")), h("p", {}, t("profile.notLoaded", { error: error.message })));
    showMessage(error.message, { code: error.code });
  });
  return null;
}
