// What a move would record, asked of the server before the banker confirms: a dry run
// (POST …/transactions?dry_run=true) answers with the transaction exactly as the real POST
// would record it now, postings and basis included, or with the refusal the real POST would
// get. Every amount a dialog shows comes from here; the console computes none of them.

import {h, replace} from './dom.js';
import {t} from './i18n.js';
import {basisList, nameChanges, problemView} from './views.js';
import {unreachable} from './api.js';

/** At most this many dry runs on their way at once (a dialog may ask a dozen). */
const PARALLEL = 4;

/**
 * The dry runs of one game, each asked once per state of the game: the same move asked again
 * before the game changed gets the answer already given.
 */
export class Quotes {
  constructor(api, gameId) {
    this.api = api;
    this.gameId = gameId;
    this.seq = null;
    this.answers = new Map();
    this.running = 0;
    this.waiting = [];
  }

  /** Resolves to {txn} (what it would record) or {problem} (what it would answer instead). */
  ask(payload, seq) {
    if (seq !== this.seq) {
      this.seq = seq;
      this.answers.clear();
    }
    const key = JSON.stringify(payload);
    if (!this.answers.has(key)) {
      const answer = this.slot().then(() => this.api.dryRun(this.gameId, payload))
        .then((txn) => ({txn, problem: undefined}), (problem) => ({txn: undefined, problem}))
        .finally(() => this.release());
      this.answers.set(key, answer);
      // An unreachable server is not an answer: ask again next time.
      answer.then((a) => { if (a.problem && unreachable(a.problem) && this.answers.get(key) === answer) this.answers.delete(key); });
    }
    return this.answers.get(key);
  }

  /** Waits for a place among the PARALLEL dry runs on their way, and takes it. */
  slot() {
    if (this.running < PARALLEL) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Gives a finished dry run's place to the next one waiting, or frees it. */
  release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}

/** The quotes of a page's game, made on first use. */
export function quotes(ctx) {
  if (!ctx.quotes || ctx.quotes.gameId !== ctx.id || ctx.quotes.api !== ctx.api) ctx.quotes = new Quotes(ctx.api, ctx.id);
  return ctx.quotes;
}

/** What a move would record now (see Quotes.ask). */
export function quote(ctx, payload) {
  return quotes(ctx).ask(payload, ctx.game.last_seq);
}

/** The money a transaction moves into (+) or out of (−) one account. */
export function netFor(txn, account) {
  let net = 0;
  for (const p of txn.postings || []) {
    if (p.to === account) net += p.amount;
    if (p.from === account) net -= p.amount;
  }
  return net;
}

/** A signed figure: "+$100", "−$110", or the figure alone when it is 0. */
export function signed(ctx, amount) {
  if (amount > 0) return `+${ctx.money(amount)}`;
  if (amount < 0) return `−${ctx.money(-amount)}`;
  return ctx.money(0);
}

/** The postings of a transaction in words, one line each: "Bob → Alice: $2,000". */
export function postingLines(ctx, txn) {
  return (txn.postings || []).map((p) => h('li', {}, `${ctx.name(p.from)} → ${ctx.name(p.to)}: ${ctx.money(p.amount)}`));
}

/**
 * A preview box showing what `payload()` would record: the money that would move, and why
 * (the basis), or the refusal in the reader's language. `refresh()` asks again (inputs
 * changed); answers that come back after a newer question are dropped. `onAnswer(answer)`
 * sees each answer ({txn}, {problem}, or null while nothing can be asked yet); `render(txn)`
 * draws an accepted answer instead of its postings and basis.
 * @param {*} ctx
 * @param {*} payload
 * @param {{onAnswer?: Function, problemOptions?: Record<string, any>, testid?: string, basis?: boolean, render?: Function|null}} [options]
 */
export function quoteBox(ctx, payload, {onAnswer, problemOptions = {}, testid = 'quote', basis = true, render = null} = {}) {
  const box = h('div', {class: 'preview quote', 'aria-live': 'polite', dataset: {testid}});
  let asked = 0;
  let timer = null;
  const show = (answer) => {
    if (!answer) {
      replace(box);
    } else if (answer.txn && render) {
      replace(box, render(answer.txn));
    } else if (answer.txn) {
      const txn = answer.txn;
      const lines = postingLines(ctx, txn);
      // A name it changes (a rename voided gives the old one back), said before the money.
      const said = txn.type === 'void' ? 'quote_name_back' : 'quote_name';
      const names = nameChanges(txn).map((c) => h('li', {}, t(said, {from: c.from, to: c.to})));
      replace(box,
        names.length ? h('ul', {class: 'quote-names', dataset: {testid: `${testid}-names`}}, names) : null,
        lines.length ? h('ul', {class: 'quote-moves', dataset: {testid: `${testid}-moves`}}, lines)
          : h('p', {class: 'muted small'}, t('no_money_moves')),
        basis ? basisList(ctx, txn.basis) : null);
    } else if (unreachable(answer.problem)) {
      replace(box, h('p', {class: 'muted small'}, t('quote_unreachable')));
    } else {
      replace(box, problemView(ctx, answer.problem, problemOptions));
    }
    if (onAnswer) onAnswer(answer);
  };
  const ask = async () => {
    const body = payload();
    asked += 1;
    const mine = asked;
    if (!body) { show(null); return null; }
    box.setAttribute('aria-busy', 'true');
    const answer = await quote(ctx, body);
    if (mine !== asked) return answer;
    box.removeAttribute('aria-busy');
    show(answer);
    return answer;
  };
  return {
    el: box,
    /** Asks again soon (typing): one question for a burst of changes. */
    refresh() {
      clearTimeout(timer);
      timer = setTimeout(ask, 150);
    },
    /** Asks again now. */
    now() {
      clearTimeout(timer);
      return ask();
    },
  };
}

/**
 * A button whose label carries the figure the server gives for its move: `label` alone while
 * it asks, then "label +$100" (the account's net change). A move the rules refuse now keeps
 * its button (a tap shows the refusal, with its ways to raise the money), its title says why;
 * `hideRefused`: it is not offered at all; `onRefused(problem)`: the caller shows it.
 * @param {*} ctx
 * @param {*} button
 * @param {*} label
 * @param {*} payload
 * @param {*} account
 * @param {{hideRefused?: boolean, onRefused?: Function}} [options]
 */
export function quoteLabel(ctx, button, label, payload, account, {hideRefused = false, onRefused} = {}) {
  button.textContent = label;
  quote(ctx, payload).then((answer) => {
    if (answer.txn) {
      button.textContent = `${label} ${signed(ctx, netFor(answer.txn, account))}`;
      button.dataset.quoted = String(netFor(answer.txn, account));
    } else if (!unreachable(answer.problem)) {
      if (onRefused) onRefused(answer.problem);
      else if (hideRefused) button.remove();
      else button.title = t(`e_${answer.problem.code}`, {}, t('refused'));
    }
  });
  return button;
}
