// The page's router: #/ (lobby), #/room/<id> (a table), #/join/<id> (an invitation: the table, seated
// in its first free seat), #/history[/<player>], #/match/<id>,
// #/replay/<match>[/<step>], #/player/<id>, #/account, #/leaderboard[/<game>], #/rules[/<game>],
// and for operators #/admin and #/watch/<room> (a table as a spectator sees it).

import { api, getPlayer, savedPlayer } from "./api.js";
import { showAccount } from "./account.js";
import { showAdmin } from "./admin.js";
import { clear, clearMessages, h } from "./dom.js";
import { showHistory, showMatch } from "./history.js";
import { showLeaderboard } from "./leaderboard.js";
import { showLobby } from "./lobby.js";
import { showProfile } from "./profile.js";
import { showReplay } from "./replay.js";
import { showRules } from "./rules.js";
import { walletLine } from "./stakes.js";
import { language, languageChoices, switchLanguage, t } from "./i18n.js";
import { joinTable, showTable, watchTable } from "./table.js";

let leavePage = null;

document.title = t("page.title");
document.querySelector("meta[name='description']").setAttribute("content", t("page.description"));
document.getElementById("player-nav").setAttribute("aria-label", t("page.playerNav"));

/** Keeps the choice with the player's account (so that signing in elsewhere brings it), then reloads. */
async function chooseLanguage(code) {
  const player = savedPlayer();
  if (player) {
    await api(`/api/players/${encodeURIComponent(player.id)}/language`, { method: "PUT", token: player.token,
      body: { language: code } }).catch(() => {});
  }
  switchLanguage(code);
}

/** The header's language switch: each language named in itself; a choice reloads the page in it. */
function languageSwitch() {
  const select = h("select", { id: "language-switch", "aria-label": t("nav.language"),
    onchange: (event) => chooseLanguage(event.target.value) },
  languageChoices().map(({ code, name }) => h("option", { value: code, lang: code, selected: code === language }, name)));
  return h("label", { class: "language-switch" }, select);
}

/** Redraws the header: who is playing, his wallet (and apart from it his chips at a table), and the links. */
export async function refreshPlayerNav() {
  const nav = document.getElementById("player-nav");
  const player = savedPlayer();
  clear(nav);
  nav.appendChild(h("a", { href: "#/" }, t("nav.lobby")));
  if (player) nav.appendChild(h("a", { href: "#/history" }, t("nav.history")));
  nav.appendChild(h("a", { href: "#/leaderboard" }, t("nav.leaderboard")));
  nav.appendChild(h("a", { href: "#/rules" }, t("nav.rules")));
  if (player) nav.appendChild(h("a", { href: `#/player/${encodeURIComponent(player.id)}` }, t("nav.profile")));
  nav.appendChild(h("a", { href: "#/account" }, t("nav.account")));
  nav.appendChild(languageSwitch());
  if (!player) return;
  const badge = h("span", { class: "who", id: "who" }, player.name);
  nav.appendChild(badge);
  api("/api/sessions/me", { token: player.token }).then((me) => {
    if (me.admin && !document.getElementById("admin-link")) {
      nav.insertBefore(h("a", { href: "#/admin", id: "admin-link" }, t("nav.operators")), badge);
    }
  }, () => {});
  try {
    const fresh = await getPlayer(player.id);
    badge.textContent = "";
    badge.append(fresh.name, " \u00b7 ", ...walletLine(fresh.chips));
  } catch (error) {
    badge.textContent = t("nav.offline", { name: player.name });
  }
}

function route() {
  if (leavePage) {
    leavePage();
    leavePage = null;
  }
  clearMessages();
  const main = document.getElementById("main");
  clear(main);
  const parts = window.location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  let cleanup = null;
  if (parts[0] === "room" && parts[1]) {
    cleanup = showTable(main, parts[1]);
  } else if (parts[0] === "join" && parts[1]) {
    cleanup = joinTable(main, parts[1]);
  } else if (parts[0] === "watch" && parts[1]) {
    cleanup = watchTable(main, parts[1]);
  } else if (parts[0] === "admin") {
    cleanup = showAdmin(main);
  } else if (parts[0] === "history") {
    cleanup = showHistory(main, parts[1] || null);
  } else if (parts[0] === "match" && parts[1]) {
    cleanup = showMatch(main, parts[1]);
  } else if (parts[0] === "replay" && parts[1]) {
    cleanup = showReplay(main, parts[1], parts[2] || null);
  } else if (parts[0] === "player") {
    cleanup = showProfile(main, parts[1] || (savedPlayer() || {}).id || null);
  } else if (parts[0] === "account") {
    cleanup = showAccount(main);
  } else if (parts[0] === "rules") {
    cleanup = showRules(main, parts[1] || null, parts[2] || null);
  } else if (parts[0] === "leaderboard") {
    cleanup = showLeaderboard(main, parts[1] || null);
  } else {
    cleanup = showLobby(main);
  }
  leavePage = typeof cleanup === "function" ? cleanup : null;
  refreshPlayerNav();
}

window.addEventListener("hashchange", route);
window.addEventListener("cardroom:player", refreshPlayerNav);
route();
