// The SVG board, drawn from GetRuleset's board data (locations with map points, slots,
// routes, merchants, markets) and a game's view. Elements that are options of the current
// decision are focusable buttons (data-action-id); clicking one or pressing Enter on it
// picks that option.

import { svg, SEAT_COLOUR_NAMES, SEAT_COLOURS } from './dom.js';
import { label as labelOf, language, nameLabel, placeLabel, t } from './i18n.js';
import { nameText, roman, title } from './view.js';

// A merchant's goods in its small box: one letter (English) or character (Chinese) each.
function goodMark(good) {
  const key = `board.good.${good}`;
  const mark = t(key);
  return mark === key ? good[0] : mark;
}

export const INDUSTRY_COLOURS = {
  cotton: '#e8d9b5', manufacturer: '#c9a27e', pottery: '#9fc1cf',
  coal: '#555555', iron: '#e07b39', brewery: '#d4b13d',
  // Pittsburgh
  kerosene: '#8fb3a0', manufacturing: '#c9a27e', automobile: '#b7b0d8', iron_steel: '#9aa3ad',
  skyscraper: '#d8c9a0', coke: '#7a6552', oil_city: '#3b2e22', polyphase: '#c8d86a',
  locomotive: '#b07a66',
};
const INDUSTRY_LETTERS = {
  cotton: 'Ct', manufacturer: 'Mf', pottery: 'Po', coal: 'Co', iron: 'Ir', brewery: 'Br',
  kerosene: 'K', manufacturing: 'M', automobile: 'A', iron_steel: 'S', skyscraper: 'Sk',
  coke: 'Ck', oil_city: 'OC', polyphase: 'Pp', locomotive: 'Lo',
};
const SLOT = 26;

// Every point a route may end at: locations and (Pittsburgh) oilfields.
function locationIndex(board) {
  const byId = new Map();
  for (const loc of [...(board.locations || []), ...(board.oilfields || [])]) byId.set(loc.id, loc);
  return byId;
}

function catalogue(list) {
  return new Map((list || []).map((t) => [t.id, t]));
}

// A link's tile in words (GetRuleset's labels: "Heavy Train (whiskey)"); a Birmingham
// link (no tile) is a "link".
function linkWords(linkTile) {
  if (!linkTile) return t('board.link');
  return nameLabel('tiles', linkTile.id) || title(linkTile.kind);
}

// A seat by its colour ("red"), words for those who cannot see it.
const colourName = (seat) => t(`colour.${SEAT_COLOUR_NAMES[seat]}`);

// A resource in words ("coal"), else its engine name.
const resourceWord = (r) => (t(`resource.${r}`) === `resource.${r}` ? String(r) : t(`resource.${r}`));

// A count of cubes or barrels by resource ("2 coal, 1 iron").
const held = (pairs) => pairs.map(([r, n]) => t('board.held', { n, resource: resourceWord(r) })).join(t('preview.listSep'));

// An element of the board as an option: of the current decision (legal: it picks that
// option), else a place some whole action goes through (target: it picks the first such
// whole action and lists the others), else refused with the engine's reason.
function pickable(el, id, ctx, label, name) {
  const option = ctx.legal.get(id);
  const refused = ctx.unavailable.get(id);
  el.dataset.actionId = String(id);
  if (option) {
    el.classList.add('legal');
    if (ctx.selected === id) el.classList.add('selected');
    el.setAttribute('tabindex', '0');
    el.setAttribute('role', 'button');
    el.setAttribute('aria-label', `${label}: ${nameText(option.name)}`);
    el.addEventListener('click', () => ctx.onPick(id));
    el.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); ctx.onPick(id); }
    });
  } else if (name && ctx.targets.has(name)) {
    el.classList.add('legal', 'target');
    if (ctx.selectedTarget === name) el.classList.add('selected');
    el.dataset.target = name;
    el.setAttribute('tabindex', '0');
    el.setAttribute('role', 'button');
    el.setAttribute('aria-label', t('board.target', { label, n: ctx.targets.get(name) }));
    el.addEventListener('click', () => ctx.onTarget(name));
    el.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); ctx.onTarget(name); }
    });
  } else if (refused) {
    // the reason on hover (the element's own title: a second one would never show) and on
    // a click or a tap (the page says it beside the board)
    const why = t('board.refused', { label, reason: refused.message });
    el.classList.add('refused');
    const own = [...el.children].find((c) => c.tagName === 'title');
    if (own) own.textContent = why;
    else el.append(svg('title', {}, why));
    el.dataset.reason = refused.message;
    el.addEventListener('click', () => ctx.onRefused(why));
  }
}

// Another seat's last move was here: a ring or a glow in its colour (app.css), until the
// page's seat acts.
function markRecent(g, seat) {
  g.classList.add('recent', `owner-${seat}`);
  g.dataset.recentSeat = String(seat);
}

function drawRoutes(layer, board, view, ctx, byId) {
  const links = new Map(view ? view.links.map((l) => [l.link, l]) : []);
  const linkTiles = catalogue(board.link_tiles);
  for (const route of board.routes || []) {
    const [a, b] = route.endpoints.map((e) => byId.get(e));
    if (!a || !b) continue;
    const link = links.get(route.id);
    const owner = link ? link.owner : -1;
    const linkTile = link && link.tile ? linkTiles.get(link.tile) : null;
    const g = svg('g', { class: ['route', `route-${route.kind}`, owner >= 0 && 'owned', owner >= 0 && `owner-${owner}`], 'data-link': route.id });
    const extra = (route.connects || []).filter((c) => !route.endpoints.includes(c))
      .map((c) => byId.get(c)).filter(Boolean);
    const mx = (a.x + b.x) / 2;
    const my = (a.y + b.y) / 2;
    const segments = [[a.x, a.y, b.x, b.y], ...extra.map((c) => [mx, my, c.x, c.y])];
    const mover = ctx.recent.links.get(route.id);
    if (mover !== undefined) markRecent(g, mover);
    for (const [x1, y1, x2, y2] of segments) {
      g.append(svg('line', { x1, y1, x2, y2, class: 'route-hit' }));
      if (mover !== undefined) g.append(svg('line', { x1, y1, x2, y2, class: 'recent-glow' }));
      // a built link is a track in its owner's colour: a dark bed, the colour, light ties
      if (owner >= 0) g.append(svg('line', { x1, y1, x2, y2, class: 'track-bed' }));
      g.append(svg('line', {
        x1, y1, x2, y2, class: 'route-line',
        stroke: owner >= 0 ? SEAT_COLOURS[owner] : undefined,
      }));
      if (owner >= 0) g.append(svg('line', { x1, y1, x2, y2, class: 'track-ties' }));
    }
    const routeName = nameText('link:' + route.id);
    const label = owner >= 0
      ? t('board.routeOwned', { route: routeName, owner: colourName(owner), link: linkWords(linkTile) })
        + (link.cargo ? t('board.cargo', { cargo: resourceWord(link.cargo) }) : '')
      : t('board.route', { route: routeName, kind: t(`board.routeKind.${route.kind}`) });
    if (owner >= 0) {
      if (link.tile) g.dataset.linkTile = link.tile;
      g.dataset.owner = String(owner);
      // Pittsburgh's link tiles differ (light or heavy train, pipeline): a mark says which
      if (linkTile) g.append(linkMarker(linkTile.kind, mx, my, SEAT_COLOURS[owner]));
    }
    g.append(svg('title', {}, label));
    pickable(g, route.action_id, ctx, label, route.name);
    layer.append(g);
  }
}

// The tile on a built link: a disc (a Birmingham link, a light train), a square marked H
// (a heavy train), a diamond (a pipeline).
function linkMarker(kind, x, y, fill) {
  const cls = ['link-tile', `link-${kind}`];
  if (kind === 'heavy_train') {
    return svg('g', { class: cls }, svg('rect', { x: x - 8, y: y - 8, width: 16, height: 16, rx: 2, fill }),
      svg('text', { x, y: y + 4, class: 'link-letter' }, 'H'));
  }
  if (kind === 'pipeline') {
    return svg('polygon', { points: `${x},${y - 9} ${x + 9},${y} ${x},${y + 9} ${x - 9},${y}`, class: cls, fill });
  }
  return svg('circle', { cx: x, cy: y, r: 7, class: cls, fill });
}

function slotIcon(g, slot) {
  const n = slot.industries.length;
  const w = SLOT / n;
  slot.industries.forEach((industry, i) => {
    g.append(svg('rect', {
      x: slot.x - SLOT / 2 + i * w, y: slot.y - SLOT / 2, width: w, height: SLOT,
      fill: INDUSTRY_COLOURS[industry] || '#ddd', class: 'slot-icon',
    }));
  });
  g.append(svg('text', { x: slot.x, y: slot.y + 4, class: 'slot-letters' },
    slot.industries.map((i) => INDUSTRY_LETTERS[i] || i.slice(0, 2)).join('/')));
}

function drawSlots(layer, board, view, ctx) {
  const built = new Map(view ? view.slots.map((s) => [s.slot, s]) : []);
  const tiles = catalogue(board.tiles);
  for (const loc of board.locations || []) {
    for (const slot of loc.slots || []) {
      const key = slot.name.replace(/^slot:/, '');
      const tile = built.get(key);
      const g = svg('g', { class: ['slot', tile && 'built', tile && tile.flipped && 'flipped'], 'data-slot': key });
      const mover = ctx.recent.slots.get(key);
      if (mover !== undefined) {
        markRecent(g, mover);
        g.append(svg('rect', {
          x: slot.x - SLOT / 2 - 8, y: slot.y - SLOT / 2 - 8, width: SLOT + 16, height: SLOT + 16, rx: 8, class: 'recent-ring',
        }));
      }
      g.append(svg('rect', {
        x: slot.x - SLOT / 2 - 2, y: slot.y - SLOT / 2 - 2, width: SLOT + 4, height: SLOT + 4,
        rx: 4, class: 'slot-frame',
      }));
      let label;
      if (tile) {
        // Pittsburgh names the tile; the board's catalogue says its industry and level
        const kind = tile.tile ? tiles.get(tile.tile) : null;
        const industry = kind ? kind.industry : tile.industry;
        const level = kind ? kind.level : tile.level;
        g.dataset.owner = String(tile.owner);
        if (tile.tile) g.dataset.tile = tile.tile;
        g.append(svg('rect', {
          x: slot.x - SLOT / 2, y: slot.y - SLOT / 2, width: SLOT, height: SLOT, rx: 3,
          fill: SEAT_COLOURS[tile.owner] || '#888', class: 'tile',
        }));
        g.append(svg('rect', {
          x: slot.x - SLOT / 2 + 3, y: slot.y - SLOT / 2 + 3, width: SLOT - 6, height: 8,
          fill: INDUSTRY_COLOURS[industry] || '#ddd',
        }));
        // Pittsburgh's tiles add the industry's letters when there is room (zoomed in)
        g.append(svg('text', { x: slot.x, y: slot.y + 9, class: ['tile-text', kind && 'near-only'] },
          kind ? `${INDUSTRY_LETTERS[industry] || ''}${roman(level)}` : roman(level)));
        if (kind) g.append(svg('text', { x: slot.x, y: slot.y + 9, class: 'tile-text far-only' }, roman(level)));
        // cubes by resource (Pittsburgh), else the tile's own (Birmingham: its industry's)
        const cubes = Object.keys(tile.resources).length ? Object.entries(tile.resources) : [[industry, tile.cubes]];
        let c = 0;
        for (const [resource, n] of cubes) {
          for (let i = 0; i < n; i++, c++) {
            g.append(svg('circle', {
              cx: slot.x - SLOT / 2 + 4 + (c % 5) * 4.5, cy: slot.y + SLOT / 2 + 5 + Math.floor(c / 5) * 5,
              r: 2, class: `cube cube-${resource}`,
            }));
          }
        }
        if (tile.flipped) g.append(svg('text', { x: slot.x + SLOT / 2 - 1, y: slot.y - SLOT / 2 + 2, class: 'flip-mark' }, '★'));
        const has = Object.keys(tile.resources).length ? held(Object.entries(tile.resources))
          : tile.cubes ? held([[industry === 'brewery' ? 'beer' : industry, tile.cubes]]) : '';
        const what = (kind && (nameLabel('tiles', kind.id) || kind.name)) || `${labelOf('industries', industry) || title(industry)} ${roman(level)}`;
        label = t('board.slotTile', { slot: nameText(slot.name), owner: colourName(tile.owner), tile: what })
          + (tile.flipped ? t('board.flipped') : '') + (has ? t('board.more', { what: has }) : '');
      } else {
        slotIcon(g, slot);
        label = t('board.slotEmpty', { slot: nameText(slot.name), industries: slot.industries.map((i) => labelOf('industries', i) || title(i)).join(t('board.or')) });
      }
      g.append(svg('title', {}, label));
      pickable(g, slot.action_id, ctx, label, slot.name);
      layer.append(g);
    }
  }
}

// A location's name on the board: GetRuleset's label, else the board data's name; a name
// the provisional data marks as a placeholder shows its words with an asterisk, and says
// so on hover, never the raw mark.
function locationName(loc) {
  const name = labelOf('locations', loc.id) || loc.name;
  const placeholder = /\s*\(PLACEHOLDER\b.*$/i;
  if (!placeholder.test(name)) return [name];
  return [`${name.replace(placeholder, '')} *`, svg('title', {}, t('board.placeholder'))];
}

// The box drawn around a location (view-box units): a merchant's, or a town's around its slots.
function locationBox(loc) {
  if (loc.kind === 'merchant') return { x0: loc.x - 42, y0: loc.y - 30, x1: loc.x + 42, y1: loc.y + 30 };
  const slots = loc.slots || [];
  const xs = slots.map((s) => s.x);
  const ys = slots.map((s) => s.y);
  return {
    x0: Math.min(loc.x, ...xs) - SLOT / 2 - 6, x1: Math.max(loc.x, ...xs) + SLOT / 2 + 6,
    y0: Math.min(loc.y, ...ys) - SLOT / 2 - 6, y1: Math.max(loc.y, ...ys) + SLOT / 2 + 10,
  };
}

function drawLocations(layer, board) {
  for (const loc of board.locations || []) {
    const g = svg('g', { class: ['location', `location-${loc.kind}`] });
    const { x0, y0, x1, y1 } = locationBox(loc);
    const farm = loc.kind === 'farm_brewery';
    const name = farm ? t('board.farm') : locationName(loc);
    // the name on hover too: at a far zoom a crowded label is hidden (declutter.js)
    g.append(svg('title', {}, name));
    if (loc.kind === 'merchant') {
      g.append(svg('rect', { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 8, class: 'merchant-box', dataset: { location: loc.id } }));
      g.append(svg('text', { x: loc.x, y: y0 - 6, class: 'location-name' }, name));
    } else {
      g.append(svg('rect', { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 10, class: 'town-box' }));
      // a farm brewery's label goes under it: towns crowd its top
      g.append(svg('text', { x: (x0 + x1) / 2, y: farm ? y1 + 13 : y0 - 5, class: ['location-name', farm && 'farm-name'] }, name));
    }
    layer.append(g);
  }
}

// Where a Pittsburgh market's box goes: under its location's box, else beside it (right,
// left) or above, the first place that covers no other location's box nor a market
// already placed; `taken` collects the boxes ({x0, y0, x1, y1}).
function marketPlace(loc, w, hgt, taken) {
  const own = locationBox(loc);
  const cx = (own.x0 + own.x1) / 2;
  const cy = (own.y0 + own.y1) / 2;
  const places = [
    [cx - w / 2, own.y1 + 4], [own.x1 + 4, cy - hgt / 2], [own.x0 - 4 - w, cy - hgt / 2], [cx - w / 2, own.y0 - 24 - hgt],
  ].map(([x, y]) => ({ x0: x, y0: y, x1: x + w, y1: y + hgt }));
  const clear = (p) => !taken.some((q) => p.x0 < q.x1 + 2 && q.x0 < p.x1 + 2 && p.y0 < q.y1 + 2 && q.y0 < p.y1 + 2);
  const place = places.find(clear) || places[0];
  taken.push(place);
  return place;
}

// What a merchant space's tile shows: Pittsburgh's tile side, or the goods' marks.
function merchantTileText(tile) {
  if (tile && tile.tile) return tile.side === 'back' ? '◐' : '●';
  if (tile && tile.goods !== null) return tile.goods.length ? tile.goods.map(goodMark).join('') : '—';
  return '';
}

function drawMerchants(layer, board, view, ctx, byId) {
  const tiles = new Map(view ? view.merchants.map((m) => [m.space, m]) : []);
  for (const merchant of board.merchants || []) {
    const loc = byId.get(merchant.location);
    if (!loc) continue;
    const spaces = merchant.spaces || [];
    const marks = spaces.map((space) => merchantTileText(tiles.get(space.name.replace(/^merchant:/, ''))));
    // a tile wide enough for its goods' marks (two Chinese characters, three letters), the
    // tiles side by side and the merchant's box around them all
    // (a mark's width at the default zoom: ~22 units a Chinese character, ~14 a bold letter)
    const widths = marks.map((text) => Math.max(32, [...text].length * (/[\u2e80-\u9fff]/.test(text) ? 22 : 14) + 8));
    const span = widths.reduce((a, b) => a + b, 0) + 6 * (widths.length - 1);
    const box = span > 80 && layer.parentNode
      && layer.parentNode.querySelector(`.merchant-box[data-location="${CSS.escape(String(loc.id))}"]`);
    if (box) {
      box.setAttribute('x', String(loc.x - span / 2 - 4));
      box.setAttribute('width', String(span + 8));
    }
    let left = loc.x - span / 2;
    spaces.forEach((space, i) => {
      const w = widths[i];
      const x = left + w / 2;
      left += w + 6;
      const y = loc.y - 4;
      const key = space.name.replace(/^merchant:/, '');
      const tile = tiles.get(key);
      const g = svg('g', { class: ['merchant-space', tile && tile.goods === null && tile.tile === null && 'no-tile'] });
      g.append(svg('rect', { x: x - w / 2, y: y - 14, width: w, height: 28, rx: 4, class: 'merchant-tile' }));
      const merchant = nameText(space.name);
      let label = merchant;
      if (tile && tile.tile) {
        // Pittsburgh: the merchant tile by id, and which side is up
        label = t('board.merchantTile', { merchant, tile: nameLabel('tiles', tile.tile) || tile.tile }) + (tile.side ? t(`board.side.${tile.side}`) : '');
      } else if (tile && tile.goods !== null) {
        label = tile.goods.length
          ? t('board.merchantBuys', { merchant, goods: tile.goods.map((i) => labelOf('industries', i) || i).join(t('preview.listSep')) })
          : t('board.merchantBlank', { merchant });
        if (tile.beer) label += t('board.merchantBeer');
      } else if (tile) {
        label = t('board.merchantNone', { merchant });
      }
      g.append(svg('text', { x, y: y + 4, class: 'merchant-goods' }, marks[i]));
      if (tile && tile.beer) g.append(svg('circle', { cx: x + w / 2 - 4, cy: y - 10, r: 5, class: 'beer-barrel' }));
      g.append(svg('title', {}, label));
      pickable(g, space.action_id, ctx, label, space.name);
      layer.append(g);
    });
    const bonus = merchant.beer_bonus || merchant.beerBonus;
    if (bonus) {
      const key = `board.bonus.${bonus.kind}`;
      const words = t(key, { n: bonus.amount });
      layer.append(svg('text', { x: loc.x, y: loc.y + 24, class: 'merchant-bonus' },
        // the board data's own text is English: other languages say the bonus in their words
        svg('title', {}, t('board.beerBonus', { text: language() === 'en' || words === key ? bonus.text : words })), words === key ? title(bonus.kind || '') : words));
    }
  }
}

// Markets placed at a location (Pittsburgh): a box under it with its price and a row of
// spaces per resource, filled by the cubes it holds; an option when offered.
function drawPlacedMarkets(layer, board, view, ctx, byId) {
  const held = new Map(view ? view.placedMarkets.map((m) => [m.id, m]) : []);
  const taken = (board.locations || []).map(locationBox);
  for (const market of board.markets || []) {
    const loc = byId.get(market.location);
    if (!loc || market.action_id === undefined) continue;
    const now = held.get(market.id);
    const columns = market.columns || [];
    const count = (c) => (now ? now.cubes[c.resource] ?? 0 : c.initial_cubes ?? 0);
    const width = 16 + Math.max(...columns.map((c) => (c.slot_vp || []).length || 1), 1) * 14;
    const { x0, y0 } = marketPlace(loc, width + 44, 10 + columns.length * 16, taken);
    const g = svg('g', { class: 'placed-market', 'data-market': market.id });
    const label = t('board.placedMarket', { place: labelOf('locations', market.location) || title(market.location), price: market.price ?? '',
      cubes: columns.map((c) => `${count(c)} ${t(`resource.${c.resource}`)}`).join(', ') });
    g.append(svg('rect', { x: x0, y: y0, width: width + 44, height: 10 + columns.length * 16, rx: 4, class: 'market-box' }));
    g.append(svg('text', { x: x0 + 4, y: y0 + 8 + columns.length * 8, class: 'market-price placed-price' }, `£${market.price ?? ''}`));
    columns.forEach((c, row) => {
      const spaces = (c.slot_vp || []).length || count(c);
      for (let i = 0; i < spaces; i++) {
        g.append(svg('rect', {
          x: x0 + 38 + i * 14, y: y0 + 5 + row * 16, width: 12, height: 12, rx: 2,
          class: ['market-space', i < count(c) ? `cube cube-${c.resource}` : 'empty'],
        }));
      }
    });
    g.append(svg('title', {}, label));
    pickable(g, market.action_id, ctx, label);
    layer.append(g);
  }
}

// Birmingham's coal and iron markets: each a ladder of spaces (cheapest last), filled from
// the most expensive end by the cubes it holds, with each pair's price under it.
function drawLadders(layer, markets, view, ctx) {
  const x0 = 540;
  const g = svg('g', { class: 'markets' });
  g.append(svg('rect', { x: x0 - 10, y: -6, width: 470, height: 22 + markets.length * 64, rx: 8, class: 'market-box' }));
  g.append(svg('text', { x: x0, y: 14, class: 'market-title' }, t('board.markets')));
  markets.forEach((market, row) => {
    const prices = market.slot_prices || [];
    const have = view ? view.markets[market.resource] ?? 0 : market.initial_cubes ?? 0;
    const empty = prices.length - have;
    const y = 24 + row * 64;
    const line = svg('g', { class: `market market-${market.resource}`, 'data-resource': market.resource, 'data-cubes': have });
    line.append(svg('text', { x: x0, y: y + 16, class: 'market-name' }, title(t(`resource.${market.resource}`))));
    prices.forEach((price, i) => {
      const x = x0 + 64 + i * 27;
      line.append(svg('rect', {
        x, y, width: 22, height: 22, rx: 3,
        class: ['market-space', i >= empty ? `filled cube cube-${market.resource}` : 'empty'],
      }));
      // one price under each run of equal prices
      if (i === 0 || prices[i - 1] !== price) {
        const run = prices.filter((p) => p === price).length;
        line.append(svg('text', { x: x + (run * 27 - 5) / 2, y: y + 42, class: 'market-price' }, `£${price}`));
      }
    });
    line.append(svg('title', {}, t('board.ladder', {
      resource: t(`resource.${market.resource}`), n: have, of: prices.length,
      price: have ? prices[empty] : market.price_when_empty })));
    g.append(line);
  });
  pickable(g, 128, ctx, t('board.markets'));
  layer.append(g);
}

function drawOilfields(layer, board, view, ctx) {
  const fields = new Map(view ? view.oilfields.map((o) => [o.id, o]) : []);
  for (const field of board.oilfields || []) {
    const now = fields.get(field.id);
    const g = svg('g', { class: 'oilfield', 'data-oilfield': field.id });
    g.append(svg('circle', { cx: field.x, cy: field.y, r: 14, class: 'oilfield-mark' }));
    g.append(svg('text', { x: field.x, y: field.y + 28, class: 'location-name farm-name' }, placeLabel(field.id) || field.name));
    let label = nameText(field.option_name || `oilfield:${field.id}`);
    if (now) {
      g.append(svg('text', { x: field.x, y: field.y + 4, class: 'oil-barrels' }, String(now.barrels)));
      const tileWords = now.tileState === 'face_down' ? t('board.faceDown')
        : now.tile ? t('board.faceUp', { tile: nameLabel('tiles', now.tile) || now.tile }) : t('board.noTile');
      label = t('board.oilfield', { field: label, n: now.barrels, tile: tileWords });
      if (now.oilCityOwner >= 0) {
        g.dataset.owner = String(now.oilCityOwner);
        g.append(svg('rect', { x: field.x + 8, y: field.y - 20, width: 14, height: 14, rx: 2, class: 'oil-city', fill: SEAT_COLOURS[now.oilCityOwner] }));
        label += t('board.oilCity', { owner: colourName(now.oilCityOwner), flipped: now.oilCityFlipped ? t('board.flipped') : '', n: now.oilCityBarrels });
      }
    }
    g.append(svg('title', {}, label));
    pickable(g, field.action_id, ctx, label, field.option_name);
    layer.append(g);
  }
}

function drawMarkets(layer, board, view, ctx, byId) {
  // Pittsburgh's markets are placed at locations; Birmingham's two are the board's own
  if ((board.markets || []).some((m) => m.location)) {
    drawPlacedMarkets(layer, board, view, ctx, byId);
    drawOilfields(layer, board, view, ctx);
    return;
  }
  drawLadders(layer, board.markets || [], view, ctx);
}

// Draws the board into `container` (an <svg> is made once and redrawn).
export function drawBoard(container, board, view, ctx) {
  const full = {
    legal: ctx.legal || new Map(), unavailable: ctx.unavailable || new Map(),
    selected: ctx.selected ?? null, onPick: ctx.onPick || (() => {}), onRefused: ctx.onRefused || (() => {}),
    targets: ctx.targets || new Map(), onTarget: ctx.onTarget || (() => {}), selectedTarget: ctx.selectedTarget ?? null,
    recent: ctx.recent || { slots: new Map(), links: new Map() },
  };
  const width = board.view_width || board.viewWidth || 1000;
  const height = board.view_height || board.viewHeight || 1400;
  const root = svg('svg', {
    // a margin around the box: merchant boxes sit at its edges
    viewBox: `-50 -10 ${width + 100} ${height + 20}`, class: 'board', role: 'group',
    'aria-label': t('board.label'),
  });
  const byId = locationIndex(board);
  const layers = ['routes', 'locations', 'merchants', 'slots', 'markets']
    .map((name) => svg('g', { class: `layer-${name}` }));
  root.append(...layers);
  drawRoutes(layers[0], board, view, full, byId);
  drawLocations(layers[1], board);
  drawMerchants(layers[2], board, view, full, byId);
  drawSlots(layers[3], board, view, full);
  drawMarkets(layers[4], board, view, full, byId);
  container.replaceChildren(root);
  return root;
}
