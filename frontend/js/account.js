// The account page (#/account): a guest claims the account with a password, a claimed account signs
// in from another browser, and "sign out everywhere" revokes every token of the account.

import { api, forgetPlayer, getPlayer, savePlayer, savedPlayer } from "./api.js";
import { clear, clearMessages, h, showMessage } from "./dom.js";
import { adoptLanguage, t, withNodes } from "./i18n.js";

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
    h("h2", { id: "claim-heading" }, t("account.claimHeading")),
    h("p", {}, t("account.claimAbout")),
    field("claim-name", t("account.name"), { value: player.name, maxlength: 40, autocomplete: "username", required: true }),
    field("claim-password", t("account.newPassword", { count: MIN_PASSWORD }), { type: "password", minlength: MIN_PASSWORD,
      maxlength: 256, autocomplete: "new-password", required: true }),
    field("claim-repeat", t("account.passwordAgain"), { type: "password", minlength: MIN_PASSWORD, maxlength: 256,
      autocomplete: "new-password", required: true }),
    h("button", { type: "submit", class: "primary" }, t("account.claim")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearMessages();
    const name = form.querySelector("#claim-name").value.trim();
    const password = form.querySelector("#claim-password").value;
    const repeat = form.querySelector("#claim-repeat").value;
    if (password.length < MIN_PASSWORD) {
      showMessage(t("account.passwordTooShort", { count: MIN_PASSWORD }), { code: "password/too_short" });
      return;
    }
    if (password !== repeat) {
      showMessage(t("account.passwordsDiffer"), { code: "password/mismatch" });
      return;
    }
    const body = { password };
    if (name && name !== player.name) body.name = name;
    busy(form, true);
    try {
      const claimed = await api(`/api/players/${encodeURIComponent(player.id)}/claim`, { method: "POST", token: player.token, body });
      savePlayer({ id: claimed.id, name: claimed.name, token: player.token });
      playerChanged();
      showMessage(t("account.claimed", { name: claimed.name }), { kind: "info" });
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
    h("h2", { id: "sign-in-heading" }, current ? t("account.signInOther") : t("account.signIn")),
    h("p", {}, !current ? t("account.signInAbout")
      : current.claimed ? t("account.signInForgets", { name: current.name }) : t("account.signInForgetsGuest", { name: current.name })),
    field("sign-in-name", t("account.name"), { maxlength: 40, autocomplete: "username", required: true }),
    field("sign-in-password", t("account.password"), { type: "password", maxlength: 256, autocomplete: "current-password", required: true }),
    h("button", { type: "submit", class: current ? "" : "primary" }, t("account.signIn")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearMessages();
    const name = form.querySelector("#sign-in-name").value.trim();
    const password = form.querySelector("#sign-in-password").value;
    if (!name || !password) {
      showMessage(t("account.signInEmpty"), { code: "sign_in/empty" });
      return;
    }
    busy(form, true);
    try {
      const player = await api("/api/sessions", { method: "POST", body: { name, password } });
      savePlayer(player);
      adoptLanguage(player.language);
      playerChanged();
      showMessage(t("account.signedIn", { name: player.name }), { kind: "info" });
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
    "aria-controls": "sign-out-confirm" }, t("account.signOutAsk"));
  const yes = h("button", { type: "button", class: "primary", id: "sign-out-confirm-yes" }, t("account.signOutYes"));
  const no = h("button", { type: "button" }, t("account.cancel"));
  const confirmRow = h("div", { class: "row", id: "sign-out-confirm", hidden: true },
    h("span", {}, t("account.signOutWarning")), yes, no);
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
      showMessage(t("account.signedOut"), { kind: "info" });
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
    h("h2", { id: "sign-out-heading" }, t("account.signOutHeading")),
    h("p", {}, t("account.signOutAbout")),
    ask, confirmRow);
}

export function showAccount(main) {
  const box = h("section", { class: "account", id: "account" });
  main.appendChild(box);
  const render = async () => {
    clear(box);
    box.appendChild(h("h1", {}, t("account.title")));
    const saved = savedPlayer();
    if (!saved) {
      box.append(h("p", { id: "account-status" }, ...withNodes(t("account.nobody"), { lobby: h("a", { href: "#/" }, t("account.lobbyLink")) })), signInForm(null, render));
      return;
    }
    let player;
    try {
      player = { ...(await getPlayer(saved.id)), token: saved.token };
    } catch (error) {
      showMessage(error.message, { code: error.code });
      box.append(h("p", { id: "account-status" }, t("account.notLoaded", { name: saved.name })), signInForm(saved, render));
      return;
    }
    const profile = h("a", { href: `#/player/${encodeURIComponent(player.id)}` }, h("strong", {}, player.name));
    box.appendChild(h("p", { id: "account-status" },
      ...withNodes(player.claimed ? t("account.playsAsClaimed") : t("account.playsAsGuest"), { name: profile })));
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
