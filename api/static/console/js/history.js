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
  const types = [...new Set(all.map((x) => x.type))];
  const typeSel = select([['', t('all')], ...types.map((k) => [k, typeName(ctx, k)])], '', {name: 'type'});
  const accountSel = select([['', t('all')], ...ctx.accountOptions()], '', {name: 'account'});
  const deedSel = select([['', t('all')], ...ctx.board.deeds.map((d) => [d.id, d.name])], '', {name: 'property'});
  const list = h('ol', {class: 'txns', reversed: true, 'aria-live': 'polite'});
  const count = h('p', {class: 'muted small'});

  const draw = async () => {
    const filters = {type: typeSel.value, account: accountSel.value, property: deedSel.value};
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
    replace(list, [...items].reverse().map((txn) => row(ctx, txn)));
  };
  [typeSel, accountSel, deedSel].forEach((s) => s.addEventListener('change', draw));

  const stmtSel = select(ctx.accountOptions(), account || ctx.players[0].id, {name: 'statement-account'});
  const stmtSlot = h('div', {});
  const drawStatement = async () => {
    try {
      replace(stmtSlot, statementTable(ctx, await ctx.api.statement(ctx.id, stmtSel.value)));
    } catch (err) {
      replace(stmtSlot, problemView(ctx, err));
    }
  };
  stmtSel.addEventListener('change', drawStatement);

  const verifySlot = h('div', {});
  replace(main,
    h('section', {class: 'card'}, h('h1', {}, t('nav_history')),
      h('div', {class: 'filters'}, field(t('type'), typeSel), field(t('account'), accountSel), field(t('deed'), deedSel)),
      count, list),
    h('section', {class: 'card'}, h('h2', {}, t('statement')), field(t('account'), stmtSel), stmtSlot),
    h('section', {class: 'card'}, h('h2', {}, t('verify_log')), h('p', {class: 'small muted'}, t('verify_hint')),
      h('button', {type: 'button', class: 'secondary', onclick: async () => {
        try {
          const v = await ctx.api.verify(ctx.id);
          replace(verifySlot, h('p', {class: v.ok ? 'ok' : 'warn'}, v.ok ? t('verify_ok', {n: v.transactions}) : t('verify_bad')),
            h('p', {}, `${t('head')}: `, h('code', {class: 'head-hash'}, v.head.slice(0, 16).replace(/(.{4})/g, '$1 ').trim())),
            h('p', {class: 'small muted'}, h('code', {class: 'wrap'}, v.head)));
        } catch (err) {
          replace(verifySlot, problemView(ctx, err));
        }
      }}, t('verify')), verifySlot),
    fairplayCard(ctx));
  await Promise.all([draw(), drawStatement()]);
}

/** One transaction of the log: a row opening to its details, the table as of it, a void. */
function row(ctx, txn) {
  const {title, moves} = describeTxn(ctx, txn);
  const details = h('details', {class: `txn${txn.voided_by ? ' voided' : ''}`, dataset: {seq: String(txn.seq)}},
    h('summary', {}, h('span', {class: 'txn-title'}, title), txn.voided_by ? h('span', {class: 'badge warn'}, t('voided')) : null,
      moves ? h('span', {class: 'txn-moves small'}, moves) : null, historyNote(ctx, txn)));
  let filled = false;
  details.addEventListener('toggle', () => {
    if (!details.open || filled) return;
    filled = true;
    details.append(txnDetails(ctx, readable(ctx, txn)), h('div', {class: 'row'},
      h('a', {class: 'button secondary', href: `#/g/${ctx.id}/asof/${txn.seq}`}, t('table_as_of', {seq: txn.seq})),
      !txn.voided_by && ctx.voidable(txn.type) && ctx.game.status !== 'finished'
        ? h('button', {type: 'button', class: 'secondary', onclick: () => voidFromHistory(ctx, txn, `${title} ${moves}`)}, t('void_ellipsis'))
        : null));
  });
  return h('li', {}, details);
}
