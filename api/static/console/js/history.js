// History and audit: the log with filters (type, account, deed), each row opening to its
// basis and postings, a void with a reason, the table "as of" any transaction, and the
// statement of any account.

import {h, replace, field, select} from './dom.js';
import {t, plural} from './i18n.js';
import {describeTxn, txnDetails, statementTable, problemView, typeName} from './views.js';
import {voidFromHistory, historyNote, readable} from './disputes.js';
import {fairplayCard} from './fairplay.js';

/**
 * The History screen: the log and its filters, a statement, the log's check, fair play.
 * @param {*} ctx
 * @param {*} main
 * @param {{account?: string, stale?: () => boolean}} [options]
 */
export async function historyScreen(ctx, main, {account, stale = () => false} = {}) {
  const all = await ctx.api.transactions(ctx.id);
  if (stale()) return; // the banker went elsewhere meanwhile
  const kept = reading(ctx);
  const types = [...new Set(all.map((x) => x.type))];
  const typeSel = select([['', t('all')], ...types.map((k) => [k, typeName(ctx, k)])], kept.type, {name: 'type'});
  const accountSel = select([['', t('all')], ...ctx.accountOptions()], kept.account, {name: 'account'});
  const deedSel = select([['', t('all')], ...ctx.board.deeds.map((d) => [d.id, d.name])], kept.property, {name: 'property'});
  const list = kept.list = h('ol', {class: 'txns', reversed: true, 'aria-live': 'polite'});
  const count = h('p', {class: 'muted small'});

  const draw = async () => {
    const filters = {type: typeSel.value, account: accountSel.value, property: deedSel.value};
    Object.assign(kept, filters);
    let items = all;
    if (filters.type || filters.account || filters.property) {
      try {
        items = await ctx.api.transactions(ctx.id, filters);
      } catch (err) {
        replace(list, h('li', {}, problemView(ctx, err)));
        return;
      }
    }
    count.textContent = plural(items.length, 'n_transactions');
    replace(list, [...items].reverse().map((txn) => row(ctx, txn, kept.open)));
  };
  [typeSel, accountSel, deedSel].forEach((s) => s.addEventListener('change', draw));

  const statement = statementCard(ctx, kept, account);
  replace(main,
    h('section', {class: 'card'}, h('h1', {}, t('nav_history')),
      h('div', {class: 'filters'}, field(t('type'), typeSel), field(t('account'), accountSel), field(t('deed'), deedSel)),
      count, list),
    statement.card,
    verifyCard(ctx),
    fairplayCard(ctx));
  await Promise.all([draw(), statement.draw()]);
}

/**
 * The statement of one account, its account chosen in the card: the account the banker chose
 * here, while the address names the same one it named then; else the address's, or the first
 * player's. `draw` fills it in.
 * @param {*} ctx
 * @param {ReturnType<typeof reading>} kept
 * @param {string|undefined} account
 */
function statementCard(ctx, kept, account) {
  const chosen = kept.statement && kept.statementOf === (account || '') ? kept.statement : account || ctx.players[0].id;
  const stmtSel = select(ctx.accountOptions(), chosen, {name: 'statement-account'});
  const stmtSlot = h('div', {});
  const draw = async () => {
    try {
      replace(stmtSlot, statementTable(ctx, await ctx.api.statement(ctx.id, stmtSel.value)));
    } catch (err) {
      replace(stmtSlot, problemView(ctx, err));
    }
  };
  stmtSel.addEventListener('change', () => {
    Object.assign(kept, {statement: stmtSel.value, statementOf: account || ''});
    draw();
  });
  return {card: h('section', {class: 'card'}, h('h2', {}, t('statement')), field(t('account'), stmtSel), stmtSlot), draw};
}

/** The log's check: a button asking the server to verify the game's hash chain, and its answer. */
function verifyCard(ctx) {
  const verifySlot = h('div', {});
  return h('section', {class: 'card'}, h('h2', {}, t('verify_log')), h('p', {class: 'small muted'}, t('verify_hint')),
    h('button', {type: 'button', class: 'secondary', onclick: async () => {
      try {
        const v = await ctx.api.verify(ctx.id);
        replace(verifySlot, h('p', {class: v.ok ? 'ok' : 'warn'}, v.ok ? t('verify_ok', {n: v.transactions}) : t('verify_bad')),
          h('p', {}, `${t('head')}: `, h('code', {class: 'head-hash'}, v.head.slice(0, 16).replace(/(.{4})/g, '$1 ').trim())),
          h('p', {class: 'small muted'}, h('code', {class: 'wrap'}, v.head)));
      } catch (err) {
        replace(verifySlot, problemView(ctx, err));
      }
    }}, t('verify')), verifySlot);
}

/**
 * What the History screen keeps of the banker's reading while the game is on screen (its
 * filters, the statement's account, the rows left open), so that the screen drawn again after
 * a move (a void from a row) takes none of it away. A row opened or closed a moment ago, its
 * toggle event still to come, counts as the page shows it.
 * @param {*} ctx
 * @returns {{type: string, account: string, property: string, statement: string, statementOf: string,
 *   open: Set<number>, list: HTMLElement|null}}
 */
function reading(ctx) {
  if (!ctx.historyReading) {
    ctx.historyReading = {type: '', account: '', property: '', statement: '', statementOf: '', open: new Set(), list: null};
  }
  const kept = ctx.historyReading;
  for (const details of kept.list ? kept.list.querySelectorAll('details.txn') : []) {
    const seq = Number(/** @type {HTMLElement} */ (details).dataset.seq);
    if (/** @type {HTMLDetailsElement} */ (details).open) kept.open.add(seq);
    else kept.open.delete(seq);
  }
  return kept;
}

/**
 * One transaction of the log: a row opening to its details, the table as of it, a void; open
 * if its seq is in `open`, which it keeps as the banker opens and closes it.
 * @param {*} ctx
 * @param {*} txn
 * @param {Set<number>} open
 */
function row(ctx, txn, open) {
  const {title, moves} = describeTxn(ctx, txn);
  const details = h('details', {class: `txn${txn.voided_by ? ' voided' : ''}`, dataset: {seq: String(txn.seq)}},
    h('summary', {}, h('span', {class: 'txn-title'}, title), txn.voided_by ? h('span', {class: 'badge warn'}, t('voided')) : null,
      moves ? h('span', {class: 'txn-moves small'}, moves) : null, historyNote(ctx, txn)));
  let filled = false;
  const fill = () => {
    if (filled) return;
    filled = true;
    details.append(txnDetails(ctx, readable(ctx, txn)), h('div', {class: 'row'},
      h('a', {class: 'button secondary', href: `#/g/${ctx.id}/asof/${txn.seq}`}, t('table_as_of', {seq: txn.seq})),
      !txn.voided_by && ctx.voidable(txn.type) && ctx.game.status !== 'finished'
        ? h('button', {type: 'button', class: 'secondary', onclick: () => voidFromHistory(ctx, txn, `${title} ${moves}`)}, t('void_ellipsis'))
        : null));
  };
  details.addEventListener('toggle', () => {
    if (details.open) {
      open.add(txn.seq);
      fill();
    } else {
      open.delete(txn.seq);
    }
  });
  if (open.has(txn.seq)) {
    details.open = true;
    fill();
  }
  return h('li', {}, details);
}
