// The banker's dialogs of buildings and mortgages: a player's deeds, each mortgaged or lifted
// with its figure quoted; a player's colour groups, each with the building moves the banker may
// want (a house or a hotel on a street or on each, a sale, everything sold), each quoted by the
// server and offered only where the rules allow it now. Both may raise money for a move refused
// for want of cash (`pending`), which they then show and record.

import {h, append, replace, field, numberInput} from './dom.js';
import {t, listOf} from './i18n.js';
import {buildingsText, tileLine} from './views.js';
import {groupClass} from './rules.js';
import {quote, netFor, signed} from './quote.js';
import {unreachable} from './api.js';
import {moveBody, askedIn} from './moves.js';
import {txnDialog, amountOf, quotedButton} from './dialog.js';

/** A refusal in a row of moves, in place of the move's button: the reason, in words. */
function refusedNote(ctx, problem) {
  return h('span', {class: 'muted small refused-note'}, t(`e_${problem.code}`, {}, t('refused')));
}

/**
 * A player's deeds, each mortgaged or lifted at the server's figure (or a price typed).
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
      const quoted = (label, payload) => quotedButton(ctx, form, label, payload, player,
        {onRefused: (problem, btn) => btn.replaceWith(refusedNote(ctx, problem))});
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
 * A player's building moves, group by group, each quoted. It stays open after each step,
 * drawn again with the new state: a group is built up (or sold off) in one dialog, a tap a
 * step.
 * @param {*} ctx
 * @param {*} player
 * @param {{pending?: any}} [options]
 */
export function buildDialog(ctx, player, {pending = null} = {}) {
  txnDialog(ctx, t('a_build'), (body, form) => {
    const groups = buildingGroups(ctx, player);
    body.append(...supplyLines(ctx, player));
    if (!groups.length) { body.append(h('p', {class: 'muted'}, t('no_complete_group', {name: ctx.name(player)}))); return; }
    const price = priceField(form);
    body.append(price.slot);
    const offers = []; // each quoted again when the price changes
    const requote = (o) => quoteOffer(ctx, player, o, price.ask);
    let typing = null;
    price.input.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => offers.filter((o) => o.btn.isConnected).forEach(requote), 250);
    });
    for (const {group, deeds} of groups) {
      body.append(groupSection(ctx, form, group, deeds, {withPrice: price.withPrice, offered: (o) => {
        offers.push(o);
        return requote(o);
      }}));
    }
    body.append(price.more);
  }, {wide: true, pending, stay: true});
}

/** The player's cash (the table behind is drawn again when the dialog closes: the cash of each
 * step is here) and the Bank's houses and hotels, where the rule set counts them. */
function supplyLines(ctx, player) {
  const supply = ctx.game.bank || {};
  return [h('p', {class: 'small', dataset: {testid: 'build-cash'}}, t('cash_of', {name: ctx.name(player), cash: ctx.money(ctx.game.balances[player])})),
    supply.houses !== null && supply.houses !== undefined
      ? h('p', {class: 'muted small'}, t('bank_supply', {houses: supply.houses, hotels: supply.hotels})) : ''];
}

/**
 * The price per building. It is the box's where the rule set prints none (a Millionaire Elite
 * branch): the server asks for it (a 422 naming `price`), and the field comes up to the top
 * (`ask()`: into `slot`), open, each build's figure quoted again as it is typed. Elsewhere it
 * stays under "More" (`more`), for the price an auction of scarce buildings set. `withPrice`
 * gives a build's orders with the price typed, or undefined (said in the error slot) when it
 * is not one.
 */
function priceField(form) {
  const input = numberInput({name: 'price', min: 1});
  const slot = h('div', {});
  const row = field(t('price_per_building'), input, t('price_per_building_hint'));
  const hint = row.querySelector('.hint');
  const more = h('details', {}, h('summary', {}, t('more_fields')), row);
  return {input, slot, more,
    /** Brings the price field out of "More" up to the top, saying that the server asks for it. */
    ask() {
      if (slot.contains(row)) return;
      replace(hint, t('price_per_building_asked'));
      slot.append(row);
      more.hidden = true;
    },
    /** A build's orders with the price typed in them, if any; undefined when it is no amount. */
    withPrice(orders) {
      if (!input.value.trim()) return orders;
      const p = amountOf(input, form.errorBox);
      return p === undefined ? undefined : orders.map((o) => ({...o, price: p}));
    }};
}

/**
 * A building move's button (`o`: its button, label, request and the group's mortgage note) as
 * the server would answer it now: its figure; the price asked for; beyond the cash or the
 * house rule's turn used up, shut and saying why; refused by the rules (uneven, no supply,
 * mortgaged), gone (a mortgage in the group said once, above the moves).
 */
function quoteOffer(ctx, player, o, askPrice) {
  const asking = o.body();
  if (!asking) return Promise.resolve();
  return quote(ctx, asking).then((answer) => {
    if (!o.btn.isConnected) return; // drawn again meanwhile
    if (o.btn.dataset.shut) { o.btn.disabled = false; delete o.btn.dataset.shut; }
    const shut = (why) => {
      o.btn.textContent = `${o.label} — ${t(why === 'insufficient_funds' ? 'e_insufficient_funds' : 'opt_one_house_per_turn')}`;
      o.btn.disabled = true;
      o.btn.dataset.shut = why;
    };
    const problem = answer.problem;
    if (answer.txn) o.btn.textContent = `${o.label} ${signed(ctx, netFor(answer.txn, player))}`;
    else if (askedIn(answer).includes('price')) { o.btn.textContent = o.label; askPrice(); }
    else if (problem.code === 'insufficient_funds') shut('insufficient_funds');
    // The house rule's turn used up: shut, saying so (gone, building looked broken to a family).
    else if (problem.code === 'building_limit' && (problem.body.params || {}).reason === 'one_house_per_turn') shut('one_house_per_turn');
    else if (!unreachable(problem) && problem.status !== 422) {
      o.btn.remove();
      if (problem.code === 'mortgaged') o.mortgaged.hidden = false;
    }
  });
}

/**
 * One colour group's section: its streets and what stands on each, then its build and sale
 * moves, each a button the server quotes (`offered(o)`: resolves once quoted); the rows the
 * rules leave empty hidden once all are quoted, and "no legal moves" where both are.
 * @param {*} ctx
 * @param {*} form
 * @param {*} group
 * @param {*} deeds
 * @param {{withPrice: Function, offered: Function}} options
 */
function groupSection(ctx, form, group, deeds, {withPrice, offered}) {
  const moves = buildingRequests(ctx, deeds);
  const section = h('section', {class: `group-moves ${groupClass(ctx.board, group)}`},
    h('h3', {}, h('span', {class: 'swatch', 'aria-hidden': 'true'}), ' ', deeds.map((d) => d.name).join(' · ')),
    h('ul', {class: 'levels'}, deeds.map((d) => h('li', {}, `${d.name}: ${buildingsText(ctx.game.properties[d.id]) || t('no_buildings')}`))));
  const buildRow = h('div', {class: 'moves'});
  const sellRow = h('div', {class: 'moves'});
  const mortgaged = h('p', {class: 'warn', hidden: true}, t('group_mortgaged'));
  const asked = [];
  const offer = (row, label, makeBody) => {
    const btn = form.button(label, makeBody, {cls: 'secondary'});
    row.append(btn);
    asked.push(offered({btn, label, body: makeBody, mortgaged}));
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
  return section;
}
