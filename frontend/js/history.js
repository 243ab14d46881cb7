// Match history: a player's matches (newest first, page by page) and one match with its deals.

import { GAME_TITLES, getMatch, getPlayer, listMatches, savedPlayer } from "./api.js";
import { cardShort } from "./cards.js";
import { canVerify, verifyDeal } from "./fairness.js";
import { clear, formatDate, h, put, scrollBox, showMessage } from "./dom.js";
import { ARCHIVED_TEXT, optionsSummary } from "./words.js";

const PAGE = 10;

function seatName(match, seat) {
  const entry = match.seats.find((s) => s.seat === seat);
  return entry ? entry.name : `Seat ${seat + 1}`;
}

/** "Team A (Ana & Bot 3)" for Hasenpfeffer teams, else the seat's name. */
function sideName(match, index) {
  const teams = match.result && match.result.teams;
  if (match.game === "hasenpfeffer") {
    const members = (teams ? teams[index] : [index, index + 2]).map((seat) => seatName(match, seat)).join(" & ");
    return `Team ${index === 0 ? "A" : "B"} (${members})`;
  }
  return seatName(match, index);
}

/** What happened to a person's seat when they were away: "" when they played it themselves. */
function seatNote(seat) {
  if (seat.abandoned) return " (left the match; the autopilot played to the end, so it counts as no win)";
  const decisions = seat.autopilot_decisions || 0;
  if (decisions > 0) return ` (the autopilot made ${decisions} decision${decisions === 1 ? "" : "s"} while they were away)`;
  return "";
}

function resultText(match) {
  const result = match.result;
  if (!result) return match.status === "finished" ? "finished" : "still being played";
  const winners = result.winners.map((index) => sideName(match, index));
  const totals = result.totals.map((total, index) => `${sideName(match, index)} ${total}`).join(", ");
  const left = match.seats.filter((seat) => seat.abandoned).map((seat) => seat.name);
  const leftText = left.length ? ` \u00b7 ${left.join(" and ")} left before the end: no win for ${left.length > 1 ? "them" : "this player"}` : "";
  return `${winners.length ? `Won by ${winners.join(" and ")}` : "No winner"} \u00b7 ${totals}${leftText}`;
}

function matchItem(match, playerId) {
  const title = GAME_TITLES[match.game] || match.game;
  const mine = match.seats.find((seat) => seat.player_id === playerId);
  return h("li", { class: "match-item", dataset: { match: match.id, game: match.game } },
    h("div", {},
      h("a", { href: `#/match/${encodeURIComponent(match.id)}` }, h("strong", {}, title), ` \u00b7 ${formatDate(match.started_at)}`),
      h("div", { class: "muted" }, match.seats.map((seat, i) => [i ? ", " : "", seat.player_id
        ? h("a", { href: `#/player/${encodeURIComponent(seat.player_id)}` }, seat.name) : seat.name, seat.bot ? " (bot)" : "",
        seat.abandoned ? " (left)" : ""])),
      h("div", { class: "match-result" }, mine ? `You sat in seat ${mine.seat + 1}. ` : "", resultText(match))));
}

export function showHistory(main, playerId) {
  const me = savedPlayer();
  const who = playerId || (me ? me.id : null);
  main.appendChild(h("h1", {}, "Match history"));
  if (!who) {
    main.appendChild(h("p", {}, "Choose a name in the ", h("a", { href: "#/" }, "lobby"), " first."));
    return null;
  }
  const heading = h("p", { class: "lead" }, who === (me && me.id) ? "Your matches, newest first." : "Matches, newest first.");
  const list = h("ul", { class: "matches", id: "match-list" });
  const more = h("button", { type: "button", hidden: true }, "Older matches");
  main.append(heading, h("section", { class: "card-panel" }, list, more));
  getPlayer(who).then((player) => {
    heading.replaceChildren(h("a", { href: `#/player/${encodeURIComponent(player.id)}` }, player.name), `'s matches, newest first (${player.chips} chips).`);
  }).catch(() => {});
  let cursor = null;
  const load = async () => {
    more.disabled = true;
    try {
      const page = await listMatches({ player: who, limit: PAGE, before: cursor });
      if (!page.matches.length && !cursor) list.appendChild(h("li", { class: "muted" }, "No matches yet."));
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
  if (!detail) return deal.points === null ? "being played" : "";
  if (match.game === "hazari") return `rounds won: ${detail.rounds_won.map((n, seat) => `${seatName(match, seat)} ${n}`).join(", ")}`;
  if (match.game === "azi") {
    if (detail.reason === "azi") return `Azi: pot of ${detail.pot} carried over`;
    return `${seatName(match, detail.winner)} won the pot of ${detail.pot} ${detail.reason === "folds" ? "(others folded)" : "(two tricks)"}`;
  }
  if (detail.thrown_in) return "thrown in";
  const contract = { little_pepper: "Little Pepper", big_pepper: "Big Pepper" }[detail.contract] || detail.contract;
  return `${seatName(match, detail.bidder)} bid ${contract}${detail.forced ? " (forced)" : ""}, trump ${detail.trump}, `
    + `tricks ${detail.tricks.join("-")}, ${detail.made ? "made" : "set"}${detail.discard ? `, discarded ${cardShort(detail.discard)}` : ""}`;
}

/** A "Verify this deal" button for a deal whose seeds are revealed (docs/fairness.md). */
function verifyButton(match, deal) {
  const fairness = deal.fairness;
  if (!fairness || !fairness.server_seed || !deal.deck) return null;
  const result = h("span", { class: "verify-result", role: "status" });
  const button = h("button", { type: "button", class: "small-button", onclick: async () => {
    if (!canVerify()) {
      result.textContent = "This browser can check deals only on a secure (HTTPS or local) page.";
      return;
    }
    result.textContent = "Checking\u2026";
    const problems = await verifyDeal({
      game: match.game, deck: deal.deck, deal: deal.number, serverSeed: fairness.server_seed,
      commitment: fairness.commitment, clientSeeds: fairness.client_seeds, seats: match.seats.length,
    });
    result.textContent = problems.length ? `\u2716 ${problems.join("; ")}` : "\u2714 This deal checks out.";
    result.className = `verify-result ${problems.length ? "bad" : "ok"}`;
  } }, "Verify this deal");
  return h("span", { class: "verify" }, " ", button, " ", result);
}

function actionText(match, entry) {
  const action = entry.action;
  const who = entry.seat === null ? "server" : seatName(match, entry.seat);
  const rest = Object.entries(action).filter(([key]) => key !== "kind")
    .map(([key, value]) => `${key} ${Array.isArray(value) ? JSON.stringify(value) : value}`).join(", ");
  return `${entry.seq}. ${who}: ${action.kind}${rest ? ` (${rest})` : ""}`;
}

export function showMatch(main, matchId) {
  main.appendChild(h("p", {}, h("a", { href: "#/history" }, "\u2190 Match history")));
  const box = h("section", { class: "match-detail", id: "match-detail" }, h("p", {}, "Loading\u2026"));
  main.appendChild(box);
  getMatch(matchId).then((match) => {
    clear(box);
    const sides = match.game === "hasenpfeffer" ? [0, 1] : match.seats.map((seat) => seat.seat);
    const unit = match.game === "azi" ? "Chips won or lost" : "Points";
    put(box,
      h("h1", {}, `${GAME_TITLES[match.game] || match.game} match`),
      h("p", { class: "muted" }, `Started ${formatDate(match.started_at)}`,
        match.finished_at ? ` \u00b7 finished ${formatDate(match.finished_at)}` : ` \u00b7 ${match.status}`),
      h("p", { class: "muted" }, `Options: ${optionsSummary(match.game, match.options)}`),
      h("p", { class: "match-result", id: "match-result" }, resultText(match)),
      match.archived ? h("p", { class: "muted", id: "match-archived" }, ARCHIVED_TEXT)
        : match.status === "finished" ? h("p", {}, h("a", { href: `#/replay/${encodeURIComponent(match.id)}`, id: "replay-link" }, "Replay this match step by step")) : null,
      h("h2", {}, "Players"),
      h("ul", {}, match.seats.map((seat) => h("li", {}, `Seat ${seat.seat + 1}: `,
        seat.player_id ? h("a", { href: `#/player/${encodeURIComponent(seat.player_id)}` }, seat.name) : seat.name,
        seat.bot ? " (bot)" : seatNote(seat)))),
      scrollBox(h("table", { class: "scores", id: "match-deals" },
        h("caption", {}, `Deals \u2014 ${unit}`),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Deal"),
          sides.map((index) => h("th", { scope: "col" }, sideName(match, index))), h("th", { scope: "col" }, "Summary"))),
        h("tbody", {}, match.deals.map((deal) => h("tr", { dataset: { deal: String(deal.number) } },
          h("th", { scope: "row" }, String(deal.number)),
          sides.map((index) => h("td", {}, deal.points ? String(deal.points[index]) : "\u2014")),
          h("td", {}, dealDetail(match, deal), verifyButton(match, deal))))),
        match.result ? h("tfoot", {}, h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"),
          match.result.totals.map((total) => h("td", {}, String(total))), h("td"))) : null), "Deals"),
      match.archived ? null : h("details", { class: "action-log" }, h("summary", {}, `Every move (${match.actions.length})`),
        h("ul", { class: "log" }, match.actions.map((entry) => h("li", {}, actionText(match, entry))))));
  }).catch((error) => {
    clear(box);
    box.appendChild(h("p", {}, `This match could not be loaded: ${error.message}`));
    showMessage(error.message, { code: error.code });
  });
  return null;
}
