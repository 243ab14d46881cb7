// The room WebSocket with automatic reconnection (exponential backoff). It resends nothing by
// itself: after a reconnection the server's next ``state`` message restores the table. The token goes
// in the first message, never in the address (addresses end up in logs).

import { t } from "./i18n.js";

const FIRST_DELAY = 500;
const MAX_DELAY = 5000;
const POLICY_CLOSE = 1008;
// The token was revoked, an operator suspended the player, or removed him from this room: for good.
const FINAL_CLOSES = new Set([4401, 4403, 4410]);
// The server stopped or moved the table to another server (service restart): back at once.
const RESTART_CLOSE = 1012;
// Refusals after which trying again later makes sense (the others, e.g. a wrong token or an
// unknown room, close the connection for good).
const RETRY_AFTER = new Set(["message/rate_limited", "limit/connections"]);

function banner() {
  return document.getElementById("conn-banner");
}

function showBanner(text) {
  const node = banner();
  if (!node) return;
  node.textContent = text;
  node.hidden = false;
}

function hideBanner() {
  const node = banner();
  if (node) node.hidden = true;
}

export class RoomSocket {
  /**
   * ``onMessage(message)`` gets every parsed frame; ``onStatus(status)`` gets "connecting",
   * "open", "reconnecting" or "closed" (closed for good: a refused token or room, or close()).
   */
  constructor(roomId, token, { onMessage, onStatus }) {
    this.roomId = roomId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.status = "connecting";
    this.lastRefusal = null;
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${window.location.host}/ws/rooms/${encodeURIComponent(this.roomId)}`;
  }

  setStatus(status) {
    this.status = status;
    if (this.onStatus) this.onStatus(status);
  }

  connect() {
    if (this.stopped) return;
    this.setStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    // The server greets every new socket with a spectator's state; a player's own state follows his
    // sign-in, so until then the spectator's would show him, for a moment, a table without his hand.
    let signedIn = !this.token;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      if (this.token) ws.send(JSON.stringify({ type: "auth", token: this.token }));
      this.attempt = 0;
      this.lastRefusal = null;
      hideBanner();
      this.setStatus("open");
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (message.type === "error" && !message.ref) this.lastRefusal = message.code;
      if (message.type === "authenticated" || message.type === "error") signedIn = true;
      if (message.type === "state" && !signedIn) return;
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws) return;
      this.ws = null;
      if (this.stopped) return;
      const refused = event.code === POLICY_CLOSE && !RETRY_AFTER.has(this.lastRefusal);
      if (refused || FINAL_CLOSES.has(event.code)) {
        this.stopped = true;
        hideBanner();
        this.setStatus("closed");
        return;
      }
      this.scheduleReconnect(event.code === RESTART_CLOSE && this.attempt === 0);
    });
  }

  scheduleReconnect(atOnce = false) {
    const delay = atOnce ? 0 : Math.min(MAX_DELAY, FIRST_DELAY * 2 ** this.attempt);
    this.attempt += 1;
    showBanner(t("socket.reconnecting"));
    this.setStatus("reconnecting");
    this.timer = window.setTimeout(() => this.connect(), delay);
  }

  /** Sends ``message`` if the socket is open; returns false (and sends nothing) otherwise. */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.stopped = true;
    window.clearTimeout(this.timer);
    hideBanner();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
  }
}
