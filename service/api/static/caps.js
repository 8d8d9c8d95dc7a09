// What this server offers, read from its OpenAPI document: the page shows bot seats,
// clocks and undo only when the server has them.

import { api } from './api.js';
import { readRuleset } from './view.js';

let cached = null;

export async function capabilities() {
  if (cached) return cached;
  const doc = await api.openapi();
  const ops = {};
  for (const [path, methods] of Object.entries(doc.paths || {})) {
    for (const [method, op] of Object.entries(methods)) {
      if (op && op.operationId) ops[op.operationId] = { method: method.toUpperCase(), path };
    }
  }
  const schemas = (doc.components && doc.components.schemas) || {};
  const props = (name) => Object.keys((schemas[name] && schemas[name].properties) || {});
  const createFields = props('CreateGameRequest');
  const rulesets = ((schemas.Ruleset && schemas.Ruleset.enum) || ['RULESET_BIRMINGHAM'])
    .filter((r) => !r.endsWith('UNSPECIFIED'));
  cached = {
    ops,
    schemas,
    createFields,
    optionFields: props('GameOptions'),
    rulesets,
    undo: ops.UndoAction || null,
    // hosted play (when the server has it): CreateGame's botSeats, GameOptions' clock and
    // resign and timeout policies, and the seat routes
    bots: createFields.includes('botSeats'),
    clock: props('GameOptions').includes('clock'),
    enumValues: (name) => ((schemas[name] && schemas[name].enum) || []).filter((v) => !v.endsWith('UNSPECIFIED')),
    resign: ops.ResignGame || null,
    rematch: ops.Rematch || null,
    setSeatBot: ops.SetSeatBot || null,
  };
  return cached;
}

const rulesetCache = new Map();

// GetRuleset by enum name ("RULESET_BIRMINGHAM") or engine name ("birmingham").
export async function ruleset(name) {
  const key = String(name || 'birmingham').replace(/^RULESET_/, '').toLowerCase();
  if (!rulesetCache.has(key)) {
    rulesetCache.set(key, api.ruleset(key).then(readRuleset).catch((err) => {
      rulesetCache.delete(key);
      throw err;
    }));
  }
  return rulesetCache.get(key);
}
