// The table page of one room: seats around the felt, the owner's controls, the connection, the
// messages, and the game's own view (hazari.js, azi.js, hasenpfeffer.js) rendered from the latest
// ``state`` message. The client never judges a move: ``legal`` says what may be sent. Opened from an
// invitation (#/join/<room>), it seats the player in the first free seat.

import { GAME_TITLES, forgetPlayer, getMatch, getPlayer, savedPlayer } from "./api.js";
import { alertsControl, stopAlerts, turnBegins } from "./alerts.js";
import azi from "./azi.js";
import { TableChat } from "./chat.js";
import { closeDialogs } from "./dialog.js";
import { announce, clear, clearMessages, h, keepFocus, renderingHeld, showMessage } from "./dom.js";
import { SUIT_NAMES, cardShort } from "./cards.js";
import hasenpfeffer, { bidName } from "./hasenpfeffer.js";
import hazari from "./hazari.js";
import { seedMessages } from "./fairness.js";
import { guideBox, tableHelp } from "./help.js";
import { formatList, formatNumber, t, withNodes } from "./i18n.js";
import { motionFrame } from "./motion.js";
import { botLevelText, describeOptions, MONEY, OFFLINE_TEXT, PRESENCE, REMATCH, seatName } from "./words.js";
import { nameForm, playerChanged, takeAutoSit } from "./lobby.js";
import { reportDialog, showNotice } from "./reports.js";
import { RoomSocket } from "./socket.js";
import { askBuyIn, chipsAtTable, showChipsAtTable, tableStakes } from "./stakes.js";

const GAMES = { hazari, azi, hasenpfeffer };
// Messages about the player's current decision (a refused move) go once the decision has passed.
const DECISION = "decision";
// A notice of what the autopilot did when time ran out: replaced by the next, gone once the seat is
// taken back.
const TIMEOUT = "timeout";
// Who came, came back or left the table.
const PRESENCE_SCOPE = "presence";
// A sit sent for an invitation is tried again in the next free seat when this one was just taken.
const JOIN_TRIES = 3;
// Where the keyboard focus goes when the element that had it is gone after a redraw.
const FOCUS_FALLBACKS = ["#just-watch", ".seat.empty [data-focus^='bot-']", ".seat.empty [data-focus^='sit-']", "#start-button",
  ".dock button.primary:not([disabled])", ".dock [data-focus]:not([disabled]):not([aria-disabled='true'])", "#table-title"];
const STATUS_TEXT = {
  connecting: t("table.connecting"), open: t("table.connected"), reconnecting: t("table.reconnecting"),
  closed: t("table.disconnected"),
};
const BOT_LEVELS = ["strong", "random"];
const TEAMS = [t("table.teamA"), t("table.teamB")];

/** What the autopilot decided for this player's seat when its time ran out (a whole sentence). */
function decidedForYou(action, drafted) {
  switch (action.kind) {
    case "up": return drafted ? t("table.timeoutCompleted") : t("table.timeoutArranged");
    case "play": return t("table.timeoutPlayed", { card: cardShort(action.card) });
    case "discard": return t("table.timeoutDiscarded", { card: cardShort(action.card) });
    case "bid": return t("table.timeoutBid", { bid: bidName(action.value) });
    case "pass": return t("table.timeoutPassed");
    case "trump": return t("table.timeoutTrump", { suit: SUIT_NAMES[action.suit] || action.suit });
    case "bet": return t("table.timeoutBet", { amount: Number(action.amount) });
    case "call": return t("table.timeoutCalled");
    case "raise": return t("table.timeoutRaised", { amount: Number(action.to) });
    case "fold": return t("table.timeoutFolded");
    case "buy_in": return t("table.timeoutBoughtIn");
    case "decline": return t("table.timeoutDeclined");
    default: return t("table.timeoutDecided");
  }
}

/** The ``timer/expired`` notice in the page's language: what was done for this player's seat (the
 * notice then names the action), or for whom the autopilot decided; and whether it keeps the seat. */
function timeoutText(notice) {
  if (!("autopilot" in notice)) return notice.text;
  if (notice.action) {
    const done = decidedForYou(notice.action, notice.drafted);
    return notice.autopilot ? `${done} ${t("table.timeoutKeepsYourSeat")}` : done;
  }
  const done = t("table.timeoutFor", { name: notice.name });
  return notice.autopilot ? `${done} ${t("table.timeoutKeepsTheirSeat")}` : done;
}

/** Where each seat sits on the felt (percent of its box), the player's own seat at the bottom. */
function seatPositions(count, bottom, direction) {
  const step = (2 * Math.PI) / count;
  const sign = direction === "ccw" ? -1 : 1;
  const positions = [];
  for (let seat = 0; seat < count; seat += 1) {
    const offset = (seat - bottom + count) % count;
    const angle = Math.PI / 2 + sign * offset * step;
    positions.push({ seat, x: 50 + 41 * Math.cos(angle), y: 50 + 39 * Math.sin(angle) });
  }
  return positions;
}

const URGENT_SECONDS = 10;

/** Whole seconds until ``deadline`` (seconds since the epoch, as the server sends it). */
function secondsLeft(deadline) {
  return Math.max(0, Math.ceil(deadline - Date.now() / 1000));
}

function bareSeconds(seconds) {
  return t("table.seconds", { seconds });
}

/** A countdown to ``deadline`` (ARIA role timer), marked urgent in its last seconds; ``text(seconds)``
 * is the whole sentence it shows. */
function countdown(deadline, className, label, text = bareSeconds) {
  const node = h("span", { class: className, role: "timer", "aria-label": label,
    dataset: { deadline: String(deadline) } });
  node.countdownText = text;
  tick(node);
  return node;
}

function tick(node) {
  const left = secondsLeft(Number(node.dataset.deadline));
  node.textContent = (node.countdownText || bareSeconds)(left);
  node.classList.toggle("urgent", left <= URGENT_SECONDS);
}

class TableController {
  constructor(main, roomId, player, { join = false } = {}) {
    this.main = main;
    this.roomId = roomId;
    this.player = player;
    this.last = null;
    this.version = -1;
    this.freshConnection = true;
    this.ui = {};
    this.pending = new Map();
    this.seedsSent = new Set();
    this.turns = 0;
    this.myTurn = false;
    this.counter = 0;
    this.status = "connecting";
    this.matchDetail = null;
    this.matchFetch = null;
    this.matchKey = null;
    this.autoSit = player ? takeAutoSit(roomId) : false;
    // An invitation: the first state seats the player (``joinTries`` left), then ``joined`` is the
    // seat he was given, with the offer to watch instead.
    this.joinTries = player && join ? JOIN_TRIES : 0;
    this.joining = null;
    this.joined = null;
    // The buy-in dialog while it is open (undefined while it is being opened).
    this.buyIn = null;
    this.focusOnArrival = this.autoSit;
    this.help = { open: false };
    this.chat = new TableChat({ player, roomId, send: (message) => this.send(message), onBubble: () => this.redraw() });
    this.socket = new RoomSocket(roomId, player ? player.token : null, {
      onMessage: (message) => this.onMessage(message),
      onStatus: (status) => this.onStatus(status),
    });
    this.render();
    this.socket.connect();
    this.onRelease = () => { if (this.renderPending) this.redraw(); };
    window.addEventListener("cardroom:release", this.onRelease);
    this.ticker = window.setInterval(() => {
      for (const node of document.querySelectorAll("[data-deadline]")) tick(node);
    }, 500);
  }

  // --- incoming -------------------------------------------------------------------------------

  onStatus(status) {
    this.status = status;
    if (status === "open") this.freshConnection = true;
    const node = document.getElementById("conn-status");
    if (node) {
      node.textContent = STATUS_TEXT[status];
      node.dataset.status = status;
    }
    if (status === "closed" && !this.last) this.render();
  }

  onMessage(message) {
    if (message.type === "state") {
      if (message.version < this.version && !this.freshConnection) return;
      this.freshConnection = false;
      const before = this.last;
      // What a game keeps between states (a Hazari arrangement in the making) belongs to one match.
      if (before && before.room.match_id !== message.room.match_id) this.ui = {};
      this.version = message.version;
      this.last = message;
      this.afterState(before, message);
      this.chat.update(message);
      this.redraw();
    } else if (message.type === "chat") {
      this.chat.onLine(message);
    } else if (message.type === "chat_history") {
      this.chat.onHistory(message.lines);
    } else if (message.type === "error") {
      if (message.code.startsWith("chat/")) {
        this.chat.refused(message.code);
        return;
      }
      if (message.code === "auth/bad_token" || message.code === "auth/revoked") {
        forgetPlayer();
        playerChanged();
        showMessage(message.message, { code: message.code });
        return;
      }
      if (message.code.startsWith("fairness/") && !message.ref) {
        // This browser's seed came after the deal was dealt (it was not waited for): nothing to do.
        return;
      }
      if (this.joining !== null && !message.ref && message.code === "room/seat_taken" && this.joinTries > 0) {
        this.joining = null;
        this.join(this.last);
        return;
      }
      if (this.joining !== null && !message.ref) this.joining = null;
      if (this.buyIn && this.buyIn.waiting && !message.ref) {
        this.buyIn.refused(message.code, message.message);
        return;
      }
      const refused = message.ref && this.pending.has(message.ref);
      showMessage(message.message, { code: message.code, scope: refused ? DECISION : null });
    } else if (message.type === "notice" && message.code === "operator/notice") {
      showNotice(message);
    } else if (message.type === "notice" && PRESENCE[message.code]) {
      clearMessages(PRESENCE_SCOPE);
      showMessage(PRESENCE[message.code]({ name: message.name, seat: message.seat }), { kind: "info", scope: PRESENCE_SCOPE });
    } else if (message.type === "notice") {
      clearMessages(TIMEOUT);
      showMessage(message.code === "timer/expired" ? timeoutText(message) : message.text, { kind: "info", scope: TIMEOUT });
    } else if (message.type === "hint") {
      if (message.version !== this.version) return;
      const game = this.game();
      if (game && game.onHint) game.onHint(this.gameContext(), message.action);
    }
  }

  afterState(before, message) {
    const seat = this.mySeat();
    const nowToAct = seat !== null && message.view.to_act.includes(seat) && message.legal.length > 0;
    const wasToAct = before && seat !== null && before.view.to_act.includes(seat) && before.legal.length > 0;
    // A new decision: this seat's turn begins, or what it may do changed (its previous action was
    // applied and another decision follows at once, e.g. the opening bet after the discard).
    const legalKey = JSON.stringify(message.legal);
    if (nowToAct && (!wasToAct || legalKey !== this.legalKey)) {
      this.turns += 1;
      if (!wasToAct) {
        announce(t("table.yourTurnAnnounce"));
        turnBegins();
      }
    }
    if (legalKey !== this.legalKey || (before && before.view.phase !== message.view.phase)) clearMessages(DECISION);
    if (seat !== null && before && before.room.seats[seat].autopilot && !message.room.seats[seat].autopilot) {
      clearMessages(TIMEOUT);
    }
    this.legalKey = legalKey;
    this.myTurn = nowToAct;
    if (before && before.room.status === "finished" && before.room.match_id && message.room.match_id !== before.room.match_id) {
      announce(REMATCH.started);
      showMessage(REMATCH.started, { kind: "info" });
    }
    for (const seed of seedMessages(message.fairness, seat, this.seedsSent)) this.send(seed);
    const game = this.game();
    if (game && game.onState) game.onState(this.gameContext(), before, message);
    if (this.autoSit && seat === null && message.view.phase === "waiting") {
      this.autoSit = false;
      const free = message.room.seats.find((entry) => !entry.name && !entry.bot);
      if (free) this.sitAt(free.seat, message.room);
    }
    if (this.joinTries > 0 && this.joining === null) this.join(message);
    if (this.joining !== null && seat === this.joining) {
      this.joined = seat;
      this.joining = null;
      this.joinTries = 0;
      this.focusOnArrival = true;
    }
    if (this.buyIn) this.buyIn.seen(message, this.player.id);
    if (showChipsAtTable(chipsAtTable(message, seat))) playerChanged();
    this.refreshMatch(message);
  }

  /** The history API's record of this match (per-deal points), fetched again when scores move. */
  refreshMatch(message) {
    const matchId = message.room.match_id;
    if (!matchId) return;
    const key = `${matchId}:${JSON.stringify(message.view.scores)}:${message.room.status}`;
    if (key === this.matchKey) return;
    this.matchKey = key;
    window.clearTimeout(this.matchFetch);
    this.matchFetch = window.setTimeout(async () => {
      try {
        this.matchDetail = await getMatch(matchId);
        this.redraw();
        if (message.room.game === "azi") playerChanged();
      } catch (error) {
        this.matchDetail = null;
      }
    }, 150);
  }

  // --- outgoing -------------------------------------------------------------------------------

  send(message) {
    if (!this.socket.send(message)) {
      showMessage(OFFLINE_TEXT, { code: "client/offline" });
      return false;
    }
    return true;
  }

  /** Sits down in ``seat``; at a chip table, with the buy-in the player chooses first. */
  async sitAt(seat, room) {
    if (!tableStakes(room.options)) {
      this.send({ type: "sit", seat });
      return;
    }
    if (this.buyIn !== null) return;
    this.focusOnArrival = false;
    this.buyIn = undefined;
    try {
      this.buyIn = await askBuyIn({
        room, seat, player: this.player,
        send: (message) => this.socket.send(message),
        returnFocus: (seated) => this.main.querySelector(seated ? "[data-focus='stand']" : `[data-focus='sit-${seat}']`),
        onClose: () => { this.buyIn = null; },
      });
    } catch (error) {
      this.buyIn = null;
      showMessage(error.message, { code: error.code });
    }
  }

  /**
   * An invitation: sits the player in the first free seat of a table not started (at a chip table
   * with the buy-in the dialog would offer first: the table's largest, or the wallet when it holds
   * less), or says in words why he watches. Nothing when he is seated already.
   */
  async join(message) {
    if (this.joinTries === 0) return;
    this.joinTries -= 1;
    if (this.joinTries === JOIN_TRIES - 1) {
      window.history.replaceState(null, "", `#/room/${encodeURIComponent(this.roomId)}`);
    }
    if (this.mySeat() !== null) {
      this.joinTries = 0;
      return;
    }
    const free = message.room.seats.find((entry) => !entry.name && !entry.bot);
    const why = message.room.status === "finished" ? PRESENCE.closed
      : message.view.phase !== "waiting" ? PRESENCE.started : !free ? PRESENCE.full : null;
    if (why) {
      this.joinTries = 0;
      showMessage(why, { kind: "info" });
      return;
    }
    const sit = { type: "sit", seat: free.seat };
    const stakes = tableStakes(message.room.options);
    this.joining = free.seat;
    if (stakes) {
      try {
        const { chips } = await getPlayer(this.player.id);
        if (Math.min(stakes.high, chips) < stakes.low) {
          this.joining = null;
          this.joinTries = 0;
          showMessage(PRESENCE.tooFewChips({ low: stakes.low, wallet: chips }), { kind: "info" });
          return;
        }
        sit.buy_in = Math.min(stakes.high, chips);
      } catch (error) {
        this.joining = null;
        showMessage(error.message, { code: error.code });
        return;
      }
    }
    if (!this.send(sit)) this.joining = null;
  }

  /** Gives up the seat an invitation gave: the player watches. */
  justWatch() {
    if (!this.send({ type: "stand" })) return;
    this.joined = null;
    showMessage(PRESENCE.nowWatching, { kind: "info" });
  }

  act(action, label) {
    this.counter += 1;
    const id = `a${Date.now().toString(36)}-${this.counter}`;
    this.pending.set(id, label || action.kind);
    if (this.pending.size > 30) this.pending.delete(this.pending.keys().next().value);
    this.send({ type: "act", id, action });
  }

  // --- what the page knows ------------------------------------------------------------------------

  game() {
    return this.last ? GAMES[this.last.room.game] : null;
  }

  mySeat() {
    if (!this.last || !this.player) return null;
    const entry = this.last.room.seats.find((seat) => seat.player_id === this.player.id);
    return entry ? entry.seat : null;
  }

  isOwner() {
    return Boolean(this.last && this.player && this.last.room.owner === this.player.id);
  }

  name(seat) {
    if (seat === null || seat === undefined) return t("table.nobody");
    if (seat === this.mySeat()) return t("table.you");
    const entry = this.last && this.last.room.seats[seat];
    return entry && entry.name ? seatName(entry) : t("table.seatNumber", { seat: seat + 1 });
  }

  /** Scored deals of this match from the history API: ``[{number, points, detail}]``. */
  dealResults() {
    if (!this.matchDetail || !this.last || this.matchDetail.id !== this.last.room.match_id) return [];
    return this.matchDetail.deals.filter((deal) => deal.points !== null);
  }

  gameContext() {
    const message = this.last;
    if (!this.ui[message.room.game]) this.ui[message.room.game] = {};
    return {
      roomId: this.roomId,
      view: message.view,
      legal: message.legal,
      room: message.room,
      version: message.version,
      mySeat: this.mySeat(),
      isOwner: this.isOwner(),
      ui: this.ui[message.room.game],
      name: (seat) => this.name(seat),
      // A sentence about a seat: ``mine()`` when it is this player's, else ``others(name)``.
      bySeat: (seat, others, mine) => (seat !== null && seat === this.mySeat() ? mine() : others(this.name(seat))),
      act: (action, label) => this.act(action, label),
      send: (raw) => this.send(raw),
      rerender: () => this.redraw(),
      dealResults: () => this.dealResults(),
    };
  }

  // --- drawing ----------------------------------------------------------------------------------

  /** Draws again, keeping the keyboard focus where it was or on the next sensible control. */
  redraw() {
    keepFocus(() => this.render(), FOCUS_FALLBACKS);
    if (this.focusOnArrival && this.last && document.activeElement === document.body) {
      this.focusOnArrival = false;
      const target = FOCUS_FALLBACKS.map((selector) => this.main.querySelector(selector)).find(Boolean);
      if (target) target.focus({ preventScroll: true });
    }
  }

  render() {
    if (renderingHeld()) {
      this.renderPending = true;
      return;
    }
    this.renderPending = false;
    motionFrame();
    clear(this.main);
    if (!this.last) {
      this.main.appendChild(h("section", { class: "table-page loading" },
        h("h1", {}, t("table.loadingTitle")),
        h("p", {}, this.status === "closed" ? t("table.couldNotOpen") : t("table.connectingToRoom")),
        h("p", {}, h("a", { href: "#/" }, t("table.backToLobby")))));
      return;
    }
    const message = this.last;
    const game = this.game();
    const ctx = this.gameContext();
    const waiting = message.view.phase === "waiting";
    const root = h("section", {
      class: `table-page game-${message.room.game}`,
      dataset: { game: message.room.game, phase: message.view.phase, version: String(message.version),
        myTurn: this.myTurn ? "1" : "0", turns: String(this.turns),
        status: message.room.status, seat: ctx.mySeat === null ? "" : String(ctx.mySeat),
        match: message.room.match_id || "" },
    });
    root.appendChild(this.header(message));
    root.appendChild(this.chat.node);
    if (message.room.status === "finished") root.appendChild(this.finishedBanner(message, ctx));
    root.appendChild(this.felt(message, game, ctx, waiting));
    if (!waiting || message.room.status === "finished") root.appendChild(game.panel(ctx));
    if (!waiting && this.isOwner() && game.ownerControls) {
      const controls = game.ownerControls(ctx);
      if (controls) root.appendChild(controls);
    }
    root.appendChild(this.dock(message, game, ctx, waiting));
    this.main.appendChild(root);
  }

  /** Docked at the bottom of the screen: the player's hand and the controls of his decision. */
  dock(message, game, ctx, waiting) {
    const playing = !waiting && message.room.status !== "finished";
    const parts = [];
    const mine = ctx.mySeat !== null ? message.room.seats[ctx.mySeat] : null;
    if (playing && mine && mine.autopilot) parts.push(this.takeBackControl(ctx.mySeat));
    if (playing && message.view.deadline && mine && !mine.autopilot && message.view.to_act.includes(ctx.mySeat)) {
      parts.push(countdown(message.view.deadline, "dock-timer", t("table.decisionTimerLabel"),
        (seconds) => t("table.timeLeft", { seconds })));
    }
    if (playing && ctx.mySeat !== null) parts.push(guideBox(message.room.game, message.view.phase, ctx.ui, ctx.rerender));
    if (waiting) parts.push(this.waitingControls(message, ctx));
    else if (game.dock) parts.push(game.dock(ctx));
    const nextDeal = this.nextDealControl(message, ctx);
    if (nextDeal) parts.push(nextDeal);
    if (playing) parts.push(tableHelp(message.room.game, this.help));
    return h("section", { class: "dock", id: "dock", "aria-label": t("table.dock") }, parts);
  }

  header(message) {
    const title = GAME_TITLES[message.room.game] || message.room.game;
    const link = `${window.location.origin}${window.location.pathname}#/join/${encodeURIComponent(this.roomId)}`;
    const copy = h("button", { type: "button", class: "small-button", dataset: { focus: "copy-link" }, onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
        showMessage(t("table.linkCopied"), { kind: "info" });
      } catch (error) {
        showMessage(t("table.copyThisLink", { link }), { kind: "info" });
      }
    } }, t("table.copyLink"));
    const options = describeOptions(message.room.game, message.room.options);
    const drawer = h("details", { class: "room-details", id: "room-details", open: this.detailsOpen,
      ontoggle: (event) => { this.detailsOpen = event.target.open; } },
    h("summary", {}, t("table.roomDetails")),
    h("p", {}, message.room.private ? t("table.privateRoom") : t("table.publicRoom")),
    options.length ? h("dl", { class: "options-list", id: "room-options" }, options.map((entry) => [
      h("dt", {}, entry.label), h("dd", {}, entry.value, h("small", { class: "muted" }, entry.help))])) : null,
    this.fairnessLine(message),
    h("div", { class: "row" },
      h("label", { class: "share" }, h("span", {}, t("table.inviteLink")),
        h("input", { type: "text", readonly: true, value: link, id: "share-link", onfocus: (e) => e.target.select() })),
      copy));
    return h("header", { class: "table-head" },
      h("div", { class: "table-title" },
        h("h1", { id: "table-title", tabindex: "-1" }, t("table.title", { game: title })),
        h("a", { href: `#/rules/${message.room.game}`, class: "rules-link" }, t("table.rulesOf", { game: title })),
        h("span", { class: "conn", id: "conn-status", role: "status", dataset: { status: this.status } }, STATUS_TEXT[this.status]),
        this.player ? alertsControl() : null),
      drawer);
  }

  /** Whether the latest deal was committed to before the shuffle, and whether this browser gave its seed. */
  fairnessLine(message) {
    const deals = message.fairness && message.fairness.deals ? message.fairness.deals : [];
    const deal = deals[deals.length - 1];
    if (!deal) return null;
    const seat = this.mySeat();
    const mine = seat !== null && deal.client_seeds && deal.client_seeds[String(seat)];
    const params = { deal: deal.deal };
    const open = Boolean(deal.server_seed);
    const text = mine ? (open ? t("table.fairDealSeedOpen", params) : t("table.fairDealSeed", params))
      : (open ? t("table.fairDealOpen", params) : t("table.fairDeal", params));
    return h("p", { class: "muted fairness", id: "fairness-line" }, text);
  }

  /** While the autopilot plays for this player's seat: one tap takes it back. */
  takeBackControl(seat) {
    return h("div", { class: "take-back", role: "group", "aria-label": t("table.autopilotGroup") },
      h("span", {}, t("table.autopilotPlaying")), " ",
      h("button", { type: "button", class: "primary", id: "take-seat-back", dataset: { focus: "take-seat-back" },
        onclick: () => this.send({ type: "sit", seat }) }, t("table.takeSeatBack")));
  }

  nextDealControl(message, ctx) {
    const pause = message.view.next_deal;
    if (!pause || ctx.mySeat === null) return null;
    const ready = pause.ready.includes(ctx.mySeat);
    return h("div", { class: "next-deal", role: "group", "aria-label": t("table.nextDeal") },
      h("button", { type: "button", id: "next-deal", class: ready ? "" : "primary", disabled: ready,
        dataset: { focus: "next-deal" }, onclick: () => this.send({ type: "next_deal" }) }, t("table.nextDeal")),
      ready ? h("span", { class: "muted" }, t("table.waitingForOthers")) : null,
      countdown(pause.ends_at, "next-deal-timer muted", t("table.nextDealTimerLabel"),
        (seconds) => t("table.nextDealIn", { seconds })));
  }

  finishedBanner(message, ctx) {
    const view = message.view;
    let text = t("table.roomClosed");
    if (message.room.match_id) {
      const result = this.matchDetail && this.matchDetail.id === message.room.match_id ? this.matchDetail.result : null;
      const winnerSeats = view.winners || (result ? result.winners : []);
      const winners = winnerSeats.map((seat) => (message.room.game === "hasenpfeffer" ? TEAMS[seat] : ctx.name(seat)));
      text = winners.length ? t("table.matchOverWinners", { count: winners.length, names: formatList(winners, "unit") })
        : t("table.matchOver");
    }
    return h("div", { class: "finished-banner", id: "match-over" },
      h("p", { role: "status" }, h("strong", {}, text), " ",
        message.room.match_id ? h("a", { href: `#/match/${encodeURIComponent(message.room.match_id)}` }, t("table.matchInHistory")) : null,
        " \u00b7 ", h("a", { href: "#/" }, t("table.backToLobby"))),
      this.rematchControls(message, ctx));
  }

  /** Once a match is over, each player at the table plays again or leaves; the owner may start
   * without those who have not answered once their time is up. */
  rematchControls(message, ctx) {
    const offer = message.room.rematch;
    const seat = ctx.mySeat;
    if (!offer) return null;
    const people = message.room.seats.filter((entry) => entry.player_id && !entry.bot);
    const answered = (entry) => offer.accepted.includes(entry.seat) || offer.declined.includes(entry.seat);
    const others = people.filter((entry) => entry.seat !== seat);
    const waiting = people.filter((entry) => entry.connected && !answered(entry)).map((entry) => entry.name);
    const waitingOthers = others.filter((entry) => entry.connected && !answered(entry)).map((entry) => entry.name);
    const accepted = others.filter((entry) => offer.accepted.includes(entry.seat)).map((entry) => entry.name);
    const declined = others.filter((entry) => offer.declined.includes(entry.seat)).map((entry) => entry.name);
    const parts = [];
    if (seat !== null && offer.declined.includes(seat)) {
      parts.push(h("p", {}, REMATCH.youLeft));
    } else if (seat !== null && offer.accepted.includes(seat)) {
      parts.push(h("p", {}, REMATCH.youPlay));
    } else if (seat !== null) {
      parts.push(h("p", {}, REMATCH.question),
        h("div", { class: "row" },
          h("button", { type: "button", class: "primary", id: "play-again", dataset: { focus: "play-again" },
            onclick: () => this.send({ type: "rematch" }) }, REMATCH.playAgain),
          h("button", { type: "button", id: "leave-table", dataset: { focus: "leave-table" },
            onclick: () => { if (this.send({ type: "rematch", accept: false })) window.location.hash = "#/"; } },
          REMATCH.leave)));
    }
    if (accepted.length) parts.push(h("p", { class: "muted" }, REMATCH.accepted({ names: formatList(accepted, "unit") })));
    if (offer.deadline !== null && waitingOthers.length) {
      parts.push(h("p", { class: "muted", id: "rematch-waiting" }, REMATCH.waitingFor({ names: formatList(waitingOthers, "unit") })));
    }
    if (declined.length) parts.push(h("p", { class: "muted" }, REMATCH.declined({ names: formatList(declined, "unit") })));
    const mayStart = ctx.isOwner && seat !== null && offer.accepted.includes(seat) && waiting.length;
    window.clearTimeout(this.rematchTimer);
    if (mayStart && secondsLeft(offer.deadline) > 0) {
      this.rematchTimer = window.setTimeout(() => this.redraw(), secondsLeft(offer.deadline) * 1000);
      parts.push(h("p", { class: "muted" }, countdown(offer.deadline, "rematch-timer",
        t("table.rematchTimerLabel"), (seconds) => t("table.ownerMayStartIn", { seconds }))));
    } else if (mayStart) {
      parts.push(h("p", {}, REMATCH.ownerMayStart), h("button", { type: "button", class: "primary", id: "start-rematch",
        dataset: { focus: "start-rematch" }, onclick: () => this.send({ type: "start" }) }, REMATCH.startNow));
    }
    return h("div", { class: "rematch", role: "group", "aria-label": REMATCH.group }, parts);
  }

  seatBox(message, game, ctx, entry, waiting) {
    const seat = entry.seat;
    const mine = seat === ctx.mySeat;
    const toAct = message.view.to_act.includes(seat);
    const empty = !entry.name && !entry.bot;
    const classes = ["seat", mine ? "mine" : "", toAct ? "to-act" : "", empty ? "empty" : "",
      entry.bot ? "bot" : "", !entry.bot && entry.name && !entry.connected ? "offline" : ""].filter(Boolean);
    const badges = [];
    if (entry.bot) {
      badges.push(h("span", { class: "badge bot-badge" }, entry.bot_level
        ? t("table.botBadgeLevel", { level: botLevelText(entry.bot_level) }) : t("table.botBadge")));
    }
    if (!entry.bot && entry.name && !entry.connected && entry.grace_until) {
      badges.push(countdown(entry.grace_until, "badge conn-badge offline waiting-badge",
        PRESENCE.waitingLabel({ name: entry.name }), (seconds) => t("table.waitingForPlayer", { name: entry.name, seconds })));
    } else if (!entry.bot && entry.name) {
      badges.push(h("span", { class: `badge conn-badge ${entry.connected ? "online" : "offline"}` },
        entry.connected ? t("table.online") : t("table.offline")));
    }
    if (entry.player_id && entry.player_id === message.room.owner) badges.push(h("span", { class: "badge" }, t("table.ownerBadge")));
    if (toAct) badges.push(h("span", { class: "badge turn" }, mine ? t("table.yourTurnBadge") : t("table.toPlayBadge")));
    if (entry.autopilot) badges.push(h("span", { class: "badge autopilot" }, t("table.autopilotBadge")));
    // A bot, and the autopilot playing for a person, acts without waiting: no countdown for it.
    const deadline = message.view.deadlines ? message.view.deadlines[String(seat)] : null;
    if (toAct && deadline && !entry.bot && !entry.autopilot) {
      badges.push(countdown(deadline, "badge timer", t("table.seatTimerLabel")));
    }
    const body = [];
    if (waiting && empty) {
      if (this.player && ctx.mySeat === null) {
        body.push(h("button", { type: "button", class: "small-button", dataset: { focus: `sit-${seat}` },
          onclick: () => this.sitAt(seat, message.room) }, t("table.sitHere")));
      } else if (this.player && ctx.mySeat !== null) {
        body.push(h("button", { type: "button", class: "small-button", dataset: { focus: `sit-${seat}` },
          onclick: () => this.send({ type: "sit", seat }) }, t("table.moveHere")));
      }
      if (ctx.isOwner) {
        body.push(h("button", { type: "button", class: "small-button", dataset: { focus: `bot-${seat}` },
          "aria-label": t("table.addBotInSeat", { seat: seat + 1 }),
          onclick: () => this.send({ type: "add_bot", seat, level: this.botLevel() }) }, t("table.addBot")));
      }
    }
    if (waiting && entry.buy_in && tableStakes(message.room.options)) {
      body.push(h("span", { class: "stack" }, MONEY.brings({ amount: entry.buy_in, mine })));
    }
    if (!waiting && game.seatExtras) body.push(...game.seatExtras(ctx, seat));
    if (this.player && entry.player_id && !entry.bot && entry.player_id !== this.player.id) {
      body.push(h("button", { type: "button", class: "small-button report-button", dataset: { focus: `report-${seat}` },
        "aria-label": t("table.reportPlayer", { name: entry.name }),
        onclick: () => reportDialog({ roomId: this.roomId, target: entry, token: this.player.token,
          returnFocus: () => document.querySelector(`[data-focus="report-${seat}"]`) }) }, t("table.report")));
    }
    const who = { seat: seat + 1, name: this.name(seat) };
    const label = empty ? t("table.seatLabelEmpty", who)
      : entry.bot ? (toAct ? t("table.seatLabelBotToPlay", who) : t("table.seatLabelBot", who))
        : (toAct ? t("table.seatLabelToPlay", who) : t("table.seatLabel", who));
    return h("div", { class: classes.join(" "), role: "group", "aria-label": label, dataset: { seat: String(seat) } },
      h("div", { class: "seat-name" }, h("span", { class: "seat-no" }, formatNumber(seat + 1)),
        empty ? h("span", { class: "muted" }, t("table.emptySeat"))
          : h("strong", {}, mine ? t("table.nameYou", { name: entry.name }) : seatName(entry))),
      badges.length ? h("div", { class: "badges" }, badges) : null,
      this.reactionBubble(seat),
      body.length ? h("div", { class: "seat-body" }, body) : null);
  }

  /** A reaction just sent from this seat, shown briefly beside its name. */
  reactionBubble(seat) {
    const shown = this.chat.reactionAt(seat);
    if (!shown) return null;
    return h("span", { class: "seat-reaction", role: "status", dataset: { seat: String(seat) } },
      h("span", { "aria-hidden": "true" }, shown.face), " ", shown.label);
  }

  felt(message, game, ctx, waiting) {
    const seats = message.room.seats;
    const bottom = ctx.mySeat === null ? 0 : ctx.mySeat;
    const positions = seatPositions(seats.length, bottom, game.direction);
    const felt = h("div", { class: `felt seats-${seats.length}`, role: "region", "aria-label": t("table.felt") });
    const centre = h("div", { class: "felt-centre" });
    if (waiting) {
      const seated = seats.filter((entry) => entry.name || entry.bot).length;
      centre.appendChild(h("p", { class: "phase-line" }, t("table.waitingToStart", { seated, count: seats.length })));
    } else {
      centre.appendChild(game.centre(ctx));
    }
    felt.appendChild(centre);
    for (const position of positions) {
      const box = this.seatBox(message, game, ctx, seats[position.seat], waiting);
      box.style.setProperty("--x", `${position.x}%`);
      box.style.setProperty("--y", `${position.y}%`);
      box.style.order = String(position.seat === ctx.mySeat ? 100 : (position.seat - bottom + seats.length) % seats.length);
      felt.appendChild(box);
    }
    return felt;
  }

  botLevel() {
    return this.level || "strong";
  }

  waitingControls(message, ctx) {
    const parts = [];
    const seated = message.room.seats.filter((entry) => entry.name || entry.bot).length;
    if (message.room.status === "finished") return h("div");
    if (ctx.mySeat !== null) {
      parts.push(h("button", { type: "button", dataset: { focus: "stand" }, onclick: () => this.send({ type: "stand" }) }, t("table.leaveSeat")));
    } else if (!this.player) {
      parts.push(h("p", {}, withNodes(t("table.watchingChooseName"), { link: h("a", { href: "#/" }, t("table.chooseNameLink")) })));
    } else {
      parts.push(h("p", {}, t("table.pickSeat")));
    }
    if (ctx.isOwner) {
      const previous = this.botLevel();
      parts.push(h("label", { for: "bot-level" }, t("table.botLevel"), " "),
        h("select", { id: "bot-level", dataset: { focus: "bot-level" },
          onchange: (event) => { this.level = event.target.value; } },
          BOT_LEVELS.map((level) => h("option", { value: level, selected: previous === level }, botLevelText(level)))));
      parts.push(h("button", { type: "button", class: "primary", id: "start-button", dataset: { focus: "start" },
        onclick: () => this.send({ type: "start" }) }, t("table.startSeated", { count: seated })));
      parts.push(h("button", { type: "button", dataset: { focus: "close" }, onclick: () => this.send({ type: "close" }) }, t("table.closeRoom")));
    } else {
      parts.push(h("p", { class: "muted" }, t("table.ownerStarts")));
    }
    return h("div", { class: "waiting-controls", role: "group", "aria-label": t("table.beforeStart") },
      this.joinedNotice(ctx), h("div", { class: "row" }, parts));
  }

  /** After an invitation seated the player: which seat, and one tap to watch instead. */
  joinedNotice(ctx) {
    if (this.joined === null || this.joined !== ctx.mySeat) return null;
    return h("div", { class: "join-notice", id: "join-notice", role: "status" },
      h("span", {}, PRESENCE.tookSeat({ seat: this.joined })), " ",
      h("button", { type: "button", class: "primary", id: "just-watch", dataset: { focus: "just-watch" },
        onclick: () => this.justWatch() }, PRESENCE.justWatch));
  }

  close() {
    closeDialogs();
    showNotice(null);
    showChipsAtTable(null);
    stopAlerts();
    window.removeEventListener("cardroom:release", this.onRelease);
    window.clearInterval(this.ticker);
    window.clearTimeout(this.matchFetch);
    window.clearTimeout(this.rematchTimer);
    this.socket.close();
  }
}

export function showTable(main, roomId, { join = false } = {}) {
  const player = savedPlayer();
  if (!player) {
    let controller = null;
    main.appendChild(h("p", { class: "lead" }, PRESENCE.invited));
    main.appendChild(nameForm(() => {
      playerChanged();
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    }, { heading: join ? PRESENCE.joinHeading : t("table.chooseNameToJoin"), help: join ? PRESENCE.joinHelp : null }));
    main.appendChild(h("p", {}, h("button", { type: "button", id: "watch-only", onclick: () => {
      clear(main);
      window.history.replaceState(null, "", `#/room/${encodeURIComponent(roomId)}`);
      controller = new TableController(main, roomId, null);
    } }, PRESENCE.watchOnly)));
    return () => { if (controller) controller.close(); };
  }
  const controller = new TableController(main, roomId, player, { join });
  return () => controller.close();
}

/** An invitation (#/join/<room>): the table, the player seated in its first free seat. */
export function joinTable(main, roomId) {
  return showTable(main, roomId, { join: true });
}

/** The table as a spectator sees it, whoever this browser's player is (an operator watching). */
export function watchTable(main, roomId) {
  const controller = new TableController(main, roomId, null);
  return () => controller.close();
}
