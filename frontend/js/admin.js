// The operator's console (#/admin): live rooms (watch, close, remove a player, suspend or lift), the
// maintenance notice, pausing new tables, the audit log and players' reports. Every change asks for a
// reason in a dialog; the server refuses everyone without the admin role.

import { api, savedPlayer } from "./api.js";
import { confirmDialog, openDialog } from "./dialog.js";
import { clear, formatDate, h, scrollBox, showMessage } from "./dom.js";
import { OPERATOR } from "./words.js";

function ageText(seconds) {
  if (seconds === null || seconds === undefined) return "";
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** Asks for a reason, then runs ``act(reason)``. */
function withReason({ id, title, confirmLabel, act }) {
  const reason = h("textarea", { id: `${id}-reason`, maxlength: 500, rows: 2, required: true });
  const go = h("button", { type: "submit", class: "primary", id: `${id}-confirm` }, confirmLabel);
  const cancel = h("button", { type: "button", id: `${id}-cancel` }, "Cancel");
  const form = h("form", { class: "reason-form" }, h("label", { for: `${id}-reason` }, OPERATOR.reasonLabel),
    reason, h("div", { class: "row dialog-buttons" }, go, cancel));
  const handle = openDialog({ id, title, content: form, focus: reason });
  cancel.addEventListener("click", handle.close);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!reason.value.trim()) {
      showMessage(OPERATOR.reasonMissing, { code: "reason/empty" });
      return;
    }
    handle.close();
    act(reason.value.trim());
  });
}

export function showAdmin(main) {
  const player = savedPlayer();
  const page = h("div", { class: "admin-page" }, h("h1", {}, "Operators"));
  main.appendChild(page);
  const call = (path, method = "GET", body = undefined) => api(path, { method, body, token: player && player.token });
  const failed = (error) => showMessage(error.message, { code: error.code });

  async function render() {
    let live;
    let audit;
    let reports;
    try {
      [live, audit, reports] = await Promise.all([call("/api/admin/rooms"), call("/api/admin/audit?limit=50"),
        call("/api/admin/reports?limit=50")]);
    } catch (error) {
      clear(page);
      page.append(h("h1", {}, "Operators"));
      failed(error);
      return;
    }
    clear(page);
    page.append(h("h1", {}, "Operators"), controls(live), roomsTable(live), auditTable(audit.entries),
      reportsTable(reports.reports));
  }

  const act = (path, method, body, done) => call(path, method, body).then(() => {
    showMessage(done, { kind: "info" });
    render();
  }, failed);

  function controls(live) {
    const text = h("input", { id: "notice-text", maxlength: 300, value: live.notice ? live.notice.text : "",
      placeholder: "Restart in 5 minutes" });
    const post = h("button", { type: "button", id: "notice-post" }, "Show at every table");
    post.addEventListener("click", () => {
      if (!text.value.trim()) return;
      withReason({ id: "notice-dialog", title: "Show this notice", confirmLabel: "Show it",
        act: (reason) => act("/api/admin/notice", "PUT", { text: text.value.trim(), reason }, OPERATOR.noticePosted) });
    });
    const clearButton = h("button", { type: "button", id: "notice-clear", disabled: !live.notice }, "Take it down");
    clearButton.addEventListener("click", () => withReason({ id: "notice-dialog", title: "Take the notice down",
      confirmLabel: "Take it down", act: (reason) => act("/api/admin/notice", "DELETE", { reason }, OPERATOR.noticeCleared) }));
    const pause = h("input", { type: "checkbox", id: "pause-rooms", checked: live.paused });
    pause.addEventListener("change", () => {
      const paused = pause.checked;
      pause.checked = !paused;
      withReason({ id: "pause-dialog", title: paused ? "Pause new tables" : "Allow new tables again",
        confirmLabel: paused ? "Pause" : "Allow",
        act: (reason) => act("/api/admin/pause", "PUT", { paused, reason }, paused ? OPERATOR.paused : OPERATOR.resumed) });
    });
    return h("section", { "aria-labelledby": "admin-node" },
      h("h2", { id: "admin-node" }, `This node: ${live.node}`),
      h("div", { class: "row" }, h("label", { for: "notice-text" }, "Maintenance notice"), text, post, clearButton),
      h("div", { class: "row" }, pause, h("label", { for: "pause-rooms" }, "Pause new tables")));
  }

  function seatList(room) {
    return h("ul", { class: "seat-list" }, room.seats.filter((seat) => seat.name).map((seat) => h("li", {},
      `${seat.seat + 1}. ${seat.name}${seat.bot ? " (bot)" : seat.connected ? "" : " (away)"} `,
      seat.bot ? null : h("button", { type: "button", class: "small-button", dataset: { action: "remove" },
        onclick: () => withReason({ id: "remove-dialog", title: `Remove ${seat.name}`, confirmLabel: "Remove",
          act: (reason) => act(`/api/admin/rooms/${encodeURIComponent(room.id)}/remove`, "POST",
            { player_id: seat.player_id, reason }, OPERATOR.removed({ name: seat.name })) }) }, "Remove"),
      seat.bot ? null : h("button", { type: "button", class: "small-button", dataset: { action: "suspend" },
        onclick: () => withReason({ id: "suspend-dialog", title: `Suspend ${seat.name}`, confirmLabel: "Suspend",
          act: (reason) => act(`/api/admin/players/${encodeURIComponent(seat.player_id)}/suspend`, "POST",
            { reason }, OPERATOR.suspended({ name: seat.name })) }) }, "Suspend"))));
  }

  function roomsTable(live) {
    const rows = live.rooms.map((room) => h("tr", { dataset: { room: room.id } },
      h("td", {}, room.id), h("td", {}, room.game), h("td", {}, `${room.status} \u00b7 ${room.phase}`),
      h("td", {}, seatList(room)), h("td", {}, ageText(room.age_seconds)), h("td", {}, room.node),
      h("td", {}, h("a", { href: `#/room/${encodeURIComponent(room.id)}?watch=1`, class: "watch-link",
        onclick: (event) => { event.preventDefault(); watch(room.id); } }, "Watch"), " ",
      h("button", { type: "button", class: "small-button close-room", onclick: () => withReason({
        id: "close-dialog", title: `Close table ${room.id}`, confirmLabel: OPERATOR.closeRoom,
        act: (reason) => act(`/api/admin/rooms/${encodeURIComponent(room.id)}/close`, "POST", { reason }, OPERATOR.closed),
      }) }, OPERATOR.closeRoom))));
    return h("section", { "aria-labelledby": "live-rooms" }, h("h2", { id: "live-rooms" }, `Live tables (${live.rooms.length})`),
      scrollBox(h("table", { id: "admin-rooms" },
        h("thead", {}, h("tr", {}, ...["Table", "Game", "Phase", "Players", "Age", "Node", ""].map((t) => h("th", {}, t)))),
        h("tbody", {}, rows)), "Live tables"));
  }

  function auditTable(entries) {
    return h("section", { "aria-labelledby": "audit-log" }, h("h2", { id: "audit-log" }, "Audit log"),
      scrollBox(h("table", { id: "admin-audit" },
        h("thead", {}, h("tr", {}, ...["When", "Who", "What", "On", "Why", ""].map((t) => h("th", {}, t)))),
        h("tbody", {}, entries.map((entry) => h("tr", {},
          h("td", {}, formatDate(entry.at)), h("td", {}, entry.actor.name), h("td", {}, entry.action),
          h("td", {}, entry.player ? entry.player.name : entry.room_id || ""), h("td", {}, entry.reason),
          h("td", {}, entry.action === "suspend_player" && entry.player ? h("button", { type: "button", class: "small-button",
            onclick: () => withReason({ id: "lift-dialog", title: `Lift ${entry.player.name}'s suspension`, confirmLabel: "Lift",
              act: (reason) => act(`/api/admin/players/${encodeURIComponent(entry.player.id)}/lift`, "POST", { reason },
                OPERATOR.lifted({ name: entry.player.name })) }) }, "Lift") : null))))), "Audit log"));
  }

  function reportsTable(list) {
    return h("section", { "aria-labelledby": "reports" }, h("h2", { id: "reports" }, "Reports"),
      scrollBox(h("table", { id: "admin-reports" },
        h("thead", {}, h("tr", {}, ...["When", "From", "About", "Table", "Chat line", "Note"].map((t) => h("th", {}, t)))),
        h("tbody", {}, list.map((report) => h("tr", {},
          h("td", {}, formatDate(report.at)), h("td", {}, report.reporter.name),
          h("td", {}, `${report.reported.name}${report.seat === null ? "" : ` (seat ${report.seat + 1})`}`),
          h("td", {}, report.room_id), h("td", {}, report.chat ? report.chat.text : ""), h("td", {}, report.note || ""))))),
        "Reports"));
  }

  function watch(roomId) {
    confirmDialog({ id: "watch-dialog", title: "Watch this table",
      text: "You will see the table as a spectator sees it: no player's hidden cards.", confirmLabel: "Watch",
      returnFocus: () => null, onConfirm: () => { window.location.hash = `#/watch/${encodeURIComponent(roomId)}`; } });
  }

  render();
}
