// The banker's dialogs of deals between players and the Bank: an auction, a trade put together
// from legs (cash, deeds and jail cards each way, mortgages lifted at once), an IOU (with the
// cash lent, where real notes change hands) and the open IOUs, and a bankruptcy with what the
// debtor could raise and the auctions of the deeds it leaves with the Bank.

import {h, replace, modal, field, numberInput, nextId} from './dom.js';
import {t} from './i18n.js';
import {deedPicker, problemView, liquidationView} from './views.js';
import {quoteBox} from './quote.js';
import {moveDialog, moveBody} from './moves.js';
import {txnDialog, recordOnce, amountOf, typed, accountSelect} from './dialog.js';

/**
 * A deed sold at auction: the deed (or `deedPreset`), the winner and the bid.
 * @param {*} ctx
 * @param {*} [deedPreset]
 * @param {{done?: Function}} [options]
 */
export function auctionDialog(ctx, deedPreset = null, {done} = {}) {
  // The deeds that may go to auction are the move's choices (a player's plot too, where the
  // rules allow it: the quote says when not).
  moveDialog(ctx, txnDialog, 'auction', {property: deedPreset, winner: ctx.activePlayers()[0]?.id},
    {title: t('a_auction'), testid: 'auction-quote', record: t('record_auction'), pickers: {property: {}},
      hints: {bid: 'no_bid_hint'}, wide: true, done});
}

/**
 * A trade between players (and the Bank), put together from legs: each leg one side's cash,
 * deeds and jail cards to another; the mortgaged deeds received lifted at once where ticked.
 * The two parties are chosen once at the top, and the first two legs follow them (each gives
 * the other), so a trade between any two players is two choices, not four. The quote shows
 * what the server would record, or why not (a deed whose group has buildings, for one).
 */
export function tradeDialog(ctx, player) {
  txnDialog(ctx, t('a_trade'), (body, form) => {
    const active = ctx.activePlayers();
    const other = active.find((x) => x.id !== player) || active[0];
    const trade = {legs: [], lifted: new Set()};
    const legsBox = h('div', {class: 'legs'});
    const unmortgageBox = h('div', {});
    const summary = h('div', {class: 'preview'});
    const view = quoteBox(ctx, () => tradeRequest(ctx, trade), {testid: 'trade-quote'});
    const refresh = () => {
      replace(unmortgageBox, liftChoices(ctx, trade, refresh));
      replace(summary, trade.legs.map((leg) => leg.describe()).filter(Boolean).map((s) => h('p', {}, s)));
      view.refresh();
    };
    const addLeg = (fromId, toId) => {
      const leg = tradeLeg(ctx, fromId, toId, {changed: refresh, remove: () => {
        trade.legs.splice(trade.legs.indexOf(leg), 1);
        leg.el.remove();
        refresh();
      }});
      trade.legs.push(leg);
      legsBox.append(leg.el);
      refresh();
    };
    addLeg(player, other.id);
    addLeg(other.id, player);
    const partyA = accountSelect(ctx, 'trade', 'legs.from', player, {name: 'party_a'});
    const partyB = accountSelect(ctx, 'trade', 'legs.to', other.id, {name: 'party_b'});
    const parties = () => {
      if (trade.legs[0]) trade.legs[0].set(partyA.value, partyB.value);
      if (trade.legs[1]) trade.legs[1].set(partyB.value, partyA.value);
      refresh();
    };
    partyA.addEventListener('change', parties);
    partyB.addEventListener('change', parties);
    body.append(h('p', {class: 'muted small'}, t('trade_hint')),
      h('div', {class: 'grid2'}, field(t('party_one'), partyA), field(t('party_other'), partyB)), legsBox,
      h('button', {type: 'button', class: 'secondary', onclick: () => addLeg(player, other.id)}, t('add_leg')),
      unmortgageBox, h('h3', {class: 'sub'}, t('the_deal')), summary, view.el, form.memoField(),
      h('div', {class: 'actions'}, form.button(t('record_trade'), () => checkedTrade(ctx, form, trade))));
  }, {wide: true});
}

/** The trade as a request, or null while it is not one yet (no message: a quote): a leg's cash
 * not a whole amount, a leg to its own giver, nothing given at all. */
function tradeRequest(ctx, trade) {
  const out = [];
  for (const leg of trade.legs) {
    const raw = leg.cashInput.value.trim();
    if (raw && (!Number.isInteger(Number(raw)) || Number(raw) < 0)) return null;
    const b = leg.body();
    if (b.from === b.to) return null;
    if (b.cash || b.properties || b.jail_cards) out.push(b);
  }
  if (!out.length) return null;
  return moveBody(ctx, 'trade', {legs: out, unmortgage: trade.lifted.size ? [...trade.lifted] : null});
}

/** The trade the record button sends, or undefined with what is wrong said in the dialog. */
function checkedTrade(ctx, form, trade) {
  for (const leg of trade.legs) {
    const raw = leg.cashInput.value.trim();
    if (raw && (!Number.isInteger(Number(raw)) || Number(raw) < 0)) {
      amountOf(leg.cashInput, form.errorBox, {min: 0});
      return undefined;
    }
    const b = leg.body();
    if (b.from === b.to) { replace(form.errorBox, h('p', {class: 'problem', role: 'alert'}, t('same_account'))); return undefined; }
  }
  const request = tradeRequest(ctx, trade);
  if (!request) { replace(form.errorBox, h('p', {class: 'problem', role: 'alert'}, t('empty_trade'))); return undefined; }
  return request;
}

/** The mortgaged deeds the trade hands over, each to lift now or keep mortgaged (the quote
 * shows the cost). The box says what ticking does, whether ticked or not (a label that said the
 * state flipped its meaning when ticked); what an unticked deed does is said once under the
 * legend. Null when no leg gives a mortgaged deed. */
function liftChoices(ctx, trade, changed) {
  const mortgaged = trade.legs.flatMap((leg) => leg.deeds()).filter((id) => ctx.game.properties[id].mortgaged);
  for (const id of [...trade.lifted]) if (!mortgaged.includes(id)) trade.lifted.delete(id);
  if (!mortgaged.length) return null;
  return h('fieldset', {}, h('legend', {}, t('lift_at_once')), h('p', {class: 'muted small'}, t('lift_hint')), mortgaged.map((id) => {
    const cid = nextId('um');
    return h('div', {class: 'check'}, h('input', {type: 'checkbox', id: cid, checked: trade.lifted.has(id),
      onchange: (ev) => { if (ev.target.checked) trade.lifted.add(id); else trade.lifted.delete(id); changed(); }}),
    h('label', {for: cid}, `${ctx.deedName(id)}: ${t('lift_now')}`));
  }));
}

/**
 * One leg of a trade: who gives to whom, the cash, the giver's deeds and jail cards picked.
 * `changed()` after each change, `remove()` when the banker takes the leg out.
 * @param {*} ctx
 * @param {string} fromId
 * @param {string} toId
 * @param {{changed: Function, remove: Function}} options
 */
function tradeLeg(ctx, fromId, toId, {changed, remove}) {
  const from = accountSelect(ctx, 'trade', 'legs.from', fromId, {name: 'from'});
  const to = accountSelect(ctx, 'trade', 'legs.to', toId, {name: 'to'});
  const cash = numberInput({name: 'cash', min: 0, placeholder: '0'});
  let deeds = [];
  let cards = [];
  const pickSlot = h('div', {});
  const cardsSlot = h('div', {});
  const drawPick = () => {
    deeds = [];
    cards = [];
    // Whether a deed may change hands (buildings on its group, or on the plot itself in
    // Millionaire Elite) is the server's answer, in the quote.
    replace(pickSlot, deedPicker(ctx, {multiple: true, label: t('deeds_given'), eligible: (d, p) => p.owner === from.value,
      onChange: (ids) => { deeds = ids; changed(); }}));
    replace(cardsSlot, jailCardChecks(ctx, from.value, (deck, on) => {
      cards = on ? [...cards, deck] : cards.filter((c) => c !== deck);
      changed();
    }));
  };
  const leg = {
    deeds: () => deeds,
    cashInput: cash,
    /** Who gives to whom, as the trade's two parties chosen at its top say. */
    set(giver, taker) {
      to.value = taker;
      if (from.value !== giver) {
        from.value = giver;
        drawPick();
      }
    },
    /** The leg as the trade's request takes it: from, to, cash, deeds and jail cards. */
    body() {
      const c = cash.value.trim() ? Number(cash.value) : 0;
      return {from: from.value, to: to.value, ...(c ? {cash: c} : {}), ...(deeds.length ? {properties: deeds} : {}),
        ...(cards.length ? {jail_cards: cards} : {})};
    },
    /** The leg in words ("Bob → Cy: $20, Boardwalk"), or null while it gives nothing. */
    describe() {
      const parts = [...(Number(cash.value) ? [ctx.money(Number(cash.value))] : []), ...deeds.map((id) => ctx.deedName(id)),
        ...cards.map((deck) => t('jail_card_of', {deck: t(`deck_${deck}`)}))];
      return parts.length ? `${ctx.name(from.value)} → ${ctx.name(to.value)}: ${parts.join(', ')}` : null;
    },
    el: h('fieldset', {class: 'leg'}, h('legend', {}, t('leg')),
      h('div', {class: 'grid2'}, field(t('gives'), from), field(t('to'), to)),
      field(t('cash'), cash), pickSlot, cardsSlot, h('button', {type: 'button', class: 'link', onclick: () => remove()}, t('remove_leg'))),
  };
  from.addEventListener('change', () => { drawPick(); changed(); });
  to.addEventListener('change', () => changed());
  cash.addEventListener('input', () => changed());
  drawPick();
  return leg;
}

/** A tick box for each jail card `holder` holds; `onChange(deck, ticked)`. */
function jailCardChecks(ctx, holder, onChange) {
  const held = Object.entries(ctx.game.jail_cards || {}).filter(([, who]) => who === holder).map(([deck]) => deck);
  return held.map((deck) => {
    const cid = nextId('jc');
    return h('div', {class: 'check'}, h('input', {type: 'checkbox', id: cid, onchange: (ev) => onChange(deck, ev.target.checked)}),
      h('label', {for: cid}, t('jail_card_of', {deck: t(`deck_${deck}`)})));
  });
}

/**
 * An IOU records a debt and moves no cash (docs/rules.md, "IOUs"). Where the creditor hands
 * over real notes, the box below records them too: the payment from the creditor first (the
 * server checks the creditor has the cash; refused, nothing is recorded), then the IOU, each a
 * transaction of its own.
 */
export function iouDialog(ctx, player) {
  const mine = (ctx.game.ious || []).filter((i) => i.outstanding > 0 && (i.debtor === player || i.holder === player));
  const cash = h('input', {type: 'checkbox', id: nextId('iou-cash'), dataset: {testid: 'iou-cash'}});
  const lent = (iou) => moveBody(ctx, 'payment', {from: iou.creditor, to: iou.debtor, amount: iou.amount});
  let iouNext = null; // the IOU to record once its cash is recorded
  moveDialog(ctx, txnDialog, 'iou', {debtor: player, creditor: ctx.activePlayers().find((p) => p.id !== player)?.id},
    {title: t('a_iou'), testid: 'iou-quote', record: t('issue_iou'), intro: () => [h('p', {class: 'muted small'}, t('iou_hint'))],
      render: (txn) => h('p', {dataset: {testid: 'iou-debt'}}, t('iou_records', {debtor: ctx.name(txn.basis.debtor),
        holder: ctx.name(txn.basis.creditor), amount: ctx.money(txn.basis.amount)})),
      beside: (m) => {
        const box = quoteBox(ctx, () => (cash.checked && m.body() ? lent(m.body()) : null), {testid: 'iou-cash-quote', basis: false});
        const again = () => box.refresh();
        for (const {el} of m.inputs.values()) { el.addEventListener('input', again); el.addEventListener('change', again); }
        cash.addEventListener('change', () => box.now());
        return [h('div', {class: 'check'}, cash, h('label', {for: cash.id}, t('iou_with_cash'))), box.el];
      },
      payload: (iou) => {
        iouNext = cash.checked ? iou : null;
        return cash.checked ? lent(iou) : iou;
      },
      then: (txn) => {
        const iou = iouNext;
        iouNext = null;
        if (iou) recordNext(ctx, txn.memo ? {...iou, memo: txn.memo} : iou);
      },
      after: (form) => (mine.length ? [h('h3', {class: 'sub'}, t('open_ious')), iouList(ctx, mine, form)] : [])});
}

/** The next transaction of a move recorded as several, once the one before is: its refusal
 * said in a dialog of its own (the one before stands; Undo takes it back). */
async function recordNext(ctx, body) {
  try {
    const txn = await recordOnce(ctx, body, {ask: true});
    if (txn) await ctx.after(txn);
  } catch (err) {
    modal(t('refused'), (box, dialog) => box.append(problemView(ctx, err),
      h('div', {class: 'actions'}, h('button', {type: 'button', class: 'primary', onclick: () => dialog.close()}, t('ok')))));
  }
}

/** Open IOUs, each to repay in part or in full, pass on to a third player, or forgive. */
export function iouList(ctx, ious, form) {
  return h('ul', {class: 'ious'}, ious.map((iou) => {
    const repay = numberInput({name: 'amount', min: 1, value: iou.outstanding, 'aria-label': t('repay_amount')});
    // Passed on to a third player the move offers: neither its holder nor its debtor takes it.
    const parties = [iou.holder, iou.debtor];
    const others = ctx.choices('iou_transfer', 'to').filter((c) => !parties.includes(c));
    const to = others.length ? accountSelect(ctx, 'iou_transfer', 'to', others[0], {exclude: parties}) : null;
    if (to) to.setAttribute('aria-label', t('pass_to'));
    return h('li', {class: 'iou'},
      h('p', {}, t('iou_line', {debtor: ctx.name(iou.debtor), holder: ctx.name(iou.holder), amount: ctx.money(iou.outstanding), of: ctx.money(iou.amount)})),
      h('div', {class: 'moves'},
        repay, form.button(t('repay'), () => {
          const a = amountOf(repay, form.errorBox);
          return a === undefined ? undefined : moveBody(ctx, 'iou_repay', {iou: iou.id, amount: a});
        }, {cls: 'secondary'}),
        to, to ? form.button(t('pass_on'), () => moveBody(ctx, 'iou_transfer', {iou: iou.id, to: to.value}), {cls: 'secondary'}) : null,
        // Forgiving what is still owed, with what it would do shown first (its own form).
        h('button', {type: 'button', class: 'secondary', onclick: () => {
          form.dialog.close();
          moveDialog(ctx, txnDialog, 'iou_forgive', {}, {title: t('forgive'), record: t('forgive'), fixed: {iou: iou.id},
            intro: () => [h('p', {}, t('iou_line', {debtor: ctx.name(iou.debtor), holder: ctx.name(iou.holder),
              amount: ctx.money(iou.outstanding), of: ctx.money(iou.amount)}))]});
        }}, t('forgive'))));
  }));
}

/** Every open IOU of the game, each to repay, pass on or forgive from here. */
export function iousDialog(ctx) {
  txnDialog(ctx, t('open_ious'), (body, form) => {
    body.append(iouList(ctx, (ctx.game.ious || []).filter((i) => i.outstanding > 0), form));
  }, {wide: true});
}

/**
 * A bankruptcy. Opened from a refusal for want of cash (`creditor`, `owed`: the debt that
 * could not be paid), it comes filled in with them; `pendingDialog`, the dialog of that
 * refused move, closes when the bankruptcy is recorded.
 * @param {*} ctx
 * @param {*} debtorId
 * @param {{creditor?: string, owed?: number|null, pendingDialog?: any}} [options]
 */
export function bankruptcyDialog(ctx, debtorId, {creditor: creditorPreset = 'bank', owed: owedPreset = null, pendingDialog = null} = {}) {
  txnDialog(ctx, t('a_bankruptcy'), (body, form) => {
    const debtor = ctx.byId.get(debtorId);
    const creditorValue = creditorPreset === debtorId ? 'bank' : creditorPreset;
    // The creditors the move offers (the Bank, the players; never the pot, though payments go
    // to it where the game collects one), but the debtor himself.
    const creditor = accountSelect(ctx, 'bankruptcy', 'creditor', creditorValue, {exclude: [debtorId], name: 'creditor'});
    const owed = numberInput({name: 'owed', min: 1, value: owedPreset ?? undefined});
    const liqSlot = h('div', {class: 'liquidation-slot'}, h('p', {class: 'muted'}, t('loading')));
    const liftBox = h('div', {});
    const lifted = new Set();
    const payload = () => {
      if (owed.value.trim() && typed(owed) === null) return null;
      return moveBody(ctx, 'bankruptcy', {debtor: debtorId, creditor: creditor.value, owed: typed(owed),
        unmortgage: lifted.size && ctx.byId.has(creditor.value) ? [...lifted] : null});
    };
    const verdict = quoteBox(ctx, payload, {testid: 'bankruptcy-quote'});
    const update = () => {
      const mortgaged = ctx.board.deedsOf(ctx.game, debtorId).filter((d) => ctx.game.properties[d.id].mortgaged);
      replace(liftBox, ctx.byId.has(creditor.value) && mortgaged.length ? h('fieldset', {}, h('legend', {}, t('creditor_lifts')),
        mortgaged.map((d) => {
          const cid = nextId('lift');
          return h('div', {class: 'check'}, h('input', {type: 'checkbox', id: cid, checked: lifted.has(d.id),
            onchange: (ev) => { if (ev.target.checked) lifted.add(d.id); else lifted.delete(d.id); verdict.refresh(); }}),
          h('label', {for: cid}, d.name));
        })) : null);
      verdict.refresh();
    };
    creditor.addEventListener('change', update);
    owed.addEventListener('input', verdict.refresh);
    ctx.api.liquidation(ctx.id, debtorId).then((l) => replace(liqSlot, liquidationView(ctx, l)))
      .catch((err) => replace(liqSlot, problemView(ctx, err)));
    body.append(h('p', {}, t('bankruptcy_intro', {name: debtor.name})), liqSlot,
      field(t('creditor'), creditor), field(t('owed'), owed, t('owed_hint')), liftBox, verdict.el, form.memoField(),
      h('div', {class: 'actions'}, form.button(t('declare_bankruptcy'), () => {
        if (owed.value.trim() && amountOf(owed, form.errorBox) === undefined) return undefined;
        return payload();
      }, {cls: 'danger', testid: 'declare-bankruptcy', then: () => { if (pendingDialog && pendingDialog.open) pendingDialog.close(); },
        done: (txn) => auctionPrompt(ctx, txn)})));
    update();
  }, {wide: true});
}

/**
 * After a bankruptcy that left deeds with the Bank (docs/rules.md, "Bankruptcy": the banker
 * auctions them), the deeds to auction, each opening its auction: those of the bankruptcy's
 * deeds the Bank holds now and the auction move offers. The deeds the server says were
 * returned (`deeds_returned`: Millionaire Elite's rule, "Bankruptcy: the Bank pays the rest")
 * are back on the board unowned, to be bought by whoever lands on them: no auction is offered.
 */
export function auctionPrompt(ctx, txn) {
  const b = txn.basis || {};
  const named = b.deeds || [];
  const offered = new Set(ctx.choices('auction', 'property'));
  const left = named.filter((id) => offered.has(id) && ctx.game.properties[id] && ctx.game.properties[id].owner === 'bank');
  if (!left.length) return;
  // One auction at a time: the list comes back, without the deed just sold, once the table
  // shows the sale (the Bank's deeds are read again then).
  modal(t('auction_prompt_title'), (body, dialog) => {
    body.append(h('p', {}, t('auction_prompt', {name: ctx.name(b.debtor)})),
      h('div', {class: 'moves', dataset: {testid: 'auction-prompt'}}, left.map((id) =>
        h('button', {type: 'button', class: 'secondary', dataset: {deed: id}, onclick: () => {
          dialog.close();
          auctionDialog(ctx, id, {done: () => auctionPrompt(ctx, txn)});
        }}, ctx.deedName(id)))));
  });
}
