// Disputes, both sides (docs/api.md "Disputes"; docs/audit.md "Disputes in the log"). A player
// disputes, from their own page, a transaction that moved their money, with a reason; the
// banker sees the open disputes on the table (live: the table is redrawn on each transaction of
// the stream) and resolves each one, keeping the transaction with a note (`dispute_resolve`) or
// reversing it (a `void` that names the dispute). What stands where is the game state's
// `disputes`, as the server answers it: the console decides nothing.

import {h, replace, modal, field, toast} from './dom.js';
import {t} from './i18n.js';
import {describeTxn, problemView} from './views.js';
import {voidDialog} from './actions.js';
import {txnDialog, askAgain, recordOnce} from './dialog.js';
import {quote, quoteBox} from './quote.js';
import {unreachable} from './api.js';
import {moveBody} from './moves.js';

// An open dispute waits for the banker; a closed one is just where it ended.
const STATUS_BADGE = {open: 'warn'};

/** The disputes of the game state (none before the first one is recorded). */
function disputesOf(ctx) {
  return ctx.game.disputes || [];
}

/** The open disputes, oldest first. */
export function openDisputes(ctx) {
  return disputesOf(ctx).filter((d) => d.status === 'open');
}

/** An open dispute named for a pick: who disputes which transaction and why ("Bob disputes
 * #10 Rent · Boardwalk: “wrong deed”"); the transaction's words given to `then` when the log
 * answers, its number until then. */
export function disputeChoice(ctx, d, then) {
  const line = (about) => t('dp_choice', {name: who(ctx, d.by), about, reason: d.reason});
  txnOf(ctx, d.about).then((txn) => then(line(describeTxn(ctx, txn).title))).catch(() => { /* its number */ });
  return line(`#${d.about}`);
}

/** The open dispute about transaction `seq`, if any. */
export function openDisputeAbout(ctx, seq) {
  return disputesOf(ctx).find((d) => d.about === seq && d.status === 'open') || null;
}

/** Who raised a dispute, by name: the banker or a player. */
function who(ctx, by) {
  return by === 'banker' ? t('banker') : ctx.name(by);
}

/**
 * One transaction by seq, as the log has it (GET …/transactions/{seq}), kept per page: a
 * transaction never changes but for its `voided_by`, which no description here reads.
 */
function txnOf(ctx, seq) {
  if (!ctx.disputeTxns || ctx.disputeTxns.id !== ctx.id) ctx.disputeTxns = {id: ctx.id, bySeq: new Map()};
  const cache = ctx.disputeTxns.bySeq;
  if (!cache.has(seq)) {
    const asked = ctx.api.get(`/games/${ctx.id}/transactions/${seq}`);
    cache.set(seq, asked);
    asked.catch(() => { if (cache.get(seq) === asked) cache.delete(seq); });
  }
  return cache.get(seq);
}

/** A <details> that stays as the reader left it (open or closed) when the page is drawn
 * again, as it is on each transaction of the stream. */
function kept(ctx, name, details) {
  if (!ctx.disputesOpen) ctx.disputesOpen = new Set();
  details.open = ctx.disputesOpen.has(name);
  details.addEventListener('toggle', () => {
    if (details.open) ctx.disputesOpen.add(name);
    else ctx.disputesOpen.delete(name);
  });
  return details;
}

/** The disputed transaction described as the history does ("#10 Rent · Boardwalk", and its
 * moves), filled in when the log answers. */
function aboutView(ctx, seq) {
  return h('span', {class: 'dispute-about'}, ...txnLine(ctx, seq));
}

/** Transaction `seq` as the history says it: its title and its moves, its number alone until
 * the log answers (or if it does not). */
function txnLine(ctx, seq) {
  const title = h('span', {class: 'txn-title'}, `#${seq}`);
  const moves = h('span', {class: 'txn-moves small'});
  txnOf(ctx, seq).then((txn) => {
    const said = describeTxn(ctx, txn);
    replace(title, said.title);
    replace(moves, said.moves);
  }).catch(() => { /* its number alone */ });
  return [title, moves];
}

/** Where a dispute stands, in words: open, upheld with the note, voided with the reason. */
function statusView(d) {
  const badge = h('span', {class: `badge ${STATUS_BADGE[d.status] || ''}`}, t(`dp_status_${d.status}`, {}, d.status));
  const line = {class: 'dispute-status small', dataset: {testid: 'dispute-status'}};
  if (d.status === 'open') return h('p', line, badge, ' ', t('dp_open_wait'));
  return h('p', line, badge, ' ',
    t(d.status === 'voided' ? 'dp_voided_note' : 'dp_upheld_note', {seq: d.resolved_by}),
    d.note ? [' ', h('q', {class: 'dispute-note', dataset: {testid: 'dispute-note'}}, d.note)] : null);
}

/** Who disputes which transaction, and why. */
function disputeHead(ctx, d) {
  return [
    h('p', {class: 'dispute-title'}, h('strong', {}, t('dp_line', {seq: d.seq, name: who(ctx, d.by)})), ' ', aboutView(ctx, d.about)),
    h('p', {class: 'dispute-reason'}, h('span', {class: 'muted small'}, `${t('dp_reason')}: `), h('q', {}, d.reason)),
  ];
}

/** One dispute: who disputes which transaction, why, and where it stands (or, on the
 * banker's table, what can be done about it).
 * @param {*} ctx
 * @param {*} d
 * @param {{actions?: any}} [options]
 */
function disputeItem(ctx, d, {actions = null} = {}) {
  return h('li', {class: 'dispute', dataset: {dispute: String(d.seq), about: String(d.about), status: d.status}},
    disputeHead(ctx, d), actions || statusView(d));
}

// -- the banker ---------------------------------------------------------------------------

/**
 * The table's disputes: the open ones with their count, each with "Void it" and "Uphold",
 * then the closed ones folded away. Nothing at all before the first dispute.
 */
export function disputesPanel(ctx) {
  const all = disputesOf(ctx);
  if (!all.length) return null;
  const open = all.filter((d) => d.status === 'open');
  const closed = all.filter((d) => d.status !== 'open');
  const active = ctx.game.status === 'active';
  const actions = (d) => (active ? h('div', {class: 'row'},
    h('button', {type: 'button', class: 'danger', dataset: {testid: `dispute-void-${d.seq}`},
      onclick: () => voidDisputedDialog(ctx, d)}, t('dp_void')),
    h('button', {type: 'button', class: 'secondary', dataset: {testid: `dispute-uphold-${d.seq}`},
      onclick: () => upholdDialog(ctx, d)}, t('dp_uphold'))) : null);
  return h('section', {class: `card disputes${open.length ? ' has-open' : ''}`, 'aria-labelledby': 'disputes-h', dataset: {testid: 'disputes'}},
    h('h2', {id: 'disputes-h'}, t('dp_title'), ' ',
      h('span', {class: `badge ${open.length ? 'warn' : 'ok'}`, dataset: {testid: 'disputes-open'}}, t('dp_open_n', {n: open.length}))),
    open.length
      ? h('ul', {class: 'dispute-list'}, open.map((d) => disputeItem(ctx, d, {actions: actions(d)})))
      : h('p', {class: 'muted small'}, t('dp_none_open')),
    closed.length ? kept(ctx, 'closed', h('details', {class: 'disputes-closed'}, h('summary', {}, t('dp_closed_n', {n: closed.length})),
      h('ul', {class: 'dispute-list'}, closed.map((d) => disputeItem(ctx, d))))) : null);
}

/** A required sentence from an input, or undefined (the input marked, the reason said). */
function sentence(input, form, message) {
  const text = input.value.trim();
  if (text) {
    input.removeAttribute('aria-invalid');
    return text;
  }
  input.setAttribute('aria-invalid', 'true');
  replace(form.errorBox, h('p', {class: 'problem', role: 'alert'}, message));
  input.focus();
  return undefined;
}

/** "Void it": a void of the disputed transaction naming the dispute, with the void's reason
 * (which the dispute keeps as its note); what it would move back shown before. */
export function voidDisputedDialog(ctx, d) {
  txnDialog(ctx, t('dp_void_title', {seq: d.about}), (body, form) => {
    // The reason comes filled in with the player's own, for the banker to keep or change.
    const reason = h('input', {type: 'text', name: 'reason', maxlength: 500, required: true, autocomplete: 'off', value: d.reason});
    // One body for the quote and the record; the quote's, before a reason is typed, a draft's.
    const voiding = (text) => moveBody(ctx, 'void', {seq: d.about, reason: text, dispute: d.seq});
    // Refused (a later transaction depends on it), the button is shut: the quote says what to
    // void first, each with its own Void, and asks again after each.
    let send = null;
    const view = quoteBox(ctx, () => voiding(reason.value.trim() || '?'), {testid: 'void-quote', basis: false,
      problemOptions: {again: () => view.now()},
      onAnswer: (answer) => { if (send) send.disabled = Boolean(answer && answer.problem && !unreachable(answer.problem)); }});
    body.append(h('div', {class: 'dispute-summary'}, disputeHead(ctx, d)), view.el, h('p', {class: 'muted small'}, t('dp_void_hint', {dispute: d.seq})),
      field(t('reason'), reason),
      h('div', {class: 'actions'}, send = form.button(t('dp_void_send'), () => {
        const text = sentence(reason, form, t('reason_required'));
        return text === undefined ? undefined : voiding(text);
      }, {cls: 'danger', testid: 'dispute-void-send'})));
    view.now();
  });
}

/**
 * A void refused because a later transaction depends on it (`void_conflict`, its params naming
 * that transaction and the one it depends on): the later transactions to void first, in the
 * order they can be voided (one whose own void is refused for a still later one comes after
 * it), each described as the history does and with its own Void. After each, `again()` asks the
 * refused void once more: it may now go through, or name the next to void first.
 */
export function voidFirstView(ctx, params, again) {
  const {seq: later, depends_on: target} = params;
  if (!Number.isInteger(later) || !Number.isInteger(target) || later === target) return null;
  const list = h('ol', {class: 'void-first', dataset: {testid: 'void-first'}});
  const section = h('div', {class: 'void-first-way'}, h('p', {class: 'small'}, t('vf_intro', {seq: target})), list);
  const voidOf = (seq) => {
    const open = openDisputeAbout(ctx, seq);
    return moveBody(ctx, 'void', {seq, reason: t('vf_reason', {seq: target}), dispute: open ? open.seq : null});
  };
  (async () => {
    const chain = [later];
    // Each one's own void asked in turn: a transaction that must go before it comes first.
    for (let i = 0; i < 10; i += 1) {
      const answer = await quote(ctx, voidOf(chain[0]));
      const p = (answer.problem && answer.problem.code === 'void_conflict' && answer.problem.body.params) || {};
      if (p.depends_on !== chain[0] || !Number.isInteger(p.seq) || chain.includes(p.seq)) break;
      chain.unshift(p.seq);
    }
    replace(list, chain.map((seq) => {
      const [title, moves] = txnLine(ctx, seq);
      const slot = h('div', {class: 'error-slot'});
      const button = h('button', {type: 'button', class: 'danger', dataset: {testid: `void-first-${seq}`}, onclick: async () => {
        button.disabled = true;
        replace(slot);
        try {
          const txn = await recordOnce(ctx, voidOf(seq), {ask: true});
          if (txn) await ctx.after(txn);
          if (txn && again) again();
        } catch (err) {
          replace(slot, problemView(ctx, err));
        } finally {
          button.disabled = false;
        }
      }}, t('a_void', {seq}));
      return h('li', {dataset: {seq: String(seq)}}, h('div', {class: 'row'}, h('span', {class: 'grow'}, title, ' ', moves), button), slot);
    }));
  })().catch(() => { /* the refusal alone */ });
  return section;
}

/** "Uphold": the transaction stands, the dispute closes with the banker's note. */
export function upholdDialog(ctx, d) {
  txnDialog(ctx, t('dp_uphold_title', {seq: d.about}), (body, form) => {
    const note = h('input', {type: 'text', name: 'note', maxlength: 500, required: true, autocomplete: 'off'});
    body.append(h('div', {class: 'dispute-summary'}, disputeHead(ctx, d)), h('p', {class: 'muted small'}, t('dp_uphold_hint', {dispute: d.seq})),
      field(t('dp_note'), note),
      h('div', {class: 'actions'}, form.button(t('dp_uphold_send'), () => {
        const text = sentence(note, form, t('dp_note_required'));
        return text === undefined ? undefined : moveBody(ctx, 'dispute_resolve', {dispute: d.seq, note: text});
      }, {testid: 'dispute-uphold-send'})));
  });
}

/** The history's "Void…": a transaction with an open dispute is voided through it. */
export function voidFromHistory(ctx, txn, summary) {
  const open = openDisputeAbout(ctx, txn.seq);
  if (open) voidDisputedDialog(ctx, open);
  else voidDialog(ctx, txn, summary);
}

// -- the history ------------------------------------------------------------------------------

/** A line under a history row: what a dispute, its resolution or a void naming one says, and a
 * badge on a transaction disputed now. */
export function historyNote(ctx, txn) {
  const req = txn.request || {};
  if (txn.type === 'dispute') {
    return h('span', {class: 'txn-moves small'}, t('dp_hist_dispute', {about: req.seq, name: who(ctx, txn.by)}), ' ', h('q', {}, req.reason || ''));
  }
  if (txn.type === 'dispute_resolve') {
    return h('span', {class: 'txn-moves small'}, t('dp_hist_resolve', {dispute: req.dispute}), ' ', h('q', {}, req.note || ''));
  }
  if (txn.type === 'void' && req.dispute) {
    return h('span', {class: 'txn-moves small'}, t('dp_hist_void', {dispute: req.dispute}));
  }
  const open = openDisputeAbout(ctx, txn.seq);
  return open ? h('span', {class: 'badge warn'}, t('dp_disputed_by', {seq: open.seq})) : null;
}

/**
 * A dispute transaction as the history's details show it, its words in the reader's language:
 * the statuses and the banker named in its changes and basis are words of the log, not names.
 */
export function readable(ctx, txn) {
  if (!['dispute', 'dispute_resolve'].includes(txn.type) && !(txn.type === 'void' && (txn.request || {}).dispute)) return txn;
  const words = (record) => {
    if (!record || typeof record !== 'object') return record;
    const out = {...record};
    if (typeof out.status === 'string') out.status = t(`dp_status_${out.status}`, {}, out.status);
    if (out.by === 'banker') out.by = t('banker');
    return out;
  };
  return {
    ...txn,
    changes: (txn.changes || []).map((c) => (c.kind === 'dispute' || c.kind === 'dispute_status' ? {...c, from: words(c.from), to: words(c.to)} : c)),
    basis: words(txn.basis),
  };
}

// -- the player ---------------------------------------------------------------------------------

/**
 * A player's disputes on their own page: the disputes about their money (theirs, and any
 * other about a transaction that moved it) with where each stands, and "Dispute…" on each
 * transaction that moved their money, recorded through the page's own `intents` (one key per
 * intent); `after()` loads and draws the page again.
 */
export function playerDisputes(ctx, {me, intents, after}) {
  const slot = h('div', {});
  const section = h('section', {class: 'card disputes mine', 'aria-labelledby': 'my-disputes-h', dataset: {testid: 'my-disputes'}},
    h('h2', {id: 'my-disputes-h'}, t('dp_title')), slot);
  const fill = (items) => replace(slot, ...playerContent(ctx, items, {me, intents, after}));
  const cache = ctx.myTxns;
  if (cache && cache.seq === ctx.game.last_seq) {
    fill(cache.items);
  } else {
    if (cache) fill(cache.items); // what was seen, until the log answers
    else slot.append(h('p', {class: 'muted small'}, t('loading')));
    const seq = ctx.game.last_seq;
    ctx.api.transactions(ctx.id, {account: me}).then((items) => {
      if (!ctx.myTxns || ctx.myTxns.seq <= seq) ctx.myTxns = {seq, items};
      fill(ctx.myTxns.items);
    }).catch(() => { if (!cache) replace(slot, h('p', {class: 'muted small'}, t('quote_unreachable'))); });
  }
  return section;
}

/** A player's disputes and, while the game goes on, his transactions to dispute. */
function playerContent(ctx, items, {me, intents, after}) {
  const mine = new Set(items.map((x) => x.seq));
  const disputes = disputesOf(ctx).filter((d) => d.by === me || mine.has(d.about));
  const list = disputes.length
    ? h('ul', {class: 'dispute-list'}, [...disputes].reverse().map((d) => disputeItem(ctx, d)))
    : h('p', {class: 'muted small'}, t('dp_none'));
  if (ctx.game.status !== 'active') return [list];
  const offered = [...items].reverse().filter((x) => !x.voided_by && !openDisputeAbout(ctx, x.seq));
  const rows = offered.map((x) => {
    const said = describeTxn(ctx, x);
    return h('li', {class: 'dispute-pick', dataset: {seq: String(x.seq)}},
      h('span', {class: 'grow'}, h('span', {class: 'txn-title'}, said.title), ' ', h('span', {class: 'txn-moves small'}, said.moves)),
      h('button', {type: 'button', class: 'secondary', dataset: {testid: `dispute-${x.seq}`},
        onclick: () => disputeDialog(ctx, x, {intents, after})}, t('dp_dispute')));
  });
  return [list, kept(ctx, 'picker', h('details', {class: 'dispute-picker'}, h('summary', {}, t('dp_pick')),
    h('p', {class: 'muted small'}, t('dp_pick_hint')),
    rows.length ? h('ul', {class: 'dispute-picks'}, rows) : h('p', {class: 'muted small'}, t('dp_nothing'))))];
}

/** A player's dispute of one transaction: the transaction as the history says it, the reason,
 * sent once per intent (intents.js) as the page's payments are. */
function disputeDialog(ctx, txn, {intents, after}) {
  const said = describeTxn(ctx, txn);
  modal(t('dp_dispute_title', {seq: txn.seq}), (body, dialog) => {
    const errorBox = h('div', {class: 'error-slot'});
    const reason = h('input', {type: 'text', name: 'reason', maxlength: 500, required: true, autocomplete: 'off'});
    let busy = false;
    const send = h('button', {type: 'button', class: 'primary', dataset: {testid: 'dispute-send'}, onclick: async () => {
      if (busy) return;
      replace(errorBox);
      const text = reason.value.trim();
      if (!text) {
        reason.setAttribute('aria-invalid', 'true');
        replace(errorBox, h('p', {class: 'problem', role: 'alert'}, t('dp_reason_required')));
        reason.focus();
        return;
      }
      const payload = moveBody(ctx, 'dispute', {seq: txn.seq, reason: text});
      if (!payload) { // not among the moves the server listed last
        replace(errorBox, h('p', {class: 'problem', role: 'alert'}, t('move_unavailable')));
        return;
      }
      if (intents.state(payload).state === 'sending') return;
      const now = intents.state(payload);
      if (now.state === 'done') {
        if (!(await askAgain(now.seq))) return;
        intents.again(payload);
      }
      busy = true;
      send.disabled = true;
      send.setAttribute('aria-busy', 'true');
      try {
        const recorded = await intents.send(ctx.api, ctx.id, payload);
        dialog.close();
        toast(`#${recorded.seq} ${t('dp_sent', {seq: txn.seq})}`, {kind: 'ok'});
        await after();
      } catch (err) {
        replace(errorBox, problemView(ctx, err));
        errorBox.scrollIntoView({block: 'nearest'});
      } finally {
        busy = false;
        send.disabled = false;
        send.removeAttribute('aria-busy');
      }
    }}, t('dp_send'));
    body.append(
      h('p', {class: 'dispute-title'}, h('span', {class: 'txn-title'}, said.title), ' ', h('span', {class: 'txn-moves small'}, said.moves)),
      h('p', {class: 'muted small'}, t('dp_dispute_hint')),
      field(t('dp_reason'), reason),
      errorBox,
      h('div', {class: 'actions'}, send));
  });
}

