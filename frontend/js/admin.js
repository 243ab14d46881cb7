// The operator's console (#/admin): live rooms (watch, close, remove a player, suspend or lift), the
// maintenance notice, pausing new tables, the audit log and players' reports. Every change asks for a
// reason in a dialog; the server refuses everyone without the admin role.

import { api, savedPlayer } from "./api.js";
import { confirmDialog, openDialog } from "./dialog.js";
import { clear, formatDate, h, scrollBox, showMessage } from "./dom.js";
import { t } from "./i18n.js";
import { OPERATOR } from "./words.js";

function ageText(seconds) {
  if (seconds === null || seconds === undefined) return "";
  if (seconds < 60) return t("admin.ageSeconds", { seconds });
  if (seconds < 3600) return t("admin.ageMinutes", { minutes: Math.floor(seconds / 60) });
  return t("admin.ageHours", { hours: Math.floor(seconds / 3600), minutes: Math.floor((seconds % 3600) / 60) });
}

/** Asks for a reason, then runs ``act(reason)``. */
function withReason({ id, title, confirmLabel, act }) {
  const reason = h("textarea", { id: `${id}-reason`, maxlength: 500, rows: 2, required: true });
  const go = h("button", { type: "submit", class: "primary", id: `${id}-confirm` }, confirmLabel);
  const cancel = h("button", { type: "button", id: `${id}-cancel` }, t("admin.cancel"));
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

/** "1. Ivo", "2. Bot 2 (bot)", "3. Ana (away)". */
function seatText(seat) {
  const words = { seat: seat.seat + 1, name: seat.name };
  if (seat.bot) return t("admin.seatBot", words);
  return seat.connected ? t("admin.seat", words) : t("admin.seatAway", words);
}

export function showAdmin(main) {
  const player = savedPlayer();
  const page = h("div", { class: "admin-page" }, h("h1", {}, t("admin.title")));
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
      page.append(h("h1", {}, t("admin.title")));
      failed(error);
      return;
    }
    clear(page);
    page.append(h("h1", {}, t("admin.title")), controls(live), roomsTable(live), auditTable(audit.entries),
      reportsTable(reports.reports));
  }

  const act = (path, method, body, done) => call(path, method, body).then(() => {
    showMessage(done, { kind: "info" });
    render();
  }, failed);

  function controls(live) {
    const text = h("input", { id: "notice-text", maxlength: 300, value: live.notice ? live.notice.text : "",
      placeholder: t("admin.noticeExample") });
    const post = h("button", { type: "button", id: "notice-post" }, t("admin.noticePost"));
    post.addEventListener("click", () => {
      if (!text.value.trim()) return;
      withReason({ id: "notice-dialog", title: t("admin.noticePostTitle"), confirmLabel: t("admin.noticePostConfirm"),
        act: (reason) => act("/api/admin/notice", "PUT", { text: text.value.trim(), reason }, OPERATOR.noticePosted) });
    });
    const clearButton = h("button", { type: "button", id: "notice-clear", disabled: !live.notice }, t("admin.noticeClear"));
    clearButton.addEventListener("click", () => withReason({ id: "notice-dialog", title: t("admin.noticeClearTitle"),
      confirmLabel: t("admin.noticeClear"), act: (reason) => act("/api/admin/notice", "DELETE", { reason }, OPERATOR.noticeCleared) }));
    const pause = h("input", { type: "checkbox", id: "pause-rooms", checked: live.paused });
    pause.addEventListener("change", () => {
      const paused = pause.checked;
      pause.checked = !paused;
      withReason({ id: "pause-dialog", title: paused ? t("admin.pauseTitle") : t("admin.allowTitle"),
        confirmLabel: paused ? t("admin.pauseConfirm") : t("admin.allowConfirm"),
        act: (reason) => act("/api/admin/pause", "PUT", { paused, reason }, paused ? OPERATOR.paused : OPERATOR.resumed) });
    });
    return h("section", { "aria-labelledby": "admin-node" },
      h("h2", { id: "admin-node" }, t("admin.node", { node: live.node })),
      h("div", { class: "row" }, h("label", { for: "notice-text" }, t("admin.notice")), text, post, clearButton),
      h("div", { class: "row" }, pause, h("label", { for: "pause-rooms" }, t("admin.pause"))));
  }

  function seatList(room) {
    return h("ul", { class: "seat-list" }, room.seats.filter((seat) => seat.name).map((seat) => h("li", {},
      seatText(seat), " ",
      seat.bot ? null : h("button", { type: "button", class: "small-button", dataset: { action: "remove" },
        onclick: () => withReason({ id: "remove-dialog", title: t("admin.removeTitle", { name: seat.name }), confirmLabel: t("admin.remove"),
          act: (reason) => act(`/api/admin/rooms/${encodeURIComponent(room.id)}/remove`, "POST",
            { player_id: seat.player_id, reason }, OPERATOR.removed({ name: seat.name })) }) }, t("admin.remove")),
      seat.bot ? null : h("button", { type: "button", class: "small-button", dataset: { action: "suspend" },
        onclick: () => withReason({ id: "suspend-dialog", title: t("admin.suspendTitle", { name: seat.name }), confirmLabel: t("admin.suspend"),
          act: (reason) => act(`/api/admin/players/${encodeURIComponent(seat.player_id)}/suspend`, "POST",
            { reason }, OPERATOR.suspended({ name: seat.name })) }) }, t("admin.suspend")))));
  }

  function roomsTable(live) {
    const rows = live.rooms.map((room) => h("tr", { dataset: { room: room.id } },
      h("td", {}, room.id), h("td", {}, room.game), h("td", {}, `${room.status} \u00b7 ${room.phase}`),
      h("td", {}, seatList(room)), h("td", {}, ageText(room.age_seconds)), h("td", {}, room.node),
      h("td", {}, h("a", { href: `#/room/${encodeURIComponent(room.id)}?watch=1`, class: "watch-link",
        onclick: (event) => { event.preventDefault(); watch(room.id); } }, t("admin.watch")), " ",
      h("button", { type: "button", class: "small-button close-room", onclick: () => withReason({
        id: "close-dialog", title: t("admin.closeTitle", { room: room.id }), confirmLabel: OPERATOR.closeRoom,
        act: (reason) => act(`/api/admin/rooms/${encodeURIComponent(room.id)}/close`, "POST", { reason }, OPERATOR.closed),
      }) }, OPERATOR.closeRoom))));
    return h("section", { "aria-labelledby": "live-rooms" }, h("h2", { id: "live-rooms" }, t("admin.liveTables", { count: live.rooms.length })),
      scrollBox(h("table", { id: "admin-rooms" },
        h("thead", {}, h("tr", {}, ...[t("admin.table"), t("admin.game"), t("admin.phase"), t("admin.players"), t("admin.age"), t("admin.nodeColumn"), ""]
          .map((label) => h("th", {}, label)))),
        h("tbody", {}, rows)), t("admin.liveTablesLabel")));
  }

  function auditTable(entries) {
    return h("section", { "aria-labelledby": "audit-log" }, h("h2", { id: "audit-log" }, t("admin.audit")),
      scrollBox(h("table", { id: "admin-audit" },
        h("thead", {}, h("tr", {}, ...[t("admin.when"), t("admin.who"), t("admin.what"), t("admin.on"), t("admin.why"), ""]
          .map((label) => h("th", {}, label)))),
        h("tbody", {}, entries.map((entry) => h("tr", {},
          h("td", {}, formatDate(entry.at)), h("td", {}, entry.actor.name), h("td", {}, entry.action),
          h("td", {}, entry.player ? entry.player.name : entry.room_id || ""), h("td", {}, entry.reason),
          h("td", {}, entry.action === "suspend_player" && entry.player ? h("button", { type: "button", class: "small-button",
            onclick: () => withReason({ id: "lift-dialog", title: t("admin.liftTitle", { name: entry.player.name }),
              confirmLabel: t("admin.lift"),
              act: (reason) => act(`/api/admin/players/${encodeURIComponent(entry.player.id)}/lift`, "POST", { reason },
                OPERATOR.lifted({ name: entry.player.name })) }) }, t("admin.lift")) : null))))), t("admin.audit")));
  }

  function reportsTable(list) {
    return h("section", { "aria-labelledby": "reports" }, h("h2", { id: "reports" }, t("admin.reports")),
      scrollBox(h("table", { id: "admin-reports" },
        h("thead", {}, h("tr", {}, ...[t("admin.when"), t("admin.from"), t("admin.about"), t("admin.table"), t("admin.chatLine"), t("admin.note")]
          .map((label) => h("th", {}, label)))),
        h("tbody", {}, list.map((report) => h("tr", {},
          h("td", {}, formatDate(report.at)), h("td", {}, report.reporter.name),
          h("td", {}, report.seat === null ? report.reported.name
            : t("admin.reportedAtSeat", { name: report.reported.name, seat: report.seat + 1 })),
          h("td", {}, report.room_id), h("td", {}, report.chat ? report.chat.text : ""), h("td", {}, report.note || ""))))),
        t("admin.reports")));
  }

  function watch(roomId) {
    confirmDialog({ id: "watch-dialog", title: t("admin.watchTitle"),
      text: t("admin.watchText"), confirmLabel: t("admin.watch"),
      returnFocus: () => null, onConfirm: () => { window.location.hash = `#/watch/${encodeURIComponent(roomId)}`; } });
  }

  render();
}
