// The players' panel of a game's page: every seat's money, income, VP, cards, links and
// clock, the mats (Birmingham's tiles taken per industry and the seat's own mat in full;
// Pittsburgh's tiles and link tiles left), the markets and discards line.

import { h, replace, SEAT_COLOUR_NAMES } from './dom.js';
import { label as labelOf, t } from './i18n.js';
import { clockText, nextMatTile, roman, timeLeft, title } from './view.js';

const INDUSTRIES = ['cotton', 'manufacturer', 'pottery', 'coal', 'iron', 'brewery'];

export function drawPlayers(section, ctx) {
  const { seat, board, seatName, tileName } = ctx;
  const v = ctx.state && ctx.state.view;
  const s = ctx.state && ctx.state.summary;
  if (!v || !s) {
    replace(section, h('h2', { id: 'players-heading' }, t('game.players')));
    return;
  }
  const clock = s.clock && !s.clock.turnMs ? s.clock : null;
  const marks = (who) => {
    const info = s.seats.find((x) => x.seat === who) || {};
    return [info.bot && h('span', { class: 'badge' }, `bot: ${info.bot}`), info.resigned && h('span', { class: 'badge' }, 'resigned'),
      info.vacant && h('span', { class: 'badge' }, 'vacant')];
  };
  const rows = v.playerStates.map((p) => h('tr', { class: [p.seat === s.currentSeat && 'current', p.seat === seat && 'me'] },
    h('th', { scope: 'row' }, h('span', { class: `swatch seat-colour-${p.seat}`, 'aria-hidden': 'true' }),
      `${seatName(p.seat)}`, h('span', { class: 'sr-only' }, t('board.colour', { colour: t(`colour.${SEAT_COLOUR_NAMES[p.seat]}`) })), marks(p.seat)),
    h('td', {}, `£${p.money}`), h('td', {}, `${p.incomeLevel >= 0 ? '+' : ''}${p.incomeLevel}`), h('td', {}, p.vp),
    h('td', {}, p.spent), h('td', {}, p.handSize), h('td', {}, p.linksLeft),
    clock ? h('td', { class: 'seat-clock', 'data-seat': p.seat }, clockText(timeLeft(clock, p.seat))) : null));
  const mat = board && board.player_mat && board.player_mat.length ? board.player_mat : null;
  // each mat cell: the next tile's level and the tiles left
  const matCell = (p, i) => {
    const next = nextMatTile(mat, i, p.matTaken[i] ?? 0);
    return h('td', { title: next ? t('game.tilesLeft', { n: next.left, industry: labelOf('industries', i) || title(i) }) : t('game.noneLeft') },
      next ? `${roman(next.tile.level)} (${next.left})` : '—');
  };
  const mats = v.playerStates.map((p) => h('tr', {},
    h('th', { scope: 'row' }, seatName(p.seat)),
    INDUSTRIES.map((i) => matCell(p, i))));
  replace(section,
    h('h2', { id: 'players-heading' }, t('game.players')),
    h('table', { class: 'player-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('table.seat')), [t('table.money'), t('table.income'), t('table.vp'), t('table.spent'), t('table.cards'), t('table.links'), clock && t('table.clock')]
        .filter(Boolean).map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows)),
    // the mats of a ruleset whose board data has them (Birmingham's)
    mat ? [h('h3', {}, t('game.matsHeading')),
      h('table', { class: 'mat-table' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('table.seat')), INDUSTRIES.map((i) => h('th', { scope: 'col' },
          h('span', { class: `swatch industry-colour-${i}`, 'aria-hidden': 'true' }), labelOf('industries', i) || title(i))))),
        h('tbody', {}, mats)),
      myMat(v.playerStates[seat], mat)] : tilesLeft(v.playerStates[seat], board, tileName),
    h('p', { class: 'note' },
      // Pittsburgh's markets are on the board, one per location
      (v.placedMarkets.length ? '' : t('game.markets', { coal: v.markets.coal, iron: v.markets.iron,
        location: v.wildPiles.wild_location ?? v.wildPiles.location ?? 0, industry: v.wildPiles.wild_industry ?? v.wildPiles.industry ?? 0 }))
      + t('game.discards', { n: Object.values(v.discards).reduce((a, b) => a + b, 0) })));
}

// Pittsburgh: the seat's mat (the tiles left in each position, by the board's names) and
// its link tiles, from the view.
function tilesLeft(me, board, tileName) {
  if (!me || !board || !(board.tiles || []).length) return null;
  const items = (counts) => Object.entries(counts).filter(([, n]) => n > 0)
    .map(([id, n]) => h('li', { 'data-tile': id }, `${tileName(id)} ×${n}`));
  return [h('h3', {}, t('game.yourMatLeft')), h('ul', { class: 'tiles-left' }, items(me.mat)),
    h('h3', {}, t('game.yourLinkTiles')), h('ul', { class: 'tiles-left' }, items(me.supply)),
    h('p', { class: 'note' }, t('game.whiskey', { n: me.whiskey }))];
}

// The seat's own mat in full: each industry's next tile, what it costs and gives.
function myMat(me, mat) {
  if (!mat || !me) return null;
  const rows = INDUSTRIES.map((i) => {
    const next = nextMatTile(mat, i, me.matTaken[i] ?? 0);
    if (!next) return h('tr', {}, h('th', { scope: 'row' }, labelOf('industries', i) || title(i)), h('td', { colspan: 6 }, t('mat.none')));
    // proto3 JSON leaves zeros out
    const tile = { money: 0, coal: 0, iron: 0, vp: 0, income_spaces: 0, link_icons: 0, ...next.tile };
    const cost = [`£${tile.money}`, tile.coal && `${tile.coal} ${t('resource.coal')}`, tile.iron && `${tile.iron} ${t('resource.iron')}`].filter(Boolean).join(' + ');
    const eras = [tile.canal_era && t('mat.canal'), tile.rail_era && t('mat.rail')].filter(Boolean).join(t('preview.listSep'));
    return h('tr', {}, h('th', { scope: 'row' }, labelOf('industries', i) || title(i)),
      h('td', {}, t('mat.left', { level: roman(tile.level), n: next.leftOfLevel, of: tile.count })), h('td', {}, cost),
      h('td', {}, tile.vp), h('td', {}, `+${tile.income_spaces}`), h('td', {}, tile.link_icons), h('td', {}, eras));
  });
  return [h('h3', {}, t('game.yourMat')), h('table', { class: 'my-mat' },
    h('thead', {}, h('tr', {}, ['table.industry', 'table.nextTile', 'table.cost', 'table.vp', 'table.income', 'table.linkVp', 'table.eras'].map((k) => t(k)).map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, rows))];
}
