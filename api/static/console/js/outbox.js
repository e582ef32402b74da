// The banker's outbox: a move made while the server cannot be reached waits here, in this
// device's localStorage, with the Idempotency-Key of its first try (intents.js), and is sent
// when the server is back: in the order the moves were made, one at a time. The key makes it
// safe whatever happened to the first try: if the server recorded it and only the answer was
// lost, sending it again replays that answer and records nothing more.
//
// While moves wait, a new move waits behind them, so that the log keeps the table's order (a
// rent after the purchase it depends on). A move refused when it is finally sent stays in the
// list with the server's reason until the banker dismisses it.

import {h, replace, toast} from './dom.js';
import {t, typeLabel} from './i18n.js';
import {Problem, unreachable} from './api.js';
import {signature} from './intents.js';
import {problemView} from './views.js';
import {connection} from './offline.js';

const PREFIX = 'tablebank.outbox.';
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 10000;
// The outboxes of this page by game: a game forgotten on this device stops every one of them.
const opened = new Map();

/** A failure after which the move may go again under its key: no answer, or the first try
 * still being recorded. */
export function keepable(err) {
  return unreachable(err) || Boolean(err && err.code === 'idempotency_in_progress');
}

/** The moves of one game waiting on this device to be sent, and those refused when sent. */
export class Outbox extends EventTarget {
  /**
   * The outbox of one game. `onSent(entry, txn)`: a waiting move was recorded (or its key
   * replayed); `onKept(result)`: a move was put in the outbox.
   * @param {string} gameId
   * @param {{api: any, intents: any, onSent?: (entry: any, txn: any) => void, onKept?: (result: any) => void}} options
   */
  constructor(gameId, {api, intents, onSent = () => {}, onKept = () => {}}) {
    super();
    this.name = PREFIX + gameId;
    this.gameId = gameId;
    this.api = api;
    this.intents = intents;
    this.onSent = onSent;
    this.onKept = onKept;
    this.memory = [];
    this.flushing = null;
    this.timer = null;
    this.delay = RETRY_FIRST_MS;
    this.sending = null; // the key of the waiting move on its way
    this.direct = null; // a move sent at once, until it is answered
    this.discarded = false;
    this.stop = new AbortController(); // aborts a move on its way, and its retries, when discarded
    if (!opened.has(gameId)) opened.set(gameId, new Set());
    opened.get(gameId).add(this);
  }

  /** Every entry, oldest first: `{key, body, at, state: 'waiting' | 'refused', problem}`. */
  entries() {
    try {
      const raw = localStorage.getItem(this.name);
      if (raw !== null) return JSON.parse(raw) || [];
    } catch {
      // storage blocked or spoiled: what this page holds
    }
    return this.memory;
  }

  /** Keeps the entries on this device (the page alone if storage refuses); listeners are told.
   * Nothing once the game is forgotten here. */
  write(entries) {
    if (this.discarded) return; // the game is forgotten here: an answer coming late keeps nothing
    this.memory = entries;
    try {
      if (entries.length) localStorage.setItem(this.name, JSON.stringify(entries));
      else localStorage.removeItem(this.name);
    } catch {
      // full or blocked: the moves wait in this page only (and no stale copy is read back)
      try { localStorage.removeItem(this.name); } catch { /* blocked altogether */ }
    }
    this.dispatchEvent(new Event('change'));
  }

  /** The moves still waiting to be sent, oldest first. */
  waiting() { return this.entries().filter((e) => e.state === 'waiting'); }

  /** Whether the same move is waiting already. */
  has(body) {
    const sig = signature(body);
    return this.waiting().some((e) => signature(e.body) === sig);
  }

  /** Puts a move at the end of the list under its key, unless that key is there already. */
  add(body, key) {
    const entries = this.entries();
    if (!entries.some((e) => e.key === key)) entries.push({key, body, at: new Date().toISOString(), state: 'waiting'});
    this.write(entries);
  }

  /** The banker dismisses a refused move. */
  dismiss(key) {
    this.write(this.entries().filter((e) => e.key !== key));
  }

  /** Puts a move at the end of the queue, under the key of its intent, and starts sending. */
  queue(body, unexpected = false) {
    const key = this.intents.begin(body);
    this.intents.unanswered(body); // not on its way from the page: the outbox holds it
    this.add(body, key);
    this.flush();
    return {queued: true, unexpected};
  }

  /**
   * A move from the page (actions.js recordOnce): recorded at once when nothing waits and the
   * server answers; else kept. Resolves to the transaction, to `{queued: true, unexpected}`
   * (kept; `unexpected` when the page thought it was online), or to null (already waiting);
   * rejects with a refusal.
   */
  async record(body) {
    if (this.has(body)) {
      toast(t('ob_already_waiting'), {action: {label: t('record_again'), run: () => {
        this.intents.again(body); // a second move of the same kind: a new intent, a new key
        this.onKept(this.queue(body));
      }}});
      return null;
    }
    if (this.waiting().length || this.direct || connection.state !== 'online') return this.queue(body);
    // Sent at once. Until it is answered, other moves wait behind it (and so does a flush).
    /** @type {(value?: any) => void} */
    let answered;
    this.direct = new Promise((resolve) => { answered = resolve; });
    try {
      return await this.intents.send(this.api, this.gameId, body);
    } catch (err) {
      if (!keepable(err) || !err.key) throw err;
      this.add(body, err.key);
      this.retryLater();
      return {queued: true, unexpected: true};
    } finally {
      this.direct = null;
      answered();
    }
  }

  /** Sends the waiting moves in order, one at a time, until none is left or the server
   * cannot be reached (then it tries again later, or when the stream is back). */
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.flushing) this.flushing = this.send().finally(() => { this.flushing = null; });
    return this.flushing;
  }

  /** Sends the waiting moves one at a time, oldest first, until none is left or no answer comes.
   * A refused one stays in the list with the server's reason. */
  async send() {
    for (;;) {
      if (this.direct) await this.direct;
      if (this.discarded) return;
      const next = this.waiting()[0];
      if (!next) { this.delay = RETRY_FIRST_MS; return; }
      this.sending = next.key;
      this.dispatchEvent(new Event('change'));
      let txn;
      try {
        txn = await this.api.record(this.gameId, next.body, next.key, {signal: this.stop.signal});
      } catch (err) {
        this.sending = null;
        if (keepable(err)) { this.retryLater(); return; }
        this.intents.refused(next.body);
        this.write(this.entries().map((e) => (e.key === next.key
          ? {...e, state: 'refused', problem: {status: err.status || 0, body: err.body || {detail: String(err)}}} : e)));
        continue;
      }
      this.sending = null;
      this.delay = RETRY_FIRST_MS;
      this.intents.recorded(next.body, txn.seq);
      this.write(this.entries().filter((e) => e.key !== next.key));
      this.onSent(next, txn);
    }
  }

  /** Tries the waiting moves again after a pause that doubles each time, up to RETRY_MAX_MS. */
  retryLater() {
    if (this.discarded) return;
    this.dispatchEvent(new Event('change'));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.delay);
    this.delay = Math.min(this.delay * 2, RETRY_MAX_MS);
  }
}

/** The moves of a game waiting to be sent from this device (none once they are all sent),
 * whether or not its outbox is open on this page. */
export function waitingMoves(gameId) {
  const open = [...(opened.get(gameId) || [])];
  if (open.length) return open[0].waiting();
  try {
    return (JSON.parse(localStorage.getItem(PREFIX + gameId) || '[]') || []).filter((e) => e.state === 'waiting');
  } catch {
    return [];
  }
}

/**
 * The game is forgotten on this device: its outboxes on this page stop, and the moves they
 * held are dropped, never sent (the banker was told how many and confirmed). A move already on
 * its way may still be recorded by the server; nothing of it is kept here.
 */
export function discardOutbox(gameId) {
  for (const outbox of opened.get(gameId) || []) {
    clearTimeout(outbox.timer);
    outbox.timer = null;
    outbox.memory = [];
    outbox.discarded = true;
    outbox.stop.abort();
  }
  opened.delete(gameId);
  try { localStorage.removeItem(PREFIX + gameId); } catch { /* blocked: nothing kept */ }
}

/** A move not yet recorded, in words: "Salary: Ann", "Payment: Ann → Bob, $50". */
export function describeMove(ctx, body) {
  const parts = [];
  if (typeof body.from === 'string' && typeof body.to === 'string') parts.push(`${ctx.name(body.from)} → ${ctx.name(body.to)}`);
  for (const k of ['player', 'payer', 'debtor', 'winner', 'creditor']) {
    if (typeof body[k] === 'string') parts.push(ctx.name(body[k]));
  }
  if (typeof body.property === 'string') parts.push(ctx.deedName(body.property));
  for (const k of ['amount', 'price', 'bid', 'owed', 'stake']) {
    if (Number.isInteger(body[k])) parts.push(ctx.money(body[k]));
  }
  if (Number.isInteger(body.seq)) parts.push(`#${body.seq}`);
  if (body.memo) parts.push(`“${body.memo}”`);
  return `${typeLabel(body.type)}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/** The list of waiting and refused moves, for the top of the banker's page (empty: nothing). */
export function outboxView(ctx, outbox) {
  const entries = outbox.entries();
  if (!entries.length) return null;
  const waiting = entries.filter((e) => e.state === 'waiting').length;
  return h('section', {class: 'card outbox', 'aria-labelledby': 'outbox-h', dataset: {testid: 'outbox'}},
    h('h2', {id: 'outbox-h'}, t('ob_title'), waiting ? ` (${waiting})` : ''),
    h('p', {class: 'muted small'}, t('ob_intro')),
    h('ol', {class: 'outbox-list'}, entries.map((e) => h('li', {dataset: {testid: 'outbox-move', state: e.state}},
      h('div', {class: 'outbox-row'},
        h('span', {class: 'grow'}, describeMove(ctx, e.body)),
        e.state === 'waiting'
          ? h('span', {class: 'badge warn'}, outbox.sending === e.key ? t('ob_sending') : t('ob_waiting'))
          : h('button', {type: 'button', class: 'link', onclick: () => outbox.dismiss(e.key)}, t('ob_dismiss'))),
      e.state === 'refused'
        ? h('div', {}, h('p', {class: 'small'}, t('ob_refused')), problemView(ctx, new Problem(e.problem.status, e.problem.body)))
        : null))));
}

/** Draws the outbox into `slot` now and on every change. */
export function keepDrawn(slot, ctx, outbox) {
  const draw = () => replace(slot, outboxView(ctx, outbox));
  outbox.addEventListener('change', draw);
  draw();
  return () => outbox.removeEventListener('change', draw);
}
