// The frame of every dialog that records moves (txnDialog): its buttons, each recording one
// intent once with its own Idempotency-Key (recordOnce: a double tap or a retry records once),
// the memo, the refusal said where the banker is looking (the fields it names marked), a
// dialog that stays open for the next step or while money is raised for a refused move; and
// what the dialogs share to read their inputs (amountOf, typed, accountSelect).

import {h, replace, modal, field, select, toast} from './dom.js';
import {t} from './i18n.js';
import {problemView} from './views.js';
import {quoteBox, quoteLabel} from './quote.js';
import {refusalKey} from './moves.js';

// How long the buttons of a dialog drawn again after a step take no tap: longer than the
// gap of a double tap.
const SETTLE_MS = 400;

/** Reads a whole amount from an input; marks the input and says why when it is not one.
 * @param {*} input
 * @param {*} errorBox
 * @param {{min?: number, optional?: boolean}} [options]
 */
export function amountOf(input, errorBox, {min = 1, optional = false} = {}) {
  const raw = input.value.trim();
  if (raw === '' && optional) return null;
  const value = Number(raw);
  if (raw === '' || !Number.isInteger(value) || value < min) {
    input.setAttribute('aria-invalid', 'true');
    replace(errorBox, h('p', {class: 'problem', role: 'alert'}, t('enter_amount', {min})));
    input.focus();
    return undefined;
  }
  input.removeAttribute('aria-invalid');
  return value;
}

/** The whole amount in an input, or null when there is none yet (for a quote: no message). */
export function typed(input, min = 1) {
  const raw = input.value.trim();
  const value = Number(raw);
  return raw !== '' && Number.isInteger(value) && value >= min ? value : null;
}

/**
 * A dialog recording transactions. `render(body, form)` builds the content; `form.button(label,
 * makeBody)` makes a button that records what `makeBody()` returns (undefined: not yet valid).
 * Each move is one intent with one Idempotency-Key (intents.js).
 *
 * `pending`: this dialog raises money for a move the rules refused for want of cash (a rent of
 * 2,000 that Bob cannot pay yet): it stays open after each move recorded, drawn again with the
 * new state, and shows the pending move as the server would record it now, with a button that
 * records it and closes both dialogs.
 *
 * `stay`: the dialog stays open after each move, drawn again with the new state (a group
 * built up a step a tap). A step tapped on the dialog drawn after the last one is a new move,
 * not that one again; the buttons of a dialog drawn again take no tap for SETTLE_MS, so a
 * double tap does not land on the next step.
 * @param {*} ctx
 * @param {*} title
 * @param {*} render
 * @param {{wide?: boolean, pending?: any, stay?: boolean}} [options]
 */
export function txnDialog(ctx, title, render, {wide = false, pending = null, stay: keepOpen = false} = {}) {
  const settle = {until: 0};
  return modal(title, (body, dialog) => {
    const errorBox = h('div', {class: 'error-slot'});
    const memo = h('input', {type: 'text', name: 'memo', maxlength: 500, autocomplete: 'off'});
    const pendingSlot = h('div', {class: 'pending-slot'});
    const draw = () => {
      replace(body);
      if (pending) body.append(pendingSlot);
      render(body, form);
      body.append(errorBox);
      if (pending) pendingSection(ctx, form, pending, pendingSlot);
    };
    const form = {
      errorBox,
      dialog,
      memoField: () => field(t('memo'), memo, t('memo_hint')),
      /**
       * @param {*} label
       * @param {*} makeBody
       * @param {{cls?: string, testid?: string, then?: Function, done?: Function, shown?: Function}} [options]
       */
      button: (label, makeBody, options = {}) => recordButton(ctx, {form, body, memo, draw, settle, pending, keepOpen},
        label, makeBody, options),
    };
    confirmOnEnter(body);
    draw();
  }, {wide});
}

/** The move a dialog raises money for, as the server would record it now, with the button
 * that records it and closes both dialogs. */
function pendingSection(ctx, form, pending, slot) {
  const box = quoteBox(ctx, () => pending.payload, {testid: 'pending-quote', basis: false,
    problemOptions: {}, onAnswer: (answer) => { now.disabled = !(answer && answer.txn); }});
  const now = form.button(pending.label, () => pending.payload, {testid: 'pending-record', then: () => {
    if (pending.dialog.open) pending.dialog.close();
  }});
  now.disabled = true;
  replace(slot, h('section', {class: 'pending'}, h('h3', {class: 'sub'}, t('pending_move')),
    h('p', {class: 'muted small'}, t('pending_hint')), box.el, h('div', {class: 'actions'}, now)));
  box.now();
}

/** Enter in a field confirms the dialog's one move (an auction's bid typed, then Enter); a
 * dialog of several moves (a row of quoted choices) waits for the banker's tap, and so does a
 * move that cannot be taken back lightly (a bankruptcy, a void, the finish). */
function confirmOnEnter(body) {
  body.addEventListener('keydown', (ev) => {
    const el = ev.target;
    if (ev.key !== 'Enter' || el.tagName !== 'INPUT' || el.type === 'checkbox' || el.type === 'radio') return;
    const buttons = [...body.querySelectorAll('.actions > button')].filter((b) => !b.closest('.pending-slot'));
    if (buttons.length !== 1 || !buttons[0].classList.contains('primary')) return;
    ev.preventDefault();
    if (!buttons[0].disabled) buttons[0].click();
  });
}

/**
 * A button of a dialog (`dlg`: its form, body, memo, how it is drawn again, when its buttons
 * take taps again, and whether it stays open) that records what `makeBody()` returns
 * (undefined: not yet valid) once per intent. Recorded, the dialog closes, or is drawn again
 * with the new state where it stays open; `then(txn)` runs before the table is drawn again,
 * `done(txn)` once it shows the move. Refused, the refusal is said in the dialog's error slot,
 * unless the dialog's quote says it already (`shown(err)`: that element, brought into view).
 * @param {*} ctx
 * @param {*} dlg
 * @param {*} label
 * @param {*} makeBody
 * @param {{cls?: string, testid?: string, then?: Function, done?: Function, shown?: Function}} [options]
 */
function recordButton(ctx, dlg, label, makeBody, {cls = 'primary', testid, then, done, shown} = {}) {
  const {form, memo, keepOpen, pending, settle} = dlg;
  let busy = false;
  const btn = h('button', {type: 'button', class: cls, dataset: testid ? {testid} : undefined, onclick: async () => {
    if (busy) return;
    replace(form.errorBox);
    delete form.errorBox.dataset.said;
    const payload = makeBody();
    if (!payload) return;
    if (memo.value.trim() && !payload.memo) payload.memo = memo.value.trim();
    if (keepOpen) {
      // Recorded before this dialog was drawn again: the banker means the next step.
      const was = ctx.intents.state(payload);
      if (was.state === 'done' && ctx.game.last_seq >= was.seq) ctx.intents.again(payload);
    }
    busy = true;
    btn.setAttribute('aria-busy', 'true');
    btn.disabled = true;
    try {
      const txn = await recordOnce(ctx, payload, {ask: true});
      if (txn) await afterRecorded(ctx, dlg, txn, {then, done});
    } catch (err) {
      sayRefusal(ctx, dlg, err, {payload, label: btn.textContent, shown});
    } finally {
      busy = false;
      btn.disabled = false;
      btn.removeAttribute('aria-busy');
    }
  }}, label);
  const wait = settle.until - Date.now();
  if (wait > 0) {
    btn.disabled = true;
    setTimeout(() => { if (!busy && !btn.dataset.shut) btn.disabled = false; }, wait); // shut: refused
  }
  return btn;
}

/** A dialog's move recorded: closed, or (raising money for a pending move, a dialog of steps)
 * drawn again with what changed, its buttons taking no tap for SETTLE_MS. */
async function afterRecorded(ctx, dlg, txn, {then, done}) {
  const {form, keepOpen, pending, settle} = dlg;
  const stay = (pending || keepOpen) && !then && !txn.queued;
  if (!stay) form.dialog.close();
  if (then) then(txn);
  await ctx.after(txn);
  if (done && !txn.queued) done(txn);
  if (stay && form.dialog.open) {
    if (keepOpen) settle.until = Date.now() + SETTLE_MS;
    dlg.draw();
  }
}

/** A dialog's move refused: said in its error slot (with the ways to raise the money it
 * lacks), the fields it names marked; the refusal the dialog's quote shows already is said
 * once, there, brought into view rather than drawn again. */
function sayRefusal(ctx, dlg, err, {payload, label, shown}) {
  const {form, body} = dlg;
  const already = shown && shown(err);
  if (already) {
    already.scrollIntoView({block: 'nearest'});
    return;
  }
  form.errorBox.dataset.said = refusalKey(err);
  replace(form.errorBox, problemView(ctx, err, {onLiquidation: ctx.raiseButtons
    ? (pid, params) => ctx.raiseButtons(pid, {dialog: form.dialog, params, payload, label}) : null}));
  markFields(body, err);
  form.errorBox.scrollIntoView({block: 'nearest'});
}

/**
 * Records a move once per intent (intents.js): a tap while it is on its way is ignored; the
 * same move again moments after it was recorded is a double tap, shown as done (a quick
 * button) or asked about (`ask`: a dialog the banker filled in). Resolves to the transaction,
 * to {queued: true} when it waits in the outbox, or to null when nothing was sent.
 * @param {*} ctx
 * @param {*} payload
 * @param {{ask?: boolean}} [options]
 */
export async function recordOnce(ctx, payload, {ask = false} = {}) {
  const now = ctx.intents.state(payload);
  if (now.state === 'sending') return null;
  if (now.state === 'done') {
    if (!ask) {
      toast(`✓ ${t('already_done', {seq: now.seq})}`, {kind: 'ok', action: {label: t('record_again'), run: async () => {
        ctx.intents.again(payload);
        try {
          const txn = await recordOnce(ctx, payload);
          if (txn) ctx.after(txn); // recorded, or kept in the outbox ({queued: true})
        } catch (err) {
          toast(t(`e_${err.code}`, {}, '') || t('refused'), {kind: 'error'});
        }
      }}});
      return null;
    }
    if (!(await askAgain(now.seq))) return null;
    ctx.intents.again(payload);
  }
  // The banker's page keeps what cannot reach the server in its outbox (outbox.js): then
  // this resolves to {queued: true}, which ctx.after shows as kept.
  if (ctx.outbox) return ctx.outbox.record(payload);
  return ctx.intents.send(ctx.api, ctx.id, payload);
}

/** Asks whether a move recorded moments ago is meant a second time. */
export function askAgain(seq) {
  return new Promise((resolve) => {
    let answer = false;
    const dialog = modal(t('again_title'), (body, dlg) => {
      body.append(h('p', {}, t('again_text', {seq})), h('div', {class: 'actions'},
        h('button', {type: 'button', class: 'secondary', dataset: {testid: 'again-no'}, onclick: () => dlg.close()}, t('cancel')),
        h('button', {type: 'button', class: 'primary', dataset: {testid: 'again-yes'}, onclick: () => { answer = true; dlg.close(); }}, t('record_again'))));
    });
    dialog.addEventListener('close', () => resolve(answer));
  });
}

/** A 422 naming fields: mark the inputs of those names, opening what hides them. */
function markFields(root, err) {
  const errors = err.body && err.body.errors;
  if (!errors) return;
  let first = null;
  for (const name of Object.keys(errors)) {
    const input = root.querySelector(`[name="${CSS.escape(name.split('.').pop())}"]`);
    if (!input) continue;
    input.setAttribute('aria-invalid', 'true');
    const details = input.closest('details');
    if (details) details.open = true;
    const hidden = input.closest('[hidden]');
    if (hidden) hidden.hidden = false;
    first = first || input;
  }
  if (first) first.focus();
}

/**
 * The accounts a move's field may name, as the server's moves give them (`type`, `path`: see
 * GameContext.choices), the players first, then the Bank and the pot; never one the server does
 * not offer (a pot it leaves out of a bankruptcy's creditors). `exclude`: an account another
 * field of the same form names already (the debtor, who cannot be his own creditor).
 * @param {*} ctx
 * @param {*} type
 * @param {*} path
 * @param {*} value
 * @param {{exclude?: string[], name?: string}} [options]
 */
export function accountSelect(ctx, type, path, value, {exclude = [], name} = {}) {
  const offered = ctx.choices(type, path).filter((c) => !exclude.includes(c));
  const ordered = [...offered.filter((c) => ctx.byId.has(c)), ...offered.filter((c) => !ctx.byId.has(c))];
  return select(ordered.map((c) => [c, ctx.name(c)]), value, {name});
}

/**
 * A move's button in a row of moves, its label carrying the server's figure for `account`
 * (quote.js quoteLabel); null for a move the game does not offer now (no `payload`).
 * `onRefused(problem, button)`: what a move the rules refuse now shows instead.
 * @param {*} ctx
 * @param {*} form
 * @param {string} label
 * @param {*} payload
 * @param {string} account
 * @param {{onRefused?: Function}} [options]
 */
export function quotedButton(ctx, form, label, payload, account, {onRefused} = {}) {
  if (!payload) return null;
  const button = form.button(label, () => payload, {cls: 'secondary'});
  return quoteLabel(ctx, button, label, payload, account, onRefused ? {onRefused: (problem) => onRefused(problem, button)} : {});
}
