// Chips at a table, as the player sees them: the buy-in he chooses as he sits down (a dialog with
// the table's range, capped by his wallet), and the chips he has at the table, which the header
// shows apart from the rest of his wallet (the server counts both in one balance).

import { getPlayer } from "./api.js";
import { openDialog } from "./dialog.js";
import { h, messageBody } from "./dom.js";
import { MONEY, OFFLINE_TEXT } from "./words.js";

/** The stake and the buy-in range of a table in chips, or null at a table not played for chips. */
export function tableStakes(options) {
  if (!options || options.max_buy_in === undefined || !options.stake) return null;
  return { stake: options.stake, low: options.stake * options.min_buy_in, high: options.stake * options.max_buy_in };
}

/**
 * The chips this player has at the table of ``message`` now: his stack, or before the start the
 * buy-in he chose; null when he has none there (no seat, no chips at this table, he left, the
 * session is over: what is left is back in his wallet).
 */
export function chipsAtTable(message, seat) {
  if (seat === null || !tableStakes(message.room.options) || message.room.status === "finished") return null;
  const view = message.view;
  if (view.phase === "waiting") return message.room.seats[seat].buy_in ?? null;
  return view.stacks && stillAtTable(view, seat) ? view.stacks[seat] : null;
}

/** Whether ``seat`` still has its stack at the table of ``view`` (a game's view): once it left or
 * the session is over, what was left of it is back in the wallet. */
export function stillAtTable(view, seat) {
  return view.phase !== "match_over" && !(view.left || []).includes(seat);
}

let atTable = null;

/** Tells the header the chips the player has at the table he is at (null: none); true if they changed. */
export function showChipsAtTable(chips) {
  const changed = chips !== atTable;
  atTable = chips;
  return changed;
}

/** The header's words for a ``balance`` (which holds the chips at the table too): the wallet, and
 * apart from it the chips at the table. */
export function walletLine(balance) {
  const wallet = h("span", { class: "chips", id: "my-chips" }, MONEY.wallet({ wallet: Math.max(0, balance - (atTable || 0)) }));
  if (atTable === null) return [wallet];
  return [wallet, " \u00b7 ", h("span", { class: "chips", id: "my-table-chips" }, MONEY.atTable({ stack: atTable }))];
}

/**
 * Asks how many chips ``player`` brings to ``seat``: a number box and a slider between the table's
 * smallest and largest buy-in, capped by the wallet, at first the most the wallet allows. ``send``
 * gets the ``sit`` message (false: it was not sent). An amount that is not a whole number in range is
 * refused here, in words, and sends nothing. Returns the dialog's handle (``BuyIn``).
 */
export async function askBuyIn({ room, seat, player, send, returnFocus, onClose }) {
  const fresh = await getPlayer(player.id);
  return new BuyIn({ stakes: tableStakes(room.options), seat, wallet: fresh.chips, send, returnFocus, onClose });
}

class BuyIn {
  constructor({ stakes, seat, wallet, send, returnFocus, onClose }) {
    this.seat = seat;
    this.waiting = false;
    this.low = stakes.low;
    this.high = Math.min(stakes.high, wallet);
    this.capped = this.high < stakes.high;
    this.errors = h("div", { id: "buy-in-error", class: "dialog-errors" });
    const about = [
      h("p", { id: "buy-in-about" }, MONEY.buyInAbout({ seat, low: stakes.low, high: stakes.high })),
      h("p", { id: "buy-in-wallet", class: "wallet-line" }, MONEY.buyInWallet({ wallet })),
    ];
    const cancel = h("button", { type: "button", id: "buy-in-cancel" }, this.high < this.low ? MONEY.close : MONEY.cancel);
    let content;
    let focus = cancel;
    if (this.high < this.low) {
      this.errors.appendChild(h("p", { class: "dialog-error", role: "alert" }, MONEY.buyInTooFew({ low: this.low, wallet })));
      content = [...about, this.errors, h("div", { class: "row dialog-buttons" }, cancel)];
    } else {
      content = this.form(about, cancel);
      focus = this.input;
    }
    this.handle = openDialog({ id: "buy-in", title: MONEY.buyInTitle, content, describedBy: "buy-in-about buy-in-wallet",
      focus, returnFocus: () => returnFocus(this.seated), onClose });
    cancel.addEventListener("click", () => this.close());
    this.send = send;
  }

  form(about, cancel) {
    const { low, high } = this;
    this.input = h("input", { id: "buy-in-amount", name: "buy_in", type: "number", inputmode: "numeric",
      min: low, max: high, step: 1, value: String(high), "aria-describedby": "buy-in-range buy-in-error" });
    this.slider = h("input", { id: "buy-in-slider", type: "range", min: low, max: high, step: 1, value: String(high),
      "aria-label": MONEY.buyInSlider, "aria-describedby": "buy-in-range" });
    this.submit = h("button", { type: "submit", class: "primary", id: "buy-in-send" }, MONEY.buyInSend({ amount: high }));
    this.input.addEventListener("input", () => {
      const amount = this.amount();
      if (amount !== null) this.slider.value = String(amount);
      this.submit.textContent = MONEY.buyInSend({ amount });
    });
    this.slider.addEventListener("input", () => {
      this.input.value = this.slider.value;
      this.submit.textContent = MONEY.buyInSend({ amount: Number(this.slider.value) });
    });
    const form = h("form", { novalidate: true },
      ...about,
      h("div", { class: "field buy-in-field" },
        h("label", { for: "buy-in-amount" }, MONEY.buyInLabel),
        h("div", { class: "row" }, this.input, this.slider),
        h("small", { id: "buy-in-range", class: "muted" }, MONEY.buyInRange({ low, high }))),
      this.errors,
      h("div", { class: "row dialog-buttons" }, this.submit, cancel));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.choose();
    });
    return form;
  }

  /** The whole number of chips typed in range, or null. */
  amount() {
    const text = this.input.value.trim();
    const amount = Number(text);
    return text !== "" && Number.isInteger(amount) && amount >= this.low && amount <= this.high ? amount : null;
  }

  choose() {
    if (this.waiting) return;
    const amount = this.amount();
    if (amount === null) {
      const text = this.input.value.trim();
      const whole = text !== "" && Number.isInteger(Number(text));
      const words = { low: this.low, high: this.high, capped: this.capped };
      this.showError(whole ? MONEY.buyInOutside(words) : MONEY.buyInWhole(words));
      this.input.focus();
      return;
    }
    this.clearError();
    if (!this.send({ type: "sit", seat: this.seat, buy_in: amount })) {
      this.showError(OFFLINE_TEXT);
      return;
    }
    this.waiting = true;
    this.submit.disabled = true;
  }

  showError(text, code = null) {
    this.clearError();
    this.errors.appendChild(h("div", { class: "dialog-error", role: "alert" }, messageBody(text, code)));
    if (this.input) this.input.setAttribute("aria-invalid", "true");
  }

  clearError() {
    this.errors.replaceChildren();
    if (this.input) this.input.removeAttribute("aria-invalid");
  }

  /** The server refused the ``sit``: its sentence, and the player may try another amount. */
  refused(code, text) {
    this.waiting = false;
    this.submit.disabled = false;
    this.showError(text, code);
    this.input.focus();
  }

  /** A new state of the room: once it shows the player in the seat, the dialog has done its work. */
  seen(message, playerId) {
    const entry = message.room.seats[this.seat];
    if (this.waiting && entry && entry.player_id === playerId) {
      this.seated = true;
      this.close();
    }
  }

  close() {
    this.handle.close();
  }
}
