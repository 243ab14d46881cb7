// Words for people: a sentence for every error code the server sends, and the table options as
// labelled choices with a one-line explanation. Codes, option keys and rule numbers stay out of the
// text a player reads (a refusal keeps its code in a collapsed "Details" line).

const ERRORS = {
  // A move the rules refuse.
  "action/rejected": "That move is not allowed now.",
  "action/invalid": "That move could not be read; nothing was changed.",
  "action/illegal": "That move is not allowed by the rules.",
  "action/not_your_turn": "It is not your turn yet.",
  "action/game_over": "The match is over; no more moves are taken.",
  "action/not_an_object": "That move could not be read; nothing was changed.",
  "action/unknown_kind": "This game has no such move.",
  "action/bad_fields": "That move could not be read; nothing was changed.",
  "action/missing_field": "That move is missing a part; nothing was changed.",
  "action/extra_field": "That move had something extra; nothing was changed.",
  "action/bad_card": "That is not a card of this game.",
  "action/card_not_in_deck": "That is not a card of this game.",
  "action/card_not_in_hand": "One of those cards is not in your hand.",
  "action/card_not_held": "You do not hold that card.",
  "action/not_in_hand": "You do not hold that card.",
  "action/duplicate_card": "A card is placed twice; each card goes in one group.",
  "action/no_such_seat": "There is no such seat at this table.",
  "action/no_move": "You have no move to make now.",
  "action/nothing_awaited": "No move is expected right now.",
  "action/wrong_phase": "That move does not fit this part of the deal.",
  "action/not_participant": "You are not playing this deal.",
  "action/left_table": "You have left this table.",
  "action/folded": "You folded and are out of this deal.",
  "action/already_applied": "That move was already made.",
  "action/deal_in_progress": "A deal is still being played.",
  "action/awaiting_deal": "Wait for the next deal to be dealt.",
  "action/no_auto_step": "Nothing happens by itself at this moment.",
  "action/bad_amount": "Type a whole number of chips.",
  "action/bet_above_limit": "At this table a bet may not be more than the pot.",
  "action/raise_above_limit": "At this table a raise may not take the bet above the pot.",
  // Hazari
  "action/group_sizes": "Groups hold 3, 3, 3 and 4 cards: place all 13 cards first.",
  "action/bad_groups": "Your arrangement could not be read; place the 13 cards in the four groups.",
  "action/bad_order": "Your groups are not in order: each group must be at least as strong as the next one. "
    + "Put your strongest group first.",
  "action/already_up": "You have already said up; your groups are locked for this deal.",
  // Azi
  "action/already_open": "The betting is already open: call, raise or fold.",
  "action/opener_cannot_fold": "You open the betting, so you cannot fold: make a bet of at least the minimum.",
  "action/must_open": "You open the betting: make a bet of at least the minimum.",
  "action/bet_below_minimum": "That bet is below the smallest opening bet of this table.",
  "action/bet_above_stack": "You do not have that many chips at the table.",
  "action/cannot_raise": "You do not have enough chips to raise; you may call or fold.",
  "action/raise_too_small": "That raise is too small; the box shows the smallest raise allowed.",
  "action/raise_above_stack": "You do not have enough chips for that raise.",
  "action/raise_cap": "No more raises are allowed in this betting round; call or fold.",
  "action/bid_cap": "You have made as many bids as this table allows in one betting round; call or fold.",
  "action/already_in": "You took a trick, so you play the re-deal for free.",
  "action/already_decided": "You have already answered the buy-in offer.",
  "action/cannot_afford": "You do not have enough chips to buy in.",
  "action/already_discarded": "You have already discarded a card.",
  "action/not_between_games": "You can leave only between games.",
  "action/must_follow": "You must follow the suit that was led when you can.",
  "action/must_trump": "You cannot follow suit, so you must play a trump when you have one.",
  // Hasenpfeffer
  "action/bid_out_of_range": "Bids go from 1 to 6 tricks.",
  "action/bad_bid": "That is not a bid of this table.",
  "action/bid_too_low": "Each bid must be higher than the bid before it.",
  "action/already_passed": "You have passed; a pass is final for this deal.",
  "action/auction_over": "The bidding is over.",
  "action/not_bidder": "Only the player who won the bidding names trump and discards.",
  "action/widow_not_taken": "The bidding is still on; trump is named after it.",
  "action/trump_already_named": "Trump is already named.",
  "action/trump_first": "Name trump first, then discard.",
  "action/not_play_phase": "Play starts once trump is named and the bidder has discarded.",
  "action/no_suit": "Choose a suit for trump.",
  "action/joker_not_a_suit": "The Joker is not a suit; choose spades, hearts, diamonds or clubs.",
  "action/bad_suit": "Choose spades, hearts, diamonds or clubs for trump.",
  "action/no_numeric_six": "At this table a bid of all six tricks is Little Pepper or Big Pepper.",
  "action/pepper_not_in_use": "Little and Big Pepper are not bids at this table; bid a number.",
  // The room
  "room/not_found": "This room does not exist (any more).",
  "room/seat_taken": "That seat has just been taken.",
  // Who comes and goes (notices, not errors: the table says them with the player's name, see PRESENCE).
  "room/joined": "A player took a seat.",
  "room/back": "A player is back at the table.",
  "room/left": "A player left the table.",
  "room/refused": "The room refused that.",
  "room/not_seated": "Sit down first.",
  "room/bad_seat": "There is no such seat.",
  "room/unknown_game": "This game is not offered here.",
  "room/too_many": "You have as many open rooms as a player may have; close one first.",
  "room/started": "The match has already started.",
  "room/seats_empty": "Every seat needs a player or a bot before the start.",
  "room/not_started": "The match has not started yet.",
  "room/not_owner": "Only the room's owner can do that.",
  "room/no_decision": "You have no decision to make now.",
  "room/no_ante": "Not enough players can pay the ante to start.",
  "room/finished": "This room is closed.",
  "room/cannot_close": "The room cannot be closed now; an Azi table closes between games.",
  "room/busy_elsewhere": "You are already playing at another table.",
  "rematch/not_over": "The match is not over yet; you can play again once it ends.",
  "rematch/no_offer": "Nobody has asked to play again yet; press Play again first.",
  "rematch/waiting": "The other players still have time to answer.",
  "rematch/not_playing": "Only a player who plays again can start the next match.",
  "table/not_between_games": "The table can be closed only between games.",
  "table/closed": "This table is closed.",
  // Options
  "options/seats": "This game cannot be played with that number of seats.",
  "options/bad_deck": "That deck cannot be used.",
  "options/test_mode_only": "That option exists only on a test server.",
  "options/stacks": "The chip stacks given do not fit the table.",
  "options/invalid": "One of the table options is not allowed; check the values.",
  "options/first_dealer": "There is no such first dealer.",
  // Chips
  "chips/too_soon": "The free top-up comes once a day; try again tomorrow.",
  "chips/refused": "The chips could not be moved.",
  "chips/not_needed": "You still have enough chips to play; the top-up is for an empty wallet.",
  "chips/at_table": "Leave your chip table first.",
  "chips/insufficient": "You do not have that many chips.",
  "room/already_seated": "You already sit here. Stand up and sit again to bring another amount.",
  "room/bad_buy_in": "Choose an amount between the table's smallest and largest buy-in.",
  "room/no_buy_in": "This table is not played for chips; sit without bringing any.",
  "room/no_deal_pause": "The next deal has already begun.",
  "room/no_draft": "This game has no arrangement to keep.",
  // Signing in
  "auth/bad_token": "This browser's player is unknown to the server. Reload the page to choose a name again.",
  "auth/revoked": "This browser was signed out. Reload the page to sign in again.",
  "auth/suspended": "An operator has suspended this account. You cannot play or sign in until the suspension is lifted.",
  "room/removed": "An operator removed you from this table. You cannot sit here again.",
  "room/closed": "An operator has closed this table.",
  "room/creation_paused": "New tables are paused for a moment by the operators. Join an open table or try again later.",
  "admin/required": "Only an operator can do that.",
  "admin/target_is_admin": "An operator cannot be suspended.",
  "admin/already_suspended": "That player is already suspended.",
  "admin/not_suspended": "That player is not suspended.",
  "room/player_not_here": "That player is no longer at this table.",
  "report/self": "You cannot report yourself.",
  "report/not_in_room": "That player has left this table.",
  "report/rate_limited": "You have sent several reports just now; wait a while before sending another.",
  "auth/not_yours": "That belongs to another player.",
  "auth/wrong_password": "The name or the password is wrong.",
  "auth/spectator": "You are watching; choose a name to play.",
  "auth/refused": "Sign-in was refused.",
  "auth/rate_limited": "Too many sign-in attempts; wait a moment and try again.",
  "auth/not_first": "The connection was set up in the wrong order; reload the page.",
  "auth/missing_token": "Choose a name or sign in first.",
  "auth/already_signed_in": "This connection is already signed in.",
  "account/name_taken": "That name belongs to a claimed account; choose another.",
  "account/already_claimed": "This account already has a password.",
  "account/refused": "The account could not be changed.",
  "account/not_claimed": "This account has no password yet.",
  "player/not_found": "That player is unknown.",
  "player/name_taken": "That name is taken; choose another.",
  "player/too_many_guests": "Too many new players from this address just now; try again later.",
  "match/not_found": "That match is unknown.",
  // The connection and the server
  "message/invalid": "The server could not read a message from this page; reload it.",
  "message/bad_json": "The server could not read a message from this page; reload it.",
  "message/unknown_type": "The server could not read a message from this page; reload it.",
  "message/too_big": "A message from this page was too long for the server.",
  "message/rate_limited": "Too many moves at once; slow down a little.",
  "message/not_text": "The server could not read a message from this page; reload it.",
  "limit/connections": "Too many open tables from this address; close some tabs.",
  "server/error": "Something went wrong on the server; try again.",
  "server/not_stored": "The server could not save that move; nothing was changed. Try again.",
  "server/busy": "The server is busy for a moment; nothing was changed. Try again.",
  "server/database_unreachable": "The server cannot reach its records right now. Try again in a moment.",
  "server/draining": "The server is about to restart. Try again in a moment.",
  "fairness/refused": "Your browser's part of the shuffle was not used; the deal is fair all the same.",
  "fairness/not_waiting": "Your browser's part of the shuffle came too late; the deal is fair all the same.",
  "fairness/bad_seed": "Your browser's part of the shuffle could not be read.",
  "fairness/already_seeded": "Your browser already gave its part of the shuffle.",
  "request/bad_filter": "That search could not be understood.",
  "request/unknown_filter": "That search could not be understood.",
  "request/unknown_game": "This game is not offered here.",
  "request/too_large": "That was too much to send at once.",
  "request/not_found": "That page does not exist.",
  "request/method_not_allowed": "That is not possible here.",
  "request/invalid": "Something in the form is not valid; check the values.",
  "request/error": "The request was refused.",
  "request/bad_range": "That range of dates is not valid.",
  "request/bad_limit": "That page size is not allowed.",
  "request/bad_cursor": "That page of results could not be found; start again from the first page.",
  "request/bad_character": "A value contains a character that is not allowed.",
  "network/unreachable": "The server cannot be reached; check the connection.",
  // Table chat
  "chat/sign_in": "Choose a name to chat at this table.",
  "chat/spectators_read_only": "At this table only the players write in the chat; you can read it.",
  "chat/empty": "Write something first.",
  "chat/too_long": "That message is too long: 200 characters at most.",
  "chat/control_character": "That message holds a character that cannot be sent, such as a line break.",
  "chat/unknown_reaction": "That reaction is not one of this table's.",
  "chat/rate_limited": "You are sending messages too fast; wait a moment.",
};

// A sentence for codes the catalog does not know yet, by their first part.
const AREAS = {
  action: "That move is not allowed now.",
  room: "The room refused that.",
  table: "The table refused that.",
  options: "One of the table options is not allowed; check the values.",
  chips: "The chips could not be moved.",
  wallet: "The chips could not be moved.",
  auth: "Signing in did not work; reload the page.",
  account: "The account could not be changed.",
  player: "That did not work for this player.",
  message: "The server could not read a message from this page; reload it.",
  chat: "That message was not sent.",
  server: "Something went wrong on the server; try again.",
  request: "The request was refused.",
  fairness: "Your browser's part of the shuffle was not used; the deal is fair all the same.",
  limit: "Too much at once; wait a moment.",
  match: "That match could not be loaded.",
  http: "The server refused that.",
  network: "The server cannot be reached; check the connection.",
};

/** True when the catalog has a sentence of its own for ``code``. */
export function hasSentence(code) {
  return Object.hasOwn(ERRORS, code);
}

/** The sentence for ``code``, or null for a code this page gave its own words (``name/empty``). */
export function sentenceFor(code) {
  if (!code) return null;
  if (ERRORS[code]) return ERRORS[code];
  return AREAS[code.split("/")[0]] || null;
}

const RULE_NUMBER = /\b(?:HZ|AZ|HP)-\d+(?:\.\d+)?\b/g;

/** ``text`` without rule numbers: "(HZ-4)" and "HP-7, " go, the words around them stay. */
export function withoutRuleNumbers(text) {
  return String(text)
    .replace(RULE_NUMBER, "")
    .replace(/\(\s*(?:,\s*)*\)/g, "")
    .replace(/\(\s*,\s*/g, "(")
    .replace(/,\s*\)/g, ")")
    .replace(/\s+([.,;:])/g, "$1")
    .replace(/ {2,}/g, " ")
    .trim();
}

/** The note over a rules page shown in another language than the reader's own. */
export const rulesNotWrittenIn = (missing, shown) =>
  `These rules are not written in ${missing} yet; here they are in ${shown}.`;

// --- table options ---------------------------------------------------------------------------------

const TURN_SECONDS = {
  label: "Time per decision",
  help: "Seconds for each decision before the autopilot acts; 0 means no clock. Empty: the room's usual.",
  unit: "s",
};

const SPECTATOR_CHAT = {
  label: "Spectators in the chat", help: "Whether people watching may write in the table chat; they can always read it.",
  choices: { true: "They may write", false: "They only read" },
};

const OPTIONS = {
  hazari: {
    target: { label: "Match length", help: "The match ends after the deal in which someone reaches this many points (a deal shares out 360).", unit: "points" },
    tie_rule: {
      label: "Equal groups in a round", help: "Which of two equally strong groups takes the round.",
      choices: { later_wins: "The later one wins", first_wins: "The earlier one wins" },
    },
    match_tie: {
      label: "A tie at the end", help: "What happens when players share the top score at the end.",
      choices: { joint_winners: "They win together", play_on: "Play more deals until one leads" },
    },
    arrange_seconds: {
      label: "Time to arrange", help: "Seconds to sort your 13 cards into groups before the autopilot finishes it.", unit: "s",
    },
    turn_seconds: TURN_SECONDS,
    spectator_chat: SPECTATOR_CHAT,
  },
  azi: {
    stake: { label: "Stake (ante)", help: "Chips every player puts in the pot at the start of each game.", unit: "chips" },
    min_bet: { label: "Smallest opening bet", help: "Empty: the stake.", unit: "chips" },
    min_raise: { label: "Smallest raise", help: "How much a raise adds at least. Empty: the stake.", unit: "chips" },
    max_bids: { label: "Bids per betting round", help: "How many times a player may bet or raise in one betting round." },
    raise_cap: {
      label: "How bids are counted", help: "Whether the limit above counts each player's bids or all raises together.",
      choices: { per_player: "Per player, the opening bet included", total: "Raises of all players together" },
    },
    hand_size: {
      label: "Cards dealt", help: "With four cards each player first lays one away face down.",
      choices: { 3: "Three cards", 4: "Four cards, one laid away" },
    },
    azi_buy_in: {
      label: "After an Azi", help: "Who plays the re-deal when three players took a trick each.",
      choices: { half_pot: "Others may buy in for half the pot", none: "Only the players with a trick" },
    },
    folded_excess: {
      label: "Chips of a folded player", help: "When an all-in player wins, where a folded player's extra chips go.",
      choices: { returned: "Back to the player who folded", to_pot: "To the winner" },
    },
    bet_limit: {
      label: "Bet limit", help: "Whether a bet or raise may be larger than the pot.",
      choices: { none: "No limit", pot: "Never more than the pot" },
    },
    min_buy_in: { label: "Smallest buy-in", help: "The fewest chips a player brings, in stakes.", unit: "times the stake" },
    max_buy_in: { label: "Largest buy-in", help: "The most chips a player brings, in stakes.", unit: "times the stake" },
    turn_seconds: TURN_SECONDS,
    spectator_chat: SPECTATOR_CHAT,
  },
  hasenpfeffer: {
    bidding: {
      label: "Bids", help: "How the partners can bid for the tricks they promise to take.",
      choices: { standard: "1 to 6 tricks", pepper: "1 to 5, Little Pepper and Big Pepper" },
    },
    first_lead: {
      label: "First lead", help: "Who plays the first card of a deal.",
      choices: { dealer_left: "The player left of the dealer", bidder: "The player who won the bidding" },
    },
    defenders_score: {
      label: "Defenders score", help: "Whether the other team scores a point for each trick it takes.",
      choices: { true: "Yes, a point a trick", false: "No" },
    },
    target: { label: "Game length", help: "Points a team needs to win.", unit: "points" },
    both_reach_target: {
      label: "Both teams reach it", help: "Who wins when both teams pass the target in one deal.",
      choices: { bidders_win: "The bidding team", higher_total: "The higher total (bidders on a tie)" },
    },
    turn_seconds: TURN_SECONDS,
    spectator_chat: SPECTATOR_CHAT,
  },
};

function words(game, name) {
  return (OPTIONS[game] || {})[name] || null;
}

/** "Match length" for an option; unknown options get their key in words. */
export function optionLabel(game, name) {
  const known = words(game, name);
  if (known) return known.label;
  const plain = name.replace(/_/g, " ");
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/** The one-line explanation: the catalog's, else the server's description without rule numbers. */
export function optionHelp(game, name, description = "") {
  const known = words(game, name);
  return known ? known.help : withoutRuleNumbers(description || "");
}

/** The words for one value of an option: "The later one wins", "1000 points", "No clock". */
export function choiceLabel(game, name, value) {
  const known = words(game, name);
  if (known && known.choices && Object.hasOwn(known.choices, String(value))) return known.choices[String(value)];
  if (value === true) return "Yes";
  if (value === false) return "No";
  if (value === null || value === undefined) return "Usual";
  if (name === "turn_seconds" && value === 0) return "No clock";
  if (typeof value === "number") return known && known.unit ? `${value.toLocaleString("en")} ${known.unit}` : String(value);
  return String(value).replace(/_/g, " ");
}

/** ``[{name, label, value, help}]`` for the options of a room, in the order given. */
export function describeOptions(game, options) {
  return Object.entries(options || {})
    .filter(([name]) => !TEST_OPTIONS.has(name))
    .map(([name, value]) => ({
      name, label: optionLabel(game, name), value: choiceLabel(game, name, value), help: optionHelp(game, name),
    }));
}

// An archived match (the operator's "cardroom archive"): the history keeps its result, not its log.
export const ARCHIVED_TEXT = "This match was archived: its players, scores and result stay in the history, "
  + "but its cards and moves were moved off the server, so it cannot be replayed here.";

const TEST_OPTIONS = new Set(["deck", "decks", "first_dealer", "stacks", "seed", "first_button"]);

// The options a list of rooms names; the room itself shows them all (a chip table's stake and
// buy-in range have a line of their own: MONEY.stakes).
const HEADLINE = { hazari: ["target"], azi: ["hand_size"], hasenpfeffer: ["bidding", "target"] };

/**
 * "Match length: 1,000 points · Equal groups in a round: The later one wins" for a list line; with
 * ``brief``, only the options that tell tables apart at a glance.
 */
export function optionsSummary(game, options, { brief = false } = {}) {
  const wanted = HEADLINE[game] || [];
  return describeOptions(game, options).filter((entry) => !brief || wanted.includes(entry.name))
    .map((entry) => `${entry.label}: ${entry.value}`).join(" \u00b7 ");
}

// --- presets of the create form ----------------------------------------------------------------------

export const PRESETS = {
  hazari: {
    quick: { target: 500 },
    classic: {},
  },
  azi: {
    quick: { max_bids: 2 },
    classic: {},
  },
  hasenpfeffer: {
    quick: { target: 5 },
    classic: {},
  },
};

export const PRESET_WORDS = {
  quick: { label: "Quick game", help: "A shorter match (at Azi, shorter betting rounds)." },
  classic: { label: "Classic", help: "The usual rules and match length." },
  custom: { label: "Custom", help: "Choose every option yourself." },
};

// --- chips -------------------------------------------------------------------------------------------

const PLURAL = new Intl.PluralRules("en");

/** A number of chips without the word: "1,000". */
export function amountText(count) {
  return Number(count).toLocaleString("en");
}

/** "1 chip", "1,000 chips". */
export function chipsText(count) {
  return `${amountText(count)} ${PLURAL.select(count) === "one" ? "chip" : "chips"}`;
}

export const OFFLINE_TEXT = "Not connected: nothing was sent. Try again once the connection is back.";

/** Money on screen: the wallet apart from the chips at the table, the buy-in, big bets. */
export const MONEY = {
  wallet: ({ wallet }) => `Wallet ${chipsText(wallet)}`,
  atTable: ({ stack }) => `${chipsText(stack)} at the table`,
  myStack: ({ stack }) => `Your chips at the table: ${amountText(stack)}`,
  backInWallet: ({ stack }) => `Back in your wallet from the table: ${chipsText(stack)}`,
  brings: ({ amount, mine }) => (mine ? `You bring ${chipsText(amount)}` : `Brings ${chipsText(amount)}`),
  stakes: ({ stake, low, high }) => `Stake ${chipsText(stake)} \u00b7 buy-in ${amountText(low)} to ${chipsText(high)}`,
  buyInTitle: "How many chips do you bring?",
  buyInAbout: ({ seat, low, high }) => `Seat ${seat + 1}. This table takes from ${amountText(low)} to `
    + `${chipsText(high)}. The rest stays in your wallet, and what is left at the table goes back to it `
    + "when you leave or the session ends.",
  buyInWallet: ({ wallet }) => `Your wallet: ${chipsText(wallet)}`,
  buyInLabel: "Chips to bring",
  buyInSlider: "Chips to bring (slider)",
  buyInRange: ({ low, high }) => `From ${amountText(low)} to ${chipsText(high)}`,
  buyInSend: ({ amount }) => (amount === null ? "Sit down" : `Sit down with ${chipsText(amount)}`),
  buyInWhole: ({ low, high }) => `Type a whole number of chips, from ${amountText(low)} to ${amountText(high)}.`,
  buyInOutside: ({ low, high, capped }) => (capped
    ? `Choose from ${amountText(low)} to ${chipsText(high)}: at least the table's smallest buy-in, `
      + "and no more than your wallet holds."
    : `Choose from ${amountText(low)} to ${chipsText(high)}: the table's smallest and largest buy-in.`),
  buyInTooFew: ({ low, wallet }) => `This table's smallest buy-in is ${chipsText(low)} and your wallet `
    + `holds ${chipsText(wallet)}. A top-up in the lobby refills a nearly empty wallet.`,
  cancel: "Cancel",
  close: "Close",
  /** The confirmation of a bet, raise or call that puts in ``put`` of the ``stack`` at the table. */
  confirm: ({ kind, amount, put, stack, allIn }) => {
    const all = `all your ${chipsText(stack)} (all in)`;
    const part = `${amountText(put)} of your ${chipsText(stack)}`;
    if (kind === "bet") {
      return { title: allIn ? "Bet all your chips?" : "Confirm your bet",
        text: `Bet ${allIn ? all : part}?`, button: `Bet ${amountText(amount)}` };
    }
    if (kind === "raise") {
      return { title: allIn ? "Raise with all your chips?" : "Confirm your raise",
        text: `Raise to ${amountText(amount)}, putting in ${allIn ? all : part}?`, button: `Raise to ${amountText(amount)}` };
    }
    return { title: allIn ? "Call with all your chips?" : "Confirm your call",
      text: allIn ? `Call with ${all}?` : `Call ${part}?`, button: `Call ${amountText(put)}` };
  },
};

// --- table chat ------------------------------------------------------------------------------------

/** The fixed reactions, in the order of the reactions bar: a face and its words. */
export const REACTIONS = {
  good_game: { face: "\u{1F91D}", label: "Good game" },
  well_played: { face: "\u{1F44F}", label: "Well played" },
  oops: { face: "\u{1F62C}", label: "Oops" },
  thinking: { face: "\u{1F914}", label: "Thinking..." },
  smile: { face: "\u{1F642}", label: "Smile" },
  laugh: { face: "\u{1F602}", label: "Laugh" },
  wow: { face: "\u{1F62E}", label: "Wow" },
  sad: { face: "\u{1F622}", label: "Sad" },
};

export const CHAT = {
  title: "Chat",
  open: ({ unread }) => (unread ? `Chat (${unread} new)` : "Chat"),
  close: "Hide chat",
  empty: "No messages yet. Say hello!",
  input: "Message",
  send: "Send",
  counter: ({ used, max }) => `${used}/${max}`,
  tooLong: ({ max }) => `At most ${max} characters.`,
  reactions: "Reactions",
  you: "You",
  watching: ({ name }) => `${name} (watching)`,
  mute: ({ name }) => `Mute ${name}`,
  unmute: ({ name }) => `Unmute ${name}`,
  muted: "Muted",
  muteButton: "Mute",
  readOnly: "At this table only the players write in the chat.",
  signIn: "Choose a name to chat.",
  reacted: ({ name, label }) => `${name}: ${label}`,
  report: ({ name }) => `Report this message from ${name}`,
  reportButton: "Report",
};

/** Playing again once a match is over. */
export const REMATCH = {
  group: "Play again",
  playAgain: "Play again",
  leave: "Leave the table",
  startNow: "Start the next match",
  question: "Play another match with the same seats and bots?",
  youPlay: "You play again.",
  youLeft: "You are not in the next match; a bot takes your seat.",
  waitingFor: ({ names }) => `Waiting for: ${names}.`,
  accepted: ({ names }) => `Playing again: ${names}.`,
  declined: ({ names }) => `Not playing again (a bot takes the seat): ${names}.`,
  ownerMayStartIn: "The owner can start without the others in ",
  ownerMayStart: "You can start without the players who have not answered.",
  started: "A new match has started.",
};

/** What the operator's console and the report button say. */
export const OPERATOR = {
  noticeTitle: "Notice from the operators",
  reportTitle: ({ name }) => `Report ${name}`,
  reportHelp: "The operators will see this report with the table and the match. Add a note if you like.",
  reportNote: "Note (optional)",
  reportSend: "Send the report",
  reportSent: ({ name }) => `Thank you. Your report about ${name} was sent to the operators.`,
  reasonLabel: "Reason (kept in the audit log)",
  reasonMissing: "Write a reason first.",
  closeRoom: "Close table",
  closed: "The table was closed.",
  removed: ({ name }) => `${name} was removed from the table.`,
  suspended: ({ name }) => `${name} is suspended.`,
  lifted: ({ name }) => `${name}'s suspension was lifted.`,
  noticePosted: "The notice is shown at every table.",
  noticeCleared: "The notice was taken down.",
  paused: "New tables are paused.",
  resumed: "New tables can be made again.",
};

/** Who comes and goes at the table (the ``room/...`` notices), and the invitation that seats a guest. */
export const PRESENCE = {
  "room/joined": ({ name, seat }) => `${name} joined, in seat ${seat + 1}.`,
  "room/back": ({ name }) => `${name} is back.`,
  "room/left": ({ name }) => `${name} left the table.`,
  /** Before the seconds of a seat kept for its player who dropped: "waiting for Ana, 45 s". */
  waitingFor: ({ name }) => `waiting for ${name}, `,
  waitingLabel: ({ name }) => `time ${name} has to come back`,
  invited: "You were invited to a table.",
  joinHeading: "Choose a name to take your seat",
  joinHelp: "You take the first free seat; one tap gives it up if you would rather watch.",
  watchOnly: "Just watch",
  tookSeat: ({ seat }) => `You took seat ${seat + 1}.`,
  justWatch: "Just watch instead",
  nowWatching: "You gave up your seat and are watching. Pick an empty seat to play after all.",
  full: "Every seat at this table is taken, so you are watching.",
  started: "The match at this table has already started, so you are watching.",
  closed: "This table is closed, so you are watching.",
  tooFewChips: ({ low, wallet }) => `This table's smallest buy-in is ${chipsText(low)} and your wallet holds `
    + `${chipsText(wallet)}, so you are watching. A top-up in the lobby refills a nearly empty wallet.`,
};

/** Turn alerts: what the tab shows when the player's turn comes while he looks elsewhere, and the
 * control that switches each alert on or off. */
export const ALERTS = {
  title: "Your turn - cardroom",
  control: "Alerts",
  legend: "When your turn comes while you look at another tab or window",
  tab: "Tab title and icon",
  sound: "Short sound",
  vibrate: "Vibration (phones)",
};
