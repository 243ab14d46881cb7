// Words for people: a sentence for every error code the server sends, and the table options as
// labelled choices with a one-line explanation. Codes, option keys and rule numbers stay out of the
// text a player reads (a refusal keeps its code in a collapsed "Details" line). The words themselves
// are the catalog's (frontend/i18n/en.json): the exports below keep their shapes, their values come
// from t().

import { formatNumber, hasMessage, t } from "./i18n.js";

// Every code's sentence is the catalog's "code.<code>" message; a code the catalog does not know
// yet gets its area's sentence ("code.<area>", by the code's first part).

/** True when the catalog has a sentence of its own for ``code``. */
export function hasSentence(code) {
  return Boolean(code) && String(code).includes("/") && hasMessage(`code.${code}`);
}

/** The sentence for ``code``, or null for a code this page gave its own words (``name/empty``). */
export function sentenceFor(code) {
  if (!code) return null;
  if (hasSentence(code)) return t(`code.${code}`);
  const area = String(code).split("/")[0];
  return area && hasMessage(`code.${area}`) ? t(`code.${area}`) : null;
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
export const rulesNotWrittenIn = (missing, shown) => t("words.rulesNotWrittenIn", { missing, shown });

// --- table options ---------------------------------------------------------------------------------

// The unit of a number option, with the number: "1,000 points".
const POINTS = (count) => t("option.points", { count });
const CHIPS = (count) => t("option.chips", { count });
const SECONDS = (count) => t("option.seconds", { count });
const STAKES = (count) => t("option.stakes", { count });

const TURN_SECONDS = { label: t("option.turnSeconds"), help: t("option.turnSecondsHelp"), unit: SECONDS };

const SPECTATOR_CHAT = {
  label: t("option.spectatorChat"), help: t("option.spectatorChatHelp"),
  choices: { true: t("option.spectatorChatTrue"), false: t("option.spectatorChatFalse") },
};

const OPTIONS = {
  hazari: {
    target: { label: t("option.hazariTarget"), help: t("option.hazariTargetHelp"), unit: POINTS },
    tie_rule: {
      label: t("option.hazariTieRule"), help: t("option.hazariTieRuleHelp"),
      choices: { later_wins: t("option.hazariTieRuleLaterWins"), first_wins: t("option.hazariTieRuleFirstWins") },
    },
    match_tie: {
      label: t("option.hazariMatchTie"), help: t("option.hazariMatchTieHelp"),
      choices: { joint_winners: t("option.hazariMatchTieJointWinners"), play_on: t("option.hazariMatchTiePlayOn") },
    },
    arrange_seconds: {
      label: t("option.hazariArrangeSeconds"), help: t("option.hazariArrangeSecondsHelp"), unit: SECONDS,
    },
    turn_seconds: TURN_SECONDS,
    spectator_chat: SPECTATOR_CHAT,
  },
  azi: {
    stake: { label: t("option.aziStake"), help: t("option.aziStakeHelp"), unit: CHIPS },
    min_bet: { label: t("option.aziMinBet"), help: t("option.aziMinBetHelp"), unit: CHIPS },
    min_raise: { label: t("option.aziMinRaise"), help: t("option.aziMinRaiseHelp"), unit: CHIPS },
    max_bids: { label: t("option.aziMaxBids"), help: t("option.aziMaxBidsHelp") },
    raise_cap: {
      label: t("option.aziRaiseCap"), help: t("option.aziRaiseCapHelp"),
      choices: { per_player: t("option.aziRaiseCapPerPlayer"), total: t("option.aziRaiseCapTotal") },
    },
    hand_size: {
      label: t("option.aziHandSize"), help: t("option.aziHandSizeHelp"),
      choices: { 3: t("option.aziHandSize3"), 4: t("option.aziHandSize4") },
    },
    azi_buy_in: {
      label: t("option.aziBuyIn"), help: t("option.aziBuyInHelp"),
      choices: { half_pot: t("option.aziBuyInHalfPot"), none: t("option.aziBuyInNone") },
    },
    folded_excess: {
      label: t("option.aziFoldedExcess"), help: t("option.aziFoldedExcessHelp"),
      choices: { returned: t("option.aziFoldedExcessReturned"), to_pot: t("option.aziFoldedExcessToPot") },
    },
    bet_limit: {
      label: t("option.aziBetLimit"), help: t("option.aziBetLimitHelp"),
      choices: { none: t("option.aziBetLimitNone"), pot: t("option.aziBetLimitPot") },
    },
    min_buy_in: { label: t("option.aziMinBuyIn"), help: t("option.aziMinBuyInHelp"), unit: STAKES },
    max_buy_in: { label: t("option.aziMaxBuyIn"), help: t("option.aziMaxBuyInHelp"), unit: STAKES },
    turn_seconds: TURN_SECONDS,
    spectator_chat: SPECTATOR_CHAT,
  },
  hasenpfeffer: {
    bidding: {
      label: t("option.hasenpfefferBidding"), help: t("option.hasenpfefferBiddingHelp"),
      choices: { standard: t("option.hasenpfefferBiddingStandard"), pepper: t("option.hasenpfefferBiddingPepper") },
    },
    first_lead: {
      label: t("option.hasenpfefferFirstLead"), help: t("option.hasenpfefferFirstLeadHelp"),
      choices: { dealer_left: t("option.hasenpfefferFirstLeadDealerLeft"), bidder: t("option.hasenpfefferFirstLeadBidder") },
    },
    defenders_score: {
      label: t("option.hasenpfefferDefendersScore"), help: t("option.hasenpfefferDefendersScoreHelp"),
      choices: { true: t("option.hasenpfefferDefendersScoreTrue"), false: t("option.hasenpfefferDefendersScoreFalse") },
    },
    target: { label: t("option.hasenpfefferTarget"), help: t("option.hasenpfefferTargetHelp"), unit: POINTS },
    both_reach_target: {
      label: t("option.hasenpfefferBothReachTarget"), help: t("option.hasenpfefferBothReachTargetHelp"),
      choices: {
        bidders_win: t("option.hasenpfefferBothReachTargetBiddersWin"),
        higher_total: t("option.hasenpfefferBothReachTargetHigherTotal"),
      },
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

/** The words for one value of an option: "The later one wins", "1,000 points", "No clock". */
export function choiceLabel(game, name, value) {
  const known = words(game, name);
  if (known && known.choices && Object.hasOwn(known.choices, String(value))) return known.choices[String(value)];
  if (value === true) return t("option.yes");
  if (value === false) return t("option.no");
  if (value === null || value === undefined) return t("option.usual");
  if (name === "turn_seconds" && value === 0) return t("option.noClock");
  if (typeof value === "number") return known && known.unit ? known.unit(value) : formatNumber(value);
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
export const ARCHIVED_TEXT = t("words.archived");

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
    .map((entry) => t("option.summaryEntry", { label: entry.label, value: entry.value }))
    .join(" \u00b7 ");
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
  quick: { label: t("preset.quick"), help: t("preset.quickHelp") },
  classic: { label: t("preset.classic"), help: t("preset.classicHelp") },
  custom: { label: t("preset.custom"), help: t("preset.customHelp") },
};

// --- chips -------------------------------------------------------------------------------------------

/** A number of chips without the word: "1,000". */
export function amountText(count) {
  return formatNumber(Number(count));
}

/** "1 chip", "1,000 chips". */
export function chipsText(count) {
  return t("money.chips", { count: Number(count) });
}

export const OFFLINE_TEXT = t("words.offline");

/** Money on screen: the wallet apart from the chips at the table, the buy-in, big bets. */
export const MONEY = {
  wallet: ({ wallet }) => t("money.wallet", { count: Number(wallet) }),
  atTable: ({ stack }) => t("money.atTable", { count: Number(stack) }),
  myStack: ({ stack }) => t("money.myStack", { stack: Number(stack) }),
  backInWallet: ({ stack }) => t("money.backInWallet", { count: Number(stack) }),
  brings: ({ amount, mine }) => (mine ? t("money.youBring", { count: Number(amount) })
    : t("money.brings", { count: Number(amount) })),
  stakes: ({ stake, low, high }) => t("money.stakes", { stake: chipsText(stake), low: Number(low), high: chipsText(high) }),
  buyInTitle: t("money.buyInTitle"),
  buyInAbout: ({ seat, low, high }) => t("money.buyInAbout", { seat: seat + 1, low: Number(low), count: Number(high) }),
  buyInWallet: ({ wallet }) => t("money.buyInWallet", { count: Number(wallet) }),
  buyInLabel: t("money.buyInLabel"),
  buyInSlider: t("money.buyInSlider"),
  buyInRange: ({ low, high }) => t("money.buyInRange", { low: Number(low), count: Number(high) }),
  buyInSend: ({ amount }) => (amount === null ? t("money.sitDown") : t("money.sitDownWith", { count: Number(amount) })),
  buyInWhole: ({ low, high }) => t("money.buyInWhole", { low: Number(low), high: Number(high) }),
  buyInOutside: ({ low, high, capped }) => (capped
    ? t("money.buyInOutsideWallet", { low: Number(low), count: Number(high) })
    : t("money.buyInOutside", { low: Number(low), count: Number(high) })),
  buyInTooFew: ({ low, wallet }) => t("money.buyInTooFew", { low: chipsText(low), wallet: chipsText(wallet) }),
  cancel: t("money.cancel"),
  close: t("money.close"),
  /** The confirmation of a bet, raise or call that puts in ``put`` of the ``stack`` at the table. */
  confirm: ({ kind, amount, put, stack, allIn }) => {
    const amounts = { count: Number(stack), amount: Number(amount), put: Number(put) };
    if (kind === "bet") {
      return allIn
        ? { title: t("money.betAllInTitle"), text: t("money.betAllIn", amounts), button: t("money.betButton", amounts) }
        : { title: t("money.betTitle"), text: t("money.bet", amounts), button: t("money.betButton", amounts) };
    }
    if (kind === "raise") {
      return allIn
        ? { title: t("money.raiseAllInTitle"), text: t("money.raiseAllIn", amounts), button: t("money.raiseButton", amounts) }
        : { title: t("money.raiseTitle"), text: t("money.raise", amounts), button: t("money.raiseButton", amounts) };
    }
    return allIn
      ? { title: t("money.callAllInTitle"), text: t("money.callAllIn", amounts), button: t("money.callButton", amounts) }
      : { title: t("money.callTitle"), text: t("money.call", amounts), button: t("money.callButton", amounts) };
  },
};

// --- table chat ------------------------------------------------------------------------------------

/** The fixed reactions, in the order of the reactions bar: a face and its words. */
export const REACTIONS = {
  good_game: { face: "\u{1F91D}", label: t("reaction.goodGame") },
  well_played: { face: "\u{1F44F}", label: t("reaction.wellPlayed") },
  oops: { face: "\u{1F62C}", label: t("reaction.oops") },
  thinking: { face: "\u{1F914}", label: t("reaction.thinking") },
  smile: { face: "\u{1F642}", label: t("reaction.smile") },
  laugh: { face: "\u{1F602}", label: t("reaction.laugh") },
  wow: { face: "\u{1F62E}", label: t("reaction.wow") },
  sad: { face: "\u{1F622}", label: t("reaction.sad") },
};

export const CHAT = {
  title: t("chat.title"),
  open: ({ unread }) => (unread ? t("chat.openUnread", { count: unread }) : t("chat.title")),
  close: t("chat.close"),
  empty: t("chat.empty"),
  input: t("chat.input"),
  send: t("chat.send"),
  counter: ({ used, max }) => t("chat.counter", { used, max }),
  tooLong: ({ max }) => t("chat.tooLong", { count: max }),
  reactions: t("chat.reactions"),
  you: t("chat.you"),
  watching: ({ name }) => t("chat.watching", { name }),
  mute: ({ name }) => t("chat.mute", { name }),
  unmute: ({ name }) => t("chat.unmute", { name }),
  muted: t("chat.muted"),
  muteButton: t("chat.muteButton"),
  readOnly: t("chat.readOnly"),
  signIn: t("chat.signIn"),
  reacted: ({ name, label }) => t("chat.reacted", { name, label }),
  report: ({ name }) => t("chat.report", { name }),
  reportButton: t("chat.reportButton"),
};

/** Playing again once a match is over. */
export const REMATCH = {
  group: t("rematch.group"),
  playAgain: t("rematch.playAgain"),
  leave: t("rematch.leave"),
  startNow: t("rematch.startNow"),
  question: t("rematch.question"),
  youPlay: t("rematch.youPlay"),
  youLeft: t("rematch.youLeft"),
  waitingFor: ({ names }) => t("rematch.waitingFor", { names }),
  accepted: ({ names }) => t("rematch.accepted", { names }),
  declined: ({ names }) => t("rematch.declined", { names }),
  ownerMayStart: t("rematch.ownerMayStart"),
  started: t("rematch.started"),
};

/** What the operator's console and the report button say. */
export const OPERATOR = {
  noticeTitle: t("operator.noticeTitle"),
  reportTitle: ({ name }) => t("operator.reportTitle", { name }),
  reportHelp: t("operator.reportHelp"),
  reportNote: t("operator.reportNote"),
  reportSend: t("operator.reportSend"),
  reportSent: ({ name }) => t("operator.reportSent", { name }),
  reasonLabel: t("operator.reasonLabel"),
  reasonMissing: t("operator.reasonMissing"),
  closeRoom: t("operator.closeRoom"),
  closed: t("operator.closed"),
  removed: ({ name }) => t("operator.removed", { name }),
  suspended: ({ name }) => t("operator.suspended", { name }),
  lifted: ({ name }) => t("operator.lifted", { name }),
  noticePosted: t("operator.noticePosted"),
  noticeCleared: t("operator.noticeCleared"),
  paused: t("operator.paused"),
  resumed: t("operator.resumed"),
};

/** Who comes and goes at the table (the ``room/...`` notices), and the invitation that seats a guest. */
export const PRESENCE = {
  "room/joined": ({ name, seat }) => t("presence.joined", { name, seat: seat + 1 }),
  "room/back": ({ name }) => t("presence.back", { name }),
  "room/left": ({ name }) => t("presence.left", { name }),
  /** Before the seconds of a seat kept for its player who dropped: "waiting for Ana, 45 s". */
  waitingLabel: ({ name }) => t("presence.waitingLabel", { name }),
  invited: t("presence.invited"),
  joinHeading: t("presence.joinHeading"),
  joinHelp: t("presence.joinHelp"),
  watchOnly: t("presence.watchOnly"),
  tookSeat: ({ seat }) => t("presence.tookSeat", { seat: seat + 1 }),
  justWatch: t("presence.justWatch"),
  nowWatching: t("presence.nowWatching"),
  full: t("presence.full"),
  started: t("presence.started"),
  closed: t("presence.closed"),
  tooFewChips: ({ low, wallet }) => t("presence.tooFewChips", { low: chipsText(low), wallet: chipsText(wallet) }),
};

/** Turn alerts: what the tab shows when the player's turn comes while he looks elsewhere, and the
 * control that switches each alert on or off. */
export const ALERTS = {
  title: t("alerts.title"),
  control: t("alerts.control"),
  legend: t("alerts.legend"),
  tab: t("alerts.tab"),
  sound: t("alerts.sound"),
  vibrate: t("alerts.vibrate"),
};

const BOT_LEVELS = { strong: t("lobby.botStrong"), random: t("lobby.botRandom") };

/** A bot level's word ("strong"). */
export function botLevelText(level) {
  return BOT_LEVELS[level] || level;
}

/** Who sits in a seat: a person by his own name, a bot named in the page's language ("Bot 2 (strong)"). */
export function seatName(entry) {
  return entry.bot && entry.bot_level ? t("lobby.botName", { seat: entry.seat + 1, level: botLevelText(entry.bot_level) })
    : entry.name;
}
