// The banker's table: the game's head (its name and rule set, the Bank's supply, the pot, the
// share price, the clock; a finished game's standings), the open disputes, a card per player
// with his one-tap moves, the table's own moves, the turns and the deeds by colour. Drawn as
// the game is now, or read only as it stood after an earlier transaction. Every figure on it
// is the server's: the one-tap salary shows its dry run.

import {h, replace, modal} from './dom.js';
import {t, rulesetTitle} from './i18n.js';
import {groupClass} from './rules.js';
import {quote, netFor} from './quote.js';
import {deedChips, problemView, standingsView, buildingsText} from './views.js';
import {movedNotice} from './players.js';
import * as actions from './actions.js';
import {recordOnce} from './dialog.js';
import {auctionDialog, tradeDialog, iousDialog} from './deals.js';
import {disputesPanel} from './disputes.js';
import {fairplaySummary} from './fairplay.js';
import {statsSection} from './stats.js';
import {countdown} from './clock.js';
import {turnsCard} from './turns.js';
import {moveBody} from './moves.js';

/**
 * A one-tap move. Its key belongs to the move, not to the button (intents.js): a double tap,
 * even on the button redrawn after the first answer, records once and shows "done".
 * @param {*} ctx
 * @param {*} label
 * @param {*} payload
 * @param {{cls?: string, after?: Function, testid?: string}} [options]
 */
export function quickButton(ctx, label, payload, {cls = 'quick', after, testid} = {}) {
  let busy = false;
  const btn = h('button', {type: 'button', class: cls, dataset: testid ? {testid} : undefined, onclick: async () => {
    if (busy) return;
    busy = true;
    btn.disabled = true;
    btn.setAttribute('aria-busy', 'true');
    try {
      const txn = await recordOnce(ctx, payload);
      if (!txn) return;
      if (after) after();
      ctx.after(txn);
    } catch (err) {
      if (after) after();
      modal(t('refused'), (body, dialog) => {
        body.append(problemView(ctx, err, {onLiquidation: (pid, params) => ctx.raiseButtons(pid, {dialog, params, payload, label: btn.textContent})}),
          h('div', {class: 'actions'}, h('button', {type: 'button', class: 'primary', onclick: () => dialog.close()}, t('ok'))));
      });
    } finally {
      busy = false;
      btn.disabled = false;
      btn.removeAttribute('aria-busy');
    }
  }}, label);
  return btn;
}

/**
 * The table in `main`: the game now, or as of transaction `asOf` (read only, as is a finished
 * game and one moved to a server). `stale()` says a newer route has taken the page meanwhile.
 * @param {HTMLElement} main
 * @param {*} ctx
 * @param {{asOf?: number|null, stale?: () => boolean}} [options]
 */
export async function tableScreen(main, ctx, {asOf = null, stale = () => false} = {}) {
  let game = ctx.game;
  if (asOf !== null) game = await ctx.api.game(ctx.id, asOf);
  if (stale()) return;
  const view = asOf !== null ? Object.assign(Object.create(Object.getPrototypeOf(ctx)), ctx, {game}) : ctx;
  if (asOf !== null) view.setGame(game);
  // A game moved to a server goes on there: its copy here is kept as it was.
  const readOnly = asOf !== null || game.status === 'finished' || Boolean(ctx.saved && ctx.saved.moved);
  // A tap that opens a list of moves: once the moves asked again after a write are in.
  const fresh = (open) => async () => { if (await actions.caughtUp(ctx)) open(); };
  const head = gameHead(ctx, view, asOf);
  const players = h('section', {class: 'players', 'aria-label': t('players')},
    game.players.map((p) => playerCard(ctx, view, p, {readOnly, fresh})));
  const tableActions = readOnly ? null : tableMoves(ctx, fresh);
  // Turn tracking: on, in sight above the players; off, a clearly labelled card below the moves.
  const turns = readOnly ? null : await turnsCard(ctx);
  if (stale()) return;
  const turnsOn = turns && !turns.classList.contains('turns-off');
  // The dispute the banker was sent to stays in view and focused when the table is drawn
  // again under it (a move arriving live), not lost with the old page.
  const active = document.activeElement;
  const onDispute = active instanceof HTMLElement && active.matches('[data-testid=disputes] li.dispute') ? active.dataset.dispute : null;
  replace(main, head, asOf === null ? disputesPanel(ctx) : null, turnsOn ? turns : null, players, tableActions,
    turnsOn ? null : turns, boardSection(view));
  if (asOf === null && ctx.spotlight) spotlightDispute(main, ctx);
  else if (asOf === null && onDispute) keepOnDispute(main, onDispute);
}

/** The game's head: its name, rule set, last seq and status, the Bank's supply, the pot, the
 * share price and the clock; as of an earlier transaction, a banner back to now; finished, the
 * standings, the head hash, the statistics and the fair-play flags. */
function gameHead(ctx, view, asOf) {
  const game = view.game;
  const head = h('section', {class: 'card game-head'},
    h('h1', {}, game.name),
    h('p', {class: 'muted small'}, `${rulesetTitle(game.ruleset, ctx.board.rs.title)} · #${game.last_seq} · `,
      h('span', {class: `status status-${game.status}`}, t(`status_${game.status}`))),
    h('ul', {class: 'facts'},
      game.bank && game.bank.houses !== null && game.bank.houses !== undefined
        ? h('li', {}, t('bank_supply', {houses: game.bank.houses, hotels: game.bank.hotels})) : null,
      'pot' in game.balances && (game.balances.pot || ctx.can('pot_collect'))
        ? h('li', {}, `${view.name('pot')}: ${view.money(game.balances.pot)}`) : null,
      view.sharePrice() !== null ? h('li', {}, `${t('share_price')}: ${view.money(view.sharePrice())}`) : null),
    asOf === null ? countdown(game, {upHint: t('clock_up_banker')}) : null);
  if (asOf !== null) {
    head.prepend(h('p', {class: 'banner'}, t('as_of', {seq: asOf}), ' ', h('a', {href: `#/g/${ctx.id}`}, t('back_to_now'))));
  }
  if (ctx.saved && ctx.saved.moved) head.prepend(movedNotice(ctx.saved.moved));
  if (game.status === 'finished' && game.standings) {
    const headHash = h('code', {class: 'head-hash'}, (game.head || '').slice(0, 16).replace(/(.{4})/g, '$1 ').trim());
    head.append(h('h2', {}, t('standings')), standingsView(view, game.standings),
      h('p', {class: 'small'}, t('head_note'), ' ', headHash), statsSection(view), fairplaySummary(view));
  }
  return head;
}

/** What a player's card says of him besides his cash: bankrupt, in jail, the jail cards he
 * holds, exempt from the round tax, his turn. */
function badgesOf(game, p) {
  const badges = [];
  if (p.bankrupt) badges.push(h('span', {class: 'badge danger'}, t('bankrupt')));
  if (p.in_jail) badges.push(h('span', {class: 'badge warn'}, t('in_jail')));
  for (const deck of p.jail_cards || []) badges.push(h('span', {class: 'badge'}, t('jail_card_of', {deck: t(`deck_${deck}`)})));
  if (p.tax_exempt) badges.push(h('span', {class: 'badge ok'}, t('tax_exempt')));
  if (game.turn === p.id) badges.push(h('span', {class: 'badge ok'}, t('their_turn')));
  return badges;
}

/**
 * A player's card: his name (renamed from here where the game renames him now), badges, cash,
 * net worth, shares and policies, IOUs and deeds; at a table that records moves, his one-tap
 * salary and the buttons of his usual moves.
 * @param {*} ctx
 * @param {*} view
 * @param {*} p
 * @param {{readOnly: boolean, fresh: Function}} options
 */
function playerCard(ctx, view, p, {readOnly, fresh}) {
  const game = view.game;
  const ious = (game.ious || []).filter((i) => i.outstanding > 0 && (i.debtor === p.id || i.holder === p.id));
  // A name corrected mid-game, from the player's row, where the game renames this player now.
  const rename = !readOnly && ctx.choices('rename_player', 'player').includes(p.id)
    ? h('button', {type: 'button', class: 'link rename', 'aria-haspopup': 'dialog', dataset: {testid: `rename-${p.id}`},
      onclick: fresh(() => actions.renameDialog(ctx, p.id))}, t('a_rename'), h('span', {class: 'sr-only'}, ` ${p.name}`))
    : null;
  const card = h('article', {class: `card player ${view.playerClass(p.id)}${p.bankrupt ? ' out' : ''}`, 'aria-labelledby': `pl-${p.id}`, dataset: {player: p.id}},
    h('header', {}, h('h2', {id: `pl-${p.id}`}, p.name), h('div', {class: 'badges'}, badgesOf(game, p)), rename),
    h('p', {class: 'cash', dataset: {testid: `cash-${p.id}`}}, view.money(p.cash)),
    h('p', {class: 'worth small muted'}, `${t('net_worth')} ${view.money(p.net_worth)}`),
    view.sharePrice() !== null ? h('p', {class: 'small'}, `${t('shares')}: ${view.shares(p.id)}`,
      view.policies(p.id).length ? ` · ${t('policies_held')}: ${view.policies(p.id).map((x) => t(`policy_${x}`)).join(', ')}` : '') : null,
    ious.length ? h('p', {class: 'small'}, ious.map((i) => (i.debtor === p.id
      ? t('owes', {name: view.name(i.holder), amount: view.money(i.outstanding)})
      : t('is_owed', {name: view.name(i.debtor), amount: view.money(i.outstanding)}))).join(' · ')) : null,
    deedChips(view, p.id));
  if (readOnly || !view.seated(p.id)) return card;
  const salary = moveBody(ctx, 'salary', {player: p.id});
  card.append(h('div', {class: 'quick-row'},
    salary ? quickButton(ctx, salaryLabel(view, salary), salary, {testid: `salary-${p.id}`}) : null,
    h('button', {type: 'button', class: 'quick', onclick: fresh(() => actions.rentDialog(ctx, p.id))}, t('a_rent')),
    h('button', {type: 'button', class: 'quick', onclick: fresh(() => actions.buyDialog(ctx, p.id))}, t('a_buy')),
    h('button', {type: 'button', class: 'quick', onclick: fresh(() => actions.payDialog(ctx, p.id))}, t('a_pay')),
    h('button', {type: 'button', class: 'quick more', 'aria-haspopup': 'dialog', onclick: fresh(() => actions.actionSheet(ctx, p.id))},
      t('more'), h('span', {class: 'sr-only'}, ` ${p.name}`))));
  return card;
}

/** The moves of the whole table: an auction, a trade, the open IOUs, the share price, the
 * finish, and every move the game offers now. */
function tableMoves(ctx, fresh) {
  const button = (label, onclick) => h('button', {type: 'button', class: 'secondary', onclick}, label);
  return h('section', {class: 'card table-actions', 'aria-label': t('table_moves')},
    h('h2', {}, t('table_moves')),
    h('div', {class: 'moves'},
      button(t('a_auction'), () => auctionDialog(ctx)),
      button(t('a_trade'), () => tradeDialog(ctx, ctx.activePlayers()[0].id)),
      (ctx.game.ious || []).some((i) => i.outstanding > 0) ? button(t('open_ious'), () => iousDialog(ctx)) : null,
      ctx.can('share_price') ? button(t('a_share_price'), () => actions.sharePriceDialog(ctx)) : null,
      button(t('a_finish'), () => actions.finishDialog(ctx)),
      ctx.moves ? h('button', {type: 'button', class: 'secondary', dataset: {testid: 'all-moves'}, 'aria-haspopup': 'dialog',
        onclick: fresh(() => actions.allMovesDialog(ctx))}, t('all_moves')) : null));
}

/** The deeds by colour group, each with its holder, buildings and mortgage. */
function boardSection(view) {
  const board = view.board;
  return h('section', {class: 'card board', 'aria-labelledby': 'board-h'},
    h('h2', {id: 'board-h'}, t('deeds_by_colour')),
    h('div', {class: 'groups'}, [...board.groups].map(([group, deeds]) => h('div', {class: `group ${groupClass(board, group)}`},
      h('ul', {}, deeds.map((d) => {
        const prop = view.game.properties[d.id];
        return h('li', {class: `deed ${view.playerClass(prop.owner)}${prop.mortgaged ? ' mortgaged' : ''}`},
          h('span', {class: 'swatch', 'aria-hidden': 'true'}),
          h('span', {class: 'grow'}, d.name),
          h('span', {class: 'owner'}, prop.owner === 'bank' ? t('bank') : view.name(prop.owner)),
          buildingsText(prop) ? h('span', {class: 'bld-text'}, buildingsText(prop)) : null,
          prop.mortgaged ? h('abbr', {class: 'tag', title: t('mortgaged')}, t('mortgaged_short')) : null);
      }))))));
}

/** Focus dispute `seq` again, in view, after a redraw (whatever its status now). */
function keepOnDispute(main, seq) {
  const item = /** @type {HTMLElement|null} */ (main.querySelector(`[data-testid=disputes] li.dispute[data-dispute='${seq}']`));
  if (!item) return;
  item.tabIndex = -1;
  item.scrollIntoView({block: 'nearest'});
  item.focus({preventScroll: true});
}

/** The open dispute the banker was sent to (ctx.showDisputes), in view and focused (the item,
 * not one of its buttons: neither way of settling it is chosen for the banker); the first open
 * one if that one is closed since. */
function spotlightDispute(main, ctx) {
  const seq = ctx.spotlight;
  ctx.spotlight = null;
  const open = /** @type {HTMLElement[]} */ ([...main.querySelectorAll('[data-testid=disputes] li.dispute[data-status=open]')]);
  const item = open.find((li) => li.dataset.dispute === String(seq)) || open[0];
  if (!item) return;
  item.tabIndex = -1;
  item.scrollIntoView({block: 'center'});
  item.focus({preventScroll: true});
}

/**
 * The one-tap salary with its figure, as the server would record it now (a dry run): GO's
 * salary, or in Millionaire Elite the round income (the salary and a share of the shares'
 * value). The word shows at once, the figure when the server answers.
 */
function salaryLabel(ctx, salary) {
  // The round income where shares pay a part of it (Millionaire Elite), else GO's salary.
  const word = ctx.board.params.share_income_percent !== undefined ? t('income') : t('go_quick');
  const figure = h('span', {class: 'line', dataset: {testid: 'salary-figure'}});
  quote(ctx, salary).then((answer) => {
    if (answer.txn) replace(figure, `+${ctx.money(netFor(answer.txn, salary.player))}`);
  });
  // On two lines: a phone's narrow button has room for the word or the figure, not both.
  return [h('span', {class: 'line'}, word), ' ', figure];
}
