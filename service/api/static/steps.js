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

// Adds `option` to the path and takes every following step that has one option left.
// Answers the whole action the path now is (to preview), or null (a choice is left).
export function advance(legal, path, option) {
  path.push({ ...option, auto: false });
  for (;;) {
    const { complete, options } = stepsOf(legal, path);
    if (complete && !options.length) return complete;
    if (complete || options.length !== 1) return null;
    path.push({ ...options[0], auto: true });
  }
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
