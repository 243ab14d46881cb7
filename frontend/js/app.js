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
import { joinTable, showTable, watchTable } from "./table.js";

let leavePage = null;

/** Redraws the header: who is playing, his wallet (and apart from it his chips at a table), and the links. */
export async function refreshPlayerNav() {
  const nav = document.getElementById("player-nav");
  const player = savedPlayer();
  clear(nav);
  nav.appendChild(h("a", { href: "#/" }, "Lobby"));
  if (player) nav.appendChild(h("a", { href: "#/history" }, "My matches"));
  nav.appendChild(h("a", { href: "#/leaderboard" }, "Leaderboard"));
  nav.appendChild(h("a", { href: "#/rules" }, "Rules"));
  if (player) nav.appendChild(h("a", { href: `#/player/${encodeURIComponent(player.id)}` }, "Profile"));
  nav.appendChild(h("a", { href: "#/account" }, "Account"));
  if (!player) return;
  const badge = h("span", { class: "who", id: "who" }, player.name);
  nav.appendChild(badge);
  api("/api/sessions/me", { token: player.token }).then((me) => {
    if (me.admin && !document.getElementById("admin-link")) {
      nav.insertBefore(h("a", { href: "#/admin", id: "admin-link" }, "Operators"), badge);
    }
  }, () => {});
  try {
    const fresh = await getPlayer(player.id);
    badge.textContent = "";
    badge.append(fresh.name, " \u00b7 ", ...walletLine(fresh.chips));
  } catch (error) {
    badge.textContent = `${player.name} (offline)`;
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
