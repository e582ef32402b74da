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
import {unreachable} from './api.js';
import {deedPicker} from './views.js';
import {openDisputes, disputeChoice} from './disputes.js';

/**
 * The version of the game a list of moves is of: the server answers `/moves` for the game's
 * version (its ETag names it, with the token's role), so the moves are asked again whenever
 * the game is at another version. Nothing is guessed about what they depend on (a guess once
 * left out the pot, which a pot_collect's offer follows).
 * @param {{version: string}} game
 */
export function movesKey(game) {
  return game.version;
}

/** The game's moves, asked again when the game's version is not the one they are of (or
 * `force`).
 * @param {*} ctx
 * @param {{force?: boolean}} [options]
 */
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

/**
 * A move's request from the game's declaration of its type (GET /moves): the one builder of
 * every request the console quotes or records, a form's, a dialog's and a one-tap button's
 * alike. `values` holds the fields by name: a name the declaration does not have (or a list's
 * part it does not have: a trade leg's, a build order's) is the console's mistake and throws,
 * as the server would refuse it; a field that applies only beside other values (`when`) is
 * left out where it does not apply, and so is an empty one (null, undefined). Null when a field
 * the move must have is empty.
 * @param {{type: string, fields: Array<any>}} move
 * @param {Record<string, any>} values
 * @returns {Record<string, any> | null}
 */
export function bodyOf(move, values) {
  const declared = new Map(move.fields.map((f) => [f.name, f]));
  for (const [name, value] of Object.entries(values)) {
    const f = declared.get(name);
    if (!f) throw new Error(`The move ${move.type} has no field ${name}`);
    if (f.kind !== 'list' || !Array.isArray(value) || !f.fields) continue;
    const parts = new Set(f.fields.map((/** @type {{name: string}} */ p) => p.name));
    for (const key of value.flatMap((item) => Object.keys(item))) {
      if (!parts.has(key)) throw new Error(`The ${name} of the move ${move.type} have no field ${key}`);
    }
  }
  const applies = (f) => !f.when || Object.entries(f.when).every(([other, allowed]) => allowed.includes(values[other]));
  /** @type {Record<string, any>} */
  const out = {type: move.type};
  for (const f of move.fields) {
    const value = values[f.name];
    if (!applies(f)) continue;
    if (value === undefined || value === null) {
      if (f.required) return null;
    } else {
      out[f.name] = value;
    }
  }
  return out;
}

/**
 * The request of a move of `type` with `values` (bodyOf), or null when the game does not record
 * that type now (its moves as last asked): a move not offered is not quoted, nor sent.
 * @param {*} ctx
 * @param {string} type
 * @param {Record<string, any>} values
 */
export function moveBody(ctx, type, values) {
  const move = ctx.move(type);
  return move ? bodyOf(move, values) : null;
}

// What `read` gives for a value that is there but not one the field takes.
const INVALID = Symbol('invalid');

/**
 * The input of one field of a move's declaration, as its kind asks, `preset` in it.
 * @param {*} ctx
 * @param {*} f
 * @param {*} preset
 * @param {{radios?: string[], pickers?: Record<string, any>}} [options]
 */
function control(ctx, f, preset, {radios = [], pickers = {}} = {}) {
  const attrs = {name: f.name, dataset: {field: f.name}};
  if (radios.includes(f.name) && Array.isArray(f.choices)) return radioGroup(ctx, f, preset ?? f.choices[0]);
  if (pickers[f.name] && Array.isArray(f.choices)) return tilePicker(ctx, f, preset, pickers[f.name]);
  if (f.disputes) return disputeSelect(ctx, f, preset, attrs);
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

/** A dispute field (a void's, a resolution's) as a pick of the game's open disputes, each
 * named by who disputes which transaction and why, never by its bare number. */
function disputeSelect(ctx, f, preset, attrs) {
  const options = f.disputes.map((d) => [String(d.seq), disputeChoice(ctx, d, (text) => {
    const option = [...el.options].find((o) => o.value === String(d.seq));
    if (option) option.textContent = text;
  })]);
  const made = f.required && (options.length === 1 || f.disputes.some((d) => d.seq === preset));
  const value = preset ?? (made ? options[0][0] : '');
  const el = select(made ? options : [['', '—'], ...options], value, attrs);
  return el;
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

/** A deed field as the board's tiles (the deeds the move offers), for a deed picked at a
 * glance (the one landed on); its choice is read as a select's.
 * @param {*} ctx
 * @param {*} f
 * @param {*} preset
 * @param {{label?: string}} [options]
 */
function tilePicker(ctx, f, preset, {label} = {}) {
  const many = f.kind === 'deeds';
  const offered = new Set(f.choices);
  const picker = deedPicker(ctx, {label, multiple: many, selected: preset ? [].concat(preset) : [],
    eligible: (d) => offered.has(d.id), onChange: () => picker.dispatchEvent(new Event('change'))});
  picker.dataset.field = f.name;
  picker.tiles = true;
  return picker;
}

/** A number's upper bound. A seq runs to the game's last transaction, which moves on without
 * the moves being asked again (they are when the table's players, IOUs or status change). */
function maxOf(ctx, f) {
  return f.kind === 'seq' ? Math.max(f.max ?? 0, ctx.game.last_seq) : f.max;
}

/** A field's value for the request: null when left empty, INVALID when no number it takes. */
function read(f, el, ctx) {
  if (el.tiles) {
    const picked = el.selected();
    return picked && picked.length ? picked : null;
  }
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
  if (el.tagName === 'SELECT' && f.kind === 'seq') return Number(raw); // an open dispute picked
  if (el.tagName === 'SELECT' || f.kind === 'text') return raw;
  const value = Number(raw);
  if (!Number.isInteger(value)) return INVALID;
  const max = maxOf(ctx, f);
  if ((f.min !== undefined && value < f.min) || (max !== undefined && value > max)) return INVALID;
  return value;
}

/**
 * The inputs of a move's form, by field name: each field's control and its row (a label, or a
 * legend for radios, a heading for tiles), but a list's (for dialogs of their own) and a field
 * kept out of sight (`fixed`). A dispute is picked from the open ones (about the transaction a
 * void is of, when the dialog holds it); a void with none that could apply has no dispute to
 * name.
 * @param {*} ctx
 * @param {*} move
 * @param {*} preset
 * @param {{radios: string[], pickers: Record<string, any>, hints: Record<string, string>, fixed: Record<string, any>}} options
 */
function formInputs(ctx, move, preset, {radios, pickers, hints, fixed}) {
  const inputs = new Map();
  for (const declared of move.fields) {
    if (declared.kind === 'list' || declared.name in fixed) continue;
    const f = declared.kind === 'seq' && declared.name === 'dispute'
      ? {...declared, disputes: openDisputes(ctx).filter((d) => !('seq' in fixed) || d.about === fixed.seq)} : declared;
    if (f.disputes && !f.required && !f.disputes.length) continue;
    const el = control(ctx, f, preset[f.name], {radios, pickers});
    const label = fieldLabel(move.type, f.name);
    const hint = hints[f.name] ? t(hints[f.name]) : undefined;
    let row;
    if (el.radios) row = h('fieldset', {class: 'radios'}, h('legend', {}, label), el);
    else if (el.tiles) row = h('div', {class: 'field tiles'}, h('h3', {class: 'sub'}, pickers[f.name].label || label), el);
    else row = field(label, el, hint);
    row.dataset.move = f.name;
    inputs.set(f.name, {f, el, row});
  }
  return inputs;
}

/**
 * The form of one move: an input per field (a list's objects are for dialogs of their own:
 * trade, build), those that apply only beside another field's values shown only then.
 * `body()` is the request, or undefined while a field it needs is empty or not what it takes;
 * `missing()` names those fields.
 *
 * A dialog of its own may show fields as radios or as the board's tiles (`pickers`: {field:
 * {label}}), give hints (dictionary keys), keep fields out of sight with their values
 * (`fixed`: the transaction a void is of), and hold fields back until the server asks for
 * them (`asked`: a utility's dice; `ask(names)` shows them, `unask()` hides them again).
 * @param {*} ctx
 * @param {*} move
 * @param {*} [preset]
 * @param {{radios?: string[], pickers?: Record<string, any>, hints?: Record<string, string>, fixed?: Record<string, any>, asked?: string[]}} [options]
 */
export function moveForm(ctx, move, preset = {}, {radios = [], pickers = {}, hints = {}, fixed = {}, asked = []} = {}) {
  const inputs = formInputs(ctx, move, preset, {radios, pickers, hints, fixed});
  const shown = new Set();
  linkDispute(inputs);
  const held = (f) => asked.includes(f.name) && !shown.has(f.name);
  const valueOf = (name) => {
    const input = inputs.get(name);
    return input ? read(input.f, input.el, ctx) : undefined;
  };
  const applies = (f) => !held(f) && (!f.when || Object.entries(f.when).every(([other, values]) => values.includes(valueOf(other))));
  // `standIn`: values for fields left empty, a quote's (what a void would move back before
  // its reason is typed).
  const missing = (standIn = {}) => {
    const out = [];
    for (const {f, el} of inputs.values()) {
      if (!applies(f)) continue;
      const v = read(f, el, ctx) ?? standIn[f.name] ?? null;
      if (v === INVALID || (v === null && f.required)) out.push(f.name);
    }
    return out;
  };
  return {
    rows: [...inputs.values()].map((i) => i.row),
    inputs,
    /** Shows the fields that apply now, hides the others. */
    sync() { for (const {f, row} of inputs.values()) row.hidden = !applies(f); },
    /** Whether the server asked for fields left empty, and nothing else; shows those held
     * back. */
    ask(names) {
      const empty = (n) => inputs.has(n) && (held(inputs.get(n).f) || read(inputs.get(n).f, inputs.get(n).el, ctx) === null);
      if (!names.length || !names.every(empty)) return false;
      for (const n of names) shown.add(n);
      this.sync();
      return true;
    },
    /** Holds the asked fields back again (what they were for changed). */
    unask() {
      shown.clear();
      this.sync();
    },
    missing,
    /** Marks the fields a record needs and are empty or wrong, says which in `errorBox`, and
     * gives undefined; `texts` may say why one is needed ({reason: 'reason_required'}). */
    sayMissing: (errorBox, texts = {}) => sayMissing(move.type, inputs, missing(), errorBox, texts),
    /** The request (bodyOf), or undefined while `missing` names a field. */
    body(standIn = {}) {
      if (missing(standIn).length) return undefined;
      const values = {...fixed};
      for (const {f, el} of inputs.values()) {
        if (applies(f)) values[f.name] = read(f, el, ctx) ?? standIn[f.name] ?? null;
      }
      return bodyOf(move, values) ?? undefined;
    },
  };
}

/** The fields `names` of a form marked, the first focused, and said in `errorBox` (by the
 * reason one is needed, where `texts` gives it and it is the only one); gives undefined. */
function sayMissing(type, inputs, names, errorBox, texts) {
  for (const name of names) inputs.get(name).el.setAttribute('aria-invalid', 'true');
  if (names[0]) inputs.get(names[0]).el.focus();
  const [only, ...more] = names;
  replace(errorBox, h('p', {class: 'problem', role: 'alert'}, only && !more.length && texts[only]
    ? t(texts[only]) : t('move_missing', {fields: names.map((n) => fieldLabel(type, n)).join(', ')})));
  return undefined;
}

/** A void's transaction and the open dispute it settles fill each other in: the dispute
 * picked gives the transaction it is about (and, while none is typed, the player's reason),
 * a transaction typed gives its open dispute. */
function linkDispute(inputs) {
  const seq = inputs.get('seq');
  const dispute = inputs.get('dispute');
  const reason = inputs.get('reason');
  if (!seq || !dispute || !dispute.f.disputes || seq.el.tagName === 'SELECT') return;
  dispute.el.addEventListener('change', () => {
    const d = dispute.f.disputes.find((x) => String(x.seq) === dispute.el.value);
    if (d && reason && !reason.el.value.trim()) reason.el.value = d.reason;
    if (d && seq.el.value !== String(d.about)) {
      seq.el.value = String(d.about);
      seq.el.dispatchEvent(new Event('input'));
    }
  });
  seq.el.addEventListener('input', () => {
    const d = dispute.f.disputes.find((x) => String(x.about) === seq.el.value.trim());
    const picked = d ? String(d.seq) : '';
    if (dispute.el.value !== picked && [...dispute.el.options].some((o) => o.value === picked)) {
      dispute.el.value = picked;
      dispute.el.dispatchEvent(new Event('change'));
    }
  });
}

/** What a refusal says, as one key: its code and params (a quote's and a record's the same
 * when they say the same). */
export function refusalKey(problem) {
  return JSON.stringify([problem.code, (problem.body || {}).params ?? null]);
}

/** The fields a quote's 422 names (a utility's dice, an Elite plot's price), or none. */
export function askedIn(answer) {
  const errors = answer && answer.problem && answer.problem.status === 422 && answer.problem.body.errors;
  return errors ? Object.keys(errors).map((n) => n.split('.').pop()) : [];
}

/**
 * The dialog of any move, from its declaration: its fields, what it would record now (the
 * server's dry run) and the button that records it. `preset` fills fields in (the player the
 * banker tapped). `txnDialog` is actions.js's, passed in to keep the modules apart.
 *
 * A dialog of its own may give its title, the quote's and the button's test ids, label and
 * class, moveForm's options (radios, pickers, hints, fixed, asked), what it shows before the
 * fields (`intro()`) and after the button (`after(form)`), values the quote asks with while
 * the banker has not typed them (`draft`: a void's reason), what an empty field's message says
(`missingTexts`: {field: key}), how an accepted quote is drawn
 * (`render`), what it does with each answer (`onAnswer(answer, {record, view, m})`), whether a
 * refused quote disables the button (`refusedBlocks`), the ways to raise money a shortfall
 * offers (`raise`), what happens once it is recorded (`then`, before the table is drawn again)
 * and once the table shows it (`done`), what stands between the fields and the quote
 * (`beside(m)`), and what the button records instead of the move's own body
 * (`payload(body)`: an IOU's lent cash first, its `then` recording the IOU).
 * @param {*} ctx
 * @param {*} txnDialog
 * @param {*} type
 * @param {*} [preset]
 * @param {Record<string, any>} [options]
 */
export function moveDialog(ctx, txnDialog, type, preset = {}, {title, testid = 'move-quote', record: recordLabel,
  recordTestid = 'move-record', recordClass = 'primary', basis = true, intro = () => [], after = () => [],
  draft = {}, render = null, onAnswer = null, needs = null, missingTexts = {}, refusedBlocks = false, raise = true, then, done, wide,
  beside = () => [], payload = (body) => body, ...formOptions} = {}) {
  const move = ctx.move(type);
  if (!move) {
    // Not among the moves the server listed last (or none were ever fetched on this device).
    toast(t('move_unavailable'), {kind: 'warn'});
    return;
  }
  txnDialog(ctx, title || typeLabel(type), (body, form) => {
    const m = moveForm(ctx, move, preset, formOptions);
    const label = recordLabel || t('record_move');
    let record;
    let refusal = null; // the refusal the quote shows now, its code and params
    const shown = (err) => (refusal && err && refusalKey(err) === refusal ? view.el : null);
    // The quote asks with the draft's values standing in for fields not typed yet.
    const view = quoteBox(ctx, () => m.body(draft) || null, {testid, basis, render,
      problemOptions: {again: () => view.now(), ...(raise && ctx.raiseButtons ? {onLiquidation: (pid, params) =>
        ctx.raiseButtons(pid, {dialog: form.dialog, params, payload: m.body(), label: record.textContent})} : {})},
      onAnswer: (answer) => {
        record.textContent = label;
        refusal = answer && answer.problem && !unreachable(answer.problem) ? refusalKey(answer.problem) : null;
        // The button's answer came first and says the same: said once, here, as the banker
        // left it there (what the payer could raise, opened meanwhile, stays open).
        if (refusal && form.errorBox.dataset.said === refusal) {
          replace(view.el, ...form.errorBox.childNodes);
          delete form.errorBox.dataset.said;
        }
        if (refusedBlocks) record.disabled = Boolean(answer && answer.problem && !unreachable(answer.problem));
        const names = askedIn(answer);
        if (names.length && m.ask(names)) {
          refusal = null; // the quote asks for fields instead of saying the problem
          replace(view.el, h('p', {class: 'muted small', dataset: {testid: `${testid}-needs`}},
            needs ? needs(names) : t('move_needs', {fields: names.map((n) => fieldLabel(type, n)).join(', ')})));
        }
        if (onAnswer) onAnswer(answer, {record, view, m});
      }});
    for (const {f, el} of m.inputs.values()) {
      const changed = () => {
        // Another deed or payer: what the server asked for may no longer be asked.
        if (!(formOptions.asked || []).includes(f.name)) m.unask();
        m.sync();
        view.refresh();
      };
      el.addEventListener('input', changed);
      el.addEventListener('change', changed);
    }
    m.sync();
    record = form.button(label, () => {
      const made = m.body() || m.sayMissing(form.errorBox, missingTexts);
      return made && payload(made);
    }, {testid: recordTestid, cls: recordClass, then, done, shown});
    append(body, [...intro(), ...m.rows, ...beside(m), view.el, form.memoField(), h('div', {class: 'actions'}, record), ...after(form)]);
    view.now();
  }, {wide: wide ?? move.fields.length > 4});
}

/** Every move the game offers now, each opening its dialog: the banker's full list. */
export function movesList(ctx, open) {
  return h('div', {class: 'sheet', dataset: {testid: 'moves-list'}},
    [...ctx.moves.values()].map((move) => h('button', {type: 'button', class: 'sheet-btn',
      dataset: {testid: `move-${move.type}`}, onclick: () => open(move.type)}, typeLabel(move.type))));
}
