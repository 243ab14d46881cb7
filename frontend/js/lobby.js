// The lobby: choose a name, see the open public rooms, create a room with its table options.

import {
  GAME_TITLES, createPlayer, createRoom, forgetPlayer, getGames, getPlayer, getRooms, savedPlayer, topUp,
} from "./api.js";
import { clear, h, showMessage } from "./dom.js";
import { tableStakes } from "./stakes.js";
import {
  MONEY, PRESETS, PRESET_WORDS, amountText, chipsText, choiceLabel, optionHelp, optionLabel, optionsSummary,
} from "./words.js";

/** Tells the header that the player (or the chips) changed. */
export function playerChanged() {
  window.dispatchEvent(new Event("cardroom:player"));
}

const AUTO_SIT_KEY = "cardroom.autosit";
const REFRESH_MS = 5000;

/** Asks for a name and creates the guest account; ``done(player)`` runs after. */
export function nameForm(done, { heading = "Choose a name", help = null } = {}) {
  const input = h("input", { id: "player-name", name: "name", required: true, maxlength: 40,
    autocomplete: "nickname", placeholder: "Your name" });
  const form = h("form", { class: "card-panel name-form", "aria-labelledby": "name-heading" },
    h("h2", { id: "name-heading" }, heading),
    help ? h("p", {}, help) : null,
    h("p", {}, "A guest account is created for you; this browser keeps it."),
    h("div", { class: "row" },
      h("label", { for: "player-name" }, "Name"), input,
      h("button", { type: "submit", class: "primary" }, "Play")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) {
      showMessage("Type a name first.", { code: "name/empty" });
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

function seatsText(room) {
  const free = room.seats.filter((seat) => !seat.name && !seat.bot).length;
  return `${free} of ${room.seats.length} seats free`;
}

function roomRow(room) {
  const title = GAME_TITLES[room.game] || room.game;
  const names = room.seats.filter((seat) => seat.name).map((seat) => seat.name).join(", ") || "nobody yet";
  const stakes = tableStakes(room.options);
  return h("li", { class: "room-item", dataset: { room: room.id, game: room.game } },
    h("div", { class: "room-main" },
      h("strong", {}, title), " ",
      h("span", { class: `status ${room.status}` }, room.status === "playing" ? "playing" : "open"),
      stakes ? h("div", { class: "stakes" }, MONEY.stakes(stakes)) : null,
      h("div", { class: "muted" }, optionsSummary(room.game, room.options, { brief: true })),
      h("div", {}, seatsText(room), h("span", { class: "muted" }, ` \u00b7 ${names}`))),
    h("a", { class: "button", href: `#/room/${encodeURIComponent(room.id)}`,
      "aria-label": `${room.status === "playing" ? "Watch" : "Join"} the ${title} room with ${seatsText(room)}` },
    room.status === "playing" ? "Watch" : "Join"));
}

/** Appends a page of rooms to ``list``; returns the address of the next page, or null. */
async function appendRooms(list, path) {
  try {
    const { rooms, next } = await getRooms(path);
    for (const room of rooms) list.appendChild(roomRow(room));
    return next;
  } catch (error) {
    list.appendChild(h("li", { class: "muted" }, `Rooms could not be loaded (${error.message}).`));
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
  item.appendChild(h("button", { type: "button", onclick: showMore }, "More rooms"));
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
  if (fresh.children.length === 0) list.appendChild(h("li", { class: "muted" }, "No open rooms. Create one below."));
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
      placeholder: spec.default === null ? "usual" : null,
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
  return h("fieldset", { class: "presets" }, h("legend", {}, "How to play"),
    Object.entries(PRESET_WORDS).map(([key, words]) => h("div", { class: "field checkbox preset" },
      h("input", { type: "radio", name, id: `preset-${key}`, value: key, checked: key === "classic",
        "aria-describedby": `preset-${key}-help`, onchange: () => onChoose(key) }),
      h("label", { for: `preset-${key}` }, words.label),
      h("small", { class: "muted", id: `preset-${key}-help` }, words.help))));
}

function createForm(games, player) {
  const select = h("select", { id: "new-game", name: "game" },
    games.map((game) => h("option", { value: game.game }, `${game.name} (${game.min_seats === game.max_seats
      ? game.min_seats : `${game.min_seats}-${game.max_seats}`} players)`)));
  const optionsBox = h("fieldset", { class: "options" }, h("legend", {}, "Table options"));
  const drawer = h("details", { class: "options-drawer", id: "options-drawer" },
    h("summary", {}, "Every option"), optionsBox);
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
    clear(optionsBox).appendChild(h("legend", {}, `${game.name} table options`));
    for (const spec of game.options) optionsBox.appendChild(optionField(game.game, spec));
    rulesLink.href = `#/rules/${game.game}`;
    rulesLink.textContent = `How to play ${game.name}`;
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
    h("h2", { id: "create-heading" }, "Create a room"),
    h("div", { class: "field" }, h("label", { for: "new-game" }, "Game"), select, h("small", {}, rulesLink)),
    presets,
    drawer,
    h("div", { class: "field checkbox" }, privateBox,
      h("label", { for: "new-private" }, "Private (not listed; share the link)")),
    h("button", { type: "submit", class: "primary" }, "Create room"));
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

function playerPanel(player, rerender) {
  const chips = h("span", { id: "lobby-chips" }, "\u2026");
  const panel = h("section", { class: "card-panel player-panel", "aria-label": "Your account" },
    h("h2", {}, `Welcome, ${player.name}`),
    h("p", {}, "Wallet: ", chips, " chips \u00b7 ", h("a", { href: "#/history" }, "your match history")),
    h("div", { class: "row" },
      h("button", { type: "button", onclick: async () => {
        try {
          const fresh = await topUp(player);
          chips.textContent = amountText(fresh.chips);
          playerChanged();
          showMessage(`You have ${chipsText(fresh.chips)}.`, { kind: "info" });
        } catch (error) {
          showMessage(error.message, { code: error.code });
        }
      } }, "Top up chips"),
      h("button", { type: "button", onclick: () => { forgetPlayer(); rerender(); } }, "Play as someone else")));
  getPlayer(player.id).then((fresh) => { chips.textContent = amountText(fresh.chips); })
    .catch((error) => {
      chips.textContent = "unknown";
      if (error.status === 404) {
        showMessage("This browser's player is unknown to the server; choose a name again.", { code: error.code });
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
    main.appendChild(h("h1", {}, "Card room"));
    main.appendChild(h("p", { class: "lead" }, "Hazari, Azi and Hasenpfeffer with friends or bots."));
    main.appendChild(h("nav", { class: "rules-links", "aria-label": "Rules" }, "How to play: ",
      Object.entries(GAME_TITLES).map(([game, title], index) => [index ? " \u00b7 " : "",
        h("a", { href: `#/rules/${game}` }, title)])));
    if (!player) {
      main.appendChild(nameForm(() => { render(); playerChanged(); }));
    } else {
      main.appendChild(playerPanel(player, () => { render(); playerChanged(); }));
    }
    const list = h("ul", { class: "rooms", id: "room-list", "aria-live": "polite" }, h("li", { class: "muted" }, "Loading\u2026"));
    main.appendChild(h("section", { class: "card-panel", "aria-labelledby": "rooms-heading" },
      h("div", { class: "row spread" }, h("h2", { id: "rooms-heading" }, "Open rooms"),
        h("button", { type: "button", onclick: () => loadRooms(list) }, "Refresh")),
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
