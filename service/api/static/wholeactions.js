// The whole-action list: every complete compound action of the decision, grouped by its
// first choice (the action type, in words) and, in a big group, by its second (the card);
// a filter by words. A group's buttons are made only when it is opened, and at most LIMIT
// at once, so that Pittsburgh's thousands of actions never show (or cost) at once.

import { h, replace } from './dom.js';
import { t } from './i18n.js';
import { compoundText, nameText } from './view.js';

const LIMIT = 60;

function byPart(items, index) {
  const groups = new Map();
  for (const item of items) {
    const part = item.parts[index] || '';
    if (!groups.has(part)) groups.set(part, []);
    groups.get(part).push(item);
  }
  return groups;
}

// A <details> whose body is made when it is first opened.
function lazyGroup(cls, part, items, body, open) {
  const box = h('details', { class: cls, 'data-part': part, open: open || undefined },
    h('summary', {}, `${nameText(part) || '—'} (${items.length})`));
  let made = false;
  const make = () => {
    if (made || !box.open) return;
    made = true;
    box.append(...[body()].flat().filter(Boolean));
  };
  box.addEventListener('toggle', make);
  if (open) make();
  return box;
}

function buttons(items, onChoose) {
  const shown = items.slice(0, LIMIT);
  return [h('ul', { class: 'whole-actions' }, shown.map((item) => h('li', {}, h('button', {
    type: 'button', class: 'whole-action', 'data-key': item.key, onclick: () => onChoose(item),
  }, item.text)))),
  items.length > shown.length ? h('p', { class: 'note' }, t('game.wholeMore', { n: items.length - shown.length })) : null];
}

// Draws the list into `section`; `onFilter(text)` when the filter changes, `onChoose` with
// the chosen {ids, key, text}.
export function drawWholeActions(section, legal, filterText, onFilter, onChoose) {
  const words = filterText.toLowerCase().split(/\s+/).filter(Boolean);
  const items = [];
  for (const c of legal.compound) {
    const text = compoundText(c.key);
    if (words.length && !words.every((w) => text.toLowerCase().includes(w) || c.key.includes(w))) continue;
    items.push({ ids: c.ids, key: c.key, text, parts: c.key.split(' ') });
  }
  const filter = h('input', {
    type: 'search', id: 'compound-filter', value: filterText, placeholder: t('game.filterExample'),
    'aria-describedby': 'compound-count',
  });
  filter.addEventListener('input', () => onFilter(filter.value));
  const count = h('p', { id: 'compound-count', class: 'note' },
    t('game.wholeCount', { shown: items.length, total: legal.compound.length }),
    legal.compoundTruncated ? ` ${t('game.wholeCut')}` : '');
  const groups = byPart(items, 0);
  // one group, or a filter that leaves few: open at once
  const openAll = groups.size === 1 || (words.length > 0 && items.length <= LIMIT);
  replace(section,
    h('h2', { id: 'compound-heading' }, t('game.wholeActions')),
    h('label', { for: 'compound-filter' }, t('game.filter')), filter, count,
    [...groups.entries()].map(([part, list]) => lazyGroup('group', part, list, () => {
      if (list.length <= LIMIT) return buttons(list, onChoose);
      const subgroups = byPart(list, 1);
      return [...subgroups.entries()].map(([sub, subList]) => lazyGroup('subgroup', sub, subList,
        () => buttons(subList, onChoose), subgroups.size === 1));
    }, openAll)));
  return filter;
}

// The places on the board a whole action goes through, by option name: the parts of its key
// that name one (a slot, a route, a merchant, a market). A build or a sell whose slot the
// engine resolved by itself (its key stops at the card or the industry) goes through
// `resolved` (the slot a preview of it named) when known, else: a build, its card's
// location's one free slot that takes its industry (when there are several, the key does
// not say which: none); a sell, the seat's one unflipped tile that sells (Birmingham's
// cotton, manufacturer, pottery). `slots` are the view's built slots ({slot, owner,
// industry, flipped}), `seat` the page's.
const SOLD = new Set(['cotton', 'manufacturer', 'pottery']);
export function placesOf(key, board, slots, seat, resolved = null) {
  const parts = key.split(' ');
  const places = parts.filter((p) => !/^(type|card|industry):/.test(p));
  if (places.some((p) => p.startsWith('slot:'))) return places;
  if (resolved) return [...places, `slot:${resolved}`];
  if (parts[0] === 'type:sell') {
    const mine = slots.filter((s) => s.owner === seat && !s.flipped && SOLD.has(s.industry));
    return mine.length === 1 ? [...places, `slot:${mine[0].slot}`] : places;
  }
  if (parts[0] !== 'type:build') return places;
  const built = new Set(slots.map((s) => s.slot));
  const card = (parts.find((p) => p.startsWith('card:')) || '').slice(5);
  const industry = (parts.find((p) => p.startsWith('industry:')) || '').slice(9);
  const location = ((board && board.locations) || []).find((l) => l.id === card);
  if (!location) return places;
  const free = (location.slots || [])
    .filter((s) => !built.has(s.name.replace(/^slot:/, '')) && (!industry || s.industries.includes(industry)));
  return free.length === 1 ? [...places, free[0].name] : places;
}
