// A tiny helper for building elements, and the page's shared message areas.

import { formatDate as formatMoment, t } from "./i18n.js";
import { sentenceFor, withoutRuleNumbers } from "./words.js";

/**
 * h("button", {class: "x", onclick: fn, "aria-label": "..."}, "text", child, ...)
 * Attributes starting with "on" become listeners; null/false attributes are left out.
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      node.className = value;
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "value") {
      node.value = value;
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  append(node, children);
  return node;
}

/** ``node.append`` leaving out the children that are null or false (as ``h`` does). */
export function put(node, ...children) {
  append(node, children);
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** A wide table in a box that scrolls sideways on a narrow screen (focusable, so keys scroll it). */
export function scrollBox(table, label) {
  return h("div", { class: "scroll-x", role: "region", tabindex: "0", "aria-label": label }, table);
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** Say ``text`` to screen readers through the polite live region. */
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region) return;
  region.textContent = "";
  window.setTimeout(() => { region.textContent = text; }, 30);
}

/**
 * Shows a message in the visible, dismissible message area (errors use kind "error" and are
 * announced at once through its assertive live region). A code the words catalog knows is shown as
 * its sentence; the code and ``text`` (the server's own wording) then sit in a collapsed "Details"
 * line. ``scope`` names the state the message is about: ``clearMessages(scope)`` removes it when
 * that state has passed.
 */
export function showMessage(text, { kind = "error", code = null, scope = null } = {}) {
  const area = document.getElementById("messages");
  if (!area) return;
  const item = h("div", { class: `message ${kind}`, role: kind === "error" ? "alert" : "status",
    dataset: { code: code || "", scope: scope || "" } },
  messageBody(text, code),
  h("button", { type: "button", class: "dismiss", "aria-label": t("dom.dismiss"),
    onclick: () => item.remove() }, "\u00d7"));
  area.appendChild(item);
  while (area.children.length > 4) area.removeChild(area.firstChild);
}

/**
 * The words of a message: the catalog's sentence for ``code``, with the code and ``text`` (the
 * server's own wording) in a collapsed "Details" line; or ``text`` alone for a code it does not know.
 */
export function messageBody(text, code = null) {
  const sentence = sentenceFor(code);
  const details = sentence ? h("details", { class: "message-details" }, h("summary", {}, t("dom.details")),
    h("code", {}, code), " ", withoutRuleNumbers(text)) : null;
  return h("div", { class: "message-body" }, h("span", { class: "message-text" }, sentence || text), details);
}

/** Removes every message, or only those about ``scope``. */
export function clearMessages(scope = null) {
  const area = document.getElementById("messages");
  if (!area) return;
  if (scope === null) clear(area);
  else for (const item of [...area.querySelectorAll(`[data-scope="${CSS.escape(scope)}"]`)]) item.remove();
}

/**
 * While a card is being dragged the page is not redrawn (a redraw would drop the card being
 * dragged); ``holdRendering(false)`` lets the table draw what came in meanwhile.
 */
let holdTimer = null;

export function holdRendering(on) {
  window.clearTimeout(holdTimer);
  document.body.classList.toggle("dragging", on);
  if (on) holdTimer = window.setTimeout(() => holdRendering(false), 15000);
  else window.dispatchEvent(new Event("cardroom:release"));
}

export function renderingHeld() {
  return document.body.classList.contains("dragging");
}

/**
 * Re-render helper: keeps the keyboard focus on the element with the same data-focus key; when that
 * element is gone (the "Add bot" of a seat now taken, "Start" once started), the focus goes to the
 * first element matching one of ``fallbacks`` rather than to the top of the page.
 */
export function keepFocus(render, fallbacks = []) {
  const active = document.activeElement;
  const key = active && active.dataset ? active.dataset.focus : null;
  const main = document.getElementById("main");
  const hadFocus = Boolean(active && active !== document.body && main && main.contains(active));
  const typing = textSelection(active);
  render();
  if (key) {
    const again = document.querySelector(`[data-focus="${CSS.escape(key)}"]`);
    if (again && again !== document.activeElement) {
      again.focus({ preventScroll: true });
      // A player typing in a box keeps his caret or his selection, or what he types next would
      // land elsewhere in the text.
      if (typing && again.value === typing.value) again.setSelectionRange(typing.start, typing.end, typing.direction);
    }
    if (again) return;
  }
  if (!hadFocus || (active.isConnected && main.contains(active))) return;
  const target = fallbacks.map((selector) => main.querySelector(selector)).find(Boolean);
  if (target) target.focus({ preventScroll: true });
}

function textSelection(element) {
  if (!element || typeof element.selectionStart !== "number") return null;
  return { value: element.value, start: element.selectionStart, end: element.selectionEnd,
    direction: element.selectionDirection || "none" };
}

export function seatWord(n) {
  return t("dom.seat", { seat: n + 1 });
}

/** A moment from the server as the page's language writes it (the text itself if it is no date). */
export function formatDate(stamp) {
  if (!stamp) return "";
  const date = new Date(stamp);
  return Number.isNaN(date.getTime()) ? stamp : formatMoment(date);
}
