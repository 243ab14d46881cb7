// Brief motion on what has just appeared: a card dealt into the hand, a card played to the trick, a
// trick collected by its winner, a Hazari round's groups turned face up, chips going to the pot and
// to the winner. The table is drawn anew for every state, so each moving element is named by a key:
// it moves only while that key is new (under MOTION_MS since it was first drawn, and drawn in every
// redraw since), and a redraw in that time carries on the motion where it was rather than starting
// it again. The CSS (``.motion-*`` in main.css) does the moving, and nothing at all under
// ``prefers-reduced-motion: reduce``; no motion holds back a click or the next state.

const MOTION_MS = 300;

let previous = new Map();
let current = new Map();

/** A new drawing of the table begins: keys not drawn again in it are forgotten. */
export function motionFrame() {
  previous = current;
  current = new Map();
}

/** Milliseconds since ``key`` was first drawn (0 the first time). */
function age(key) {
  const now = performance.now();
  const first = current.get(key) ?? previous.get(key) ?? now;
  current.set(key, first);
  return now - first;
}

/** Whether ``key`` is still new enough to move. */
export function isFresh(key) {
  return age(key) < MOTION_MS;
}

/**
 * Gives ``node`` the motion ``kind`` (the class ``motion-<kind>``) while ``key`` is new, started as far
 * along as the time since it first appeared. Returns the node.
 */
export function moveIn(node, key, kind) {
  const elapsed = age(key);
  if (elapsed >= MOTION_MS) return node;
  node.classList.add(`motion-${kind}`);
  if (elapsed > 0) node.style.animationDelay = `${-Math.round(elapsed)}ms`;
  return node;
}

/**
 * Which way a seat lies from the centre of the felt, as a unit vector (x right, y down): the
 * player's own seat at the bottom, the others around in the game's ``direction`` ("cw" or "ccw").
 */
export function seatDirection(count, bottom, direction, seat) {
  const turn = ((seat - bottom + count) % count) / count;
  const angle = Math.PI / 2 + (direction === "ccw" ? -1 : 1) * turn * 2 * Math.PI;
  return { x: Math.cos(angle), y: Math.sin(angle) };
}

/** Sets the CSS variables ``--to-x`` and ``--to-y`` (in rem) on ``node``: where its motion heads. */
export function heading(node, vector, distance) {
  node.style.setProperty("--to-x", `${(vector.x * distance).toFixed(2)}rem`);
  node.style.setProperty("--to-y", `${(vector.y * distance).toFixed(2)}rem`);
  return node;
}

/** ``seat => direction`` at the table of ``ctx`` for a game whose seats go round in ``direction``. */
export function seatsAround(ctx, direction) {
  const bottom = ctx.mySeat === null ? 0 : ctx.mySeat;
  return (seat) => seatDirection(ctx.room.seats.length, bottom, direction, seat);
}
