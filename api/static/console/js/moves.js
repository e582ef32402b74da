// The moves a game can record now, as the server declares them (GET /games/{id}/moves): each
// type with who may record it, whether it can be voided, and its fields with their kinds and
// the game's own choices. The console builds its forms from them and keeps no list of types,
// fields, card effects, decks or variants of its own: one request builder (`moveForm`) feeds
// both the dry-run quote and the record, and `moveDialog` opens any type's form.
//
// Labels come from the dictionaries, keyed by type (ty_<type>), field (mf_<field>) and choice
// (mc_<field>_<choice>); a policy is named by its colour (policy_<colour>), an IOU by its
// debtor, holder and what is outstanding, a deed, a player and an account by their names.

import {h, append, replace, field, select, numberInput, nextId, toast} from './dom.js';
import {t, typeLabel} from './i18n.js';
import {quoteBox} from './quote.js';

/** What the game's moves depend on besides their seq bounds: asked again when it changes. */
export function movesKey(game) {
  const active = (game.players || []).filter((p) => !p.bankrupt).map((p) => p.id);
  const open = (game.ious || []).filter((i) => i.outstanding > 0).map((i) => i.id);
  return JSON.stringify([game.status, active, open]);
}

/** The game's moves, asked again only when what they depend on changed (or `force`). */
export async function loadMoves(ctx, {force = false} = {}) {
  const key = movesKey(ctx.game);
  if (!force && ctx.moves && ctx.movesKey === key) return;
  ctx.setMoves(await ctx.api.moves(ctx.id), key);
}

/** A field's label: the type's own word for it, else the field's. */
export function fieldLabel(type, name) {
  return t(`mf_${type}_${name}`, {}, t(`mf_${name}`, {}, name.replaceAll('_', ' ')));
}

/** A choice's label. */
export function choiceLabel(ctx, f, value) {
  if (f.name === 'policy') return t(`policy_${value}`, {}, value);
  if (f.name === 'iou') {
    const iou = (ctx.game.ious || []).find((i) => i.id === value);
    return iou ? t('iou_choice', {debtor: ctx.name(iou.debtor), holder: ctx.name(iou.holder),
      amount: ctx.money(iou.outstanding)}) : value;
  }
  if (f.kind === 'player' || f.kind === 'account') return ctx.name(value);
  if (f.kind === 'deed' || f.kind === 'deeds') return ctx.deedName(value);
  return t(`mc_${f.name}_${value}`, {}, t(`${f.name}_${value}`, {}, value.replaceAll('_', ' ')));
}

// What `read` gives for a value that is there but not one the field takes.
const INVALID = Symbol('invalid');

function control(ctx, f, preset, {radios = []} = {}) {
  const attrs = {name: f.name, dataset: {field: f.name}};
  if (radios.includes(f.name) && Array.isArray(f.choices)) return radioGroup(ctx, f, preset ?? f.choices[0]);
  if (f.kind === 'boolean') return h('input', {...attrs, type: 'checkbox', checked: preset === true});
  if (f.kind === 'text') return h('input', {...attrs, type: 'text', maxlength: f.max || 500, autocomplete: 'off', value: preset ?? ''});
  if (Array.isArray(f.choices)) {
    // The players first, then the Bank and the pot, as every list of accounts is shown.
    const ordered = f.kind === 'account'
      ? [...f.choices.filter((c) => ctx.byId.has(c)), ...f.choices.filter((c) => !ctx.byId.has(c))] : f.choices;
    const options = ordered.map((c) => [c, choiceLabel(ctx, f, c)]);
    const many = f.many || f.kind === 'deeds';
    if (many) return select(options, null, {...attrs, multiple: true});
    // A field it must have, already filled in or with one choice, needs no "none": the
    // choice is made. Otherwise the banker picks (nothing picked yet), or leaves it out.
    const made = f.required && (options.length === 1 || f.choices.includes(preset));
    const value = preset ?? (options.length === 1 ? options[0][0] : '');
    return select(made ? options : [['', '—'], ...options], value, attrs);
  }
  const bounds = {};
  if (f.min !== undefined) bounds.min = f.min;
  if (maxOf(ctx, f) !== undefined) bounds.max = maxOf(ctx, f);
  return numberInput({...attrs, ...bounds, value: preset ?? ''});
}

/** A choice as radio buttons, for a few words read at a glance (a card's effect). */
function radioGroup(ctx, f, checked) {
  const name = nextId(f.name);
  const group = h('div', {class: 'radios', dataset: {field: f.name}}, f.choices.map((c) => {
    const id = nextId(f.name);
    return h('div', {class: 'radio'}, h('input', {type: 'radio', name, id, value: c, checked: c === checked}),
      h('label', {for: id}, choiceLabel(ctx, f, c)));
  }));
  group.radios = true;
  return group;
}

/** A number's upper bound. A seq runs to the game's last transaction, which moves on without
 * the moves being asked again (they are when the table's players, IOUs or status change). */
function maxOf(ctx, f) {
  return f.kind === 'seq' ? Math.max(f.max ?? 0, ctx.game.last_seq) : f.max;
}

function read(f, el, ctx) {
  if (el.radios) {
    const on = el.querySelector('input:checked');
    return on ? on.value : null;
  }
  if (f.kind === 'boolean') return el.checked ? true : null;
  if (el.multiple) {
    const picked = [...el.selectedOptions].map((o) => o.value);
    return picked.length ? picked : null;
  }
  const raw = el.value.trim();
  if (raw === '') return null;
  if (el.tagName === 'SELECT' || f.kind === 'text') return raw;
  const value = Number(raw);
  if (!Number.isInteger(value)) return INVALID;
  const max = maxOf(ctx, f);
  if ((f.min !== undefined && value < f.min) || (max !== undefined && value > max)) return INVALID;
  return value;
}

/**
 * The form of one move: an input per field (a list's objects are for dialogs of their own:
 * trade, build), those that apply only beside another field's values shown only then.
 * `body()` is the request, or undefined while a field it needs is empty or not what it takes;
 * `missing()` names those fields.
 */
export function moveForm(ctx, move, preset = {}, {radios = []} = {}) {
  const inputs = new Map();
  for (const f of move.fields) {
    if (f.kind === 'list') continue;
    const el = control(ctx, f, preset[f.name], {radios});
    const row = el.radios
      ? h('fieldset', {class: 'radios'}, h('legend', {}, fieldLabel(move.type, f.name)), el)
      : field(fieldLabel(move.type, f.name), el);
    row.dataset.move = f.name;
    inputs.set(f.name, {f, el, row});
  }
  const valueOf = (name) => {
    const input = inputs.get(name);
    return input ? read(input.f, input.el, ctx) : undefined;
  };
  const applies = (f) => !f.when || Object.entries(f.when).every(([other, values]) => values.includes(valueOf(other)));
  const missing = () => {
    const out = [];
    for (const {f, el} of inputs.values()) {
      if (!applies(f)) continue;
      const v = read(f, el, ctx);
      if (v === INVALID || (v === null && f.required)) out.push(f.name);
    }
    return out;
  };
  return {
    rows: [...inputs.values()].map((i) => i.row),
    inputs,
    /** Shows the fields that apply now, hides the others. */
    sync() { for (const {f, row} of inputs.values()) row.hidden = !applies(f); },
    missing,
    body() {
      if (missing().length) return undefined;
      const out = {type: move.type};
      for (const {f, el} of inputs.values()) {
        if (!applies(f)) continue;
        const v = read(f, el, ctx);
        if (v !== null) out[f.name] = v;
      }
      return out;
    },
  };
}

/**
 * The dialog of any move, from its declaration: its fields, what it would record now (the
 * server's dry run) and the button that records it. `preset` fills fields in (the player the
 * banker tapped). `txnDialog` is actions.js's, passed in to keep the modules apart. A dialog
 * of its own may give its title, the quote's and the button's test ids and label, fields as
 * radios, and what it shows before the fields (`intro()`) and after the button (`after(form)`).
 */
export function moveDialog(ctx, txnDialog, type, preset = {}, {title, testid = 'move-quote', record: recordLabel,
  recordTestid = 'move-record', radios = [], basis = true, intro = () => [], after = () => []} = {}) {
  const move = ctx.move(type);
  if (!move) {
    // Not among the moves the server listed last (or none were ever fetched on this device).
    toast(t('move_unavailable'), {kind: 'warn'});
    return;
  }
  txnDialog(ctx, title || typeLabel(type), (body, form) => {
    const m = moveForm(ctx, move, preset, {radios});
    const view = quoteBox(ctx, () => m.body() || null, {testid, basis});
    for (const {el} of m.inputs.values()) {
      const changed = () => { m.sync(); view.refresh(); };
      el.addEventListener('input', changed);
      el.addEventListener('change', changed);
    }
    m.sync();
    const record = form.button(recordLabel || t('record_move'), () => {
      const payload = m.body();
      if (payload) return payload;
      for (const name of m.missing()) m.inputs.get(name).el.setAttribute('aria-invalid', 'true');
      const first = m.missing()[0];
      if (first) m.inputs.get(first).el.focus();
      replace(form.errorBox, h('p', {class: 'problem', role: 'alert'},
        t('move_missing', {fields: m.missing().map((n) => fieldLabel(type, n)).join(', ')})));
      return undefined;
    }, {testid: recordTestid});
    append(body, [...intro(), ...m.rows, view.el, form.memoField(), h('div', {class: 'actions'}, record), ...after(form)]);
    view.now();
  }, {wide: move.fields.length > 4});
}

/** Every move the game offers now, each opening its dialog: the banker's full list. */
export function movesList(ctx, open) {
  return h('div', {class: 'sheet', dataset: {testid: 'moves-list'}},
    [...ctx.moves.values()].map((move) => h('button', {type: 'button', class: 'sheet-btn',
      dataset: {testid: `move-${move.type}`}, onclick: () => open(move.type)}, typeLabel(move.type))));
}
