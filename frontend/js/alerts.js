// Turn alerts: when the player's turn begins while the tab is hidden or the window has no focus,
// the tab's title and icon change (until he comes back), a short beep sounds (Web Audio, no file)
// and a phone vibrates. Each can be switched off in the "Alerts" control at the table; the choice
// is kept in localStorage. Screen-reader announcements are made by the table, as before.

import { h } from "./dom.js";
import { ALERTS } from "./words.js";

const STORAGE_KEY = "cardroom.alerts";
const KINDS = ["tab", "sound", "vibrate"];
const BEEP_SECONDS = 0.15;
const BEEP_HERTZ = 880;
const VIBRATION_MS = [120, 60, 120];
const ICON_SIZE = 32;

let audio = null;
let shown = null; // {title, icon} of the page before the alert, while the alert is shown
let listening = false;
let controlOpen = false;

/** The player's choices, each on unless switched off: ``{tab, sound, vibrate}``. */
export function alertSettings() {
  let saved = {};
  try {
    saved = JSON.parse(window.localStorage.getItem(STORAGE_KEY) || "{}") || {};
  } catch (error) {
    saved = {};
  }
  return Object.fromEntries(KINDS.map((kind) => [kind, saved[kind] !== false]));
}

function saveSetting(kind, on) {
  const settings = { ...alertSettings(), [kind]: on };
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch (error) {
    // Storage refused (private mode): the choice holds for this page only.
  }
  if (kind === "tab" && !on) restorePage();
}

/** Whether the player is looking elsewhere: another tab, another window, a locked phone. */
export function lookingElsewhere() {
  return document.hidden || !document.hasFocus();
}

/** The player's turn has begun: alerts him if he is looking elsewhere. */
export function turnBegins() {
  if (!lookingElsewhere()) return;
  const settings = alertSettings();
  listen();
  if (settings.tab) markPage();
  if (settings.sound) beep();
  if (settings.vibrate && typeof navigator.vibrate === "function") navigator.vibrate(VIBRATION_MS);
}

/** The table is left: the page's own title and icon come back. */
export function stopAlerts() {
  restorePage();
}

function iconLink() {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) {
    link = h("link", { rel: "icon", href: "data:," });
    document.head.appendChild(link);
  }
  return link;
}

/** The tab icon with a dot: drawn on a canvas, given as a data: address. */
function dotIcon() {
  const canvas = document.createElement("canvas");
  canvas.width = ICON_SIZE;
  canvas.height = ICON_SIZE;
  const pen = canvas.getContext("2d");
  if (!pen) return null;
  pen.fillStyle = "#1f6b45";
  pen.beginPath();
  pen.arc(ICON_SIZE / 2, ICON_SIZE / 2, ICON_SIZE / 2 - 1, 0, 2 * Math.PI);
  pen.fill();
  pen.fillStyle = "#f2c14e";
  pen.beginPath();
  pen.arc(ICON_SIZE / 2, ICON_SIZE / 2, ICON_SIZE / 4, 0, 2 * Math.PI);
  pen.fill();
  return canvas.toDataURL("image/png");
}

function markPage() {
  const link = iconLink();
  if (!shown) shown = { title: document.title, icon: link.getAttribute("href") };
  document.title = ALERTS.title;
  const icon = dotIcon();
  if (icon) link.setAttribute("href", icon);
}

function restorePage() {
  if (!shown) return;
  document.title = shown.title;
  iconLink().setAttribute("href", shown.icon);
  shown = null;
}

function backAgain() {
  if (!lookingElsewhere()) restorePage();
}

function listen() {
  if (listening) return;
  listening = true;
  document.addEventListener("visibilitychange", backAgain);
  window.addEventListener("focus", backAgain);
  window.addEventListener("pointerdown", backAgain, true);
}

/** A beep of 150 ms: a sine tone with a short rise and fall so that it does not click. */
function beep() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = BEEP_HERTZ;
    volume.gain.setValueAtTime(0.0001, now);
    volume.gain.exponentialRampToValueAtTime(0.2, now + 0.015);
    volume.gain.exponentialRampToValueAtTime(0.0001, now + BEEP_SECONDS);
    tone.connect(volume).connect(audio.destination);
    tone.start(now);
    tone.stop(now + BEEP_SECONDS);
  } catch (error) {
    // No sound device, or the browser refused: the title and the vibration still tell.
  }
}

/** The "Alerts" control at the table: a small drawer with one checkbox per alert. */
export function alertsControl() {
  const settings = alertSettings();
  const box = (kind) => h("label", { class: "alerts-choice" },
    h("input", { type: "checkbox", id: `alert-${kind}`, checked: settings[kind], dataset: { focus: `alert-${kind}` },
      onchange: (event) => saveSetting(kind, event.target.checked) }),
    " ", ALERTS[kind]);
  return h("details", { class: "alerts-control", id: "alerts-control", open: controlOpen,
    ontoggle: (event) => { controlOpen = event.target.open; } },
  h("summary", { dataset: { focus: "alerts-summary" } }, ALERTS.control),
  h("fieldset", { class: "alerts-body" }, h("legend", {}, ALERTS.legend), KINDS.map(box)));
}
