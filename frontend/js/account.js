// The account page (#/account): a guest claims the account with a password, a claimed account signs
// in from another browser, and "sign out everywhere" revokes every token of the account.

import { api, forgetPlayer, getPlayer, savePlayer, savedPlayer } from "./api.js";
import { clear, clearMessages, h, showMessage } from "./dom.js";

const MIN_PASSWORD = 8;

function playerChanged() {
  window.dispatchEvent(new Event("cardroom:player"));
}

function field(id, label, attrs = {}) {
  return h("div", { class: "field" }, h("label", { for: id }, label), h("input", { id, name: id, ...attrs }));
}

function busy(form, on) {
  for (const control of form.querySelectorAll("button, input")) control.disabled = on;
}

function claimForm(player, done) {
  const form = h("form", { class: "card-panel", id: "claim-form", "aria-labelledby": "claim-heading", novalidate: true },
    h("h2", { id: "claim-heading" }, "Keep this account"),
    h("p", {}, "Give it a password to sign in from any browser. Your matches, chips and ratings stay yours; "
      + "only claimed accounts are rated. A claimed name is yours alone."),
    field("claim-name", "Name", { value: player.name, maxlength: 40, autocomplete: "username", required: true }),
    field("claim-password", "Password (8 characters or more)", { type: "password", minlength: MIN_PASSWORD,
      maxlength: 256, autocomplete: "new-password", required: true }),
    field("claim-repeat", "The password again", { type: "password", minlength: MIN_PASSWORD, maxlength: 256,
      autocomplete: "new-password", required: true }),
    h("button", { type: "submit", class: "primary" }, "Claim the account"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearMessages();
    const name = form.querySelector("#claim-name").value.trim();
    const password = form.querySelector("#claim-password").value;
    const repeat = form.querySelector("#claim-repeat").value;
    if (password.length < MIN_PASSWORD) {
      showMessage(`The password needs at least ${MIN_PASSWORD} characters.`, { code: "password/too_short" });
      return;
    }
    if (password !== repeat) {
      showMessage("The two passwords differ; type the same one twice.", { code: "password/mismatch" });
      return;
    }
    const body = { password };
    if (name && name !== player.name) body.name = name;
    busy(form, true);
    try {
      const claimed = await api(`/api/players/${encodeURIComponent(player.id)}/claim`, { method: "POST", token: player.token, body });
      savePlayer({ id: claimed.id, name: claimed.name, token: player.token });
      playerChanged();
      showMessage(`The account ${claimed.name} is yours: sign in with its name and password from any browser.`, { kind: "info" });
      done();
    } catch (error) {
      showMessage(error.message, { code: error.code });
      busy(form, false);
    }
  });
  return form;
}

function signInForm(current, done) {
  const form = h("form", { class: "card-panel", id: "sign-in-form", "aria-labelledby": "sign-in-heading", novalidate: true },
    h("h2", { id: "sign-in-heading" }, current ? "Sign in to another account" : "Sign in"),
    h("p", {}, "With the name and password of a claimed account.",
      current ? ` This browser then forgets ${current.name}${current.claimed ? "" : ", a guest account that cannot be signed in to again"}.` : ""),
    field("sign-in-name", "Name", { maxlength: 40, autocomplete: "username", required: true }),
    field("sign-in-password", "Password", { type: "password", maxlength: 256, autocomplete: "current-password", required: true }),
    h("button", { type: "submit", class: current ? "" : "primary" }, "Sign in"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearMessages();
    const name = form.querySelector("#sign-in-name").value.trim();
    const password = form.querySelector("#sign-in-password").value;
    if (!name || !password) {
      showMessage("Type the account's name and password.", { code: "sign_in/empty" });
      return;
    }
    busy(form, true);
    try {
      const player = await api("/api/sessions", { method: "POST", body: { name, password } });
      savePlayer(player);
      playerChanged();
      showMessage(`Signed in as ${player.name}.`, { kind: "info" });
      done();
    } catch (error) {
      showMessage(error.message, { code: error.code });
      busy(form, false);
    }
  });
  return form;
}

function signOutPanel(player, done) {
  const ask = h("button", { type: "button", id: "sign-out-everywhere", "aria-expanded": "false",
    "aria-controls": "sign-out-confirm" }, "Sign out everywhere\u2026");
  const yes = h("button", { type: "button", class: "primary", id: "sign-out-confirm-yes" }, "Yes, sign out everywhere");
  const no = h("button", { type: "button" }, "Cancel");
  const confirmRow = h("div", { class: "row", id: "sign-out-confirm", hidden: true },
    h("span", {}, "Every browser signed in to this account is signed out, this one too."), yes, no);
  const toggle = (open) => {
    confirmRow.hidden = !open;
    ask.setAttribute("aria-expanded", open ? "true" : "false");
    (open ? yes : ask).focus();
  };
  ask.addEventListener("click", () => toggle(confirmRow.hidden));
  no.addEventListener("click", () => toggle(false));
  yes.addEventListener("click", async () => {
    clearMessages();
    yes.disabled = true;
    try {
      await api("/api/sessions", { method: "DELETE", token: player.token });
      forgetPlayer();
      playerChanged();
      showMessage("Signed out everywhere: every browser's key to this account is revoked. Sign in again with the password.", { kind: "info" });
      done();
    } catch (error) {
      showMessage(error.message, { code: error.code });
      if (error.code === "auth/bad_token") {
        forgetPlayer();
        playerChanged();
        done();
      } else {
        yes.disabled = false;
      }
    }
  });
  return h("section", { class: "card-panel", "aria-labelledby": "sign-out-heading" },
    h("h2", { id: "sign-out-heading" }, "Sign out everywhere"),
    h("p", {}, "Revokes the key of every browser signed in to this account (a lost phone, a shared computer). "
      + "This browser is signed out too."),
    ask, confirmRow);
}

export function showAccount(main) {
  const box = h("section", { class: "account", id: "account" });
  main.appendChild(box);
  const render = async () => {
    clear(box);
    box.appendChild(h("h1", {}, "Account"));
    const saved = savedPlayer();
    if (!saved) {
      box.append(h("p", { id: "account-status" }, "No player in this browser. Sign in to a claimed account, or choose a name in the ",
        h("a", { href: "#/" }, "lobby"), " to play as a guest."), signInForm(null, render));
      return;
    }
    let player;
    try {
      player = { ...(await getPlayer(saved.id)), token: saved.token };
    } catch (error) {
      showMessage(error.message, { code: error.code });
      box.append(h("p", { id: "account-status" }, `${saved.name}: the account could not be loaded.`), signInForm(saved, render));
      return;
    }
    box.appendChild(h("p", { id: "account-status" }, "This browser plays as ",
      h("a", { href: `#/player/${encodeURIComponent(player.id)}` }, h("strong", {}, player.name)),
      player.claimed ? ", a claimed account." : ", a guest: only this browser holds its key."));
    if (player.claimed) {
      box.appendChild(signOutPanel(player, render));
    } else {
      box.appendChild(claimForm(player, render));
    }
    box.appendChild(signInForm(player, render));
  };
  render();
  return null;
}
