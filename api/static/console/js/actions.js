// The banker's moves, one dialog each. Every dialog shows the figures before the banker
// confirms, sends one POST per intent with its own Idempotency-Key (a double tap or a retry
// records once), and shows the server's refusal where the banker is looking.

import {h, append, replace, modal, field, select, numberInput, nextId, toast} from './dom.js';
import {t} from './i18n.js';
import {deedPicker, problemView, liquidationView, buildingsText, tileLine} from './views.js';
import {groupClass} from './rules.js';

/** Reads a whole amount from an input; marks the input and says why when it is not one. */
function amountOf(input, errorBox, {min = 1, optional = false} = {}) {
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

/**
 * A dialog recording transactions. `render(body, form)` builds the content; `form.button(label,
 * makeBody)` makes a button that records what `makeBody()` returns (undefined: not yet valid).
 * Each button holds one Idempotency-Key for the life of the dialog.
 */
export function txnDialog(ctx, title, render, {wide = false} = {}) {
  return modal(title, (body, dialog) => {
    const errorBox = h('div', {class: 'error-slot'});
    const memo = h('input', {type: 'text', name: 'memo', maxlength: 500, autocomplete: 'off'});
    const form = {
      errorBox,
      dialog,
      memoField: () => field(t('memo'), memo, t('memo_hint')),
      button(label, makeBody, {cls = 'primary', testid} = {}) {
        let busy = false;
        const btn = h('button', {type: 'button', class: cls, dataset: testid ? {testid} : undefined, onclick: async () => {
          if (busy) return;
          replace(errorBox);
          const payload = makeBody();
          if (!payload) return;
          if (memo.value.trim() && !payload.memo) payload.memo = memo.value.trim();
          busy = true;
          btn.setAttribute('aria-busy', 'true');
          btn.disabled = true;
          try {
            const txn = await recordOnce(ctx, payload, {ask: true});
            if (!txn) return;
            dialog.close();
            ctx.after(txn);
          } catch (err) {
            replace(errorBox, problemView(ctx, err, {onLiquidation: ctx.raiseButtons ? (pid) => ctx.raiseButtons(pid, dialog) : null}));
            markFields(body, err);
            errorBox.scrollIntoView({block: 'nearest'});
          } finally {
            busy = false;
            btn.disabled = false;
            btn.removeAttribute('aria-busy');
          }
        }}, label);
        return btn;
      },
    };
    render(body, form);
    body.append(errorBox);
  }, {wide});
}

/**
 * Records a move once per intent (intents.js): a tap while it is on its way is ignored; the
 * same move again moments after it was recorded is a double tap, shown as done (a quick
 * button) or asked about (`ask`: a dialog the banker filled in). Resolves to the transaction,
 * to {queued: true} when it waits in the outbox, or to null when nothing was sent.
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

function playerSelect(ctx, value, {exclude = [], bank = false, pot = false, name} = {}) {
  const opts = ctx.activePlayers().filter((p) => !exclude.includes(p.id)).map((p) => [p.id, p.name]);
  if (bank) opts.push(['bank', t('bank')]);
  if (pot && 'pot' in ctx.game.balances) opts.push(['pot', ctx.name('pot')]);
  return select(opts, value, {name});
}

function preview() {
  return h('div', {class: 'preview', 'aria-live': 'polite'});
}

// -- payments -----------------------------------------------------------------------------

export function payDialog(ctx, player) {
  txnDialog(ctx, t('a_payment'), (body, form) => {
    const from = playerSelect(ctx, player, {bank: true, pot: true, name: 'from'});
    const others = ctx.activePlayers().find((p) => p.id !== player);
    const to = playerSelect(ctx, player === 'bank' ? others?.id : 'bank', {bank: true, pot: true, name: 'to'});
    const amount = numberInput({name: 'amount', min: 1, required: true});
    body.append(field(t('from'), from), field(t('to'), to), field(t('amount'), amount), form.memoField(),
      h('div', {class: 'actions'}, form.button(t('record_payment'), () => {
        const value = amountOf(amount, form.errorBox);
        if (value === undefined) return undefined;
        if (from.value === to.value) {
          replace(form.errorBox, h('p', {class: 'problem', role: 'alert'}, t('same_account')));
          return undefined;
        }
        return {type: 'payment', from: from.value, to: to.value, amount: value};
      }, {testid: 'record-payment'})));
  });
}

export function rentDialog(ctx, payer) {
  txnDialog(ctx, t('a_rent'), (body, form) => {
    let deedId = null;
    const payerSel = playerSelect(ctx, payer, {name: 'payer'});
    const dice = numberInput({name: 'dice', min: 2, max: 12});
    const diceField = field(t('dice_total'), dice, t('dice_hint'));
    diceField.hidden = true;
    const multiplier = select([[1, '×1'], [2, '×2'], [3, '×3']], 1, {name: 'multiplier'});
    const amount = numberInput({name: 'amount', min: 0});
    const amountField = field(t('rent_amount'), amount, t('rent_amount_hint'));
    amountField.hidden = true;
    const view = preview();
    const button = form.button(t('record_rent'), () => {
      if (!deedId) { replace(form.errorBox, h('p', {class: 'problem', role: 'alert'}, t('choose_deed'))); return undefined; }
      const out = {type: 'rent', payer: payerSel.value, property: deedId};
      if (!diceField.hidden) {
        const d = amountOf(dice, form.errorBox, {min: 2});
        if (d === undefined) return undefined;
        out.dice = d;
      }
      if (Number(multiplier.value) > 1) out.multiplier = Number(multiplier.value);
      if (!amountField.hidden && amount.value.trim()) {
        const a = amountOf(amount, form.errorBox, {min: 0});
        if (a === undefined) return undefined;
        out.amount = a;
      }
      return out;
    }, {testid: 'record-rent'});
    const update = () => {
      replace(view);
      if (!deedId) { button.textContent = t('record_rent'); return; }
      const r = ctx.board.rent(ctx.game, deedId, {dice: Number(dice.value) || null, multiplier: Number(multiplier.value)});
      diceField.hidden = !r.needsDice;
      const prop = ctx.game.properties[deedId];
      view.append(h('p', {class: 'preview-title'}, `${ctx.deedName(deedId)} · ${t('owner')}: ${ctx.name(prop.owner)}`));
      if (r.noRent) {
        view.append(h('p', {class: 'warn'}, t(`norent_${r.noRent}`)));
      }
      const lines = r.lines.map(([k, v]) => h('li', {}, `${t(`b_${k}`, {}, k)}: ${typeof v === 'boolean' ? (v ? t('yes') : t('no')) : (k === 'base_rent' ? ctx.money(v) : v)}`));
      if (lines.length) view.append(h('ul', {class: 'basis-lines'}, lines));
      amountField.hidden = r.amount !== null || r.needsDice || Boolean(r.noRent);
      if (r.amount !== null) {
        view.append(h('p', {class: 'preview-amount', dataset: {testid: 'rent-amount'}}, `${t('rent')}: ${ctx.money(r.amount)}`));
        button.textContent = `${t('record_rent')} ${ctx.money(r.amount)}`;
      } else {
        if (!r.needsDice && !r.noRent) view.append(h('p', {class: 'muted small'}, t('rent_server_computes')));
        button.textContent = t('record_rent');
      }
    };
    const picker = deedPicker(ctx, {
      label: t('deed_landed_on'),
      eligible: (d, p) => p.owner !== 'bank' && p.owner !== payerSel.value,
      onChange: (id) => { deedId = id; update(); },
    });
    const pickerSlot = h('div', {}, picker);
    payerSel.addEventListener('change', () => {
      deedId = null;
      replace(pickerSlot, deedPicker(ctx, {
        label: t('deed_landed_on'),
        eligible: (d, p) => p.owner !== 'bank' && p.owner !== payerSel.value,
        onChange: (id) => { deedId = id; update(); },
      }));
      update();
    });
    dice.addEventListener('input', update);
    multiplier.addEventListener('change', update);
    body.append(field(t('payer'), payerSel), h('h3', {class: 'sub'}, t('deed_landed_on')), pickerSlot,
      diceField, field(t('multiplier'), multiplier, t('multiplier_hint')), amountField, view, form.memoField(),
      h('div', {class: 'actions'}, button));
  }, {wide: true});
}

// -- deeds --------------------------------------------------------------------------------

export function buyDialog(ctx, player) {
  txnDialog(ctx, t('a_buy'), (body, form) => {
    let deedId = null;
    const who = playerSelect(ctx, player, {name: 'player'});
    const price = numberInput({name: 'price', min: 1});
    const priceField = field(t('price'), price, t('price_hint'));
    priceField.hidden = true;
    const button = form.button(t('buy'), () => {
      if (!deedId) { replace(form.errorBox, h('p', {class: 'problem', role: 'alert'}, t('choose_deed'))); return undefined; }
      const out = {type: 'buy', player: who.value, property: deedId};
      if (!priceField.hidden) {
        const p = amountOf(price, form.errorBox);
        if (p === undefined) return undefined;
        out.price = p;
      }
      return out;
    }, {testid: 'record-buy'});
    const picker = deedPicker(ctx, {
      eligible: (d, p) => p.owner === 'bank',
      onChange: (id) => {
        deedId = id;
        const printed = ctx.price(ctx.board.deed(id));
        priceField.hidden = printed !== null;
        button.textContent = printed !== null ? `${t('buy')} ${ctx.deedName(id)} ${ctx.money(printed)}` : `${t('buy')} ${ctx.deedName(id)}`;
      },
    });
    body.append(field(t('buyer'), who), picker, priceField, form.memoField(), h('div', {class: 'actions'}, button));
  }, {wide: true});
}

export function auctionDialog(ctx, deedPreset = null) {
  txnDialog(ctx, t('a_auction'), (body, form) => {
    let deedId = deedPreset;
    const winner = playerSelect(ctx, ctx.activePlayers()[0]?.id, {name: 'winner'});
    const bid = numberInput({name: 'bid', min: 1});
    const view = preview();
    const picker = deedPicker(ctx, {
      selected: deedPreset ? [deedPreset] : [],
      eligible: (d, p) => p.owner === 'bank' || (ctx.board.elite && d.kind === 'plot'),
      onChange: (id) => {
        deedId = id;
        const printed = ctx.price(ctx.board.deed(id));
        replace(view, printed !== null ? h('p', {}, `${t('printed_price')}: ${ctx.money(printed)}`) : null);
      },
    });
    body.append(picker, view, field(t('winner'), winner), field(t('winning_bid'), bid, t('no_bid_hint')), form.memoField(),
      h('div', {class: 'actions'}, form.button(t('record_auction'), () => {
        if (!deedId) { replace(form.errorBox, h('p', {class: 'problem', role: 'alert'}, t('choose_deed'))); return undefined; }
        const b = amountOf(bid, form.errorBox);
        if (b === undefined) return undefined;
        return {type: 'auction', property: deedId, winner: winner.value, bid: b};
      })));
  }, {wide: true});
}

export function mortgageDialog(ctx, player) {
  txnDialog(ctx, t('a_mortgage'), (body, form) => {
    const deeds = ctx.board.deedsOf(ctx.game, player);
    if (!deeds.length) { body.append(h('p', {class: 'muted'}, t('no_deeds'))); return; }
    const list = h('ul', {class: 'deed-rows'});
    for (const d of deeds) {
      const prop = ctx.game.properties[d.id];
      const row = h('li', {class: `deed-row ${groupClass(ctx.board, d.group)}`},
        h('span', {class: 'swatch', 'aria-hidden': 'true'}), h('span', {class: 'grow'}, d.name, h('small', {class: 'muted'}, ` ${tileLine(ctx, d, prop)}`)));
      if (prop.mortgaged) {
        const cost = ctx.board.unmortgageCost({...d, price: ctx.price(d)});
        row.append(form.button(cost !== null ? `${t('unmortgage')} −${ctx.money(cost)}` : t('unmortgage'),
          () => ({type: 'unmortgage', property: d.id}), {cls: 'secondary'}));
      } else if (ctx.board.groupBuilt(ctx.game, d.id)) {
        row.append(h('span', {class: 'muted small'}, t('sell_buildings_first')));
      } else {
        const mv = d.mortgage_value ?? (ctx.price(d) !== null ? Math.floor(ctx.price(d) / 2) : null);
        const price = d.mortgage_value === null || d.mortgage_value === undefined ? numberInput({name: 'price', min: 1, 'aria-label': t('price')}) : null;
        if (price && ctx.price(d) === null) row.append(price);
        row.append(form.button(mv !== null ? `${t('mortgage')} +${ctx.money(mv)}` : t('mortgage'), () => {
          const out = {type: 'mortgage', property: d.id};
          if (price && ctx.price(d) === null) {
            const p = amountOf(price, form.errorBox);
            if (p === undefined) return undefined;
            out.price = p;
          }
          return out;
        }, {cls: 'secondary'}));
      }
      list.append(row);
    }
    body.append(list);
  }, {wide: true});
}

export function buildDialog(ctx, player) {
  txnDialog(ctx, t('a_build'), (body, form) => {
    const groups = ctx.board.buildableGroups(ctx.game, player);
    const supply = ctx.game.bank || {};
    if (supply.houses !== null && supply.houses !== undefined) {
      body.append(h('p', {class: 'muted small'}, t('bank_supply', {houses: supply.houses, hotels: supply.hotels})));
    }
    if (!groups.length) { body.append(h('p', {class: 'muted'}, t('no_complete_group', {name: ctx.name(player)}))); return; }
    const price = numberInput({name: 'price', min: 1});
    const withPrice = (orders) => {
      const raw = price.value.trim();
      if (!raw) return orders;
      const p = amountOf(price, form.errorBox);
      if (p === undefined) return undefined;
      return orders.map((o) => ({...o, price: p}));
    };
    for (const {group, deeds, mortgaged} of groups) {
      const moves = ctx.board.groupMoves(ctx.game, group);
      const section = h('section', {class: `group-moves ${groupClass(ctx.board, group)}`},
        h('h3', {}, h('span', {class: 'swatch', 'aria-hidden': 'true'}), ' ', deeds.map((d) => d.name).join(' · ')),
        h('ul', {class: 'levels'}, deeds.map((d) => h('li', {}, `${d.name}: ${buildingsText(ctx.game.properties[d.id]) || t('no_buildings')}`))));
      if (mortgaged) section.append(h('p', {class: 'warn'}, t('group_mortgaged')));
      const buildRow = h('div', {class: 'moves'});
      for (const m of moves.build) {
        const label = m.kind === 'row' ? `${t('house_on_each')} −${ctx.money(m.amount)}`
          : m.kind === 'hotel' ? `${t('hotel_on', {deed: m.deed.name})} −${ctx.money(m.amount)}`
            : `${t('house_on', {deed: m.deed.name})} −${ctx.money(m.amount)}`;
        buildRow.append(form.button(label, () => {
          const orders = withPrice(m.orders);
          return orders && {type: 'build', orders};
        }, {cls: 'secondary'}));
      }
      const sellRow = h('div', {class: 'moves'});
      for (const m of moves.sell) {
        const label = m.kind === 'all' ? t('sell_all_group')
          : m.kind === 'break_down' ? t('break_down_on', {deed: m.deed.name})
            : m.kind === 'hotel' ? t('sell_hotel_on', {deed: m.deed.name})
              : t('sell_house_on', {deed: m.deed.name});
        sellRow.append(form.button(`${label} +${ctx.money(m.amount)}`, () => ({type: 'sell_buildings', orders: m.orders}), {cls: 'secondary'}));
      }
      if (moves.build.length) section.append(h('h4', {}, t('build')), buildRow);
      if (moves.sell.length) section.append(h('h4', {}, t('sell')), sellRow);
      if (!moves.build.length && !moves.sell.length) section.append(h('p', {class: 'muted small'}, t('no_legal_moves')));
      body.append(section);
    }
    body.append(h('details', {}, h('summary', {}, t('more_fields')), field(t('price_per_building'), price, t('price_per_building_hint'))));
  }, {wide: true});
}

// -- taxes, cards, jail ------------------------------------------------------------------

export function taxDialog(ctx, player) {
  txnDialog(ctx, t('a_tax'), (body, form) => {
    const who = playerSelect(ctx, player, {name: 'player'});
    const slot = h('div', {});
    const draw = () => {
      const pid = who.value;
      const it = ctx.board.incomeTax(ctx.game, pid, ctx.game.options);
      const lux = ctx.board.luxuryTax(ctx.game.options);
      const income = h('section', {class: 'tax'}, h('h3', {}, t('income_tax')),
        h('p', {class: 'small'}, t('tax_worth', {cash: ctx.money(ctx.game.balances[pid]), worth: ctx.money(it.worth)})),
        h('div', {class: 'choice-row'},
          it.allowed.includes('flat') ? form.button(h('span', {}, h('span', {class: 'big'}, ctx.money(it.flat)), h('small', {}, t('flat'))),
            () => ({type: 'tax', player: pid, tax: 'income', ...(ctx.game.options.income_tax === 'choice' || !ctx.game.options.income_tax ? {choice: 'flat'} : {})}), {cls: 'choice', testid: 'tax-flat'}) : null,
          it.allowed.includes('percent') ? form.button(h('span', {}, h('span', {class: 'big'}, ctx.money(it.percent)), h('small', {}, `${it.pct} % · ${ctx.money(it.worth)}`)),
            () => ({type: 'tax', player: pid, tax: 'income', ...(ctx.game.options.income_tax === 'choice' || !ctx.game.options.income_tax ? {choice: 'percent'} : {})}), {cls: 'choice', testid: 'tax-percent'}) : null));
      const luxury = h('section', {class: 'tax'}, h('h3', {}, t('luxury_tax')),
        form.button(`${t('luxury_tax')} ${ctx.money(lux)}`, () => ({type: 'tax', player: pid, tax: 'luxury'}), {cls: 'secondary'}));
      replace(slot, it.flat || it.pct ? income : null, lux ? luxury : null);
    };
    who.addEventListener('change', draw);
    draw();
    body.append(field(t('player'), who), slot, form.memoField());
  });
}

const EFFECTS = ['collect', 'pay', 'collect_from_each', 'pay_each', 'repairs'];

export function cardDialog(ctx, player) {
  txnDialog(ctx, t('a_card'), (body, form) => {
    const who = playerSelect(ctx, player, {name: 'player'});
    const name = nextId('effect');
    let effect = 'collect';
    const amount = numberInput({name: 'amount', min: 1});
    const perHouse = numberInput({name: 'per_house', min: 0});
    const perHotel = numberInput({name: 'per_hotel', min: 0});
    const amountField = field(t('amount'), amount);
    const repairs = h('div', {class: 'grid2'}, field(t('per_house'), perHouse), field(t('per_hotel'), perHotel));
    repairs.hidden = true;
    const view = preview();
    const update = () => {
      amountField.hidden = effect === 'repairs';
      repairs.hidden = effect !== 'repairs';
      const others = ctx.activePlayers().filter((p) => p.id !== who.value).length;
      const a = Number(amount.value) || 0;
      let text = '';
      if (effect === 'repairs') {
        const {houses, hotels} = ctx.board.buildingsOf(ctx.game, who.value);
        text = t('repairs_preview', {houses, hotels, amount: ctx.money(houses * (Number(perHouse.value) || 0) + hotels * (Number(perHotel.value) || 0))});
      } else if (effect === 'collect_from_each' || effect === 'pay_each') {
        text = t('each_preview', {n: others, amount: ctx.money(a), total: ctx.money(a * others)});
      }
      replace(view, text ? h('p', {}, text) : null);
    };
    const radios = h('fieldset', {class: 'radios'}, h('legend', {}, t('card_effect')), EFFECTS.map((e) => {
      const id = nextId('eff');
      return h('div', {class: 'radio'}, h('input', {type: 'radio', name, id, value: e, checked: e === effect,
        onchange: () => { effect = e; update(); }}), h('label', {for: id}, t(`effect_${e}`)));
    }));
    [amount, perHouse, perHotel].forEach((i) => i.addEventListener('input', update));
    who.addEventListener('change', update);
    update();
    body.append(field(t('player'), who), radios, amountField, repairs, view, form.memoField(),
      h('div', {class: 'actions'}, form.button(t('record_card'), () => {
        const out = {type: 'card', player: who.value, effect};
        if (effect === 'repairs') {
          const ph = amountOf(perHouse, form.errorBox, {min: 0});
          if (ph === undefined) return undefined;
          const pt = amountOf(perHotel, form.errorBox, {min: 0});
          if (pt === undefined) return undefined;
          Object.assign(out, {per_house: ph, per_hotel: pt});
        } else {
          const a = amountOf(amount, form.errorBox);
          if (a === undefined) return undefined;
          out.amount = a;
        }
        return out;
      })));
  });
}

export function jailDialog(ctx, player) {
  const p = ctx.byId.get(player);
  txnDialog(ctx, `${t('a_jail')}: ${p.name}`, (body, form) => {
    const fine = ctx.board.params.jail_fine ?? 50;
    body.append(h('p', {}, p.in_jail ? t('is_in_jail', {name: p.name}) : t('not_in_jail', {name: p.name})));
    const row = h('div', {class: 'moves'});
    if (!p.in_jail) row.append(form.button(t('go_to_jail'), () => ({type: 'go_to_jail', player})));
    row.append(form.button(`${t('pay_fine')} ${ctx.money(fine)}`, () => ({type: 'jail_fine', player}), {cls: 'secondary'}));
    if (p.in_jail) row.append(form.button(t('leave_jail_doubles'), () => ({type: 'leave_jail', player}), {cls: 'secondary'}));
    for (const deck of ['chance', 'community_chest']) {
      const holder = (ctx.game.jail_cards || {})[deck];
      if (holder === player) {
        row.append(form.button(t('use_card', {deck: t(`deck_${deck}`)}), () => ({type: 'jail_card', player, action: 'use', deck}), {cls: 'secondary'}));
      } else if (holder === 'deck') {
        row.append(form.button(t('draw_card', {deck: t(`deck_${deck}`)}), () => ({type: 'jail_card', player, action: 'draw', deck}), {cls: 'secondary'}));
      }
    }
    body.append(row, form.memoField());
  });
}

// -- deals ---------------------------------------------------------------------------------

export function tradeDialog(ctx, player) {
  txnDialog(ctx, t('a_trade'), (body, form) => {
    const active = ctx.activePlayers();
    const other = active.find((x) => x.id !== player) || active[0];
    const legs = [];
    const legsBox = h('div', {class: 'legs'});
    const unmortgageBox = h('div', {});
    const summary = preview();
    const lifted = new Set();

    const refresh = () => {
      const mortgaged = legs.flatMap((leg) => leg.deeds()).filter((id) => ctx.game.properties[id].mortgaged);
      for (const id of [...lifted]) if (!mortgaged.includes(id)) lifted.delete(id);
      replace(unmortgageBox, mortgaged.length ? h('fieldset', {}, h('legend', {}, t('lift_at_once')), mortgaged.map((id) => {
        const cid = nextId('um');
        const d = ctx.board.deed(id);
        const fee = ctx.board.mortgageFee({...d, price: ctx.price(d)});
        const cost = ctx.board.unmortgageCost({...d, price: ctx.price(d)});
        return h('div', {class: 'check'}, h('input', {type: 'checkbox', id: cid, checked: lifted.has(id),
          onchange: (ev) => { if (ev.target.checked) lifted.add(id); else lifted.delete(id); refresh(); }}),
        h('label', {for: cid}, `${d.name}: ${lifted.has(id) ? t('lift_cost', {amount: ctx.money(cost ?? 0)}) : t('interest_now', {amount: ctx.money(fee ?? 0)})}`));
      })) : null);
      replace(summary, legs.map((leg) => leg.describe()).filter(Boolean).map((s) => h('p', {}, s)));
    };

    const addLeg = (fromId, toId) => {
      const from = playerSelect(ctx, fromId, {name: 'from'});
      const to = playerSelect(ctx, toId, {name: 'to'});
      const cash = numberInput({name: 'cash', min: 0, placeholder: '0'});
      let deeds = [];
      let cards = [];
      const pickSlot = h('div', {});
      const cardsSlot = h('div', {});
      const drawPick = () => {
        deeds = [];
        cards = [];
        replace(pickSlot, deedPicker(ctx, {
          multiple: true,
          label: t('deeds_given'),
          // A deed of a group with buildings cannot change hands: sell them first.
          eligible: (d, p) => p.owner === from.value && !ctx.board.groupBuilt(ctx.game, d.id),
          onChange: (ids) => { deeds = ids; refresh(); },
        }));
        const held = Object.entries(ctx.game.jail_cards || {}).filter(([, holder]) => holder === from.value).map(([deck]) => deck);
        replace(cardsSlot, held.map((deck) => {
          const cid = nextId('jc');
          return h('div', {class: 'check'}, h('input', {type: 'checkbox', id: cid, onchange: (ev) => {
            cards = ev.target.checked ? [...cards, deck] : cards.filter((c) => c !== deck);
            refresh();
          }}), h('label', {for: cid}, t('jail_card_of', {deck: t(`deck_${deck}`)})));
        }));
      };
      const leg = {
        el: null,
        deeds: () => deeds,
        body() {
          const out = {from: from.value, to: to.value};
          const c = cash.value.trim() ? Number(cash.value) : 0;
          if (c) out.cash = c;
          if (deeds.length) out.properties = deeds;
          if (cards.length) out.jail_cards = cards;
          return out;
        },
        cashInput: cash,
        describe() {
          const parts = [];
          const c = Number(cash.value) || 0;
          if (c) parts.push(ctx.money(c));
          parts.push(...deeds.map((id) => ctx.deedName(id)));
          parts.push(...cards.map((deck) => t('jail_card_of', {deck: t(`deck_${deck}`)})));
          return parts.length ? `${ctx.name(from.value)} → ${ctx.name(to.value)}: ${parts.join(', ')}` : null;
        },
      };
      from.addEventListener('change', () => { drawPick(); refresh(); });
      to.addEventListener('change', refresh);
      cash.addEventListener('input', refresh);
      const remove = h('button', {type: 'button', class: 'link', onclick: () => {
        legs.splice(legs.indexOf(leg), 1);
        leg.el.remove();
        refresh();
      }}, t('remove_leg'));
      leg.el = h('fieldset', {class: 'leg'}, h('legend', {}, t('leg')),
        h('div', {class: 'grid2'}, field(t('gives'), from), field(t('to'), to)),
        field(t('cash'), cash), pickSlot, cardsSlot, remove);
      drawPick();
      legs.push(leg);
      legsBox.append(leg.el);
      refresh();
    };

    addLeg(player, other.id);
    addLeg(other.id, player);
    body.append(h('p', {class: 'muted small'}, t('trade_hint')), legsBox,
      h('button', {type: 'button', class: 'secondary', onclick: () => addLeg(player, other.id)}, t('add_leg')),
      unmortgageBox, h('h3', {class: 'sub'}, t('the_deal')), summary, form.memoField(),
      h('div', {class: 'actions'}, form.button(t('record_trade'), () => {
        const out = [];
        for (const leg of legs) {
          const raw = leg.cashInput.value.trim();
          if (raw && (!Number.isInteger(Number(raw)) || Number(raw) < 0)) {
            amountOf(leg.cashInput, form.errorBox, {min: 0});
            return undefined;
          }
          const b = leg.body();
          if (b.from === b.to) { replace(form.errorBox, h('p', {class: 'problem', role: 'alert'}, t('same_account'))); return undefined; }
          if (b.cash || b.properties || b.jail_cards) out.push(b);
        }
        if (!out.length) { replace(form.errorBox, h('p', {class: 'problem', role: 'alert'}, t('empty_trade'))); return undefined; }
        const payload = {type: 'trade', legs: out};
        if (lifted.size) payload.unmortgage = [...lifted];
        return payload;
      })));
  }, {wide: true});
}

export function iouDialog(ctx, player) {
  txnDialog(ctx, t('a_iou'), (body, form) => {
    const debtor = playerSelect(ctx, player, {name: 'debtor'});
    const creditor = playerSelect(ctx, ctx.activePlayers().find((p) => p.id !== player)?.id, {name: 'creditor'});
    const amount = numberInput({name: 'amount', min: 1});
    body.append(h('p', {class: 'muted small'}, t('iou_hint')), field(t('debtor'), debtor), field(t('creditor'), creditor),
      field(t('amount'), amount), form.memoField(), h('div', {class: 'actions'}, form.button(t('issue_iou'), () => {
        const a = amountOf(amount, form.errorBox);
        if (a === undefined) return undefined;
        return {type: 'iou', debtor: debtor.value, creditor: creditor.value, amount: a};
      })));
    const mine = (ctx.game.ious || []).filter((i) => i.outstanding > 0 && (i.debtor === player || i.holder === player));
    if (mine.length) body.append(h('h3', {class: 'sub'}, t('open_ious')), iouList(ctx, mine, form));
  });
}

/** Open IOUs with their moves: repay (all or part), pass on, forgive. */
export function iouList(ctx, ious, form) {
  return h('ul', {class: 'ious'}, ious.map((iou) => {
    const repay = numberInput({name: 'amount', min: 1, value: iou.outstanding, 'aria-label': t('repay_amount')});
    const to = playerSelect(ctx, ctx.activePlayers().find((p) => p.id !== iou.holder && p.id !== iou.debtor)?.id, {exclude: [iou.holder]});
    to.setAttribute('aria-label', t('pass_to'));
    return h('li', {class: 'iou'},
      h('p', {}, h('strong', {}, iou.id), ` ${t('iou_line', {debtor: ctx.name(iou.debtor), holder: ctx.name(iou.holder), amount: ctx.money(iou.outstanding), of: ctx.money(iou.amount)})}`),
      h('div', {class: 'moves'},
        repay, form.button(t('repay'), () => {
          const a = amountOf(repay, form.errorBox);
          return a === undefined ? undefined : {type: 'iou_repay', iou: iou.id, amount: a};
        }, {cls: 'secondary'}),
        to, form.button(t('pass_on'), () => ({type: 'iou_transfer', iou: iou.id, to: to.value}), {cls: 'secondary'}),
        form.button(t('forgive'), () => ({type: 'iou_forgive', iou: iou.id}), {cls: 'secondary'})));
  }));
}

export function iousDialog(ctx) {
  txnDialog(ctx, t('open_ious'), (body, form) => {
    body.append(iouList(ctx, (ctx.game.ious || []).filter((i) => i.outstanding > 0), form));
  }, {wide: true});
}

export function bankruptcyDialog(ctx, debtorId) {
  txnDialog(ctx, t('a_bankruptcy'), (body, form) => {
    const debtor = ctx.byId.get(debtorId);
    const creditor = playerSelect(ctx, 'bank', {exclude: [debtorId], bank: true, name: 'creditor'});
    const owed = numberInput({name: 'owed', min: 1});
    const liqSlot = h('div', {class: 'liquidation-slot'}, h('p', {class: 'muted'}, t('loading')));
    const verdict = preview();
    const liftBox = h('div', {});
    let liq = null;
    const lifted = new Set();
    const update = () => {
      const o = Number(owed.value) || 0;
      replace(verdict, liq && o ? h('p', {class: liq.total < o ? 'ok' : 'warn'},
        liq.total < o ? t('insolvent', {total: ctx.money(liq.total), owed: ctx.money(o)})
          : t('not_insolvent_yet', {total: ctx.money(liq.total), owed: ctx.money(o)})) : null);
      const mortgaged = ctx.board.deedsOf(ctx.game, debtorId).filter((d) => ctx.game.properties[d.id].mortgaged);
      replace(liftBox, creditor.value !== 'bank' && mortgaged.length ? h('fieldset', {}, h('legend', {}, t('creditor_lifts')),
        mortgaged.map((d) => {
          const cid = nextId('lift');
          const cost = ctx.board.unmortgageCost({...d, price: ctx.price(d)});
          return h('div', {class: 'check'}, h('input', {type: 'checkbox', id: cid, checked: lifted.has(d.id),
            onchange: (ev) => { if (ev.target.checked) lifted.add(d.id); else lifted.delete(d.id); }}),
          h('label', {for: cid}, `${d.name} (${t('lift_cost', {amount: ctx.money(cost ?? 0)})})`));
        })) : null);
    };
    creditor.addEventListener('change', update);
    owed.addEventListener('input', update);
    ctx.api.liquidation(ctx.id, debtorId).then((l) => {
      liq = l;
      replace(liqSlot, liquidationView(ctx, l));
      update();
    }).catch((err) => replace(liqSlot, problemView(ctx, err)));
    body.append(h('p', {}, t('bankruptcy_intro', {name: debtor.name})), liqSlot,
      field(t('creditor'), creditor), field(t('owed'), owed, t('owed_hint')), verdict, liftBox, form.memoField(),
      h('div', {class: 'actions'}, form.button(t('declare_bankruptcy'), () => {
        const out = {type: 'bankruptcy', debtor: debtorId, creditor: creditor.value};
        if (owed.value.trim()) {
          const o = amountOf(owed, form.errorBox);
          if (o === undefined) return undefined;
          out.owed = o;
        }
        if (lifted.size && creditor.value !== 'bank') out.unmortgage = [...lifted];
        return out;
      }, {cls: 'danger'})));
    update();
  }, {wide: true});
}

// -- Millionaire Elite -----------------------------------------------------------------------

export function sharesDialog(ctx, player) {
  txnDialog(ctx, t('a_shares'), (body, form) => {
    const who = playerSelect(ctx, player, {name: 'player'});
    const action = select([['buy', t('buy')], ['sell', t('sell')]], 'buy', {name: 'action'});
    const count = numberInput({name: 'count', min: 1, value: 1});
    const broker = select([['', '—'], ...ctx.activePlayers().map((p) => [p.id, p.name])], '', {name: 'commission_to'});
    const commission = numberInput({name: 'commission', min: 0});
    const view = preview();
    const update = () => {
      const price = ctx.sharePrice();
      replace(view, h('p', {}, t('shares_preview', {count: Number(count.value) || 0, price: ctx.money(price ?? 0), amount: ctx.money((Number(count.value) || 0) * (price ?? 0)), held: ctx.shares(who.value)})));
    };
    [who, action, count].forEach((el) => el.addEventListener('input', update));
    update();
    body.append(field(t('player'), who), field(t('action'), action), field(t('count'), count), view,
      h('details', {}, h('summary', {}, t('broker')), field(t('commission_to'), broker), field(t('commission'), commission)),
      form.memoField(), h('div', {class: 'actions'}, form.button(t('record_shares'), () => {
        const c = amountOf(count, form.errorBox);
        if (c === undefined) return undefined;
        const out = {type: 'shares', player: who.value, action: action.value, count: c};
        if (broker.value) {
          out.commission_to = broker.value;
          const cm = amountOf(commission, form.errorBox, {min: 0, optional: true});
          if (cm === undefined) return undefined;
          if (cm !== null) out.commission = cm;
        }
        return out;
      })));
  });
}

export function sharePriceDialog(ctx) {
  txnDialog(ctx, t('a_share_price'), (body, form) => {
    const price = ctx.sharePrice() ?? 0;
    const step = Number(ctx.board.params.share_point || 10);
    body.append(h('p', {}, `${t('share_price')}: ${ctx.money(price)}`));
    for (const direction of ['up', 'down']) {
      body.append(h('h3', {class: 'sub'}, t(`price_${direction}`)), h('div', {class: 'moves'}, [1, 2, 3, 4, 5, 6].map((points) => {
        const to = Math.max(0, price + (direction === 'up' ? 1 : -1) * points * step);
        return form.button(`${direction === 'up' ? '▲' : '▼'} ${points} → ${ctx.money(to)}`, () => ({type: 'share_price', direction, points}), {cls: 'secondary'});
      })));
    }
  }, {wide: true});
}

export function roundTaxDialog(ctx, player) {
  txnDialog(ctx, t('a_round_tax'), (body, form) => {
    const p = ctx.byId.get(player);
    const perShare = Number(ctx.board.params.share_tax || 0);
    const plot = numberInput({name: 'plot_tax', min: 0});
    // append() from dom.js, not Element.append: that one would write a null out as "null".
    append(body, [h('p', {}, t('round_tax_preview', {shares: ctx.shares(player), per: ctx.money(perShare), amount: ctx.money(ctx.shares(player) * perShare)})),
      p.tax_exempt ? h('p', {class: 'ok'}, t('tax_exempt_now')) : null,
      field(t('plot_tax'), plot, t('plot_tax_hint')), form.memoField(),
      h('div', {class: 'actions'}, form.button(t('record_round_tax'), () => {
        const out = {type: 'round_tax', player};
        const v = amountOf(plot, form.errorBox, {min: 0, optional: true});
        if (v === undefined) return undefined;
        if (v !== null) out.plot_tax = v;
        return out;
      }))]);
  });
}

export function insuranceDialog(ctx, player) {
  txnDialog(ctx, t('a_insurance'), (body, form) => {
    const prices = ctx.board.params.policies || {};
    const held = ctx.policies(player);
    body.append(h('p', {}, `${t('policies_held')}: ${held.length ? held.map((x) => t(`policy_${x}`)).join(', ') : '—'}`));
    for (const policy of Object.keys(prices)) {
      const row = h('div', {class: `moves policy policy-${policy}`}, h('span', {class: 'grow'}, `${t(`policy_${policy}`)} · ${ctx.money(prices[policy])}`));
      if (held.includes(policy)) {
        row.append(form.button(t('use_policy'), () => ({type: 'insurance', player, action: 'use', policy}), {cls: 'secondary'}),
          form.button(t('return_policy'), () => ({type: 'insurance', player, action: 'return', policy}), {cls: 'secondary'}));
      } else {
        row.append(form.button(t('buy_policy'), () => ({type: 'insurance', player, action: 'buy', policy}), {cls: 'secondary'}));
      }
      body.append(row);
    }
    body.append(form.memoField());
  });
}

export function jackpotDialog(ctx, player) {
  txnDialog(ctx, t('a_jackpot'), (body, form) => {
    const stake = numberInput({name: 'stake', min: 1});
    const payout = numberInput({name: 'payout', min: 0, value: 0});
    body.append(h('p', {}, `${ctx.name('pot')}: ${ctx.money(ctx.game.balances.pot ?? 0)}`),
      field(t('stake'), stake), field(t('payout'), payout, t('payout_hint')), form.memoField(),
      h('div', {class: 'actions'}, form.button(t('record_jackpot'), () => {
        const s = amountOf(stake, form.errorBox);
        if (s === undefined) return undefined;
        const p = amountOf(payout, form.errorBox, {min: 0});
        if (p === undefined) return undefined;
        return {type: 'jackpot', player, stake: s, payout: p};
      })));
  });
}

// -- the game ------------------------------------------------------------------------------

export function finishDialog(ctx) {
  txnDialog(ctx, t('a_finish'), (body, form) => {
    body.append(h('p', {}, t('finish_intro')),
      h('div', {class: 'actions'}, form.button(t('finish_now'), () => ({type: 'finish'}), {cls: 'danger'})));
  });
}

export function voidDialog(ctx, txn, summary) {
  txnDialog(ctx, t('a_void', {seq: txn.seq}), (body, form) => {
    const reason = h('input', {type: 'text', name: 'reason', maxlength: 200, required: true, autocomplete: 'off'});
    body.append(h('p', {}, summary), h('p', {class: 'muted small'}, t('void_hint')), field(t('reason'), reason),
      h('div', {class: 'actions'}, form.button(t('void'), () => {
        if (!reason.value.trim()) {
          reason.setAttribute('aria-invalid', 'true');
          replace(form.errorBox, h('p', {class: 'problem', role: 'alert'}, t('reason_required')));
          reason.focus();
          return undefined;
        }
        return {type: 'void', seq: txn.seq, reason: reason.value.trim()};
      }, {cls: 'danger'})));
  });
}

/** Every move for one player, grouped; each opens its dialog or records at once. */
export function actionSheet(ctx, player) {
  const p = ctx.byId.get(player);
  const elite = ctx.board.elite;
  const loans = ctx.game.options.player_loans === true || !('player_loans' in (ctx.board.rs.options || {}));
  modal(p.name, (body, dialog) => {
    const open = (fn) => () => { dialog.close(); fn(ctx, player); };
    const now = (label, payload) => ctx.quickButton(label, payload, {after: () => dialog.close()});
    const tiles = [
      [t('a_payment'), open(payDialog)],
      [t('a_rent'), open(rentDialog)],
      [t('a_buy'), open(buyDialog)],
      [t('a_auction'), () => { dialog.close(); auctionDialog(ctx); }],
      ...(ctx.board.params.income_tax_flat || ctx.board.params.income_tax_percent || ctx.board.params.luxury_tax ? [[t('a_tax'), open(taxDialog)]] : []),
      [t('a_card'), open(cardDialog)],
      [t('a_jail'), open(jailDialog)],
      [t('a_build'), open(buildDialog)],
      [t('a_mortgage'), open(mortgageDialog)],
      [t('a_trade'), open(tradeDialog)],
      ...(loans ? [[t('a_iou'), open(iouDialog)]] : []),
      ...(elite ? [[t('a_shares'), open(sharesDialog)], [t('a_round_tax'), open(roundTaxDialog)],
        [t('a_insurance'), open(insuranceDialog)], [t('a_jackpot'), open(jackpotDialog)]] : []),
      [t('a_bankruptcy'), open(bankruptcyDialog)],
      [t('what_can_raise', {name: p.name}), open(liquidationDialog)],
    ];
    body.append(h('div', {class: 'sheet'},
      tiles.map(([label, run]) => h('button', {type: 'button', class: 'sheet-btn', onclick: run}, label)),
      now(elite ? t('income') : t('salary'), {type: 'salary', player}),
      elite ? now(t('a_tax_exemption'), {type: 'tax_exemption', player}) : null,
      (ctx.game.balances.pot || 0) > 0 ? now(`${t('collect_pot')} ${ctx.money(ctx.game.balances.pot)}`, {type: 'pot_collect', player}) : null,
      now(t('turn_of', {name: p.name}), {type: 'turn', player})));
  }, {wide: true});
}

export function liquidationDialog(ctx, player) {
  modal(t('what_can_raise', {name: ctx.name(player)}), (body) => {
    const slot = h('div', {}, h('p', {class: 'muted'}, t('loading')));
    body.append(slot);
    ctx.api.liquidation(ctx.id, player).then((l) => replace(slot, liquidationView(ctx, l)))
      .catch((err) => replace(slot, problemView(ctx, err)));
  });
}
