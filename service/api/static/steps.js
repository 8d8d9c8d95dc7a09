// The step-by-step path of an action, played without a Confirm per decision: the options
// chosen so far are kept in the page (nothing is sent), and the next decision's options
// are the next choices of the whole actions (ListLegalActions' compound actions) that go
// on from them. A step left with one option is taken at once (marked so in the preview);
// once the path is a whole action, it is previewed and confirmed once (one submission of
// all its decisions, which undo takes back as one).

import { label, t } from './i18n.js';
import { decisionPrompt } from './view.js';

// The whole actions that go on from `path` (a list of {id, name}); `complete` is the one
// that `path` is, if any; `options` the distinct next choices, in the engine's order.
export function stepsOf(legal, path) {
  const matching = legal.compound.filter((c) => path.every((p, i) => c.ids[i] === p.id));
  const complete = matching.find((c) => c.ids.length === path.length) || null;
  const next = new Map();
  for (const c of matching) {
    if (c.ids.length <= path.length) continue;
    const id = c.ids[path.length];
    if (!next.has(id)) next.set(id, { id, name: c.key.split(' ')[path.length] });
  }
  return { matching, complete, options: [...next.values()] };
}

// Whether the page can play an action by steps: the server listed its whole actions (all
// of them: a cut list would hide some steps).
export function stepsPossible(legal) {
  return Boolean(legal && legal.compound.length && !legal.compoundTruncated);
}

// A step that chooses where a cube comes from (Pittsburgh: a market or Vanderbilt). The
// rules leave it to the player, so there is no default that is always right; but it needs
// no click of its own: the first source is taken and the preview offers the others
// (sourceChoices), so the whole action is still previewed and confirmed once.
const SOURCE = /^(market(:|$)|vanderbilt$)/;
const isSourceStep = (options) => options.length > 1 && options.every((o) => SOURCE.test(o.name));

// Adds `option` to the path and takes every following step that has one option left, or
// that chooses a cube's source. Answers the whole action the path now is (to preview), or
// null (a choice is left).
export function advance(legal, path, option) {
  path.push({ ...option, auto: false });
  for (;;) {
    const { complete, options } = stepsOf(legal, path);
    if (complete && !options.length) return complete;
    if (complete) return null;
    if (options.length === 1) path.push({ ...options[0], auto: true });
    else if (isSourceStep(options)) path.push({ ...options[0], auto: true, source: true });
    else return null;
  }
}

// The sources of the cubes of the whole action `ids` that could be others: for each id
// that is a source, the whole actions (of `legal`) that are the same but for that source.
// [{ index, options: [{ id, name, compound }] }], the current source first in each.
const sourcesCache = new WeakMap();
export function sourceChoices(legal, ids) {
  const key = ids.join(' ');
  const cached = sourcesCache.get(legal);
  if (cached && cached.key === key) return cached.choices;
  const same = (c, skip) => c.ids.length === ids.length && c.ids.every((x, i) => i === skip || x === ids[i]);
  const chosen = legal.compound.find((c) => same(c, -1));
  const choices = [];
  const names = chosen ? chosen.key.split(' ') : [];
  names.forEach((name, index) => {
    if (!SOURCE.test(name)) return;
    const options = [{ id: ids[index], name, compound: chosen }];
    for (const c of legal.compound) {
      if (c.ids[index] !== ids[index] && same(c, index)) options.push({ id: c.ids[index], name: c.key.split(' ')[index], compound: c });
    }
    if (options.length > 1) choices.push({ index, options });
  });
  sourcesCache.set(legal, { key, choices });
  return choices;
}

// Back one choice of the player's (and the steps taken for it).
export function back(path) {
  while (path.length && path[path.length - 1].auto) path.pop();
  path.pop();
}

// The decision a step asks, from the kind of its options' names and the action's type.
const PART_DECISIONS = {
  card: 'card', link: 'link', merchant: 'sell_merchant', link_tile: 'link_tile',
  cube: 'develop_cube', pipeline: 'link_route', quality: 'quality',
};
export function stepPrompt(path, options) {
  const type = path.length ? path[0].name.replace(/^type:/, '') : '';
  const kind = (options[0] ? options[0].name : '').split(':')[0];
  if (kind === 'market' || kind === 'vanderbilt') return t('game.chooseSource');
  if (kind === 'industry') return decisionPrompt(type === 'develop' ? 'develop' : 'build_industry');
  // a slot's build: Birmingham's build_slot, Pittsburgh's build_place (the labels it has)
  if (kind === 'slot') return decisionPrompt(type === 'sell' ? 'sell_tile' : label('decisionKinds', 'build_place') ? 'build_place' : 'build_slot');
  if (kind === 'tile') return decisionPrompt(type === 'sell' ? 'sell_tile' : type === 'develop' ? 'develop' : 'build_tile');
  if (kind === 'done') return decisionPrompt(type === 'network' ? 'second_link' : type === 'sell' ? 'sell_tile' : 'free_develop');
  return decisionPrompt(PART_DECISIONS[kind] || kind);
}
