// The HTTP API (JSON) and the guest player kept in localStorage.

import { t } from "./i18n.js";

const PLAYER_KEY = "cardroom.player";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The answer to one request, after its status: ``{response, data}``; an error answer throws. */
async function send(path, { method = "GET", body = undefined, token = undefined } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new ApiError(0, "network/unreachable", t("api.unreachable"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) {
    const problem = data && data.error ? data.error : {};
    throw new ApiError(response.status, problem.code || `http/${response.status}`,
      problem.message || t("api.answered", { status: response.status }));
  }
  return { response, data };
}

export async function api(path, options = {}) {
  return (await send(path, options)).data;
}

/** The saved guest: ``{id, name, token}``, or null. */
export function savedPlayer() {
  try {
    const raw = window.localStorage.getItem(PLAYER_KEY);
    const player = raw ? JSON.parse(raw) : null;
    return player && player.id && player.token ? player : null;
  } catch (error) {
    return null;
  }
}

export function savePlayer(player) {
  window.localStorage.setItem(PLAYER_KEY, JSON.stringify({ id: player.id, name: player.name, token: player.token }));
}

export function forgetPlayer() {
  window.localStorage.removeItem(PLAYER_KEY);
}

export async function createPlayer(name) {
  const player = await api("/api/players", { method: "POST", body: { name } });
  savePlayer(player);
  return player;
}

export const getPlayer = (id) => api(`/api/players/${encodeURIComponent(id)}`);
export const getGames = () => api("/api/games");

/** A page of the lobby's rooms, newest first, and the address of the next page (null on the last). */
export async function getRooms(path = "/api/rooms") {
  const { response, data } = await send(path);
  const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("Link") || "");
  return { rooms: data, next: next ? next[1] : null };
}
export const getRoom = (id) => api(`/api/rooms/${encodeURIComponent(id)}`);
export const getMatch = (id) => api(`/api/matches/${encodeURIComponent(id)}`);
export const getReplay = (id, deal) => api(`/api/matches/${encodeURIComponent(id)}/replay?deal=${encodeURIComponent(deal)}`);

export function createRoom(token, game, options, isPrivate) {
  return api("/api/rooms", { method: "POST", token, body: { game, options, private: isPrivate } });
}

export function topUp(player) {
  return api(`/api/players/${encodeURIComponent(player.id)}/top-up`, { method: "POST", token: player.token });
}

export function listMatches({ player = null, game = null, limit = 20, before = null } = {}) {
  const query = new URLSearchParams();
  if (player) query.set("player", player);
  if (game) query.set("game", game);
  query.set("limit", String(limit));
  if (before) query.set("before", before);
  return api(`/api/matches?${query}`);
}

/** The games' names, as the page shows them. */
export const GAME_TITLES = { hazari: t("api.hazari"), azi: t("api.azi"), hasenpfeffer: t("api.hasenpfeffer") };
