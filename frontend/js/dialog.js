// Modal dialogs on the native <dialog>: the page behind is inert, Escape cancels, the focus goes into
// the dialog and, once it closes, back to the control that opened it. A dialog sits outside <main>,
// so the table's redraws leave it alone.

import { h } from "./dom.js";
import { MONEY } from "./words.js";

/**
 * Opens a modal dialog with ``title`` as its heading, then ``content``, and focuses ``focus``.
 * ``onClose`` runs once when it closes, whatever closed it; then the focus goes to what
 * ``returnFocus()`` gives (the opening control as the page draws it now), if anything.
 * Returns ``{dialog, close}``.
 */
export function openDialog({ id, title, content, describedBy = null, focus = null, returnFocus = () => null,
  onClose = () => {} }) {
  const existing = document.getElementById(id);
  if (existing) {
    existing.close();
    existing.remove();
  }
  const dialog = h("dialog", { id, class: "modal", "aria-labelledby": `${id}-title`, "aria-describedby": describedBy },
    h("h2", { id: `${id}-title` }, title), content);
  document.body.appendChild(dialog);
  dialog.addEventListener("close", () => {
    dialog.remove();
    onClose();
    const target = returnFocus();
    if (target && target.isConnected) target.focus({ preventScroll: true });
  }, { once: true });
  dialog.showModal();
  if (focus) focus.focus();
  return { dialog, close: () => { if (dialog.open) dialog.close(); } };
}

/** Closes every open dialog (the page they belong to is being left). */
export function closeDialogs() {
  for (const dialog of [...document.querySelectorAll("dialog.modal")]) {
    if (dialog.open) dialog.close();
    dialog.remove();
  }
}

/**
 * Asks before an action: ``text`` and two buttons, ``confirmLabel`` and Cancel (focused first, the
 * careful choice). ``onConfirm`` runs only after Confirm; Cancel, Escape or ``close()`` send nothing.
 */
export function confirmDialog({ id, title, text, confirmLabel, returnFocus, onConfirm }) {
  let confirmed = false;
  const cancel = h("button", { type: "button", id: `${id}-cancel` }, MONEY.cancel);
  const confirm = h("button", { type: "button", class: "primary", id: `${id}-confirm` }, confirmLabel);
  const handle = openDialog({
    id, title, describedBy: `${id}-text`, focus: cancel, returnFocus,
    content: [h("p", { id: `${id}-text` }, text), h("div", { class: "row dialog-buttons" }, confirm, cancel)],
    onClose: () => { if (confirmed) onConfirm(); },
  });
  cancel.addEventListener("click", handle.close);
  confirm.addEventListener("click", () => { confirmed = true; handle.close(); });
  return handle;
}
