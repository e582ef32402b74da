// The banker's moves, one dialog each, and the sheet of a player's moves that opens them.
// Every figure a dialog shows is the server's: the dialog asks what its move would record now
// (a dry run, quote.js) and shows that answer (the money that would move and why, or the
// refusal) before the banker confirms; it records through dialog.js (one POST per intent).
// Most are a move's form from its declaration (moves.js); those of rows of quoted choices
// (tax, jail, insurance, the share price) are here, the buildings' and mortgages' in
// buildings.js, and the deals (auction, trade, IOUs, bankruptcy) in deals.js.

import {h, append, replace, modal, field} from './dom.js';
import {t, plural} from './i18n.js';
import {problemView, liquidationView, standingsView} from './views.js';
import {quote, netFor} from './quote.js';
import {unreachable} from './api.js';
import {moveDialog, moveBody, movesList, choiceLabel} from './moves.js';
import {txnDialog, accountSelect, quotedButton} from './dialog.js';
import {mortgageDialog, buildDialog} from './buildings.js';
import {auctionDialog, tradeDialog, iouDialog, bankruptcyDialog} from './deals.js';

// -- payments -----------------------------------------------------------------------------

/** A payment between accounts, preset from `player` to the Bank (or from the Bank to a player). */
export function payDialog(ctx, player) {
  const other = ctx.activePlayers().find((p) => p.id !== player);
  moveDialog(ctx, txnDialog, 'payment', {from: player, to: player === 'bank' ? other?.id : 'bank'},
    {title: t('a_payment'), testid: 'quote', basis: false, record: t('record_payment'), recordTestid: 'record-payment'});
}

/** The rent a player pays on the deed landed on, the amount the server's quote. */
export function rentDialog(ctx, payer) {
  // The deeds held are the move's choices; the dice or the amount only when the server asks
  // for them (a utility, a rent the box prints and the rule set does not).
  moveDialog(ctx, txnDialog, 'rent', {payer}, {title: t('a_rent'), testid: 'rent-quote', record: t('record_rent'),
    recordTestid: 'record-rent', pickers: {property: {label: t('deed_landed_on')}}, asked: ['dice', 'amount'],
    hints: {dice: 'dice_hint', multiplier: 'multiplier_hint', amount: 'rent_amount_hint'}, raise: true, wide: true,
    needs: (names) => t(names.includes('amount') ? 'rent_enter_amount' : 'rent_enter_dice'),
    onAnswer: (answer, {record, view, m}) => {
      if (!(answer && answer.txn)) return;
      const rent = -netFor(answer.txn, m.body().payer);
      record.textContent = `${t('record_rent')} ${ctx.money(rent)}`;
      view.el.prepend(h('p', {class: 'preview-amount', dataset: {testid: 'rent-amount'}}, `${t('rent')}: ${ctx.money(rent)}`));
    }});
}

// -- deeds --------------------------------------------------------------------------------

/** A player buying one of the Bank's deeds, at the price the server quotes. */
export function buyDialog(ctx, player) {
  // The Bank's deeds are the move's choices; the price only where the server asks for it.
  moveDialog(ctx, txnDialog, 'buy', {player}, {title: t('a_buy'), testid: 'buy-quote', record: t('buy'),
    recordTestid: 'record-buy', pickers: {property: {}}, asked: ['price'], hints: {price: 'price_hint'}, wide: true,
    needs: () => t('enter_price'),
    onAnswer: (answer, {record, m}) => {
      const body = m.body();
      if (!body) return;
      record.textContent = `${t('buy')} ${ctx.deedName(body.property)}`;
      if (answer && answer.txn) record.textContent += ` ${ctx.money(-netFor(answer.txn, body.player))}`;
    }});
}

// -- taxes, cards, jail ------------------------------------------------------------------

/**
 * A choice button whose big figure is the server's: what the move would take from (or give
 * to) `account`, filled in when the answer comes; a move the rules refuse says why.
 * @param {*} ctx
 * @param {*} form
 * @param {*} payload
 * @param {*} account
 * @param {*} small
 * @param {{testid?: string, showWorth?: boolean}} [options]
 */
function quotedChoice(ctx, form, payload, account, small, {testid, showWorth = false} = {}) {
  const big = h('span', {class: 'big'}, '…');
  const note = h('small', {}, small);
  const btn = form.button(h('span', {}, big, note), () => payload, {cls: 'choice', testid});
  quote(ctx, payload).then((answer) => {
    if (answer.txn) {
      replace(big, ctx.money(Math.abs(netFor(answer.txn, account))));
      btn.dataset.quoted = String(netFor(answer.txn, account));
      const b = answer.txn.basis || {};
      if (showWorth && b.percent !== undefined && b.total_worth !== undefined) replace(note, `${b.percent} % · ${ctx.money(b.total_worth)}`);
    } else if (!unreachable(answer.problem)) {
      replace(big, '—');
      replace(note, t(`e_${answer.problem.code}`, {}, t('refused')));
    }
  });
  return btn;
}

/** A player's taxes, each way of paying one a button with the server's figure. */
export function taxDialog(ctx, player) {
  // The taxes the game charges and the ways the income tax may be paid are the move's
  // choices (its rule set's and its options'); each way is a button with the server's figure.
  const move = ctx.move('tax');
  const tax = move.fields.find((f) => f.name === 'tax');
  const ways = move.fields.find((f) => f.name === 'choice');
  txnDialog(ctx, t('a_tax'), (body, form) => {
    const who = accountSelect(ctx, 'tax', 'player', player, {name: 'player'});
    const slot = h('div', {});
    const draw = () => {
      const pid = who.value;
      replace(slot, tax.choices.map((kind) => {
        // A tax paid in one of several ways offers each (the `choice` that applies to it).
        const split = ways && ways.when.tax.includes(kind);
        const choices = (split ? ways.choices : [null]).map((way) => [way, moveBody(ctx, 'tax', {player: pid, tax: kind, choice: way})]);
        return h('section', {class: 'tax'}, h('h3', {}, choiceLabel(ctx, tax, kind)),
          split ? h('p', {class: 'small'}, t('tax_cash', {cash: ctx.money(ctx.game.balances[pid])})) : null,
          h('div', {class: 'choice-row'}, choices.map(([way, payload]) => quotedChoice(ctx, form, payload, pid,
            way ? choiceLabel(ctx, ways, way) : t('flat'), {testid: `tax-${way || kind}`, showWorth: way === 'percent'}))));
      }));
    };
    who.addEventListener('change', draw);
    draw();
    body.append(field(t('player'), who), slot, form.memoField());
  });
}

/** A card a player drew: its effect picked as the server declares the card, its figures quoted. */
export function cardDialog(ctx, player) {
  // Its effects and the figures each takes are the server's declaration of the card (moves.js).
  moveDialog(ctx, txnDialog, 'card', {player}, {title: t('a_card'), testid: 'card-quote',
    record: t('record_card'), radios: ['effect']});
}

/** Any move the game offers, from its declaration (moves.js). */
export function genericDialog(ctx, type, preset = {}) {
  moveDialog(ctx, txnDialog, type, preset);
}

/** Every move the game can record now, each opening its form from its declaration; a move
 * made of a list of parts (a trade's legs) opens its dialog of its own, where the parts are
 * put together. */
export function allMovesDialog(ctx) {
  modal(t('all_moves'), (body, dialog) => {
    const open = (type) => {
      dialog.close();
      const parts = ctx.move(type).fields.some((f) => f.kind === 'list' && f.required);
      if (parts) tradeDialog(ctx, ctx.activePlayers()[0].id);
      else genericDialog(ctx, type);
    };
    body.append(h('p', {class: 'muted small'}, t('all_moves_hint')), movesList(ctx, open));
  }, {wide: true});
}

/** A player's jail: sent there, or out by the fine, by doubles, or by a jail card used or drawn. */
export function jailDialog(ctx, player) {
  const p = ctx.byId.get(player);
  txnDialog(ctx, `${t('a_jail')}: ${p.name}`, (body, form) => {
    body.append(h('p', {}, p.in_jail ? t('is_in_jail', {name: p.name}) : t('not_in_jail', {name: p.name})));
    const row = h('div', {class: 'moves'});
    const jail = (type, values = {}) => moveBody(ctx, type, {player, ...values});
    if (!p.in_jail && ctx.can('go_to_jail')) row.append(form.button(t('go_to_jail'), () => jail('go_to_jail')));
    // The ways out of jail are offered to a player the server holds in jail, and only where
    // its moves name him (the fine is what leaves jail: docs/rules.md, "Jail fine"); a
    // player who is not in jail was offered a fine that took 50 for nothing.
    const out = (type) => p.in_jail && ctx.choices(type, 'player').includes(player);
    if (out('jail_fine')) append(row, [quotedButton(ctx, form, t('pay_fine'), jail('jail_fine'), player)]);
    if (out('leave_jail')) row.append(form.button(t('leave_jail_doubles'), () => jail('leave_jail'), {cls: 'secondary'}));
    const decks = ctx.move('jail_card')?.fields.find((f) => f.name === 'deck')?.choices || [];
    for (const deck of decks) {
      const holder = (ctx.game.jail_cards || {})[deck];
      if (holder === player && out('jail_card')) {
        row.append(form.button(t('use_card', {deck: t(`deck_${deck}`)}), () => jail('jail_card', {action: 'use', deck}), {cls: 'secondary'}));
      } else if (holder === 'deck') {
        row.append(form.button(t('draw_card', {deck: t(`deck_${deck}`)}), () => jail('jail_card', {action: 'draw', deck}), {cls: 'secondary'}));
      }
    }
    body.append(row, form.memoField());
  });
}

// -- Millionaire Elite -----------------------------------------------------------------------

/** A player's shares bought or sold (Millionaire Elite), through a broker where one is named. */
export function sharesDialog(ctx, player) {
  // The broker and the commission are the declaration's optional fields, left empty for a
  // trade at the Bank's counter.
  moveDialog(ctx, txnDialog, 'shares', {player, action: 'buy', count: 1}, {title: t('a_shares'),
    testid: 'shares-quote', record: t('record_shares'), intro: () => [h('p', {class: 'small'},
      t('shares_held', {name: ctx.name(player), held: ctx.shares(player), shares: plural(ctx.shares(player), 'cnt_shares'), price: ctx.money(ctx.sharePrice() ?? 0)}))]});
}

/** The share price moved by a die's points up or down, each step showing the price it leads to. */
export function sharePriceDialog(ctx) {
  txnDialog(ctx, t('a_share_price'), (body, form) => {
    body.append(h('p', {}, `${t('share_price')}: ${ctx.money(ctx.sharePrice() ?? 0)}`));
    // The directions and the points the move takes, as it declares them (a die's 1 to 6).
    const move = ctx.move('share_price');
    const points = move.fields.find((f) => f.name === 'points');
    const steps = Array.from({length: points.max - points.min + 1}, (_, i) => points.min + i);
    for (const direction of ctx.choices('share_price', 'direction')) {
      body.append(h('h3', {class: 'sub'}, t(`price_${direction}`)), h('div', {class: 'moves price-steps'}, steps.map((points) => {
        const payload = moveBody(ctx, 'share_price', {direction, points});
        const label = `${direction === 'up' ? '▲' : '▼'} ${points}`;
        const btn = form.button(label, () => payload, {cls: 'secondary'});
        // The price it leads to is the server's (its step, its floor).
        quote(ctx, payload).then((answer) => {
          const b = answer.txn && answer.txn.basis;
          if (b && b.to !== undefined) btn.textContent = `${label} → ${ctx.money(b.to)}`;
        });
        return btn;
      })));
    }
  }, {wide: true});
}

/** A player's round tax (Millionaire Elite), the plot tax read off the box. */
export function roundTaxDialog(ctx, player) {
  const p = ctx.byId.get(player);
  moveDialog(ctx, txnDialog, 'round_tax', {}, {title: t('a_round_tax'), testid: 'round-tax-quote',
    record: t('record_round_tax'), fixed: {player}, hints: {plot_tax: 'plot_tax_hint'},
    needs: () => t('enter_plot_tax'),
    intro: () => [h('p', {}, t('round_tax_intro', {shares: ctx.shares(player)})),
      p.tax_exempt ? h('p', {class: 'ok'}, t('tax_exempt_now')) : null]});
}

/** A player's insurance policies (Millionaire Elite), each bought, used or returned. */
export function insuranceDialog(ctx, player) {
  // The policies are the move's choices (the rule set's colours).
  const policies = ctx.inPolicyOrder(ctx.choices('insurance', 'policy'));
  txnDialog(ctx, t('a_insurance'), (body, form) => {
    const held = ctx.policies(player);
    body.append(h('p', {}, `${t('policies_held')}: ${held.length ? held.map((x) => t(`policy_${x}`)).join(', ') : '—'}`));
    const move = (label, action, policy) => quotedButton(ctx, form, label, moveBody(ctx, 'insurance', {player, action, policy}), player);
    for (const policy of policies) {
      const row = h('div', {class: `moves policy policy-${policy}`}, h('span', {class: 'grow'}, t(`policy_${policy}`)));
      if (held.includes(policy)) {
        append(row, [move(t('use_policy'), 'use', policy), move(t('return_policy'), 'return', policy)]);
      } else {
        append(row, [move(t('buy_policy'), 'buy', policy)]);
      }
      body.append(row);
    }
    body.append(form.memoField());
  });
}

/** A player's stake at the jackpot (Millionaire Elite), with the kitty as it stands. */
export function jackpotDialog(ctx, player) {
  moveDialog(ctx, txnDialog, 'jackpot', {player, payout: 0}, {title: t('a_jackpot'), testid: 'jackpot-quote',
    record: t('record_jackpot'), intro: () => [h('p', {}, `${ctx.name('pot')}: ${ctx.money(ctx.game.balances.pot ?? 0)}`)]});
}

// -- the game ------------------------------------------------------------------------------

/** Ending the game: the standings it would end with, or the refusal (open disputes). */
export function finishDialog(ctx) {
  // The standings the game would end with now, as the server ranks them; or its refusal
  // (open disputes: the way to settle them first), and then nothing to finish with.
  moveDialog(ctx, txnDialog, 'finish', {}, {title: t('a_finish'), testid: 'finish-quote', record: t('finish_now'),
    recordTestid: 'finish-now', recordClass: 'danger', refusedBlocks: true,
    intro: () => [h('p', {}, t('finish_intro'))],
    render: (txn) => (Array.isArray(txn.basis && txn.basis.standings) ? standingsView(ctx, txn.basis.standings) : null)});
}

/**
 * A player's name corrected (API.md v1.3, "Players and boxes"): the new name typed, what it
 * would record (the old name and the new, as the server's dry run answers), and a name the
 * server refuses (too like another player's, the same, not a name) said in the players' words.
 */
export function renameDialog(ctx, player) {
  const p = ctx.byId.get(player);
  const move = ctx.move('rename_player');
  const max = move?.fields.find((f) => f.name === 'name')?.max;
  moveDialog(ctx, txnDialog, 'rename_player', {}, {title: t('rename_title', {name: p.name}), testid: 'rename-quote',
    record: t('rename_record'), recordTestid: 'rename-record', fixed: {player}, raise: false,
    intro: () => [h('p', {class: 'muted small'}, t('rename_hint'))],
    render: (txn) => h('p', {dataset: {testid: 'rename-preview'}},
      t('rename_preview', {old: txn.basis.old_name, new: txn.basis.new_name})),
    onAnswer: (answer, {view, m}) => {
      const input = m.inputs.get('name').el;
      // A pasted name is never cut short behind the banker's back (the first answer, null, comes
      // as the dialog opens): the server says it is too long.
      input.removeAttribute('maxlength');
      const said = answer && answer.problem && renameRefusal(ctx, player, answer.problem, max);
      if (said) replace(view.el, h('p', {class: 'problem', role: 'alert', dataset: {testid: 'rename-refusal'}}, said));
      if (said) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }});
}

/** A refused name in the players' words: the server's refusal of the `name` field (the check of
 * names at creation) names the other player's name it is too like, or the player's own. */
function renameRefusal(ctx, player, problem, max) {
  const said = problem.status === 422 && problem.body && problem.body.errors && problem.body.errors.name;
  if (!said) return null;
  const text = [].concat(said).join(' ');
  const other = ctx.players.find((q) => q.id !== player && text.includes(`"${q.name}"`));
  if (other) return t('rename_taken', {name: other.name});
  const own = ctx.byId.get(player);
  if (own && text.includes(`"${own.name}"`)) return t('rename_same', {name: own.name});
  return t('rename_bad', {max: max ?? 40});
}

/** Voiding a recorded transaction: what it would move back, or why it cannot be, and the reason. */
export function voidDialog(ctx, txn, summary) {
  // What voiding it would move back (or why it cannot be voided), before the reason is typed.
  // The reason comes filled in with the usual one, for the banker to keep or change.
  moveDialog(ctx, txnDialog, 'void', {reason: t('void_reason_default')}, {title: t('a_void', {seq: txn.seq}), testid: 'void-quote', basis: false,
    record: t('void'), recordClass: 'danger', fixed: {seq: txn.seq}, draft: {reason: '?'}, refusedBlocks: true,
    missingTexts: {reason: 'reason_required'},
    intro: () => [h('p', {}, summary), h('p', {class: 'muted small'}, t('void_hint'))]});
}

/**
 * Whether a list of moves may open now: once the game and its moves, asked again after a
 * write, are in (a tap on More… right after a purchase offers the rent it allows); false for a
 * second tap made meanwhile, which would open a second list.
 */
export async function caughtUp(ctx) {
  if (!ctx.refreshing) return true;
  if (ctx.catchingUp) return false;
  ctx.catchingUp = true;
  try {
    await ctx.refreshing.catch(() => {}); // no server: the moves as last seen
  } finally {
    ctx.catchingUp = false;
  }
  return true;
}

/** Every move for one player, grouped; each opens its dialog or records at once. */
export function actionSheet(ctx, player) {
  const p = ctx.byId.get(player);
  modal(p.name, (body, dialog) => {
    const open = (fn) => () => { dialog.close(); fn(ctx, player); };
    // A one-tap move, where the game records it now.
    const now = (label, type) => {
      const payload = moveBody(ctx, type, {player});
      return payload && ctx.quickButton(label, payload, {after: () => dialog.close()});
    };
    // Each tile is there when the game records one of its moves now (the server's list).
    const tile = (types, label, run) => ([].concat(types).some((type) => ctx.can(type)) ? [[label, run]] : []);
    // Building and mortgages where the moves offer a deed of this player's: no "Build / sell"
    // for a player with no group to build on and nothing built.
    const holds = (types) => [].concat(types).some((type) => ctx.choices(type, 'property')
      .some((id) => ctx.game.properties[id] && ctx.game.properties[id].owner === player));
    const tiles = [
      ...tile('payment', t('a_payment'), open(payDialog)),
      ...tile('rent', t('a_rent'), open(rentDialog)),
      ...tile('buy', t('a_buy'), open(buyDialog)),
      ...tile('auction', t('a_auction'), () => { dialog.close(); auctionDialog(ctx); }),
      ...tile('tax', t('a_tax'), open(taxDialog)),
      ...tile('card', t('a_card'), open(cardDialog)),
      ...tile(['jail_fine', 'go_to_jail'], t('a_jail'), open(jailDialog)),
      ...(holds(['build', 'sell_buildings']) ? tile(['build', 'sell_buildings'], t('a_build'), open(buildDialog)) : []),
      ...(holds(['mortgage', 'unmortgage']) ? tile(['mortgage', 'unmortgage'], t('a_mortgage'), open(mortgageDialog)) : []),
      ...tile('trade', t('a_trade'), open(tradeDialog)),
      ...tile('iou', t('a_iou'), open(iouDialog)),
      ...tile('shares', t('a_shares'), open(sharesDialog)),
      ...tile('round_tax', t('a_round_tax'), open(roundTaxDialog)),
      ...tile('insurance', t('a_insurance'), open(insuranceDialog)),
      ...tile('jackpot', t('a_jackpot'), open(jackpotDialog)),
      ...tile('bankruptcy', t('a_bankruptcy'), open(bankruptcyDialog)),
      [t('what_can_raise', {name: p.name}), open(liquidationDialog)],
    ];
    // The round income where shares pay a part of it (Millionaire Elite), else the salary.
    const income = ctx.board.params.share_income_percent !== undefined;
    body.append(h('div', {class: 'sheet'},
      tiles.map(([label, run]) => h('button', {type: 'button', class: 'sheet-btn', onclick: run}, label)),
      now(income ? t('income') : t('salary'), 'salary'), now(t('a_tax_exemption'), 'tax_exemption'),
      (ctx.game.balances.pot || 0) > 0 ? now(`${t('collect_pot')} ${ctx.money(ctx.game.balances.pot)}`, 'pot_collect') : null));
  }, {wide: true});
}

/** What a player could raise, itemised by the server. */
export function liquidationDialog(ctx, player) {
  modal(t('what_can_raise', {name: ctx.name(player)}), (body) => {
    const slot = h('div', {}, h('p', {class: 'muted'}, t('loading')));
    body.append(slot);
    ctx.api.liquidation(ctx.id, player).then((l) => replace(slot, liquidationView(ctx, l)))
      .catch((err) => replace(slot, problemView(ctx, err)));
  });
}

