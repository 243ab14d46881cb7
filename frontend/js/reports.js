// Players reporting one another (a "Report" button on each other person's seat), and the operators'
// maintenance notice shown as a banner at every table.

import { api } from "./api.js";
import { openDialog } from "./dialog.js";
import { h, showMessage } from "./dom.js";
import { MONEY, OPERATOR } from "./words.js";

/** Opens the report dialog about ``target`` ({player_id, name}) in ``roomId``, about one of his
 * chat lines (``{text, at}``) when ``line`` is given. */
export function reportDialog({ roomId, target, token, returnFocus, line = null }) {
  const note = h("textarea", { id: "report-note", maxlength: 500, rows: 3 });
  const send = h("button", { type: "submit", class: "primary", id: "report-send" }, OPERATOR.reportSend);
  const cancel = h("button", { type: "button", id: "report-cancel" }, MONEY.cancel);
  const form = h("form", { class: "report-form" },
    h("p", { id: "report-help" }, OPERATOR.reportHelp),
    line ? h("blockquote", { class: "reported-line", id: "reported-line" }, line.text) : null,
    h("label", { for: "report-note" }, OPERATOR.reportNote), note,
    h("div", { class: "row dialog-buttons" }, send, cancel));
  const handle = openDialog({ id: "report-dialog", title: OPERATOR.reportTitle({ name: target.name }),
    describedBy: "report-help", content: form, focus: note, returnFocus });
  cancel.addEventListener("click", handle.close);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    send.disabled = true;
    const body = { player_id: target.player_id, room_id: roomId };
    if (note.value.trim()) body.note = note.value.trim();
    if (line) body.chat = line;
    try {
      await api("/api/reports", { method: "POST", token, body });
      handle.close();
      showMessage(OPERATOR.reportSent({ name: target.name }), { kind: "info" });
    } catch (error) {
      handle.close();
      showMessage(error.message, { code: error.code });
    }
  });
  return handle;
}

/** Shows the operators' notice (``{text, at}``) above the page, or hides it (``text`` null). */
export function showNotice(notice) {
  const banner = document.getElementById("notice-banner");
  if (!banner) return;
  banner.textContent = "";
  if (!notice || !notice.text) {
    banner.hidden = true;
    return;
  }
  banner.append(h("strong", {}, OPERATOR.noticeTitle), " ", h("span", { class: "notice-text" }, notice.text));
  banner.hidden = false;
}
