// Provably fair deals (docs/fairness.md): this browser gives its own random seed for each deal the
// server has committed to, and checks a finished deal from its revealed seeds.

import { t } from "./i18n.js";

const RANKS = {
  hazari: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"],
  azi: ["6", "7", "8", "9", "10", "J", "Q", "K", "A"],
  hasenpfeffer: ["9", "10", "J", "Q", "K", "A"],
};
const SUITS = { hazari: ["S", "H", "D", "C"], azi: ["H", "D", "S"], hasenpfeffer: ["S", "H", "D", "C"] };
const LIMIT = 2 ** 32;

/** The game's pack in the fixed order the deck function starts from. */
export function pack(game) {
  const cards = [];
  for (const suit of SUITS[game]) for (const rank of RANKS[game]) cards.push(rank + suit);
  if (game === "hasenpfeffer") cards.push("JK");
  return cards;
}

function hex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text) {
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** 32 lower-case hex characters from the browser's CSPRNG. */
export function newClientSeed() {
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return hex(bytes);
}

/**
 * The seed messages this seat owes: one per deal whose commitment is out, whose server seed is not
 * revealed, and which still waits for this seat. ``sent`` (a Set of deal numbers) avoids repeats.
 */
export function seedMessages(fairness, seat, sent) {
  if (!fairness || seat === null) return [];
  const messages = [];
  for (const deal of fairness.deals || []) {
    if (deal.server_seed || sent.has(deal.deal) || !(deal.awaiting || []).includes(seat)) continue;
    sent.add(deal.deal);
    messages.push({ type: "seed", deal: deal.deal, seed: newClientSeed() });
  }
  return messages;
}

export function canVerify() {
  return Boolean(window.crypto && window.crypto.subtle);
}

async function sha256Hex(bytes) {
  return hex(await window.crypto.subtle.digest("SHA-256", bytes));
}

/** The client seeds in seat order, from a list or a {seat: seed} object (a missing seat is ""). */
function seedsInOrder(clientSeeds, seats) {
  if (Array.isArray(clientSeeds)) return clientSeeds.map((seed) => seed || "");
  const ordered = [];
  for (let seat = 0; seat < seats; seat += 1) ordered.push((clientSeeds || {})[String(seat)] || "");
  return ordered;
}

/** The deck of deal ``deal`` from the seeds: HMAC-SHA256 stream, rejection sampling, Fisher-Yates. */
export async function deckOrder(cards, serverSeed, clientSeeds, deal) {
  const key = await window.crypto.subtle.importKey("raw", fromHex(serverSeed), { name: "HMAC", hash: "SHA-256" },
    false, ["sign"]);
  const message = `cardroom-deal|${deal}|${clientSeeds.join("|")}`;
  const encoder = new TextEncoder();
  let block = 0;
  let words = [];
  const next = async () => {
    if (words.length === 0) {
      const digest = new DataView(await window.crypto.subtle.sign("HMAC", key, encoder.encode(`${message}|${block}`)));
      block += 1;
      for (let offset = 0; offset < 32; offset += 4) words.push(digest.getUint32(offset, false));
    }
    return words.shift();
  };
  const uniform = async (n) => {
    const bound = LIMIT - (LIMIT % n);
    let x = await next();
    while (x >= bound) x = await next();
    return x % n;
  };
  const order = [...cards];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = await uniform(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  words = [];
  return order;
}

/**
 * What is wrong with a revealed deal (an empty list when it checks out): the server seed must hash
 * to the commitment, and the seeds must give the deck that was dealt.
 */
export async function verifyDeal({ game, deck, deal, serverSeed, commitment, clientSeeds, seats }) {
  const problems = [];
  if (await sha256Hex(fromHex(serverSeed)) !== commitment) {
    problems.push(t("fairness.notTheCommitment", { deal }));
  }
  const expected = await deckOrder(pack(game), serverSeed, seedsInOrder(clientSeeds, seats), deal);
  if (expected.join(" ") !== deck.join(" ")) problems.push(t("fairness.notTheDeck", { deal }));
  return problems;
}
