// The table chat: a drawer opened by a button that counts unread lines, the last lines, an input
// with a character counter, the reactions bar, and mute per player (remembered in this browser).
// Everything anyone wrote is shown as text (textContent), never as markup. The page sends only what
// the player typed or the reaction he chose: nothing of the game goes into the chat by itself.

import { clear, h, put } from "./dom.js";
import { reportDialog } from "./reports.js";
import { CHAT, REACTIONS, sentenceFor } from "./words.js";

const MAX_TEXT = 200;
const KEPT_LINES = 50;
const BUBBLE_MS = 4000;
const MUTED_KEY = "cardroom.chat.muted";

function loadMuted() {
  try {
    const saved = JSON.parse(window.localStorage.getItem(MUTED_KEY) || "[]");
    return new Set(Array.isArray(saved) ? saved.filter((id) => typeof id === "string") : []);
  } catch (error) {
    return new Set();
  }
}

export class TableChat {
  /** ``send(message)`` sends a frame; ``onBubble()`` redraws the seats when a reaction comes or goes. */
  constructor({ player, roomId, send, onBubble }) {
    this.player = player;
    this.roomId = roomId;
    this.send = send;
    this.onBubble = onBubble;
    this.lines = [];
    this.unread = 0;
    this.open = false;
    this.muted = loadMuted();
    this.names = new Map();
    this.bubbles = new Map();
    this.canWrite = false;
    this.build();
  }

  build() {
    this.toggle = h("button", { type: "button", class: "chat-toggle small-button", id: "chat-toggle",
      "aria-expanded": "false", "aria-controls": "chat-drawer", onclick: () => this.setOpen(!this.open) }, CHAT.open({ unread: 0 }));
    this.log = h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite", "aria-label": CHAT.title });
    this.refusal = h("p", { class: "chat-refusal", id: "chat-refusal", role: "alert", hidden: true });
    this.counter = h("span", { class: "chat-counter muted", id: "chat-counter", "aria-live": "off" }, CHAT.counter({ used: 0, max: MAX_TEXT }));
    this.input = h("input", { type: "text", id: "chat-input", autocomplete: "off", dataset: { focus: "chat-input" },
      "aria-describedby": "chat-counter", oninput: () => this.count() });
    this.sendButton = h("button", { type: "submit", id: "chat-send" }, CHAT.send);
    this.form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (event) => { event.preventDefault(); this.say(); } },
      h("label", { for: "chat-input", class: "sr-only" }, CHAT.input), this.input, this.counter, this.sendButton);
    this.reactions = h("div", { class: "chat-reactions", role: "group", "aria-label": CHAT.reactions, id: "chat-reactions" },
      Object.entries(REACTIONS).map(([key, words]) => h("button", { type: "button", class: "reaction small-button",
        dataset: { reaction: key, focus: `react-${key}` }, "aria-label": words.label, title: words.label,
      onclick: () => this.react(key) }, h("span", { "aria-hidden": "true" }, words.face))));
    this.note = h("p", { class: "muted chat-note", id: "chat-note", hidden: true });
    this.mutedList = h("p", { class: "muted chat-muted", id: "chat-muted", hidden: true });
    this.drawer = h("div", { class: "chat-drawer", id: "chat-drawer", hidden: true },
      this.form, this.refusal, this.reactions, this.note, this.log, this.mutedList);
    this.node = h("section", { class: "chat", id: "chat", "aria-label": CHAT.title }, this.toggle, this.drawer);
    this.renderLog();
  }

  setOpen(open) {
    this.open = open;
    this.drawer.hidden = !open;
    this.toggle.setAttribute("aria-expanded", String(open));
    if (open) this.unread = 0;
    this.renderToggle();
    if (open) this.log.scrollTop = this.log.scrollHeight;
  }

  renderToggle() {
    this.toggle.textContent = this.open ? CHAT.close : CHAT.open({ unread: this.unread });
  }

  /** What the latest state says: the seats' names, and whether this player may write. */
  update(message) {
    const seat = this.player ? message.room.seats.find((entry) => entry.player_id === this.player.id) : null;
    const spectatorsWrite = Boolean(message.room.options.spectator_chat);
    this.canWrite = Boolean(this.player) && (Boolean(seat) || spectatorsWrite);
    this.form.hidden = !this.canWrite;
    this.reactions.hidden = !this.canWrite;
    this.note.hidden = this.canWrite;
    this.note.textContent = this.player ? CHAT.readOnly : CHAT.signIn;
  }

  count() {
    const used = this.input.value.trim().length;
    this.counter.textContent = CHAT.counter({ used, max: MAX_TEXT });
    const over = used > MAX_TEXT;
    this.counter.classList.toggle("over", over);
    this.sendButton.disabled = over;
    this.refusal.hidden = !over;
    if (over) this.refusal.textContent = CHAT.tooLong({ max: MAX_TEXT });
  }

  say() {
    const text = this.input.value.trim();
    if (!text || text.length > MAX_TEXT) return;
    if (this.send({ type: "chat", text })) {
      this.input.value = "";
      this.count();
    }
  }

  react(key) {
    this.send({ type: "react", reaction: key });
  }

  /** A refused line or reaction, in plain words, where the player is looking. */
  refused(code) {
    this.refusal.textContent = sentenceFor(code) || sentenceFor("chat/refused");
    this.refusal.hidden = false;
    this.refusal.dataset.code = code;
    if (!this.open) this.setOpen(true);
  }

  onHistory(lines) {
    this.lines = lines.slice(-KEPT_LINES);
    this.renderLog();
  }

  onLine(line) {
    this.lines.push(line);
    if (this.lines.length > KEPT_LINES) this.lines.shift();
    const mine = this.player && line.from.player_id === this.player.id;
    if (mine) this.refusal.hidden = true;
    if (!this.open && !mine && !this.muted.has(line.from.player_id)) this.unread += 1;
    this.renderToggle();
    this.renderLog();
    if (line.reaction && line.from.seat !== null && !this.muted.has(line.from.player_id)) {
      const shown = { key: line.reaction, at: Date.now() };
      this.bubbles.set(line.from.seat, shown);
      this.onBubble();
      window.setTimeout(() => {
        if (this.bubbles.get(line.from.seat) === shown) {
          this.bubbles.delete(line.from.seat);
          this.onBubble();
        }
      }, BUBBLE_MS);
    }
  }

  /** The reaction shown at ``seat`` now, if any: ``{face, label}``. */
  reactionAt(seat) {
    const shown = this.bubbles.get(seat);
    return shown ? REACTIONS[shown.key] : null;
  }

  speaker(line) {
    if (this.player && line.from.player_id === this.player.id) return CHAT.you;
    return line.from.seat === null ? CHAT.watching({ name: line.from.name }) : line.from.name;
  }

  setMuted(playerId, name, muted) {
    if (muted) this.muted.add(playerId);
    else this.muted.delete(playerId);
    this.names.set(playerId, name);
    try {
      window.localStorage.setItem(MUTED_KEY, JSON.stringify([...this.muted]));
    } catch (error) {
      // Private windows may refuse storage: the mute lasts for this page only.
    }
    for (const [seat, shown] of this.bubbles) {
      if (muted && this.lines.some((line) => line.from.player_id === playerId && line.from.seat === seat && line.reaction === shown.key)) {
        this.bubbles.delete(seat);
      }
    }
    this.renderLog();
    this.onBubble();
  }

  renderLog() {
    clear(this.log);
    const shown = this.lines.filter((line) => !this.muted.has(line.from.player_id));
    if (!shown.length) this.log.appendChild(h("li", { class: "muted chat-empty" }, CHAT.empty));
    for (const line of shown) {
      const mine = this.player && line.from.player_id === this.player.id;
      const said = line.reaction ? `${REACTIONS[line.reaction] ? `${REACTIONS[line.reaction].face} ${REACTIONS[line.reaction].label}` : line.reaction}` : line.text;
      const name = this.speaker(line);
      const item = h("li", { class: `chat-line${line.reaction ? " reaction-line" : ""}`, dataset: { player: line.from.player_id } },
        h("strong", { class: "chat-name" }, name), " ", h("span", { class: "chat-text" }, said));
      if (!mine) {
        item.appendChild(h("button", { type: "button", class: "chat-mute small-button", "aria-label": CHAT.mute({ name: line.from.name }),
          onclick: () => this.setMuted(line.from.player_id, line.from.name, true) }, CHAT.muteButton));
      }
      if (!mine && this.player && line.text) item.appendChild(this.reportButton(line, item));
      this.log.appendChild(item);
    }
    const muted = [...this.muted].map((id) => [id, this.names.get(id) || this.nameOf(id)]).filter(([, name]) => name);
    this.mutedList.hidden = muted.length === 0;
    clear(this.mutedList);
    if (muted.length) {
      put(this.mutedList, `${CHAT.muted} `, muted.map(([id, name]) => h("button", { type: "button", class: "small-button chat-unmute",
        "aria-label": CHAT.unmute({ name }), onclick: () => this.setMuted(id, name, false) }, CHAT.unmute({ name }))));
    }
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** "Report" on another player's line: the report carries the line as it was said. */
  reportButton(line, item) {
    const button = h("button", { type: "button", class: "chat-report small-button",
      "aria-label": CHAT.report({ name: line.from.name }),
      onclick: () => reportDialog({ roomId: this.roomId, target: line.from, token: this.player.token,
        line: { text: line.text, at: line.at }, returnFocus: () => button.isConnected ? button : item }) }, CHAT.reportButton);
    return button;
  }

  nameOf(playerId) {
    const line = this.lines.find((entry) => entry.from.player_id === playerId);
    return line ? line.from.name : null;
  }
}
