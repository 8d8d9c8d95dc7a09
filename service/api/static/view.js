// The one module that reads the service's game JSON: views, summaries, options, events,
// previews. Everything else in the page uses the plain objects made here, so a change of
// the service's JSON (key names, nesting) is an edit of this file only.

import { label, localName, t } from './i18n.js';

// A key as written by the core (snake_case) or by the typed contract (lowerCamelCase).
function camel(key) {
  return key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

export function pick(obj, key, fallback = undefined) {
  if (obj == null) return fallback;
  if (key in obj) return obj[key];
  const c = camel(key);
  if (c in obj) return obj[c];
  return fallback;
}

// An int64 arrives as a JSON string in proto3 JSON.
export function num(value, fallback = 0) {
  if (value === undefined || value === null || value === '') return fallback;
  const n = Number(value);
  return Number.isFinite(n) ? n : fallback;
}

// A view may be wrapped by ruleset ({"birmingham": {...}}) in the typed contract.
function unwrapView(view) {
  if (view == null) return null;
  for (const ruleset of ['birmingham', 'pittsburgh']) {
    const inner = view[ruleset];
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) return inner;
  }
  return view;
}

// The typed contract carries each ruleset's document in a field named by the ruleset
// (GameState.birmingham, PreviewActionResponse.birminghamCost, GameEvent.pittsburgh, ...).
export function rulesetArm(raw, suffix = '') {
  if (raw == null) return null;
  for (const ruleset of ['birmingham', 'pittsburgh']) {
    const inner = raw[ruleset + suffix];
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) return inner;
  }
  return null;
}

// A document whose kind is its one key ({"build": {...}}) as {[label]: kind, ...fields}.
export function byKind(doc, label) {
  if (doc == null) return {};
  if (label in doc) return doc;
  const rest = { ...doc };
  for (const [key, value] of Object.entries(doc)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      delete rest[key];
      return { [label]: key.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()), ...rest, ...value };
    }
  }
  return doc;
}

// A keyed collection: an object by name, or a list of objects carrying the name.
function entries(collection, nameKey) {
  if (collection == null) return [];
  if (Array.isArray(collection)) return collection.map((v) => [pick(v, nameKey), v]);
  return Object.entries(collection);
}

function counts(collection) {
  // {"stafford": 2} or [{"card": "stafford", "count": 2}]
  const out = {};
  for (const [name, v] of entries(collection, 'card')) {
    out[name] = typeof v === 'object' ? num(pick(v, 'count', 1), 1) : num(v);
  }
  return out;
}

// The resources a tile, a market or a train may hold.
const CUBE_RESOURCES = ['coal', 'iron', 'steel', 'coke', 'oil'];

function player(raw, seat) {
  const hand = pick(raw, 'hand', null);
  return {
    seat,
    money: num(pick(raw, 'money')),
    vp: num(pick(raw, 'vp')),
    spent: num(pick(raw, 'spent')),
    incomeSpace: num(pick(raw, 'income_space')),
    incomeLevel: num(pick(raw, 'income_level')),
    linksLeft: num(pick(raw, 'links_left')),
    handSize: num(pick(raw, 'hand_size')),
    handUnseen: num(pick(raw, 'hand_unseen')),
    lastDiscard: pick(raw, 'last_discard', null),
    matTaken: counts(pick(raw, 'mat_taken', {})),
    hand: hand == null ? null : counts(hand),
    wildCards: counts(pick(raw, 'wild_cards', {})),
    // Pittsburgh: the tiles left in each mat position, the link tiles in the supply, whiskey
    mat: counts(pick(raw, 'mat', {})),
    supply: counts(pick(raw, 'supply', {})),
    whiskey: num(pick(raw, 'whiskey')),
  };
}

// The view of one game (a seat's or a spectator's) as the page uses it.
export function readView(rawView) {
  const v = unwrapView(rawView);
  if (v == null) return null;
  // Birmingham's built slots give a tile's industry and level; Pittsburgh's spaces name the
  // tile by id (the board's `tiles` say what it is) and carry cubes by resource. proto3
  // JSON leaves zeros out: an absent owner is seat 0.
  const slots = entries(pick(v, 'slots', null) ?? pick(v, 'spaces', {}), 'slot').map(([name, s]) => {
    const resources = {};
    for (const r of CUBE_RESOURCES) {
      const n = num(pick(s, r));
      if (n) resources[r] = n;
    }
    const cubes = pick(s, 'cubes', null);
    return {
      slot: name,
      owner: num(pick(s, 'owner')),
      industry: pick(s, 'industry', null),
      level: num(pick(s, 'level')),
      tile: pick(s, 'tile', null),
      flipped: Boolean(pick(s, 'flipped', false)),
      cubes: cubes == null ? Object.values(resources).reduce((a, b) => a + b, 0) : num(cubes),
      resources,
    };
  });
  // Birmingham: {link: owner}; Pittsburgh: [{route, owner, tile (the link tile's id), cargo}]
  const links = entries(pick(v, 'links', {}), 'link').map(([name, l]) => (typeof l === 'object'
    ? { link: name ?? pick(l, 'route'), owner: num(pick(l, 'owner')), tile: pick(l, 'tile', null), cargo: num(pick(l, 'cargo')) }
    : { link: name, owner: num(l, -1), tile: null, cargo: 0 }));
  // Birmingham: by space ("shrewsbury.0") with goods; Pittsburgh: by location with a tile
  const merchants = entries(pick(v, 'merchants', {}), 'space').map(([name, m]) => {
    const space = String(name ?? `${pick(m, 'location', '')}.0`);
    return {
      space,
      location: space.split('.')[0],
      goods: pick(m, 'goods', null),
      beer: num(pick(m, 'beer')),
      tile: pick(m, 'tile', null),
      side: pick(m, 'side', ''),
    };
  });
  const oilfields = (pick(v, 'oilfields', []) || []).map((o) => ({
    id: pick(o, 'id', ''),
    barrels: num(pick(o, 'barrels')),
    tileState: pick(o, 'tile_state', ''),
    tile: pick(o, 'tile', null),
    oilCityOwner: num(pick(o, 'oil_city_owner')),
    oilCityBarrels: num(pick(o, 'oil_city_barrels')),
    oilCityFlipped: Boolean(pick(o, 'oil_city_flipped', false)),
  }));
  // Birmingham: {coal, iron}; Pittsburgh: one market per location, [{id, price, coal, ...}]
  const markets = pick(v, 'markets', {});
  const placedMarkets = Array.isArray(markets) ? markets.map((m) => ({
    id: pick(m, 'id', ''),
    price: num(pick(m, 'price')),
    cubes: Object.fromEntries(CUBE_RESOURCES.map((r) => [r, num(pick(m, r))])),
  })) : [];
  const seat = pick(v, 'seat', null);
  return {
    ruleset: pick(v, 'ruleset', 'birmingham'),
    players: Array.isArray(v.players) ? v.players.length : num(pick(v, 'players', pick(v, 'num_players'))),
    era: pick(v, 'era', ''),
    round: num(pick(v, 'round')),
    turnOrder: (pick(v, 'turn_order', []) || []).map((x) => num(x)),
    actionsLeft: num(pick(v, 'actions_left')),
    current: pick(v, 'current', null) == null ? null : num(pick(v, 'current')),
    decision: pick(v, 'decision', ''),
    gameOver: Boolean(pick(v, 'game_over', false)),
    pendingAction: pick(pick(v, 'pending', {}), 'action', null),
    deckSize: num(pick(v, 'deck_size')),
    discards: counts(pick(v, 'discards', {})),
    wildPiles: counts(pick(v, 'wild_piles', {})),
    markets: { coal: num(pick(markets, 'coal')), iron: num(pick(markets, 'iron')) },
    slots,
    links,
    merchants,
    oilfields,
    placedMarkets,
    // Birmingham: player_state (players is the count); Pittsburgh: players
    playerStates: (pick(v, 'player_state', null) || (Array.isArray(v.players) ? v.players : [])).map(player),
    seat: seat == null ? null : num(seat),
    // what UndoAction by the seat to act would take back now, or why it is refused (null:
    // a server whose views do not say)
    undo: 'undo_steps' in v || 'undoSteps' in v || 'undo_refused' in v || 'undoRefused' in v
      ? { steps: num(pick(v, 'undo_steps')), refused: pick(v, 'undo_refused', null) } : null,
  };
}

// A GameSummary.
// A finished game's board as built: the last view, and the tiles and links the final era's
// end took off (they are in the view before the last decision; the last view's own win).
export function builtView(last, before) {
  if (!last || !before) return last;
  const merge = (now, then, key) => {
    const have = new Set(now.map((x) => x[key]));
    return [...now, ...then.filter((x) => !have.has(x[key]))];
  };
  return { ...last, slots: merge(last.slots, before.slots, 'slot'), links: merge(last.links, before.links, 'link') };
}

export function readSummary(raw) {
  if (raw == null) return null;
  const current = pick(raw, 'current_seat', null);
  return {
    gameId: pick(raw, 'game_id', ''),
    ruleset: pick(raw, 'ruleset', 'RULESET_BIRMINGHAM'),
    seats: (pick(raw, 'seats', []) || []).map((s) => ({
      seat: num(pick(s, 'seat')),
      name: pick(s, 'name', ''),
      open: Boolean(pick(s, 'open', false)),
      bot: pick(s, 'bot', ''),
      resigned: Boolean(pick(s, 'resigned', false)),
      vacant: Boolean(pick(s, 'vacant', false)),
    })),
    version: num(pick(raw, 'version')),
    status: pick(raw, 'status', ''),
    currentSeat: current == null ? null : num(current),
    decision: pick(raw, 'decision', ''),
    visibility: pick(raw, 'visibility', ''),
    openSeats: num(pick(raw, 'open_seats')),
    updateTime: pick(raw, 'update_time', ''),
    clock: readClock(pick(raw, 'clock', null)),
    endReason: pick(raw, 'end_reason', ''),
    hostPolicy: readHostPolicy(pick(raw, 'host_policy', null)),
    rematch: readRematch(pick(raw, 'rematch', null)),
    rematchOf: pick(raw, 'rematch_of', ''),
  };
}

// GameSummary.rematch: who proposed it, who agreed, the new game once every seat did.
function readRematch(raw) {
  if (raw == null) return null;
  return {
    proposedBy: num(pick(raw, 'proposed_by')),
    acceptedSeats: (pick(raw, 'accepted_seats', []) || []).map(num),
    gameId: pick(raw, 'game_id', ''),
  };
}

// GameSummary.host_policy: what a resignation and a timeout do (null: not a hosted game).
function readHostPolicy(raw) {
  if (raw == null) return null;
  return {
    onResign: pick(raw, 'on_resign', 'RESIGN_POLICY_BOT_TAKES_OVER'),
    onTimeout: pick(raw, 'on_timeout', 'TIMEOUT_POLICY_BOT_PLAYS_TURN'),
    standInBot: pick(raw, 'stand_in_bot', ''),
    spectatorDelayTurns: num(pick(raw, 'spectator_delay_turns', 0)),
  };
}

// The host's policy in words, for the players taking a seat (timeouts only with a clock).
export function hostPolicyText(policy, clocked) {
  if (!policy) return '';
  const bot = policy.standInBot ? `a bot (${policy.standInBot})` : 'a bot';
  const resign = policy.onResign === 'RESIGN_POLICY_GAME_ENDS'
    ? 'If a player resigns, the game ends.' : `If a player resigns, ${bot} plays the seat on.`;
  if (!clocked) return resign;
  const timeout = policy.onTimeout === 'TIMEOUT_POLICY_FORFEIT'
    ? 'A player who runs out of time forfeits.' : `When a turn's time runs out, ${bot} plays that turn.`;
  return `${resign} ${timeout}`;
}

// A ClockState: times in ms, and when they were read (the seat to act's time runs down
// from then).
function readClock(raw) {
  if (raw == null) return null;
  const options = pick(raw, 'options', {}) || {};
  const turnSeat = pick(raw, 'turn_seat', null);
  const deadline = pick(raw, 'turn_deadline', null);
  return {
    initialMs: num(pick(options, 'initial_ms')),
    incrementMs: num(pick(options, 'increment_ms')),
    turnMs: num(pick(options, 'turn_ms')),
    remainingMs: (pick(raw, 'remaining_ms', []) || []).map((x) => num(x)),
    turnSeat: turnSeat == null ? null : num(turnSeat),
    turnDeadline: deadline ? Date.parse(deadline) : null,
    readAt: Date.now(),
  };
}

// A seat's time left now (ms), or null when its clock does not run.
export function timeLeft(clock, seat, now = Date.now()) {
  if (!clock) return null;
  if (clock.turnMs) {
    if (seat !== clock.turnSeat || clock.turnDeadline == null) return null;
    return Math.max(0, clock.turnDeadline - now);
  }
  const left = clock.remainingMs[seat];
  if (left === undefined) return null;
  return seat === clock.turnSeat ? Math.max(0, left - (now - clock.readAt)) : left;
}

// A seat's time left when a past version was reached (GetGame at_version: its summary's
// clock stands still at its update time), or null when its clock did not run.
export function timeLeftThen(summary, seat) {
  const clock = summary && summary.clock;
  if (!clock) return null;
  return timeLeft(clock, seat, clock.turnMs ? Date.parse(summary.updateTime) : clock.readAt);
}

export function clockText(ms) {
  if (ms == null) return '';
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

// A GameState (summary, viewer seat, view, scores, winners).
export function readState(raw) {
  if (raw == null) return null;
  const viewer = pick(raw, 'viewer_seat', null);
  return {
    summary: readSummary(pick(raw, 'summary', null)),
    viewerSeat: viewer == null ? null : num(viewer),
    view: readView(pick(raw, 'view', null) ?? rulesetArm(raw)),
    scores: (pick(raw, 'scores', []) || []).map((x) => num(x)),
    winners: (pick(raw, 'winners', []) || []).map((x) => num(x)),
  };
}

export const GAME_OVER = 'GAME_STATUS_FINISHED';
export function isFinished(summary) {
  return summary != null && /FINISHED|OVER|ENDED/.test(summary.status);
}
export function isWaiting(summary) {
  return summary != null && /WAITING/.test(summary.status);
}

// ------------------------------------------------------------------ options and actions

// One option of the current decision (available or not).
export function readOption(raw) {
  return {
    id: num(pick(raw, 'id')),
    name: pick(raw, 'name', ''),
    kind: pick(raw, 'kind', ''),
    meaning: pick(raw, 'meaning', null) || byKind(rulesetArm(raw), 'kind'),
  };
}

// A ListLegalActionsResponse (or SubmitActionResponse.next_actions).
export function readLegal(raw) {
  if (raw == null) return null;
  return {
    version: num(pick(raw, 'version')),
    seat: num(pick(raw, 'seat')),
    decision: pick(raw, 'decision', ''),
    options: (pick(raw, 'options', []) || []).map(readOption),
    unavailable: (pick(raw, 'unavailable', []) || []).map((u) => ({
      id: num(pick(u, 'id')),
      reason: pick(u, 'reason', ''),
      message: pick(u, 'message', ''),
    })),
    compound: (pick(raw, 'compound_actions', []) || []).map((c) => ({
      key: pick(c, 'key', ''),
      ids: (pick(c, 'ids', []) || []).map((x) => num(x)),
    })),
    compoundTruncated: Boolean(pick(raw, 'compound_actions_truncated', false)),
  };
}

// ------------------------------------------------------------------ words for people

export function title(text) {
  return String(text ?? '')
    .replace(/_/g, ' ')
    .replace(/\b([a-z])/g, (c) => c.toUpperCase());
}

const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII'];
export function roman(level) {
  return ROMAN[level] ?? String(level);
}

// "slot:belper.0" -> "Belper slot 1"; "card:wild_location" -> "Wild Location" ...
export function nameText(name) {
  if (!name) return '';
  const [kind, rest = ''] = name.includes(':') ? name.split(/:(.*)/s) : [name, ''];
  const local = localName(kind, rest);
  if (local) return local;
  switch (kind) {
    case 'type': return title(rest);
    case 'card': return `${title(rest)} card`;
    case 'industry': return title(rest);
    case 'slot': {
      const [loc, k] = rest.split('.');
      return `${title(loc)} slot ${num(k) + 1}`;
    }
    case 'link': return rest.split('--').map(title).join(' – ');
    case 'pipeline': return `Pipeline ${rest.split('--').map(title).join(' – ')}`;
    case 'oilfield': return `Oilfield ${title(rest)}`;
    case 'tile': return `Tile ${title(rest)}`;
    case 'link_tile': return title(rest);
    case 'merchant': {
      const [loc, k] = rest.split('.');
      return `${title(loc)} merchant ${num(k) + 1}`;
    }
    case 'market': return 'the market';
    case 'done': return 'Done';
    default: return title(name);
  }
}

// A compound action's key ("type:build card:stafford industry:cotton ...") in words.
export function compoundText(key) {
  return key.split(' ').map(nameText).join(' · ');
}

const DECISION_PROMPTS = {
  action: 'Choose an action',
  card: 'Choose a card to play',
  scout_card: 'Choose a card to discard for Scout',
  build_industry: 'Choose an industry to build',
  build_slot: 'Choose where to build',
  coal: 'Choose where the coal comes from',
  iron: 'Choose where the iron comes from',
  beer: 'Choose which beer to use',
  link: 'Choose a route',
  second_rail: 'Build a second rail link, or stop',
  develop: 'Choose an industry to develop',
  sell_tile: 'Choose a tile to sell',
  sell_merchant: 'Choose a merchant to sell to',
  free_develop: 'Choose a free develop (merchant bonus)',
  shortfall: 'Choose a tile to remove (income shortfall)',
  game_over: 'The game is over',
};
export function decisionPrompt(decision) {
  return label('decisionKinds', decision) || DECISION_PROMPTS[decision] || title(decision);
}

// A lobby event (a change of seats or status that is not a decision), or null.
export function lobbyEvent(rawEvent) {
  const lobby = pick(rawEvent, 'lobby', null);
  if (!lobby) return null;
  const seat = pick(lobby, 'seat', null);
  return { kind: pick(lobby, 'kind', ''), seat: seat == null ? null : num(seat), name: pick(lobby, 'name', ''), bot: pick(lobby, 'bot', '') };
}

// A PreviewActionResponse: what the cost says beyond the action's own sentence (events.js:
// actionSentence), as sentences, and the view after.
export function readPreview(raw) {
  const cost = pick(raw, 'cost', null) || rulesetArm(raw, 'Cost') || {};
  const lines = [];
  const list = (v) => (Array.isArray(v) ? v : v == null ? [] : [v]);
  const income = num(pick(cost, 'market_income'));
  if (income) lines.push(t('preview.lineMarketSales', { money: income }));
  const flips = list(pick(cost, 'flips')).map((f) => (typeof f === 'object' ? pick(f, 'slot', '') : f)).filter(Boolean);
  if (flips.length) lines.push(t('preview.lineFlips', { places: flips.map((s) => nameText(`slot:${s}`)).join(t('preview.listSep')) }));
  const spaces = num(pick(cost, 'income_spaces'));
  if (spaces) lines.push(t('preview.lineIncome', { n: spaces > 0 ? `+${spaces}` : spaces }));
  const vp = num(pick(cost, 'vp'));
  if (vp) lines.push(t('preview.lineVp', { n: vp }));
  const after = pick(cost, 'money_after', null);
  if (after != null) lines.push(t('preview.lineMoneyAfter', { money: num(after) }));
  return {
    lines,
    events: pick(raw, 'events', []) || [],
    view: readView(pick(raw, 'view', null) ?? rulesetArm(raw)),
  };
}

// A GetReplayResponse.
export function readReplay(raw) {
  return {
    complete: Boolean(pick(raw, 'complete', false)),
    version: num(pick(raw, 'version')),
    decisions: (pick(raw, 'decisions', []) || []).map((d) => ({
      version: num(pick(d, 'version')),
      seat: num(pick(d, 'seat')),
      decision: pick(d, 'decision', ''),
      optionId: num(pick(d, 'option_id')),
      name: pick(d, 'name', ''),
    })),
  };
}

// A WatchGameResponse.
export function readUpdate(raw) {
  return {
    version: num(pick(raw, 'version')),
    events: pick(raw, 'events', []) || [],
    state: readState(pick(raw, 'state', null)),
  };
}

// A JSON error body: {"error": {code, status, reason, message, details}}.
export function readError(body, status) {
  const e = (body && body.error) || {};
  const details = (e.details || []).find((d) => d && d.metadata) || {};
  return {
    status,
    reason: e.reason || `HTTP_${status}`,
    message: e.message || `the server answered ${status}`,
    metadata: details.metadata || {},
  };
}

// ------------------------------------------------------------------ rulesets

function snakeKeys(o) {
  if (Array.isArray(o)) return o.map(snakeKeys);
  if (o && typeof o === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(o)) {
      out[k.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase())] = snakeKeys(v);
    }
    return out;
  }
  return o;
}

// A GetRulesetResponse: the description with its board in snake_case names (as board.js
// draws it), whichever JSON names the service writes.
export function readRuleset(raw) {
  const r = snakeKeys(pick(raw, 'ruleset', raw) || {});
  return {
    enumName: r.ruleset,
    name: r.name,
    title: r.title,
    minPlayers: num(r.min_players, 2),
    maxPlayers: num(r.max_players, 4),
    provisional: Boolean(r.provisional),
    placeholders: r.placeholders || [],
    options: (r.options || []).map((o) => ({
      key: o.key,
      type: o.type,
      description: o.description || '',
      default: o.default_bool ?? o.default_int ?? o.default_enum ?? null,
      allowedInts: o.allowed_ints || [],
      allowedEnums: o.allowed_enums || [],
      allowedBools: o.allowed_bools || [],
      min: o.min ?? null,
      max: o.max ?? null,
    })),
    actions: r.actions || [],
    reasons: r.reasons || [],
    board: r.board || null,
    labels: labelsOf(pick(raw, 'ruleset', raw)),
  };
}

// The labels by language, each table's name in camelCase (its keys are the engine's names,
// so they are not converted as the rest is).
function labelsOf(r) {
  const out = {};
  for (const [lang, tables] of Object.entries((r && r.labels) || {})) {
    out[lang] = {};
    for (const [k, v] of Object.entries(tables || {})) out[lang][k.replace(/_([a-z])/g, (_, c) => c.toUpperCase())] = v;
  }
  return out;
}

// The next tile of an industry on a player's mat (board.player_mat), given how many of its
// tiles have left the mat: {tile, leftOfLevel, left} or null when none is left.
export function nextMatTile(mat, industry, taken) {
  const stack = (mat || []).find((i) => i.industry === industry);
  if (!stack) return null;
  let gone = taken;
  let left = stack.tiles_per_player - taken;
  for (const tile of stack.levels) {
    if (gone < tile.count) return { tile, leftOfLevel: tile.count - gone, left };
    gone -= tile.count;
  }
  return null;
}
