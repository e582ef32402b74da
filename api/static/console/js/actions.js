// The banker's moves, one dialog each. Every figure a dialog shows is the server's: the dialog
// asks what its move would record now (a dry run, quote.js) and shows that answer (the money
// that would move and why, or the refusal) before the banker confirms. Each move sends one
// POST per intent with its own Idempotency-Key (a double tap or a retry records once), and
// shows the server's refusal where the banker is looking.

import {h, append, replace, modal, field, select, numberInput, nextId, toast} from './dom.js';
import {t, listOf, plural} from './i18n.js';
import {deedPicker, problemView, liquidationView, buildingsText, tileLine, standingsView} from './views.js';
import {groupClass} from './rules.js';
import {quote, quoteBox, quoteLabel, netFor, signed} from './quote.js';
import {unreachable} from './api.js';
import {moveDialog, moveBody, movesList, choiceLabel, askedIn, refusalKey} from './moves.js';

// How long the buttons of a dialog drawn again after a step take no tap: longer than the
// gap of a double tap.
const SETTLE_MS = 400;

/** Reads a whole amount from an input; marks the input and says why when it is not one.
 * @param {*} input
 * @param {*} errorBox
 * @param {{min?: number, optional?: boolean}} [options]
 */
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

/** The whole amount in an input, or null when there is none yet (for a quote: no message). */
function typed(input, min = 1) {
  const raw = input.value.trim();
  const value = Number(raw);
  return raw !== '' && Number.isInteger(value) && value >= min ? value : null;
}

/**
 * A dialog recording transactions. `render(body, form)` builds the content; `form.button(label,
 * makeBody)` makes a button that records what `makeBody()` returns (undefined: not yet valid).
 * Each move is one intent with one Idempotency-Key (intents.js).
 *
 * `pending`: this dialog raises money for a move the rules refused for want of cash (a rent of
 * 2,000 that Bob cannot pay yet): it stays open after each move recorded, drawn again with the
 * new state, and shows the pending move as the server would record it now, with a button that
 * records it and closes both dialogs.
 *
 * `stay`: the dialog stays open after each move, drawn again with the new state (a group
 * built up a step a tap). A step tapped on the dialog drawn after the last one is a new move,
 * not that one again; the buttons of a dialog drawn again take no tap for SETTLE_MS, so a
 * double tap does not land on the next step.
 * @param {*} ctx
 * @param {*} title
 * @param {*} render
 * @param {{wide?: boolean, pending?: any, stay?: boolean}} [options]
 */
export function txnDialog(ctx, title, render, {wide = false, pending = null, stay: keepOpen = false} = {}) {
  let settleUntil = 0;
  return modal(title, (body, dialog) => {
    const errorBox = h('div', {class: 'error-slot'});
    const memo = h('input', {type: 'text', name: 'memo', maxlength: 500, autocomplete: 'off'});
    const pendingSlot = h('div', {class: 'pending-slot'});
    const draw = () => {
      replace(body);
      if (pending) body.append(pendingSlot);
      render(body, form);
      body.append(errorBox);
      if (pending) drawPending();
    };
    const drawPending = () => {
      const box = quoteBox(ctx, () => pending.payload, {testid: 'pending-quote', basis: false,
        problemOptions: {}, onAnswer: (answer) => { now.disabled = !(answer && answer.txn); }});
      const now = form.button(pending.label, () => pending.payload, {testid: 'pending-record', then: () => {
        if (pending.dialog.open) pending.dialog.close();
      }});
      now.disabled = true;
      replace(pendingSlot, h('section', {class: 'pending'}, h('h3', {class: 'sub'}, t('pending_move')),
        h('p', {class: 'muted small'}, t('pending_hint')), box.el, h('div', {class: 'actions'}, now)));
      box.now();
    };
    const form = {
      errorBox,
      dialog,
      memoField: () => field(t('memo'), memo, t('memo_hint')),
      /**
       * @param {*} label
       * @param {*} makeBody
       * @param {{cls?: string, testid?: string, then?: Function, done?: Function, shown?: Function}} [options]
       */
      button(label, makeBody, {cls = 'primary', testid, then, done, shown} = {}) {
        let busy = false;
        const btn = h('button', {type: 'button', class: cls, dataset: testid ? {testid} : undefined, onclick: async () => {
          if (busy) return;
          replace(errorBox);
          delete errorBox.dataset.said;
          const payload = makeBody();
          if (!payload) return;
          if (memo.value.trim() && !payload.memo) payload.memo = memo.value.trim();
          if (keepOpen) {
            // Recorded before this dialog was drawn again: the banker means the next step.
            const was = ctx.intents.state(payload);
            if (was.state === 'done' && ctx.game.last_seq >= was.seq) ctx.intents.again(payload);
          }
          busy = true;
          btn.setAttribute('aria-busy', 'true');
          btn.disabled = true;
          try {
            const txn = await recordOnce(ctx, payload, {ask: true});
            if (!txn) return;
            // Raising money for a pending move, or a dialog of steps: stay, drawn again with
            // what changed.
            const stay = (pending || keepOpen) && !then && !txn.queued;
            if (!stay) dialog.close();
            if (then) then(txn);
            await ctx.after(txn);
            if (done && !txn.queued) done(txn);
            if (stay && dialog.open) {
              if (keepOpen) settleUntil = Date.now() + SETTLE_MS;
              draw();
            }
          } catch (err) {
            // The refusal the dialog's quote shows already is said once, there: brought into
            // view, not drawn again by the button.
            const already = shown && shown(err);
            if (already) {
              already.scrollIntoView({block: 'nearest'});
              return;
            }
            errorBox.dataset.said = refusalKey(err);
            replace(errorBox, problemView(ctx, err, {onLiquidation: ctx.raiseButtons
              ? (pid, params) => ctx.raiseButtons(pid, {dialog, params, payload, label: btn.textContent}) : null}));
            markFields(body, err);
            errorBox.scrollIntoView({block: 'nearest'});
          } finally {
            busy = false;
            btn.disabled = false;
            btn.removeAttribute('aria-busy');
          }
        }}, label);
        const wait = settleUntil - Date.now();
        if (wait > 0) {
          btn.disabled = true;
          setTimeout(() => { if (!busy && !btn.dataset.shut) btn.disabled = false; }, wait); // shut: refused
        }
        return btn;
      },
    };
    // Enter in a field confirms the dialog's one move (an auction's bid typed, then Enter);
    // a dialog of several moves (a row of quoted choices) waits for the banker's tap, and so
    // does a move that cannot be taken back lightly (a bankruptcy, a void, the finish).
    body.addEventListener('keydown', (ev) => {
      const el = ev.target;
      if (ev.key !== 'Enter' || el.tagName !== 'INPUT' || el.type === 'checkbox' || el.type === 'radio') return;
      const buttons = [...body.querySelectorAll('.actions > button')].filter((b) => !b.closest('.pending-slot'));
      if (buttons.length !== 1 || !buttons[0].classList.contains('primary')) return;
      ev.preventDefault();
      if (!buttons[0].disabled) buttons[0].click();
    });
    draw();
  }, {wide});
}

/**
 * Records a move once per intent (intents.js): a tap while it is on its way is ignored; the
 * same move again moments after it was recorded is a double tap, shown as done (a quick
 * button) or asked about (`ask`: a dialog the banker filled in). Resolves to the transaction,
 * to {queued: true} when it waits in the outbox, or to null when nothing was sent.
 * @param {*} ctx
 * @param {*} payload
 * @param {{ask?: boolean}} [options]
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

/**
 * The accounts a move's field may name, as the server's moves give them (`type`, `path`: see
 * GameContext.choices), the players first, then the Bank and the pot; never one the server does
 * not offer (a pot it leaves out of a bankruptcy's creditors). `exclude`: an account another
 * field of the same form names already (the debtor, who cannot be his own creditor).
 * @param {*} ctx
 * @param {*} type
 * @param {*} path
 * @param {*} value
 * @param {{exclude?: string[], name?: string}} [options]
 */
function accountSelect(ctx, type, path, value, {exclude = [], name} = {}) {
  const offered = ctx.choices(type, path).filter((c) => !exclude.includes(c));
  const ordered = [...offered.filter((c) => ctx.byId.has(c)), ...offered.filter((c) => !ctx.byId.has(c))];
  return select(ordered.map((c) => [c, ctx.name(c)]), value, {name});
}

// -- payments -----------------------------------------------------------------------------

export function payDialog(ctx, player) {
  const other = ctx.activePlayers().find((p) => p.id !== player);
  moveDialog(ctx, txnDialog, 'payment', {from: player, to: player === 'bank' ? other?.id : 'bank'},
    {title: t('a_payment'), testid: 'quote', basis: false, record: t('record_payment'), recordTestid: 'record-payment'});
}

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

/**
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

/** A refusal in a row of moves, in place of the move's button: the reason, in words. */
function refusedNote(ctx, problem) {
  return h('span', {class: 'muted small refused-note'}, t(`e_${problem.code}`, {}, t('refused')));
}

/**
 * @param {*} ctx
 * @param {*} player
 * @param {{pending?: any}} [options]
 */
export function mortgageDialog(ctx, player, {pending = null} = {}) {
  txnDialog(ctx, t('a_mortgage'), (body, form) => {
    const deeds = ctx.board.deedsOf(ctx.game, player);
    if (!deeds.length) { body.append(h('p', {class: 'muted'}, t('no_deeds'))); return; }
    const list = h('ul', {class: 'deed-rows'});
    for (const d of deeds) {
      const prop = ctx.game.properties[d.id];
      const row = h('li', {class: `deed-row ${groupClass(ctx.board, d.group)}`, dataset: {deed: d.id}},
        h('span', {class: 'swatch', 'aria-hidden': 'true'}), h('span', {class: 'grow'}, d.name, h('small', {class: 'muted'}, ` ${tileLine(ctx, d, prop)}`)));
      // A move the game offers now, its button showing what it would bring (or why not).
      const quoted = (label, payload) => {
        if (!payload) return null;
        const btn = form.button(label, () => payload, {cls: 'secondary'});
        return quoteLabel(ctx, btn, label, payload, player, {onRefused: (problem) => btn.replaceWith(refusedNote(ctx, problem))});
      };
      if (prop.mortgaged) {
        append(row, [quoted(t('unmortgage'), moveBody(ctx, 'unmortgage', {property: d.id}))]);
      } else if (ctx.price(d) === null) {
        // No printed price (a Millionaire Elite plot): the banker enters it with the mortgage.
        const price = numberInput({name: 'price', min: 1, 'aria-label': t('price')});
        row.append(price, form.button(t('mortgage'), () => {
          const p = amountOf(price, form.errorBox);
          return p === undefined ? undefined : moveBody(ctx, 'mortgage', {property: d.id, price: p});
        }, {cls: 'secondary'}));
      } else {
        append(row, [quoted(t('mortgage'), moveBody(ctx, 'mortgage', {property: d.id}))]);
      }
      list.append(row);
    }
    body.append(list);
  }, {wide: true, pending});
}

/**
 * The streets of a player's on which the game builds or sells now (the moves' choices: a
 * group held whole, the streets built on), by colour group in board order.
 */
function buildingGroups(ctx, player) {
  const offered = new Set([...ctx.choices('build', 'property'), ...ctx.choices('sell_buildings', 'property')]);
  const groups = [];
  for (const [group, deeds] of ctx.board.groups) {
    const mine = deeds.filter((d) => offered.has(d.id) && ctx.game.properties[d.id].owner === player);
    if (mine.length) groups.push({group, deeds: mine});
  }
  return groups;
}

/**
 * The building moves a banker may want on a group, as requests: a house or a hotel on each
 * street and on all of them at once, a sale of what stands on each, everything sold. Which of
 * them the rules allow now, and what each costs or brings, is the server's answer.
 */
function buildingRequests(ctx, deeds) {
  const build = [];
  const sell = [];
  const bare = deeds.filter((d) => !ctx.game.properties[d.id].hotel);
  for (const deed of bare) {
    build.push({kind: 'house', deed, orders: [{property: deed.id, houses: 1}]});
    build.push({kind: 'hotel', deed, orders: [{property: deed.id, hotel: true}]});
  }
  if (bare.length > 1) {
    // "On each" only where it is every street of the group; else the streets it goes on.
    const each = bare.length === deeds.length;
    const names = each ? null : listOf(bare.map((d) => d.name));
    build.push({kind: each ? 'row' : 'row_some', names, orders: bare.map((d) => ({property: d.id, houses: 1}))});
    build.push({kind: each ? 'hotels' : 'hotels_some', names, orders: bare.map((d) => ({property: d.id, hotel: true}))});
  }
  const built = deeds.filter((d) => ctx.game.properties[d.id].houses || ctx.game.properties[d.id].hotel);
  for (const deed of built) {
    const p = ctx.game.properties[deed.id];
    if (p.houses > 0) sell.push({kind: 'house', deed, orders: [{property: deed.id, houses: 1}]});
    if (p.hotel) {
      sell.push({kind: 'break_down', deed, orders: [{property: deed.id, hotel: true, break_down: true}]});
      sell.push({kind: 'hotel', deed, orders: [{property: deed.id, hotel: true}]});
    }
  }
  if (built.length > 1 || (built.length === 1 && ctx.game.properties[built[0].id].houses > 1)) {
    sell.push({kind: 'all', orders: built.map((d) => {
      const p = ctx.game.properties[d.id];
      return p.hotel ? {property: d.id, hotel: true} : {property: d.id, houses: p.houses};
    })});
  }
  return {build, sell};
}

const BUILD_LABELS = {row: 'house_on_each', hotels: 'hotel_on_each', row_some: 'house_on_these', hotels_some: 'hotels_on_these',
  hotel: 'hotel_on', house: 'house_on'};
const SELL_LABELS = {all: 'sell_all_group', break_down: 'break_down_on', hotel: 'sell_hotel_on', house: 'sell_house_on'};

/**
 * @param {*} ctx
 * @param {*} player
 * @param {{pending?: any}} [options]
 */
export function buildDialog(ctx, player, {pending = null} = {}) {
  // It stays open after each step, drawn again with the new state: a group is built up (or
  // sold off) in one dialog, a tap a step.
  txnDialog(ctx, t('a_build'), (body, form) => {
    const groups = buildingGroups(ctx, player);
    const supply = ctx.game.bank || {};
    // The table behind is drawn again when the dialog closes: the cash of each step is here.
    body.append(h('p', {class: 'small', dataset: {testid: 'build-cash'}}, t('cash_of', {name: ctx.name(player), cash: ctx.money(ctx.game.balances[player])})));
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
    // The price per building is the box's where the rule set prints none (a Millionaire Elite
    // branch): the server asks for it (a 422 naming `price`), and the field comes up to the top,
    // open, each build's figure quoted again as it is typed. Elsewhere it stays under "More",
    // for the price an auction of scarce buildings set.
    const priceSlot = h('div', {});
    const priceRow = field(t('price_per_building'), price, t('price_per_building_hint'));
    const priceHint = priceRow.querySelector('.hint');
    const more = h('details', {}, h('summary', {}, t('more_fields')), priceRow);
    const askPrice = () => {
      if (priceSlot.contains(priceRow)) return;
      replace(priceHint, t('price_per_building_asked'));
      priceSlot.append(priceRow);
      more.hidden = true;
    };
    body.append(priceSlot);
    const offers = []; // {btn, label, body()}: each quoted again when the price changes
    const requote = (o) => {
      const asking = o.body();
      if (!asking) return Promise.resolve();
      return quote(ctx, asking).then((answer) => {
        if (!o.btn.isConnected) return; // drawn again meanwhile
        if (o.btn.dataset.shut) { o.btn.disabled = false; delete o.btn.dataset.shut; }
        if (answer.txn) o.btn.textContent = `${o.label} ${signed(ctx, netFor(answer.txn, player))}`;
        else if (askedIn(answer).includes('price')) { o.btn.textContent = o.label; askPrice(); }
        else if (answer.problem.code === 'insufficient_funds') {
          // Beyond the cash: offered, but shut, saying why (not gone without a word).
          o.btn.textContent = `${o.label} — ${t('e_insufficient_funds')}`;
          o.btn.disabled = true;
          o.btn.dataset.shut = 'insufficient_funds';
        } else if (answer.problem.code === 'building_limit'
          && (answer.problem.body.params || {}).reason === 'one_house_per_turn') {
          // The house rule's turn is used up: the same, shut and saying so (gone, building
          // looked broken to a family).
          o.btn.textContent = `${o.label} — ${t('opt_one_house_per_turn')}`;
          o.btn.disabled = true;
          o.btn.dataset.shut = 'one_house_per_turn';
        } else if (!unreachable(answer.problem) && answer.problem.status !== 422) {
          // A move the rules refuse now (uneven, no supply, mortgaged) is not offered at all;
          // a mortgage in the group is said once, above the moves.
          o.btn.remove();
          if (answer.problem.code === 'mortgaged') o.mortgaged.hidden = false;
        }
      });
    };
    let typing = null;
    price.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => offers.filter((o) => o.btn.isConnected).forEach(requote), 250);
    });
    for (const {group, deeds} of groups) {
      const moves = buildingRequests(ctx, deeds);
      const section = h('section', {class: `group-moves ${groupClass(ctx.board, group)}`},
        h('h3', {}, h('span', {class: 'swatch', 'aria-hidden': 'true'}), ' ', deeds.map((d) => d.name).join(' · ')),
        h('ul', {class: 'levels'}, deeds.map((d) => h('li', {}, `${d.name}: ${buildingsText(ctx.game.properties[d.id]) || t('no_buildings')}`))));
      const buildRow = h('div', {class: 'moves'});
      const sellRow = h('div', {class: 'moves'});
      const asked = [];
      const mortgaged = h('p', {class: 'warn', hidden: true}, t('group_mortgaged'));
      const offer = (row, label, makeBody) => {
        const btn = form.button(label, makeBody, {cls: 'secondary'});
        row.append(btn);
        const o = {btn, label, body: makeBody, mortgaged};
        offers.push(o);
        asked.push(requote(o));
      };
      for (const m of moves.build) {
        offer(buildRow, t(BUILD_LABELS[m.kind], {deed: m.deed && m.deed.name, deeds: m.names}), () => {
          const orders = withPrice(m.orders);
          return orders && moveBody(ctx, 'build', {orders});
        });
      }
      for (const m of moves.sell) {
        const payload = moveBody(ctx, 'sell_buildings', {orders: m.orders});
        offer(sellRow, t(SELL_LABELS[m.kind], {deed: m.deed && m.deed.name}), () => payload);
      }
      const buildHead = h('h4', {}, t('build'));
      const sellHead = h('h4', {}, t('sell'));
      const none = h('p', {class: 'muted small', hidden: true}, t('no_legal_moves'));
      section.append(mortgaged, buildHead, buildRow, sellHead, sellRow, none);
      Promise.all(asked).then(() => {
        buildHead.hidden = !buildRow.children.length;
        buildRow.hidden = !buildRow.children.length;
        sellHead.hidden = !sellRow.children.length;
        sellRow.hidden = !sellRow.children.length;
        none.hidden = Boolean(buildRow.children.length || sellRow.children.length);
      });
      body.append(section);
    }
    body.append(more);
  }, {wide: true, pending, stay: true});
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
    const fine = jail('jail_fine');
    if (out('jail_fine') && fine) row.append(quoteLabel(ctx, form.button(t('pay_fine'), () => fine, {cls: 'secondary'}), t('pay_fine'), fine, player));
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

// -- deals ---------------------------------------------------------------------------------

export function tradeDialog(ctx, player) {
  txnDialog(ctx, t('a_trade'), (body, form) => {
    const active = ctx.activePlayers();
    const other = active.find((x) => x.id !== player) || active[0];
    const legs = [];
    const legsBox = h('div', {class: 'legs'});
    const unmortgageBox = h('div', {});
    const summary = h('div', {class: 'preview'});
    const lifted = new Set();

    /** The trade as a request, or null while it is not one yet (no message: a quote). */
    const payload = () => {
      const out = [];
      for (const leg of legs) {
        const raw = leg.cashInput.value.trim();
        if (raw && (!Number.isInteger(Number(raw)) || Number(raw) < 0)) return null;
        const b = leg.body();
        if (b.from === b.to) return null;
        if (b.cash || b.properties || b.jail_cards) out.push(b);
      }
      if (!out.length) return null;
      return moveBody(ctx, 'trade', {legs: out, unmortgage: lifted.size ? [...lifted] : null});
    };
    const view = quoteBox(ctx, payload, {testid: 'trade-quote'});

    const refresh = () => {
      const mortgaged = legs.flatMap((leg) => leg.deeds()).filter((id) => ctx.game.properties[id].mortgaged);
      for (const id of [...lifted]) if (!mortgaged.includes(id)) lifted.delete(id);
      // A mortgaged deed received: lift it now or keep it mortgaged; the quote shows the cost.
      // The box says what ticking does, whether ticked or not (a label that said the state flipped
      // its meaning when ticked); what an unticked deed does is said once under the legend.
      replace(unmortgageBox, mortgaged.length ? h('fieldset', {}, h('legend', {}, t('lift_at_once')),
        h('p', {class: 'muted small'}, t('lift_hint')), mortgaged.map((id) => {
          const cid = nextId('um');
          return h('div', {class: 'check'}, h('input', {type: 'checkbox', id: cid, checked: lifted.has(id),
            onchange: (ev) => { if (ev.target.checked) lifted.add(id); else lifted.delete(id); refresh(); }}),
          h('label', {for: cid}, `${ctx.deedName(id)}: ${t('lift_now')}`));
        })) : null);
      replace(summary, legs.map((leg) => leg.describe()).filter(Boolean).map((s) => h('p', {}, s)));
      view.refresh();
    };

    const addLeg = (fromId, toId) => {
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
        replace(pickSlot, deedPicker(ctx, {
          multiple: true,
          label: t('deeds_given'),
          // Whether a deed may change hands (buildings on its group, or on the plot itself in
          // Millionaire Elite) is the server's answer, in the quote below.
          eligible: (d, p) => p.owner === from.value,
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
        /** Who gives to whom, as the trade's two parties chosen at its top say. */
        set(fromId, toId) {
          to.value = toId;
          if (from.value !== fromId) {
            from.value = fromId;
            drawPick();
          }
        },
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
    // The two players of the trade, chosen once: the first two legs follow (each gives the
    // other), so that a trade between any two players is two choices, not four.
    const partyA = accountSelect(ctx, 'trade', 'legs.from', player, {name: 'party_a'});
    const partyB = accountSelect(ctx, 'trade', 'legs.to', other.id, {name: 'party_b'});
    const parties = () => {
      if (legs[0]) legs[0].set(partyA.value, partyB.value);
      if (legs[1]) legs[1].set(partyB.value, partyA.value);
      refresh();
    };
    partyA.addEventListener('change', parties);
    partyB.addEventListener('change', parties);
    body.append(h('p', {class: 'muted small'}, t('trade_hint')),
      h('div', {class: 'grid2'}, field(t('party_one'), partyA), field(t('party_other'), partyB)), legsBox,
      h('button', {type: 'button', class: 'secondary', onclick: () => addLeg(player, other.id)}, t('add_leg')),
      unmortgageBox, h('h3', {class: 'sub'}, t('the_deal')), summary, view.el, form.memoField(),
      h('div', {class: 'actions'}, form.button(t('record_trade'), () => {
        for (const leg of legs) {
          const raw = leg.cashInput.value.trim();
          if (raw && (!Number.isInteger(Number(raw)) || Number(raw) < 0)) {
            amountOf(leg.cashInput, form.errorBox, {min: 0});
            return undefined;
          }
          const b = leg.body();
          if (b.from === b.to) { replace(form.errorBox, h('p', {class: 'problem', role: 'alert'}, t('same_account'))); return undefined; }
        }
        const request = payload();
        if (!request) { replace(form.errorBox, h('p', {class: 'problem', role: 'alert'}, t('empty_trade'))); return undefined; }
        return request;
      })));
  }, {wide: true});
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

// -- Millionaire Elite -----------------------------------------------------------------------

export function sharesDialog(ctx, player) {
  // The broker and the commission are the declaration's optional fields, left empty for a
  // trade at the Bank's counter.
  moveDialog(ctx, txnDialog, 'shares', {player, action: 'buy', count: 1}, {title: t('a_shares'),
    testid: 'shares-quote', record: t('record_shares'), intro: () => [h('p', {class: 'small'},
      t('shares_held', {name: ctx.name(player), held: ctx.shares(player), shares: plural(ctx.shares(player), 'cnt_shares'), price: ctx.money(ctx.sharePrice() ?? 0)}))]});
}

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

export function roundTaxDialog(ctx, player) {
  const p = ctx.byId.get(player);
  moveDialog(ctx, txnDialog, 'round_tax', {}, {title: t('a_round_tax'), testid: 'round-tax-quote',
    record: t('record_round_tax'), fixed: {player}, hints: {plot_tax: 'plot_tax_hint'},
    needs: () => t('enter_plot_tax'),
    intro: () => [h('p', {}, t('round_tax_intro', {shares: ctx.shares(player)})),
      p.tax_exempt ? h('p', {class: 'ok'}, t('tax_exempt_now')) : null]});
}

export function insuranceDialog(ctx, player) {
  // The policies are the move's choices (the rule set's colours).
  const policies = ctx.inPolicyOrder(ctx.choices('insurance', 'policy'));
  txnDialog(ctx, t('a_insurance'), (body, form) => {
    const held = ctx.policies(player);
    body.append(h('p', {}, `${t('policies_held')}: ${held.length ? held.map((x) => t(`policy_${x}`)).join(', ') : '—'}`));
    const move = (label, action, policy) => {
      const payload = moveBody(ctx, 'insurance', {player, action, policy});
      return payload && quoteLabel(ctx, form.button(label, () => payload, {cls: 'secondary'}), label, payload, player);
    };
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

export function jackpotDialog(ctx, player) {
  moveDialog(ctx, txnDialog, 'jackpot', {player, payout: 0}, {title: t('a_jackpot'), testid: 'jackpot-quote',
    record: t('record_jackpot'), intro: () => [h('p', {}, `${ctx.name('pot')}: ${ctx.money(ctx.game.balances.pot ?? 0)}`)]});
}

// -- the game ------------------------------------------------------------------------------

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

export function liquidationDialog(ctx, player) {
  modal(t('what_can_raise', {name: ctx.name(player)}), (body) => {
    const slot = h('div', {}, h('p', {class: 'muted'}, t('loading')));
    body.append(slot);
    ctx.api.liquidation(ctx.id, player).then((l) => replace(slot, liquidationView(ctx, l)))
      .catch((err) => replace(slot, problemView(ctx, err)));
  });
}

