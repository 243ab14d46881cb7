// The lobby: choose a name, see the open public rooms, create a room with its table options.

import {
  GAME_TITLES, createPlayer, createRoom, forgetPlayer, getGames, getPlayer, getRooms, savedPlayer, topUp,
} from "./api.js";
import { clear, h, showMessage } from "./dom.js";
import { formatList, t, withNodes } from "./i18n.js";
import { tableStakes } from "./stakes.js";
import {
  MONEY, PRESETS, PRESET_WORDS, amountText, choiceLabel, optionHelp, optionLabel, optionsSummary, seatName,
} from "./words.js";

/** Tells the header that the player (or the chips) changed. */
export function playerChanged() {
  window.dispatchEvent(new Event("cardroom:player"));
}

const AUTO_SIT_KEY = "cardroom.autosit";
const REFRESH_MS = 5000;

/** Asks for a name and creates the guest account; ``done(player)`` runs after. */
export function nameForm(done, { heading = t("lobby.chooseName"), help = null } = {}) {
  const input = h("input", { id: "player-name", name: "name", required: true, maxlength: 40,
    autocomplete: "nickname", placeholder: t("lobby.namePlaceholder") });
  const form = h("form", { class: "card-panel name-form", "aria-labelledby": "name-heading" },
    h("h2", { id: "name-heading" }, heading),
    help ? h("p", {}, help) : null,
    h("p", {}, t("lobby.guestAccount")),
    h("div", { class: "row" },
      h("label", { for: "player-name" }, t("lobby.nameLabel")), input,
      h("button", { type: "submit", class: "primary" }, t("lobby.play"))));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) {
      showMessage(t("lobby.nameEmpty"), { code: "name/empty" });
      input.focus();
      return;
    }
    try {
      const player = await createPlayer(name);
      done(player);
    } catch (error) {
      showMessage(error.message, { code: error.code });
    }
  });
  window.setTimeout(() => input.focus(), 0);
  return form;
}

function roomRow(room) {
  const title = GAME_TITLES[room.game] || room.game;
  const taken = room.seats.filter((seat) => seat.name).map(seatName);
  const names = taken.length ? formatList(taken, "unit") : t("lobby.nobodyYet");
  const stakes = tableStakes(room.options);
  const playing = room.status === "playing";
  const seats = { free: room.seats.filter((seat) => !seat.name && !seat.bot).length, count: room.seats.length, game: title };
  return h("li", { class: "room-item", dataset: { room: room.id, game: room.game } },
    h("div", { class: "room-main" },
      h("strong", {}, title), " ",
      h("span", { class: `status ${room.status}` }, playing ? t("lobby.statusPlaying") : t("lobby.statusOpen")),
      stakes ? h("div", { class: "stakes" }, MONEY.stakes(stakes)) : null,
      h("div", { class: "muted" }, optionsSummary(room.game, room.options, { brief: true })),
      h("div", {}, t("lobby.seatsFree", seats), h("span", { class: "muted" }, ` \u00b7 ${names}`))),
    h("a", { class: "button", href: `#/room/${encodeURIComponent(room.id)}`,
      "aria-label": playing ? t("lobby.watchRoom", seats) : t("lobby.joinRoom", seats) },
    playing ? t("lobby.watch") : t("lobby.join")));
}

/** Appends a page of rooms to ``list``; returns the address of the next page, or null. */
async function appendRooms(list, path) {
  try {
    const { rooms, next } = await getRooms(path);
    for (const room of rooms) list.appendChild(roomRow(room));
    return next;
  } catch (error) {
    list.appendChild(h("li", { class: "muted" }, t("lobby.roomsFailed", { error: error.message })));
    return null;
  }
}

function moreButton(list, next) {
  const item = h("li", { class: "more" });
  const showMore = async () => {
    item.remove();
    list.dataset.pages = String(Number(list.dataset.pages || 1) + 1);
    const following = await appendRooms(list, next);
    if (following) list.appendChild(moreButton(list, following));
  };
  item.appendChild(h("button", { type: "button", onclick: showMore }, t("lobby.moreRooms")));
  return item;
}

/** Reloads the list with as many pages as it shows, so that a refresh keeps what "More rooms" added. */
async function loadRooms(list) {
  const fresh = h("ul");
  let next = await appendRooms(fresh, undefined);
  for (let page = 1; next && page < Number(list.dataset.pages || 1); page += 1) {
    next = await appendRooms(fresh, next);
  }
  clear(list);
  if (fresh.children.length === 0) list.appendChild(h("li", { class: "muted" }, t("lobby.noRooms")));
  list.append(...fresh.children);
  if (next) list.appendChild(moreButton(list, next));
}

function optionField(game, spec) {
  const id = `opt-${game}-${spec.name}`;
  const label = h("label", { for: id }, optionLabel(game, spec.name));
  const help = h("small", { id: `${id}-help`, class: "muted" }, optionHelp(game, spec.name, spec.description));
  let input;
  const allowed = spec.allowed || {};
  if (allowed.choices) {
    input = h("select", { id, name: spec.name, "aria-describedby": `${id}-help` },
      allowed.choices.map((choice) => h("option", {
        value: JSON.stringify(choice), selected: choice === spec.default,
      }, choiceLabel(game, spec.name, choice))));
  } else {
    input = h("input", {
      id, name: spec.name, type: "number", inputmode: "numeric", "aria-describedby": `${id}-help`,
      min: allowed.minimum ?? null, max: allowed.maximum ?? null, step: allowed.multiple_of ?? 1,
      value: spec.default === null ? null : String(spec.default),
      placeholder: spec.default === null ? t("lobby.usualPlaceholder") : null,
    });
  }
  input.dataset.option = spec.name;
  input.dataset.default = spec.default === null ? "" : JSON.stringify(spec.default);
  return h("div", { class: "field" }, label, input, help);
}

function readOptions(fieldset) {
  const options = {};
  for (const input of fieldset.querySelectorAll("[data-option]")) {
    if (input.tagName === "SELECT") {
      options[input.dataset.option] = JSON.parse(input.value);
    } else if (input.value.trim() !== "") {
      options[input.dataset.option] = Number(input.value);
    }
  }
  return options;
}

/** Sets every option field to its default, then to the preset's values. */
function applyPreset(fieldset, values) {
  for (const input of fieldset.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    const raw = Object.hasOwn(values, name) ? JSON.stringify(values[name]) : input.dataset.default;
    if (input.tagName === "SELECT") input.value = raw;
    else input.value = raw === "" ? "" : String(JSON.parse(raw));
  }
}

function presetChooser(onChoose) {
  const name = "preset";
  return h("fieldset", { class: "presets" }, h("legend", {}, t("lobby.presets")),
    Object.entries(PRESET_WORDS).map(([key, words]) => h("div", { class: "field checkbox preset" },
      h("input", { type: "radio", name, id: `preset-${key}`, value: key, checked: key === "classic",
        "aria-describedby": `preset-${key}-help`, onchange: () => onChoose(key) }),
      h("label", { for: `preset-${key}` }, words.label),
      h("small", { class: "muted", id: `preset-${key}-help` }, words.help))));
}

/** A game's name in the player's language (the server's name for a game the client does not know). */
function gameTitle(game) {
  return GAME_TITLES[game.game] || game.name;
}

function gameChoice(game) {
  const name = gameTitle(game);
  return game.min_seats === game.max_seats ? t("lobby.gamePlayers", { game: name, count: game.min_seats })
    : t("lobby.gamePlayersRange", { game: name, min: game.min_seats, max: game.max_seats });
}

function createForm(games, player) {
  const select = h("select", { id: "new-game", name: "game" },
    games.map((game) => h("option", { value: game.game }, gameChoice(game))));
  const optionsBox = h("fieldset", { class: "options" }, h("legend", {}, t("lobby.tableOptions")));
  const drawer = h("details", { class: "options-drawer", id: "options-drawer" },
    h("summary", {}, t("lobby.everyOption")), optionsBox);
  const privateBox = h("input", { type: "checkbox", id: "new-private", name: "private" });
  const rulesLink = h("a", { id: "create-rules-link" });
  const choosePreset = (key) => {
    if (key === "custom") {
      drawer.open = true;
      return;
    }
    applyPreset(optionsBox, PRESETS[select.value][key] || {});
  };
  const presets = presetChooser(choosePreset);
  const showOptions = () => {
    const game = games.find((entry) => entry.game === select.value);
    clear(optionsBox).appendChild(h("legend", {}, t("lobby.gameTableOptions", { game: gameTitle(game) })));
    for (const spec of game.options) optionsBox.appendChild(optionField(game.game, spec));
    rulesLink.href = `#/rules/${game.game}`;
    rulesLink.textContent = t("lobby.howToPlayGame", { game: gameTitle(game) });
    const chosen = presets.querySelector("input:checked");
    choosePreset(chosen ? chosen.value : "classic");
  };
  optionsBox.addEventListener("change", () => { presets.querySelector("#preset-custom").checked = true; });
  drawer.addEventListener("toggle", () => {
    if (drawer.open) presets.querySelector("#preset-custom").checked = true;
  });
  select.addEventListener("change", showOptions);
  showOptions();
  const form = h("form", { class: "card-panel create-form", "aria-labelledby": "create-heading" },
    h("h2", { id: "create-heading" }, t("lobby.createHeading")),
    h("div", { class: "field" }, h("label", { for: "new-game" }, t("lobby.gameLabel")), select, h("small", {}, rulesLink)),
    presets,
    drawer,
    h("div", { class: "field checkbox" }, privateBox,
      h("label", { for: "new-private" }, t("lobby.privateLabel"))),
    h("button", { type: "submit", class: "primary" }, t("lobby.createRoom")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const room = await createRoom(player.token, select.value, readOptions(optionsBox), privateBox.checked);
      window.sessionStorage.setItem(AUTO_SIT_KEY, room.id);
      window.location.hash = `#/room/${encodeURIComponent(room.id)}`;
    } catch (error) {
      showMessage(error.message, { code: error.code });
    }
  });
  return form;
}

/** True once, for the room just created here: its owner then takes the first seat by himself. */
export function takeAutoSit(roomId) {
  const wanted = window.sessionStorage.getItem(AUTO_SIT_KEY) === roomId;
  if (wanted) window.sessionStorage.removeItem(AUTO_SIT_KEY);
  return wanted;
}

/** "Wallet: 1,000 chips": the amount in ``#lobby-chips``, "…" while it is being fetched. */
function walletText(line, count, shown = count === undefined ? "\u2026" : amountText(count)) {
  clear(line);
  line.append(...withNodes(t("lobby.wallet", { count }), { chips: h("span", { id: "lobby-chips" }, shown) }));
}

function playerPanel(player, rerender) {
  const wallet = h("span", { class: "wallet-line" });
  walletText(wallet);
  const panel = h("section", { class: "card-panel player-panel", "aria-label": t("lobby.yourAccount") },
    h("h2", {}, t("lobby.welcome", { name: player.name })),
    h("p", {}, wallet, " \u00b7 ", h("a", { href: "#/history" }, t("lobby.historyLink"))),
    h("div", { class: "row" },
      h("button", { type: "button", onclick: async () => {
        try {
          const fresh = await topUp(player);
          walletText(wallet, fresh.chips);
          playerChanged();
          showMessage(t("lobby.toppedUp", { count: fresh.chips }), { kind: "info" });
        } catch (error) {
          showMessage(error.message, { code: error.code });
        }
      } }, t("lobby.topUp")),
      h("button", { type: "button", onclick: () => { forgetPlayer(); rerender(); } }, t("lobby.playAsSomeoneElse"))));
  getPlayer(player.id).then((fresh) => { walletText(wallet, fresh.chips); })
    .catch((error) => {
      walletText(wallet, undefined, t("lobby.walletUnknown"));
      if (error.status === 404) {
        showMessage(t("lobby.playerUnknown"), { code: error.code });
        forgetPlayer();
        rerender();
      }
    });
  return panel;
}

export function showLobby(main) {
  let timer = null;
  const render = async () => {
    clear(main);
    const player = savedPlayer();
    main.appendChild(h("h1", {}, t("lobby.heading")));
    main.appendChild(h("p", { class: "lead" }, t("lobby.lead")));
    main.appendChild(h("nav", { class: "rules-links", "aria-label": t("lobby.rulesNav") }, t("lobby.howToPlay"), " ",
      Object.entries(GAME_TITLES).map(([game, title], index) => [index ? " \u00b7 " : "",
        h("a", { href: `#/rules/${game}` }, title)])));
    if (!player) {
      main.appendChild(nameForm(() => { render(); playerChanged(); }));
    } else {
      main.appendChild(playerPanel(player, () => { render(); playerChanged(); }));
    }
    const list = h("ul", { class: "rooms", id: "room-list", "aria-live": "polite" }, h("li", { class: "muted" }, t("lobby.loading")));
    main.appendChild(h("section", { class: "card-panel", "aria-labelledby": "rooms-heading" },
      h("div", { class: "row spread" }, h("h2", { id: "rooms-heading" }, t("lobby.openRooms")),
        h("button", { type: "button", onclick: () => loadRooms(list) }, t("lobby.refresh"))),
      list));
    loadRooms(list);
    window.clearInterval(timer);
    timer = window.setInterval(() => loadRooms(list), REFRESH_MS);
    if (player) {
      try {
        main.appendChild(createForm(await getGames(), player));
      } catch (error) {
        showMessage(error.message, { code: error.code });
      }
    }
  };
  render();
  return () => window.clearInterval(timer);
}
