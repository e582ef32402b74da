// One intent, one Idempotency-Key. A move ("salary for p1", "rent from p2 on Boardwalk") keeps
// its key from the first tap until it is recorded, whatever happens in between: a second tap
// while it is on its way, a redraw that builds new buttons, a lost answer, a reload of the tab.
// Once recorded, the same move within REPEAT_MS is taken for a double tap: it is not sent
// again unless the banker says it is meant (a second salary is a new intent with a new key).
//
// Kept in sessionStorage, per game: a reload of the tab keeps the keys of moves whose answer
// was lost, so a retry after the reload is still recorded once.

import {newKey} from './api.js';

export const REPEAT_MS = 5000;
// A key whose answer never came stays usable this long: the server keeps keys for the life
// of the game, so sending it again later can only replay the first answer.
const PENDING_MS = 24 * 3600 * 1000;
const PREFIX = 'tablebank.intents.';

/** The move a body describes, ignoring its memo: the same move with another note is the same. */
export function signature(body) {
  const canonical = (value) => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.keys(value).sort().filter((k) => k !== 'memo').map((k) => [k, canonical(value[k])]));
    }
    return value;
  };
  return JSON.stringify(canonical(body));
}

/** This tab's sessionStorage, or null where the browser blocks it. */
function storage() {
  try {
    return globalThis.sessionStorage || null;
  } catch {
    return null; // storage blocked: intents last as long as the page
  }
}

/** One game's moves on their way or just recorded, each with its key, kept by this tab. */
export class Intents {
  constructor(gameId, now = () => Date.now()) {
    this.name = PREFIX + gameId;
    this.now = now;
    this.memory = {};
    this.sending = new Set(); // signatures with a request on its way from this page
  }

  /** The game's intents as this tab keeps them, those past their time left out. */
  read() {
    const s = storage();
    let all = this.memory;
    if (s) {
      try { all = JSON.parse(s.getItem(this.name) || '{}') || {}; } catch { all = {}; }
    }
    const now = this.now();
    for (const [sig, entry] of Object.entries(all)) {
      const age = now - entry.at;
      if ((entry.state === 'done' && age > REPEAT_MS) || age > PENDING_MS) delete all[sig];
    }
    return all;
  }

  /** Keeps the game's intents in the page and this tab's storage (the page alone if it refuses). */
  write(all) {
    this.memory = all;
    const s = storage();
    if (!s) return;
    try { s.setItem(this.name, JSON.stringify(all)); } catch { /* full: memory only */ }
  }

  /**
   * Where the move stands: `sending` (a request is on its way), `done` (recorded moments ago,
   * with its `seq`), or `ready` (nothing pending, or a key waiting for a retry).
   */
  state(body) {
    const sig = signature(body);
    if (this.sending.has(sig)) return {state: 'sending'};
    const entry = this.read()[sig];
    if (entry && entry.state === 'done') return {state: 'done', seq: entry.seq, at: entry.at};
    return {state: 'ready'};
  }

  /** The key to send the move with, kept until it is recorded or refused. */
  begin(body) {
    const sig = signature(body);
    const all = this.read();
    const entry = all[sig];
    const key = entry && entry.state === 'pending' ? entry.key : newKey();
    all[sig] = {state: 'pending', key, at: this.now()};
    this.write(all);
    this.sending.add(sig);
    return key;
  }

  /** The move was recorded (or its key replayed the first answer). */
  recorded(body, seq) {
    const sig = signature(body);
    this.sending.delete(sig);
    const all = this.read();
    all[sig] = {state: 'done', seq, at: this.now()};
    this.write(all);
  }

  /** The server answered with a refusal: nothing was kept under the key, so neither do we. */
  refused(body) {
    const sig = signature(body);
    this.sending.delete(sig);
    const all = this.read();
    delete all[sig];
    this.write(all);
  }

  /** No answer came (network, server down): the key stays for the next try. */
  unanswered(body) {
    this.sending.delete(signature(body));
  }

  /**
   * The move recorded as `seq` was taken back (its void recorded): the same move again is a
   * new intent, not a double tap (GO, Undo, GO: the second GO is a salary of its own).
   */
  voided(seq) {
    const all = this.read();
    for (const [sig, entry] of Object.entries(all)) {
      if (entry.state === 'done' && entry.seq === seq) delete all[sig];
    }
    this.write(all);
  }

  /** The banker means the same move again: forget that it was just recorded. */
  again(body) {
    const all = this.read();
    delete all[signature(body)];
    this.write(all);
  }

  /**
   * Records `body` once per intent: resolves to the transaction, or to null when the tap was
   * ignored (already on its way); rejects with the server's Problem.
   */
  async send(api, gameId, body) {
    const key = this.begin(body);
    try {
      const txn = await api.record(gameId, body, key);
      this.recorded(body, txn.seq);
      return txn;
    } catch (err) {
      // A refusal (4xx) keeps nothing under the key. No answer, a 5xx, or the first request
      // still being recorded: the key stays, so the next try is recorded at most once.
      const refusal = err && err.status >= 400 && err.status < 500 && err.code !== 'idempotency_in_progress';
      if (refusal) this.refused(body);
      else this.unanswered(body);
      // The key goes with the failure, so that an outbox keeps the move under the same key.
      if (!refusal && err && typeof err === 'object') err.key = key;
      throw err;
    }
  }
}
