// A game's events in the players' words (the log, the preview, the last moves), and what
// an event says about the board; the sentences are static/i18n.js's, the names of places,
// cards, industries and tiles GetRuleset's labels and board data.

import { label, placeLabel, t } from './i18n.js';
import { byKind, lobbyEvent, nameText, num, pick, roman, rulesetArm, title } from './view.js';

// A game event's fields, from the typed contract's ruleset arm or the core's own data.
function eventData(rawEvent) {
  const typed = rulesetArm(rawEvent);
  return typed ? { seat: pick(rawEvent, 'seat', null), ...byKind(typed, 'type') }
    : pick(rawEvent, 'data', rawEvent) || {};
}

// Events that put something on the board where they name it (the mover's last move).
const PLACING = new Set(['build', 'overbuild', 'sell', 'link', 'replaced']);

// What a game event says about the board: its type, its seat, the slot it built on or sold
// from and the route it linked (as the board names them: data-slot, data-link).
export function eventFacts(rawEvent) {
  if (lobbyEvent(rawEvent)) return { type: 'lobby', seat: null, slot: null, link: null };
  const e = eventData(rawEvent);
  const type = pick(e, 'type', '');
  const seat = pick(e, 'seat', null);
  const placing = PLACING.has(type);
  const place = placing ? pick(e, 'slot', null) ?? pick(e, 'place', null) : null;
  const route = placing ? pick(e, 'link', null) ?? pick(e, 'route', null) : null;
  return {
    type, seat: seat == null ? null : num(seat),
    slot: place == null ? null : String(place).replace(/^slot:/, ''),
    // an option name ("link:a--b", Pittsburgh's "pipeline:a--b") names the board's route a--b
    link: route == null ? null : String(route).replace(/^\w+:/, ''),
  };
}

// Names by kind, whether the event gives an option name ("slot:x") or a bare id ("x").
const named = (kind) => (x) => (x == null || x === '' ? '' : nameText(String(x).includes(':') ? x : `${kind}:${x}`));
const placeName = named('slot');
const routeName = named('link');
const merchantName = named('merchant');
const oilfieldName = named('oilfield');
const vanderbilt = () => label('optionKinds', 'vanderbilt') || title('vanderbilt');

// A reward or bonus ("vp", 3) in words.
function reward(kind, amount) {
  const key = `reward.${kind}`;
  return t(key, { n: amount }) === key ? `${title(kind || '')} ${amount ?? ''}`.trim() : t(key, { n: amount });
}

function resourceName(r) {
  const key = `resource.${r}`;
  return t(key) === key ? title(r || '') : t(key);
}

function eraName(era) {
  if (typeof era === 'number' || /^\d+$/.test(String(era))) return t('era.n', { n: num(era) });
  const key = `era.${era}`;
  return t(key) === key ? title(era) : t(key);
}

// One event in words; `tileName` names a tile id (Pittsburgh's events name tiles).
export function eventText(rawEvent, seatName, tileName = title) {
  const lobby = lobbyEvent(rawEvent);
  if (lobby) {
    const key = `lobby.event.${lobby.kind}`;
    const what = t(key) === key ? title(lobby.kind) : t(key);
    if (lobby.seat == null) return what;
    return `${lobby.name || seatName(lobby.seat)} ${what}${lobby.bot ? ` (${lobby.bot})` : ''}`;
  }
  const e = eventData(rawEvent);
  const type = pick(e, 'type', '');
  const who = pick(e, 'seat', null) == null ? '' : seatName(num(pick(e, 'seat')));
  const f = (k) => pick(e, k);
  const price = f('price') ? t('event.price', { price: f('price') }) : '';
  switch (type) {
    case 'action': return t('event.action', { who, action: label('actionTypes', f('action')) || title(f('action')), card: nameText('card:' + f('card')) });
    case 'pay': return t('event.pay', { who, money: f('money') });
    case 'build':
      // Pittsburgh: the tile id and its place (a slot, or an oilfield by its option name)
      if (f('tile')) return t('event.buildTile', { who, tile: tileName(f('tile')), place: placeName(f('place')) });
      return t('event.build', { who, industry: label('industries', f('industry')) || title(f('industry')), level: roman(num(f('level'))), place: placeName(f('slot')) });
    case 'overbuild':
      return t('event.overbuild', { who, owner: seatName(num(f('previous_owner'))), level: roman(num(f('previous_level'))), place: placeName(f('slot')) });
    case 'link':
      // Pittsburgh: the route by its option name, and the link tile
      if (f('route')) return t('event.linkTile', { who, tile: tileName(f('link_tile')), route: routeName(f('route')) });
      return t('event.link', { who, route: routeName(f('link')) });
    case 'replaced': return t('event.replaced', { who, route: routeName(f('link')), tile: tileName(f('link_tile')) });
    case 'coal': case 'iron': case 'beer':
      return t('event.uses', { who, resource: t(`resource.${type}`), source: f('source') === 'market' ? t('name.market') : placeName(f('source') || f('slot') || ''), price });
    case 'cube':
      return t('event.uses', { who, resource: resourceName(f('cube')), source: f('source') === 'vanderbilt' ? vanderbilt() : nameText(f('source')), price });
    case 'oil':
      if (num(f('barrels'))) return t('event.oilAdded', { n: num(f('barrels')), route: nameText(f('source')) });
      return t('event.uses', { who, resource: resourceName('oil'), source: nameText(f('source')), price: '' });
    case 'develop':
      if (f('position')) return t(f('free') ? 'event.developFree' : 'event.developTile', { who, tile: tileName(f('position')) });
      return t('event.develop', { who, industry: label('industries', f('industry')) || title(f('industry')), level: roman(num(f('level'))) });
    case 'sell': return t('event.sell', { who, place: placeName(f('slot')), merchant: merchantName(f('merchant')) });
    case 'flip': return t('event.flip', { who, place: f('oilfield') ? oilfieldName(f('oilfield')) : placeName(f('slot')), n: num(f('income_spaces') ?? f('income')) });
    case 'market_sale':
      if (f('market')) return t('event.marketSaleTo', { who, resource: resourceName(f('cube')), market: label('locations', f('market')) || title(f('market')), money: num(f('price')) });
      return t('event.marketSale', { who, n: num(f('cubes')), place: placeName(f('slot')), money: num(f('money')) });
    case 'merchant_bonus': return t('event.merchantBonus', { who, merchant: merchantName(f('merchant')), bonus: reward(f('bonus'), f('amount')) });
    case 'merchant_reward': return t('event.merchantReward', { who, merchant: merchantName(f('merchant')) });
    case 'pipe_reward': return t('event.pipeReward', { who, route: routeName(f('pipeline')), bonus: reward(f('kind'), f('amount')) });
    case 'route_bonus': return t('event.routeBonus', { who, route: routeName(f('link')), bonus: reward(f('kind'), f('amount')) });
    case 'quality': return t('event.quality', { who, n: f('quality'), whiskey: num(f('whiskey')) });
    case 'reveal': return t('event.reveal', { who, place: placeLabel(f('oilfield')) || title(f('oilfield')), n: num(f('oil')) });
    case 'loan':
      return f('money') ? t('event.loanMoney', { who, money: num(f('money')), n: num(f('income_space')) }) : t('event.loan', { who, n: num(f('income_space')) });
    case 'scout': return t('event.scout', { who });
    case 'pass': return t('event.pass', { who });
    case 'whiskey': return t('event.whiskey', { who });
    case 'turn_end': return t('event.turnEnd', { who });
    case 'turn_order': return t('event.turnOrder', { order: (f('order') || []).map((s) => seatName(num(s))).join(', ') });
    case 'income': {
      const money = num(f('money'));
      return money < 0 ? t('event.incomePaid', { who, money: -money }) : t('event.income', { who, money });
    }
    case 'bankrupt': return t('event.bankrupt', { who, vp: num(f('vp')) });
    case 'shortfall_remove': return t('event.shortfallRemove', { who, place: placeName(f('slot')), money: num(f('money')) });
    case 'vp_loss': return t('event.vpLoss', { who, vp: num(f('vp')) });
    case 'link_score': return t('event.linkScore', { who, vp: num(f('vp')), route: routeName(f('link')) });
    case 'tile_score': return t('event.tileScore', { who, vp: num(f('vp')), place: f('oilfield') ? oilfieldName(f('oilfield')) : placeName(f('slot')) });
    case 'upgrade_score': return t('event.upgradeScore', { who, vp: num(f('vp')), place: placeName(f('slot')) });
    case 'bonus_score': return t('event.bonusScore', { who, vp: num(f('vp')) });
    case 'tile_removed': return t('event.tileRemoved', { place: placeName(f('slot')) });
    case 'round_end': return t('event.roundEnd', { n: num(f('round')) });
    case 'era_end': return t('event.eraEnd', { era: eraName(f('era')) });
    case 'game_end': return t('event.gameEnd');
    case 'undo': {
      const n = num(f('decisions'), 1);
      return t(n === 1 ? 'event.undoOne' : 'event.undoMany', { who, n });
    }
    default: {
      const rest = Object.entries(e)
        .filter(([k]) => k !== 'type' && k !== 'seat')
        .map(([k, v]) => `${title(k)} ${typeof v === 'object' ? JSON.stringify(v) : v}`)
        .join(', ');
      return `${who ? who + ': ' : ''}${label('events', type) || title(type)}${rest ? ' — ' + rest : ''}`;
    }
  }
}

// The events of an action that say what it does (the others say what it costs, or what
// follows it: the turn's end, a round's scoring).
const DOING = new Set(['build', 'link', 'develop', 'sell', 'loan', 'scout', 'pass']);
const TAKING = new Set(['coal', 'iron', 'beer', 'cube', 'oil']);

// What an event of the mover's is to its action's sentence: 'doing', 'pay', 'taking' (a
// cube, barrel or beer used), else null (an event said on its own: a flip, a bonus).
function roleOf(type, f) {
  if (DOING.has(type)) return 'doing';
  if (type === 'pay') return 'pay';
  return TAKING.has(type) && !(type === 'oil' && num(f('barrels'))) ? 'taking' : null;
}

// Where a cube or a barrel came from, in words: the market, a merchant, Vanderbilt, a
// market place (Pittsburgh), else a tile by `tileAt(slot)` (whose tile, where) or a route.
function sourceWords(f, tileAt) {
  const source = String(f('source') ?? f('slot') ?? '');
  if (source === 'market') return t('name.market');
  if (source === 'merchant') return merchantName(f('merchant'));
  if (source === 'vanderbilt') return vanderbilt();
  if (source.startsWith('market:')) {
    const place = source.slice(7);
    return t('preview.marketAt', { place: label('locations', place) || title(place) });
  }
  if (source.startsWith('slot:') || /^[a-z_]+\.\d+$/.test(source)) {
    return (tileAt && tileAt(source.replace(/^slot:/, ''))) || placeName(source);
  }
  return nameText(source);
}

// A previewed action in one sentence: what the seat does, what it pays and each cube,
// barrel or beer it uses with where it comes from and its price ("Ann builds Cotton Mill
// II at Stoke-on-Trent slot 1, paying £12 and using 1 coal from the market (£2)").
export function actionSentence(rawEvents, seatName, tileName = title, tileAt = null) {
  let mover = null;
  const doing = [];
  const taken = new Map();
  let money = 0;
  for (const raw of rawEvents) {
    const e = eventData(raw);
    const f = (k) => pick(e, k);
    const type = pick(e, 'type', '');
    const seat = pick(e, 'seat', null);
    if (type === 'action' && mover === null) mover = num(seat);
    if (type === 'turn_end') break;
    if (seat == null || num(seat) !== mover) continue;
    const role = roleOf(type, f);
    if (role === 'doing') doing.push(eventText(raw, seatName, tileName));
    else if (role === 'pay') money += num(f('money'));
    else if (role === 'taking') {
      const resource = type === 'cube' ? f('cube') : type;
      const source = sourceWords(f, tileAt);
      const key = `${resource}|${source}`;
      const entry = taken.get(key) || { resource, source, n: 0, price: 0 };
      entry.n += 1;
      entry.price += num(f('price'));
      taken.set(key, entry);
    }
  }
  if (!doing.length) return '';
  const action = doing.join(t('preview.then'));
  const costs = [...taken.values()].map((x) => t('preview.taken', {
    n: x.n, resource: resourceName(x.resource), source: x.source,
    price: x.price ? t('preview.price', { money: x.price }) : '',
  })).join(t('preview.listSep'));
  if (money && costs) return t('preview.payingUsing', { action, money, costs });
  if (money) return t('preview.paying', { action, money });
  return costs ? t('preview.using', { action, costs }) : action;
}

// An action's events as one line of the log, rewritten as its events arrive (a step at a
// time): its sentence with the card played ("Bob builds a link Walsall – Cannock, paying
// £3 (Walsall card)"), then what else it made happen (a flip, a bonus). Until the action
// says what it does, the line is its first event's ("Bob: Network (Walsall card)").
export function actionLine(rawEvents, seatName, tileName = title) {
  const sentence = actionSentence(rawEvents, seatName, tileName);
  if (!sentence) return rawEvents.map((e) => eventText(e, seatName, tileName)).join(t('log.more'));
  const card = pick(eventData(rawEvents[0]), 'card', '');
  const others = rawEvents.slice(1).filter((raw) => {
    const e = eventData(raw);
    return roleOf(pick(e, 'type', ''), (k) => pick(e, k)) === null;
  }).map((e) => eventText(e, seatName, tileName));
  const first = card ? t('log.action', { sentence, card: nameText(`card:${card}`) }) : sentence;
  return [first, ...others].join(t('log.more'));
}
