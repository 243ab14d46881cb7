// Match history: a player's matches (newest first, page by page) and one match with its deals.

import { GAME_TITLES, getMatch, getPlayer, listMatches, savedPlayer } from "./api.js";
import { SUIT_NAMES, cardShort } from "./cards.js";
import { canVerify, verifyDeal } from "./fairness.js";
import { clear, formatDate, h, put, scrollBox, seatWord, showMessage } from "./dom.js";
import { bidName } from "./hasenpfeffer.js";
import { formatList, formatNumber, listNodes, t, withNodes } from "./i18n.js";
import { ARCHIVED_TEXT, optionsSummary, seatName as occupantName } from "./words.js";

const PAGE = 10;

function seatName(match, seat) {
  const entry = match.seats.find((s) => s.seat === seat);
  return entry ? occupantName(entry) : seatWord(seat);
}

/** "Team A (Ana & Bot 3)" for Hasenpfeffer teams, else the seat's name. */
function sideName(match, index) {
  const teams = match.result && match.result.teams;
  if (match.game === "hasenpfeffer") {
    const [first, second] = (teams ? teams[index] : [index, index + 2]).map((seat) => seatName(match, seat));
    return index === 0 ? t("history.teamA", { first, second }) : t("history.teamB", { first, second });
  }
  return seatName(match, index);
}

/** A person's line in the match's players: the seat, the name (a link), and what happened to the
 * seat when they were away. */
function seatLine(seat, name) {
  const words = { seat: seat.seat + 1, count: seat.autopilot_decisions || 0 };
  let text = t("history.seatLine", words);
  if (seat.bot) text = t("history.seatLineBot", words);
  else if (seat.abandoned) text = t("history.seatLineLeft", words);
  else if (words.count > 0) text = t("history.seatLineAutopilot", words);
  return withNodes(text, { name });
}

/** "name score" for each side, listed. */
function sideScores(match, scores, nameOf) {
  return formatList(scores.map((score, index) => t("history.sideScore", { name: nameOf(match, index), score })), "unit");
}

function resultText(match) {
  const result = match.result;
  if (!result) return match.status === "finished" ? t("history.finished") : t("history.stillPlaying");
  const winners = result.winners.map((index) => sideName(match, index));
  const left = match.seats.filter((seat) => seat.abandoned).map((seat) => seat.name);
  return [
    winners.length ? t("history.wonBy", { names: formatList(winners) }) : t("history.noWinner"),
    sideScores(match, result.totals, sideName),
    left.length ? t("history.leftBeforeEnd", { names: formatList(left), count: left.length }) : null,
  ].filter(Boolean).join(" \u00b7 ");
}

/** A seat in a list of the match's players: the name (a link for a person; a bot's says it is one),
 * with "(left)" for a person who left. */
function playerEntry(seat) {
  const name = seat.player_id ? h("a", { href: `#/player/${encodeURIComponent(seat.player_id)}` }, seat.name)
    : occupantName(seat);
  if (!seat.abandoned) return name;
  return h("span", {}, ...withNodes(t("history.playerLeft"), { name }));
}

function matchItem(match, playerId) {
  const title = GAME_TITLES[match.game] || match.game;
  const mine = match.seats.find((seat) => seat.player_id === playerId);
  return h("li", { class: "match-item", dataset: { match: match.id, game: match.game } },
    h("div", {},
      h("a", { href: `#/match/${encodeURIComponent(match.id)}` }, h("strong", {}, title), ` \u00b7 ${formatDate(match.started_at)}`),
      h("div", { class: "muted" }, listNodes(match.seats.map(playerEntry))),
      h("div", { class: "match-result" }, mine ? t("history.yourSeat", { seat: mine.seat + 1, result: resultText(match) })
        : resultText(match))));
}

export function showHistory(main, playerId) {
  const me = savedPlayer();
  const who = playerId || (me ? me.id : null);
  main.appendChild(h("h1", {}, t("history.title")));
  if (!who) {
    main.appendChild(h("p", {}, ...withNodes(t("history.nobody"), { lobby: h("a", { href: "#/" }, t("history.lobbyLink")) })));
    return null;
  }
  const heading = h("p", { class: "lead" }, who === (me && me.id) ? t("history.yours") : t("history.matches"));
  const list = h("ul", { class: "matches", id: "match-list" });
  const more = h("button", { type: "button", hidden: true }, t("history.older"));
  main.append(heading, h("section", { class: "card-panel" }, list, more));
  getPlayer(who).then((player) => {
    heading.replaceChildren(...withNodes(t("history.matchesOf", { count: player.chips }),
      { name: h("a", { href: `#/player/${encodeURIComponent(player.id)}` }, player.name) }));
  }).catch(() => {});
  let cursor = null;
  const load = async () => {
    more.disabled = true;
    try {
      const page = await listMatches({ player: who, limit: PAGE, before: cursor });
      if (!page.matches.length && !cursor) list.appendChild(h("li", { class: "muted" }, t("history.noMatches")));
      for (const match of page.matches) list.appendChild(matchItem(match, who));
      cursor = page.next;
      more.hidden = !cursor;
    } catch (error) {
      showMessage(error.message, { code: error.code });
    }
    more.disabled = false;
  };
  more.addEventListener("click", load);
  load();
  return null;
}

function dealDetail(match, deal) {
  const detail = deal.detail;
  if (!detail) return deal.points === null ? t("history.beingPlayed") : "";
  if (match.game === "hazari") return t("history.roundsWon", { rounds: sideScores(match, detail.rounds_won, seatName) });
  if (match.game === "azi") {
    if (detail.reason === "azi") return t("history.aziCarried", { pot: detail.pot });
    const words = { name: seatName(match, detail.winner), pot: detail.pot };
    return detail.reason === "folds" ? t("history.potFolds", words) : t("history.potTricks", words);
  }
  if (detail.thrown_in) return t("history.thrownIn");
  const words = {
    name: seatName(match, detail.bidder), trump: SUIT_NAMES[detail.trump] || detail.trump, tricks: detail.tricks.join("-"),
    contract: detail.forced ? t("history.forced", { contract: bidName(detail.contract) }) : bidName(detail.contract),
  };
  const summary = detail.made ? t("history.bidMade", words) : t("history.bidSet", words);
  return detail.discard ? t("history.withDiscard", { summary, card: cardShort(detail.discard) }) : summary;
}

/** A "Verify this deal" button for a deal whose seeds are revealed (docs/fairness.md). */
function verifyButton(match, deal) {
  const fairness = deal.fairness;
  if (!fairness || !fairness.server_seed || !deal.deck) return null;
  const result = h("span", { class: "verify-result", role: "status" });
  const button = h("button", { type: "button", class: "small-button", onclick: async () => {
    if (!canVerify()) {
      result.textContent = t("history.verifyInsecure");
      return;
    }
    result.textContent = t("history.checking");
    const problems = await verifyDeal({
      game: match.game, deck: deal.deck, deal: deal.number, serverSeed: fairness.server_seed,
      commitment: fairness.commitment, clientSeeds: fairness.client_seeds, seats: match.seats.length,
    });
    result.textContent = problems.length ? t("history.verifyFailed", { problems: problems.join("; ") }) : t("history.verified");
    result.className = `verify-result ${problems.length ? "bad" : "ok"}`;
  } }, t("history.verify"));
  return h("span", { class: "verify" }, " ", button, " ", result);
}

function actionText(match, entry) {
  const action = entry.action;
  const who = entry.seat === null ? t("history.server") : seatName(match, entry.seat);
  const rest = Object.entries(action).filter(([key]) => key !== "kind")
    .map(([key, value]) => `${key} ${Array.isArray(value) ? JSON.stringify(value) : value}`).join(", ");
  const words = { seq: entry.seq, who, action: action.kind, details: rest };
  return rest ? t("history.logEntryWith", words) : t("history.logEntry", words);
}

export function showMatch(main, matchId) {
  main.appendChild(h("p", {}, h("a", { href: "#/history" }, t("history.back"))));
  const box = h("section", { class: "match-detail", id: "match-detail" }, h("p", {}, t("history.loading")));
  main.appendChild(box);
  getMatch(matchId).then((match) => {
    clear(box);
    const sides = match.game === "hasenpfeffer" ? [0, 1] : match.seats.map((seat) => seat.seat);
    put(box,
      h("h1", {}, t("history.matchTitle", { game: GAME_TITLES[match.game] || match.game })),
      h("p", { class: "muted" }, match.finished_at
        ? t("history.startedFinished", { started: formatDate(match.started_at), finished: formatDate(match.finished_at) })
        : t("history.startedPlaying", { started: formatDate(match.started_at) })),
      h("p", { class: "muted" }, t("history.options", { options: optionsSummary(match.game, match.options) })),
      h("p", { class: "match-result", id: "match-result" }, resultText(match)),
      match.archived ? h("p", { class: "muted", id: "match-archived" }, ARCHIVED_TEXT)
        : match.status === "finished" ? h("p", {}, h("a", { href: `#/replay/${encodeURIComponent(match.id)}`, id: "replay-link" }, t("history.replay"))) : null,
      h("h2", {}, t("history.players")),
      h("ul", {}, match.seats.map((seat) => h("li", {}, ...seatLine(seat,
        seat.player_id ? h("a", { href: `#/player/${encodeURIComponent(seat.player_id)}` }, seat.name)
          : occupantName(seat))))),
      scrollBox(h("table", { class: "scores", id: "match-deals" },
        h("caption", {}, match.game === "azi" ? t("history.dealsChips") : t("history.dealsPoints")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("history.deal")),
          sides.map((index) => h("th", { scope: "col" }, sideName(match, index))), h("th", { scope: "col" }, t("history.summary")))),
        h("tbody", {}, match.deals.map((deal) => h("tr", { dataset: { deal: String(deal.number) } },
          h("th", { scope: "row" }, formatNumber(deal.number)),
          sides.map((index) => h("td", {}, deal.points ? formatNumber(deal.points[index]) : "\u2014")),
          h("td", {}, dealDetail(match, deal), verifyButton(match, deal))))),
        match.result ? h("tfoot", {}, h("tr", { class: "total" }, h("th", { scope: "row" }, t("history.total")),
          match.result.totals.map((total) => h("td", {}, formatNumber(total))), h("td"))) : null), t("history.deals")),
      match.archived ? null : h("details", { class: "action-log" },
        h("summary", {}, t("history.everyMove", { count: match.actions.length })),
        h("ul", { class: "log" }, match.actions.map((entry) => h("li", {}, actionText(match, entry))))));
  }).catch((error) => {
    clear(box);
    box.appendChild(h("p", {}, t("history.notLoaded", { error: error.message })));
    showMessage(error.message, { code: error.code });
  });
  return null;
}
