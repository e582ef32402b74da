// The new-game screen: the game's name, its rule set (a built-in one, or the banker's own box),
// the players in seat order, the house rules the rule set offers and, where it deals deeds,
// the deal. Creating the game is one POST /games; its players' links open next.

import {h, replace, field, select, numberInput} from './dom.js';
import {Api, Problem, newKey} from './api.js';
import {t, lang, rulesetTitle, money, currencyLabel, date, plural} from './i18n.js';
import {Board} from './rules.js';
import * as store from './store.js';
import {deedPicker, plainContext, problemView} from './views.js';
import {ownBox, loadParameters} from './ownbox.js';

/**
 * Draws the new-game form in `main`, unless `stale()` says the page went elsewhere meanwhile.
 * @param {HTMLElement} main
 * @param {() => boolean} [stale]
 */
export async function newGameScreen(main, stale = () => false) {
  const [{items}, parameters] = await Promise.all([new Api().rulesets(), loadParameters(new Api())]);
  if (stale()) return;
  const rulesets = new Map(items.map((rs) => [rs.name, rs]));
  const name = h('input', {type: 'text', name: 'name', required: true, value: `${t('game')} ${date()}`});
  name.addEventListener('input', () => checkName(name));
  const rsSelect = select(items.map((r) => [r.name, rulesetTitle(r.name, r.title)]), items[0]?.name, {name: 'ruleset'});
  const chosen = () => rulesets.get(rsSelect.value);
  const players = playerInputs(() => deal.draw());
  const options = houseRules(chosen);
  const deal = dealSection(chosen, players);
  const box = ownBox(parameters);
  rsSelect.addEventListener('change', () => { deal.clear(); options.draw(); deal.draw(); box.draw(chosen()); });
  ['Ann', 'Bob', 'Cy'].forEach(() => players.add(''));
  options.draw();
  deal.draw();
  box.draw(chosen());
  const errorBox = h('div', {});
  const create = h('button', {type: 'submit', class: 'primary', dataset: {testid: 'create-game'}}, t('create_game'));
  const form = h('form', {class: 'card', novalidate: true, onsubmit: (ev) => {
    ev.preventDefault();
    const body = newGameBody({name, rs: chosen(), players, options, deal, box, errorBox});
    if (body) createGame(body, {own: body.ruleset_document, box, create, errorBox});
  }},
  h('h1', {}, t('new_game')),
  field(t('game_name'), name),
  field(t('ruleset'), rsSelect), options.about, box.section,
  h('fieldset', {}, h('legend', {}, t('players_in_order')), players.list,
    h('button', {type: 'button', class: 'secondary', onclick: () => players.add('').focus()}, t('add_player'))),
  options.section,
  deal.section,
  errorBox,
  h('div', {class: 'actions'}, create));
  replace(main, form);
  players.list.querySelector('input').focus();
}

/**
 * The players' names in seat order: `list`, the inputs (`inputs()`), one more (`add`).
 * `changed()` runs when a seat is added, removed or renamed (the deal names the seats).
 * @param {() => void} changed
 */
function playerInputs(changed) {
  const list = h('ol', {class: 'player-inputs'});
  const inputs = () => /** @type {HTMLInputElement[]} */ ([...list.querySelectorAll('input')]);
  const relabel = () => {
    inputs().forEach((i, n) => i.setAttribute('aria-label', t('player_n', {n: n + 1})));
    changed();
  };
  /** @param {string} value */
  const add = (value) => {
    const input = h('input', {type: 'text', value, autocomplete: 'off', 'aria-label': t('player_n', {n: list.children.length + 1}), name: 'players'});
    input.addEventListener('change', changed);
    input.addEventListener('input', () => checkName(input));
    const li = h('li', {}, input, h('button', {type: 'button', class: 'link', 'aria-label': t('remove_player'),
      onclick: () => { li.remove(); removed(); relabel(); }}, '×'));
    list.append(li);
    return input;
  };
  let removed = () => {};
  return {list, inputs, add, onRemove: (/** @type {() => void} */ fn) => { removed = fn; }};
}

/**
 * The house rules the chosen rule set offers (`section`, hidden where it offers none), the line
 * `about` it, and the options as the banker set them (`chosen(rs)`: those that differ from the
 * rule set's defaults).
 * @param {() => any} ruleset
 */
function houseRules(ruleset) {
  const optionsBox = h('div', {class: 'options'});
  const section = h('fieldset', {}, h('legend', {}, t('house_rules')), optionsBox);
  const about = h('p', {class: 'muted small'});
  // An option's hint in the page's language; a rule set's own option, with no words of ours,
  // keeps its document's description in English pages.
  const hint = (key, opt) => t(`opt_${key}_hint`, {}, '') || (lang() === 'en' ? opt.description : null);
  const control = ([key, opt]) => {
    if (opt.type === 'boolean') {
      const box = h('input', {type: 'checkbox', name: key, checked: opt.default});
      return h('div', {class: 'check'}, box, h('label', {for: box.id = `opt-${key}`}, t(`opt_${key}`, {}, key),
        hint(key, opt) ? h('small', {class: 'muted block'}, hint(key, opt)) : null));
    }
    const input = opt.type === 'choice'
      ? select(opt.choices.map((c) => [c, t(`choice_${c}`, {}, c)]), opt.default, {name: key})
      : numberInput({name: key, value: opt.default, min: 0});
    return field(t(`opt_${key}`, {}, key), input, hint(key, opt));
  };
  const draw = () => {
    const rs = ruleset();
    replace(about, `${rulesetTitle(rs.name, rs.title)} · ${t('players_range', {min: rs.players.min, max: rs.players.max})} · ${t('currency')}: ${currencyLabel(rs.currency)}`,
      rs.parameters.deal_deeds ? ` · ${t('deals_deeds', {n: rs.parameters.deal_deeds, deeds: plural(rs.parameters.deal_deeds, 'cnt_deeds')})}` : '');
    // A rule set with no house rules (Millionaire Elite) shows no empty box for them.
    section.hidden = !Object.keys(rs.options || {}).length;
    replace(optionsBox, Object.entries(rs.options || {}).map(control));
  };
  const chosen = (rs) => {
    const options = {};
    for (const [key, opt] of Object.entries(rs.options || {})) {
      const el = /** @type {HTMLInputElement} */ (optionsBox.querySelector(`[name="${key}"]`));
      const numeric = opt.type === 'amount' || opt.type === 'minutes';
      if (numeric && el.value.trim() === '') continue; // left empty: the rule set's default (none)
      const value = opt.type === 'boolean' ? el.checked : numeric ? Number(el.value) : el.value;
      if (value !== opt.default) options[key] = value;
    }
    return options;
  };
  return {section, about, draw, chosen};
}

/**
 * Short and timed games start with deeds dealt. The server deals them at random, or the banker
 * shuffles the box's deeds, deals them at the table and taps here what each seat got:
 * `section`, `draw()`, `clear()`, and `dealt(rs)` (by player id, or null: the server deals).
 * @param {() => any} ruleset
 * @param {ReturnType<typeof playerInputs>} players
 */
function dealSection(ruleset, players) {
  const section = h('div', {});
  const deal = new Map(); // seat index -> deed ids dealt at the table
  const atTable = h('input', {type: 'checkbox', id: 'deal-at-table', name: 'deal_at_table'});
  const draw = () => {
    const rs = ruleset();
    const each = Number(rs.parameters.deal_deeds || 0);
    if (!each) { replace(section); return; }
    const seats = players.inputs().map((i, n) => i.value.trim() || t('player_n', {n: n + 1}));
    const pickers = h('div', {class: 'deal', hidden: !atTable.checked});
    const dealCtx = bankHoldsAll(rs);
    seats.forEach((seat, n) => pickers.append(...seatPicker(dealCtx, seat, n, each, deal, draw, section)));
    replace(section, h('fieldset', {}, h('legend', {}, t('the_deal_legend', {n: each, deeds: plural(each, 'cnt_deeds')})),
      h('div', {class: 'check'}, atTable, h('label', {for: atTable.id}, t('deal_at_table'))),
      h('p', {class: 'muted small'}, t('deal_hint')), pickers));
  };
  atTable.addEventListener('change', draw);
  players.onRemove(() => deal.clear());
  const dealt = (rs) => {
    if (!rs.parameters.deal_deeds || !atTable.checked) return null;
    // Seats left empty are not players: the deal follows the names given, in order.
    const seats = players.inputs().map((i, n) => [i.value.trim(), deal.get(n) || []]).filter(([nm]) => nm);
    return Object.fromEntries(seats.map(([, ids], n) => [`p${n + 1}`, ids]));
  };
  return {section, draw, clear: () => deal.clear(), dealt};
}

/** What a deal's pickers draw the board from: the rule set's deeds, every one the Bank's. */
function bankHoldsAll(rs) {
  const board = new Board(rs);
  const bankHolds = {owner: 'bank', mortgaged: false, houses: 0, hotel: false};
  return {
    board,
    game: {properties: Object.fromEntries(board.deeds.map((d) => [d.id, bankHolds]))},
    name: (x) => x,
    money: (amount) => money(amount, rs.currency),
    price: (d) => d.price ?? null,
  };
}

/**
 * One seat's picker of the deeds dealt to it: its heading and the board's deeds, those another
 * seat took left out. A pick draws the deal again (`redraw`), the focus kept on the deed.
 */
function seatPicker(dealCtx, seat, n, each, deal, redraw, section) {
  const mine = deal.get(n) || [];
  const taken = new Set([...deal].filter(([m]) => m !== n).flatMap(([, ids]) => ids));
  const count = h('span', {class: 'muted small'}, ` ${mine.length} / ${each}`);
  return [h('h3', {class: 'sub'}, seat, count), deedPicker(dealCtx, {
    multiple: true,
    selected: mine,
    label: t('dealt_to', {name: seat}),
    eligible: (d) => !taken.has(d.id),
    onChange: (ids) => {
      deal.set(n, ids);
      // The other seats lose what this one took (this picker stays, with the focus).
      const focused = document.activeElement instanceof HTMLElement && document.activeElement.dataset.deed;
      redraw();
      const again = section.querySelectorAll('.picker')[n];
      const back = again && focused && again.querySelector(`[data-deed="${CSS.escape(focused)}"]`);
      if (back) back.focus();
    },
  })];
}

/**
 * The request that creates the game, or null after saying in `errorBox` what to fix first (a
 * name too long, too few or too many players).
 * @param {{name: HTMLInputElement, rs: any, players: ReturnType<typeof playerInputs>, options: ReturnType<typeof houseRules>, deal: ReturnType<typeof dealSection>, box: any, errorBox: HTMLElement}} form
 */
function newGameBody({name, rs, players, options, deal, box, errorBox}) {
  replace(errorBox);
  const tooLong = [name, ...players.inputs()].filter((i) => !checkName(i));
  if (tooLong.length) {
    replace(errorBox, h('p', {class: 'problem', role: 'alert'}, t('names_fix')));
    tooLong[0].focus();
    return null;
  }
  const names = players.inputs().map((i) => i.value.trim()).filter(Boolean);
  if (names.length < rs.players.min || names.length > rs.players.max) {
    replace(errorBox, h('p', {class: 'problem', role: 'alert'}, t('players_range', {min: rs.players.min, max: rs.players.max})));
    return null;
  }
  /** @type {Record<string, any>} */
  const body = {name: name.value.trim() || t('game'), ruleset: rs.name, players: names, options: options.chosen(rs)};
  const own = box.toSend(rs);
  if (own) Object.assign(body, {ruleset: own.name, ruleset_document: own});
  const dealt = deal.dealt(rs);
  if (dealt) body.dealt = dealt;
  return body;
}

/**
 * Creates the game (the button off meanwhile), keeps its tokens on this device and opens its
 * players' links; a refusal is said in `errorBox`, a figure of the banker's own box beside it.
 * @param {Record<string, any>} body
 * @param {{own: any, box: any, create: HTMLButtonElement, errorBox: HTMLElement}} form
 */
async function createGame(body, {own, box, create, errorBox}) {
  create.disabled = true;
  try {
    const created = await new Api().createGame(body, newKey());
    store.save({id: created.id, name: created.name, ruleset: created.ruleset, banker: created.banker_token,
      tokens: created.tokens, created: created.created});
    location.hash = `#/g/${created.id}/players`;
  } catch (err) {
    const beside = own && err instanceof Problem && box.showRefusal(err);
    replace(errorBox, beside ? h('p', {class: 'problem', role: 'alert'}, t('box_fix')) : problemView(plainContext(), err));
    create.disabled = false;
  }
}

// A game's or a player's name is 1 to 40 characters on the server (docs/api.md), counted as it
// counts them: NFC, trimmed, by code point. A longer one is refused here, with a message under
// the field, and never cut short behind the banker's back (as a maxlength cuts a pasted name).
const NAME_MAX = 40;
let nameNotes = 0;

/**
 * Whether the input's name fits; if not, it is marked and a message under it says so.
 * @param {HTMLInputElement} input
 */
function checkName(input) {
  const n = [...input.value.normalize('NFC').trim()].length;
  const box = input.parentElement;
  let note = box && box.querySelector(':scope > .field-error');
  if (n <= NAME_MAX) {
    if (note) note.remove();
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-errormessage');
    return true;
  }
  if (!note) {
    nameNotes += 1;
    note = h('p', {class: 'field-error', id: `name-note-${nameNotes}`, 'aria-live': 'polite', dataset: {testid: 'name-too-long'}});
    box.append(note);
  }
  note.textContent = t('name_too_long', {max: NAME_MAX, n});
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-errormessage', note.id);
  return false;
}
