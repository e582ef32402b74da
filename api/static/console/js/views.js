// Pieces shared by the banker's console and the players' view: names, amounts, deed chips and
// the board-coloured deed picker, transactions described, problems explained.

import {h, replace, fmtTime} from './dom.js';
import {t, money, typeLabel, locale, number, plural} from './i18n.js';
import {groupClass} from './rules.js';
import {Api} from './api.js';

/** Everything a screen needs about one game: the API, the board, the state, names. */
export class GameContext {
  constructor({id, api, board, game, currency}) {
    /** A player's page drawn from what it kept, before the server answered (play.js). */
    this.stale = false;
    this.id = id;
    this.api = api;
    this.board = board;
    this.currency = currency;
    this.setGame(game);
  }

  /** Takes the game's state as the server sent it, its players indexed by id. */
  setGame(game) {
    this.game = game;
    this.players = game.players;
    this.byId = new Map(game.players.map((p) => [p.id, p]));
  }

  /** The game's moves (moves.js): what it can record now, as the server declares it. */
  setMoves(answer, key) {
    this.movesAnswer = answer;
    this.moves = new Map(answer.moves.map((m) => [m.type, m]));
    this.notVoidable = new Set(answer.not_voidable || []);
    // The players the moves can name: those still at the table (a bankrupt too, where the
    // game's house rule keeps him seated).
    this.seatedIds = new Set(answer.moves.flatMap((m) => m.fields)
      .filter((f) => f.kind === 'player' && Array.isArray(f.choices)).flatMap((f) => f.choices));
    this.movesKey = key;
  }

  /** Whether a player is still at the table: not bankrupt, or named by the game's moves. */
  seated(pid) {
    const p = this.byId.get(pid);
    return Boolean(p && (!p.bankrupt || (this.seatedIds && this.seatedIds.has(pid))));
  }

  /** Whether the game records moves of `type` now (the server says). */
  can(type) { return Boolean(this.moves && this.moves.has(type)); }
  /** The declaration of a move the game can record now, by type; null when not offered. */
  move(type) { return (this.moves && this.moves.get(type)) || null; }
  /** The choices the server gives a move's field now (none: the move is not offered); a
   * field of a list's items by its path (`legs.from`: a trade leg's giver). */
  choices(type, name) {
    let fields = this.move(type)?.fields || [];
    let f = null;
    for (const part of name.split('.')) {
      f = fields.find((x) => x.name === part);
      fields = f?.fields || [];
    }
    return f?.choices || [];
  }

  /** Whether a transaction of `type` may be voided at all (the server's declarations). */
  voidable(type) { return Boolean(this.notVoidable) && !this.notVoidable.has(type); }

  /** An account's name on a screen: a player's, the Bank, the pot (or the jackpot's kitty). */
  name(account) {
    if (account === 'bank') return t('bank');
    // A pot the rule set seeds at the start is the jackpot's kitty (Millionaire Elite).
    if (account === 'pot') return this.board.params.pot_seed !== undefined ? t('jackpot_kitty') : t('pot');
    const p = this.byId.get(account);
    return p ? p.name : account;
  }

  /** An amount in the console's language, with the game's currency. */
  money(amount) { return money(amount, this.currency); }
  /** A deed's name by its id, in the page's language. */
  deedName(id) { return this.board.name(id); }

  /** A deed's printed or entered figure (Millionaire Elite plots have none printed). */
  price(deed) {
    return deed.price ?? this.game.entered_figures?.[deed.id]?.price ?? null;
  }

  /** The shares a player holds: the game's state carries them (Millionaire Elite). */
  shares(pid) { return this.byId.get(pid)?.shares ?? 0; }
  /** A player's insurance policies (Millionaire Elite), in the box's order. */
  policies(pid) { return this.inPolicyOrder(this.byId.get(pid)?.policies ?? []); }
  /** Policies in the box's order, by the price the rule set gives each (green 100, blue 200,
   * orange 300, red 500), not the alphabetical order of the server's JSON keys. */
  inPolicyOrder(list) {
    const price = this.board.params.policies || {};
    return [...list].sort((a, b) => (price[a] ?? Infinity) - (price[b] ?? Infinity) || a.localeCompare(b));
  }
  /** The share price now (Millionaire Elite); null in a game without shares. */
  sharePrice() { return this.game.share_price ?? null; }

  /** The players still at the table, in the game's order. */
  activePlayers() { return this.players.filter((p) => this.seated(p.id)); }

  /** Accounts to choose from. `payee`: only those that can be paid (no bankrupt; the pot
   * only where the game collects it: the server offers it to a payment).
   * @param {{bank?: boolean, pot?: boolean, exclude?: string[], payee?: boolean}} [options]
   */
  accountOptions({bank = true, pot = true, exclude = [], payee = false} = {}) {
    const players = payee ? this.activePlayers() : this.players;
    const out = players.filter((p) => !exclude.includes(p.id)).map((p) => [p.id, p.name]);
    if (bank && !exclude.includes('bank')) out.push(['bank', t('bank')]);
    // A game without a pot (classic without the Free Parking house rule) has none to pick,
    // nor to filter by: the pot is listed where the server's moves name it or it holds money.
    const paidInto = this.choices('payment', 'to').includes('pot');
    const potOpen = payee ? paidInto
      : paidInto || this.choices('payment', 'from').includes('pot') || this.can('pot_collect') || Boolean(this.game.balances.pot);
    if (pot && potOpen && !exclude.includes('pot') && 'pot' in this.game.balances) out.push(['pot', this.name('pot')]);
    return out;
  }

  /** A player's colour class (pc1 to pc8) by his place in the game; empty for no player. */
  playerClass(pid) {
    const i = this.players.findIndex((p) => p.id === pid);
    return i < 0 ? '' : `pc${(i % 8) + 1}`;
  }
}

/** The buildings on a street in words and symbols: "2 houses", "hotel". */
export function buildingsText(prop) {
  if (prop.hotel) return t('hotel');
  if (prop.houses) return t('n_houses', {n: prop.houses});
  return '';
}

/** Small coloured chips of the deeds an owner holds, grouped by colour. */
export function deedChips(ctx, owner) {
  const deeds = ctx.board.deedsOf(ctx.game, owner);
  if (!deeds.length) return h('p', {class: 'muted small'}, t('no_deeds'));
  return h('ul', {class: 'chips', 'aria-label': t('deeds')}, deeds.map((d) => {
    const prop = ctx.game.properties[d.id];
    const b = buildingsText(prop);
    return h('li', {class: `chip ${groupClass(ctx.board, d.group)}${prop.mortgaged ? ' mortgaged' : ''}`},
      h('span', {class: 'chip-name'}, d.name),
      prop.hotel ? h('span', {class: 'bld hotel', title: t('hotel'), 'aria-label': t('hotel')}, 'H') : null,
      prop.houses ? h('span', {class: 'bld', title: b, 'aria-label': b}, '▪'.repeat(prop.houses)) : null,
      prop.mortgaged ? h('abbr', {class: 'tag', title: t('mortgaged')}, t('mortgaged_short')) : null);
  }));
}

/**
 * The board-coloured deed picker: every group in board order, each deed a tile; only the
 * deeds `eligible` accepts can be picked. Single choice (aria-pressed) or several.
 * @param {*} ctx
 * @param {{eligible: (deed: any, owner?: any) => boolean, multiple?: boolean, selected?: string[], onChange: Function, label?: string, describe?: Function}} options
 */
export function deedPicker(ctx, {eligible, multiple = false, selected = [], onChange, label, describe}) {
  const chosen = new Set(selected);
  const wrap = h('div', {class: 'picker', role: 'group', 'aria-label': label || t('choose_deed')});
  const buttons = new Map();
  for (const [group, deeds] of ctx.board.groups) {
    const ok = deeds.filter((d) => eligible(d, ctx.game.properties[d.id]));
    if (!ok.length) continue;
    const row = h('div', {class: 'picker-group'});
    for (const d of ok) {
      const prop = ctx.game.properties[d.id];
      const sub = describe ? describe(d, prop) : tileLine(ctx, d, prop);
      const btn = h('button', {
        type: 'button',
        class: `tile ${groupClass(ctx.board, group)}${prop.mortgaged ? ' mortgaged' : ''}`,
        'aria-pressed': chosen.has(d.id) ? 'true' : 'false',
        dataset: {deed: d.id},
        onclick: () => {
          if (multiple) {
            if (chosen.has(d.id)) chosen.delete(d.id); else chosen.add(d.id);
          } else {
            chosen.clear();
            chosen.add(d.id);
          }
          for (const [id, b] of buttons) b.setAttribute('aria-pressed', chosen.has(id) ? 'true' : 'false');
          if (onChange) onChange(multiple ? [...chosen] : d.id);
        },
      }, h('span', {class: 'tile-band'}), h('span', {class: 'tile-name'}, d.name), h('span', {class: 'tile-sub'}, sub));
      buttons.set(d.id, btn);
      row.append(btn);
    }
    wrap.append(row);
  }
  if (!buttons.size) wrap.append(h('p', {class: 'muted'}, t('no_deed_fits')));
  wrap.selected = () => (multiple ? [...chosen] : [...chosen][0] || null);
  return wrap;
}

/** A deed's tile in one line: its owner or price, its buildings, whether mortgaged. */
export function tileLine(ctx, d, prop) {
  const parts = [];
  if (prop.owner !== 'bank') parts.push(ctx.name(prop.owner));
  else {
    const price = ctx.price(d);
    parts.push(price === null ? t('price_entered') : ctx.money(price));
  }
  const b = buildingsText(prop);
  if (b) parts.push(b);
  if (prop.mortgaged) parts.push(t('mortgaged'));
  return parts.join(' · ');
}

/** A type of transaction in words: where shares pay a part of the salary (Millionaire
 * Elite's round income) by the word of its button, "Income", everywhere it is named. */
export function typeName(ctx, type) {
  if (type === 'salary' && ctx.board.params.share_income_percent !== undefined) return t('income');
  return typeLabel(type);
}

/** An IOU as the log names it, by what never changes: the transaction that issued it, its
 * debtor and its amount ("the IOU of #42: Ann, $30"), never its id (iou-42). */
export function iouName(ctx, id) {
  const seq = /^iou-(\d+)$/.exec(String(id));
  if (!seq) return t('a_iou');
  const iou = (ctx.game.ious || []).find((i) => i.id === id);
  if (!iou) return t('iou_of_seq', {seq: seq[1]});
  return t('iou_named', {seq: seq[1], debtor: ctx.name(iou.debtor), amount: ctx.money(iou.amount)});
}

/** A transaction in one line: its type, the money that moved, what it was about. */
export function describeTxn(ctx, txn) {
  const req = txn.request || {};
  const about = [];
  // Without money moving, say whom it was about (jail, a jail card, an IOU).
  const who = req.player || req.debtor;
  const b = txn.basis || {};
  // A player renamed: the old name and the new, as the log keeps them (the table names the
  // player by the name now).
  if (typeof b.old_name === 'string' && typeof b.new_name === 'string') about.push(`${b.old_name} → ${b.new_name}`);
  else if (typeof who === 'string' && !(txn.postings || []).length) about.push(ctx.name(who));
  if (typeof req.property === 'string') about.push(ctx.deedName(req.property));
  // Buildings put up or sold on several streets at once: each street, by its name.
  if (Array.isArray(req.orders)) about.push(...req.orders.filter((o) => o && typeof o.property === 'string').map((o) => ctx.deedName(o.property)));
  if (typeof req.iou === 'string') about.push(iouName(ctx, req.iou));
  // An IOU passed on moves no money: say to whom.
  if (txn.type === 'iou_transfer' && typeof req.to === 'string') about.push(`→ ${ctx.name(req.to)}`);
  if ((txn.type === 'void' || txn.type === 'dispute') && req.seq) about.push(seqRef(req.seq));
  // A rename voided: the name it gives back, as the rename's own row says it ("Robert → Bob").
  if (txn.type === 'void') about.push(...nameChanges(txn).map((c) => `${c.from} → ${c.to}`));
  // The EXCHANGE moves no money: say where the price went.
  if (txn.type === 'share_price' && b.from !== undefined) about.push(`${ctx.money(b.from)} → ${ctx.money(b.to)}`);
  const moves = (txn.postings || []).map((p) => `${ctx.name(p.from)} → ${ctx.name(p.to)} ${ctx.money(p.amount)}`);
  return {
    title: `${seqRef(txn.seq)} ${typeName(ctx, txn.type)}${about.length ? ` · ${about.join(', ')}` : ''}`,
    moves: moves.join('; '),
  };
}

/** The names a transaction changes (its `changes` of kind `name`: a rename, or its void). */
export function nameChanges(txn) {
  return (txn.changes || []).filter((c) => c.kind === 'name' && typeof c.from === 'string' && typeof c.to === 'string');
}

/** A transaction by its number, as every screen of the console writes it: "#12". */
export function seqRef(seq) {
  return `#${seq}`;
}

// What a basis says, field by field (views.js basisList, the quotes' boxes, the history):
// each key labelled (`b_<key>`), each value in words. Amounts are money; counts plain numbers;
// ids names (deeds, players, accounts, IOUs, transactions); the server's words the dictionary's.
// (A `from` or `to` that is a number is a price: the EXCHANGE's share price before and after.)
const AMOUNTISH = /amount|rent|price|cost|total|cash|fee|owed|value|salary|income|tax|flat|worth|bid|stake|payout|fine|interest|repaid|forgiven|outstanding|score|commission$|pot|bank_pays|prices|figure|per_house|per_hotel|per_share|^from$|^to$/;
const COUNTISH = /^shares$|^shares_sold$|percent$|count|held|houses|hotels|points|dice|factor|multiplier|rank|checked/;
const PERCENT = /percent$/;
const SEQS = new Set(['voided', 'about', 'dispute', 'resolved_by', 'seq', 'bankrupt', 'void']);
// Fields a family does not need (the rule set's bookkeeping): left out of a basis shown.
const LEFT_OUT = new Set(['kind', 'printed', 'entered', 'plot_tax_entered', 'merged']);
// Counted fields said with their noun, in the form the language counts it ("2 акции").
const COUNTED = {shares: 'cnt_shares', shares_sold: 'cnt_shares', houses: 'cnt_houses', hotels: 'cnt_hotels'};

/** Whether a basis key names money (an amount, a price, a rent), not a count. */
function isAmount(key) {
  return AMOUNTISH.test(key) && !COUNTISH.test(key);
}

/** One value of a basis in words: money, a count, a percent, a number, a name, a word. */
function showValue(ctx, key, value) {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return t(`bv_${key}_${value ? 'yes' : 'no'}`, {}, value ? t('yes') : t('no'));
  if (typeof value === 'number') {
    if (SEQS.has(key)) return seqRef(value);
    if (COUNTED[key]) return plural(value, COUNTED[key]);
    if (PERCENT.test(key)) return `${number(value)}\u00a0%`;
    return isAmount(key) ? ctx.money(value) : number(value);
  }
  if (typeof value === 'string') {
    if (ctx.board.byId.has(value)) return ctx.deedName(value);
    if (ctx.byId.has(value) || value === 'bank' || value === 'pot') return ctx.name(value);
    if (value === 'banker') return t('banker');
    if (key === 'iou' || /^iou-\d+$/.test(value)) return iouName(ctx, value);
    const word = WORDS[key] && WORDS[key](value);
    return word ? t(word, {}, value) : value;
  }
  if (Array.isArray(value)) {
    if (!value.length) return '—';
    return value.map((v) => showValue(ctx, key, v)).join(typeof value[0] === 'object' ? '; ' : ', ');
  }
  if (RECORDS[key]) return RECORDS[key](ctx, value);
  // A record (a building order, an IOU written off, a map of deeds to prices): its fields in
  // words, never JSON; a deed or a player as a key is named.
  return Object.entries(value).filter(([k]) => !LEFT_OUT.has(k)).map(([k, v]) => {
    if (ctx.board.byId.has(k) || ctx.byId.has(k)) return `${ctx.board.byId.has(k) ? ctx.deedName(k) : ctx.name(k)}: ${showValue(ctx, key, v)}`;
    if (typeof v === 'boolean' && t(`bv_${k}_${v ? 'yes' : 'no'}`, {}, '')) return showValue(ctx, k, v);
    return `${t(`b_${k}`, {}, k.replaceAll('_', ' '))}: ${showValue(ctx, k, v)}`;
  }).join(', ');
}

/** A trade's leg in words: "Bob → Cy: $20, Connecticut Avenue, Chance jail card". */
export function legLine(ctx, leg) {
  const given = [];
  if (leg.cash) given.push(ctx.money(leg.cash));
  for (const d of leg.properties || []) given.push(ctx.deedName(d));
  for (const deck of leg.jail_cards || []) given.push(t('jail_card_of', {deck: t(`deck_${deck}`, {}, deck)}));
  return `${ctx.name(leg.from)} → ${ctx.name(leg.to)}: ${given.length ? given.join(', ') : t('fp_nothing')}`;
}

/** Records said as a sentence rather than field by field. */
const RECORDS = {
  legs: legLine,
  // A standing at the finish: "1. Ann 1 627 $".
  standings: (ctx, s) => `${number(s.rank)}. ${ctx.name(s.player)} ${ctx.money(s.score)}${s.bankrupt ? ` (${t('bankrupt')})` : ''}`,
};

/** The dictionary key of a word the server writes in a basis, by the field it is in. */
const WORDS = {
  deck: (v) => `deck_${v}`,
  jail_cards: (v) => `deck_${v}`,
  policy: (v) => `policy_${v}`,
  policies_expired: (v) => `policy_${v}`,
  policies_returned: (v) => `policy_${v}`,
  effect: (v) => `effect_${v}`,
  voided_type: (v) => `ty_${v}`,
  direction: (v) => `price_${v}`,
  tax: (v) => `${v}_tax`,
  choice: (v) => `mc_choice_${v}`,
  kind: (v) => `kind_${v}`,
  status: (v) => `dp_status_${v}`,
  action: (v) => `mc_action_${v}`,
  // The server's own sentences, of which there is one each.
  waives: () => 'bt_waives',
  scoring: () => 'bt_scoring',
};

/** A basis (why each amount is what it is) as a definition list. */
export function basisList(ctx, basis) {
  const entries = Object.entries(basis || {}).filter(([k]) => !LEFT_OUT.has(k));
  if (!entries.length) return null;
  return h('dl', {class: 'basis'}, entries.map(([k, v]) => [
    h('dt', {}, t(`b_${k}`, {}, k.replaceAll('_', ' '))),
    h('dd', {}, showValue(ctx, k, v)),
  ]));
}

/** One change a transaction made, in words: what changed, from what to what. */
function changeText(ctx, c) {
  const what = [c.property ? ctx.deedName(c.property) : c.player ? ctx.name(c.player) : c.deck ? t(`deck_${c.deck}`) : '',
    c.policy ? t(`policy_${c.policy}`, {}, c.policy) : ''].filter(Boolean).join(', ');
  const val = (v) => (typeof v === 'string' && (ctx.byId.has(v) || v === 'bank' || v === 'deck') ? (v === 'deck' ? t('deck') : ctx.name(v)) : showValue(ctx, c.kind, v));
  if (c.kind === 'status') {
    const status = (v) => (v ? t(`status_${v}`, {}, v) : '—');
    return `${t('c_status')}: ${status(c.from)} → ${status(c.to)}`;
  }
  // A name, from the old to the new, as the rename's own row says it: the player is named
  // by the names themselves, not a third time by the name he has now.
  if (c.kind === 'name') return `${t('c_name')}: ${c.from} → ${c.to}`;
  if (c.kind === 'iou') {
    // An IOU issued (or taken back by a void) is a whole record: said in words, never as JSON.
    const iou = (v) => (v && typeof v === 'object'
      ? t('iou_line', {debtor: ctx.name(v.debtor), holder: ctx.name(v.holder), amount: ctx.money(v.outstanding), of: ctx.money(v.amount)})
      : '—');
    return `${t('c_iou')}: ${iou(c.from)} → ${iou(c.to)}`;
  }
  return `${t(`c_${c.kind}`, {}, c.kind)}${what ? ` · ${what}` : ''}: ${val(c.from)} → ${val(c.to)}`;
}

/** Everything the log keeps of a transaction, for the expanded row of the history. */
export function txnDetails(ctx, txn) {
  return h('div', {class: 'txn-details'},
    h('p', {class: 'small muted'}, `${t('recorded_by')} ${byWhom(ctx, txn.by)} · ${fmtTime(txn.at, locale())}`),
    txn.memo ? h('p', {class: 'memo'}, txn.memo) : null,
    txn.voided_by ? h('p', {class: 'warn'}, t('voided_by', {seq: txn.voided_by})) : null,
    h('h4', {}, t('postings')),
    (txn.postings || []).length
      ? h('ul', {class: 'postings'}, txn.postings.map((p) => h('li', {}, `${ctx.name(p.from)} → ${ctx.name(p.to)}: ${ctx.money(p.amount)}`)))
      : h('p', {class: 'muted small'}, t('no_money_moved')),
    (txn.changes || []).length ? [h('h4', {}, t('changes')), h('ul', {class: 'changes'}, txn.changes.map((c) => h('li', {}, changeText(ctx, c))))] : null,
    h('h4', {}, t('basis')),
    basisList(ctx, txn.basis) || h('p', {class: 'muted small'}, '—'),
    h('p', {class: 'hash small muted'}, `${t('hash')}: `, h('code', {}, (txn.hash || '').slice(0, 16))));
}

/** A statement: every posting of one account with the running balance. */
export function statementTable(ctx, statement) {
  if (!statement.items.length) return h('p', {class: 'muted'}, t('no_postings'));
  // In its own scroller: a long game's amounts may outgrow a 360 px phone, the page never does.
  return h('div', {class: 'table-scroll'}, h('table', {class: 'statement'},
    h('caption', {}, `${t('statement_of')} ${ctx.name(statement.account)} · ${t('balance')} ${ctx.money(statement.balance)}`),
    h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, '#'), h('th', {scope: 'col'}, t('what')),
      // A column's head, capitalised like the others (the caption's lowercase "balance" read
      // as one phrase with "Amount" beside it).
      h('th', {scope: 'col', class: 'num'}, t('amount')), h('th', {scope: 'col', class: 'num'}, t('balance_col')))),
    h('tbody', {}, [...statement.items].reverse().map((it) => h('tr', {},
      h('td', {}, String(it.seq)),
      h('td', {}, typeName(ctx, it.type), it.counterparty ? h('span', {class: 'muted'}, ` · ${ctx.name(it.counterparty)}`) : null,
        it.memo ? h('div', {class: 'small muted'}, it.memo) : null),
      h('td', {class: `num ${it.amount < 0 ? 'neg' : 'pos'}`}, (it.amount > 0 ? '+' : '') + ctx.money(it.amount)),
      h('td', {class: 'num'}, ctx.money(it.balance)))))));
}

// Refusal params by name (ledger/refusals.py gives each name one meaning everywhere).
const ACCOUNT_PARAMS = new Set(['payer', 'creditor', 'debtor', 'player', 'owner', 'holder', 'turn']);
const MONEY_PARAMS = new Set(['amount', 'cash', 'shortfall', 'can_raise', 'total', 'owed']);
const PARAM_WORDS = {
  deck: (v) => t(`deck_${v}`, {}, v),
  policy: (v) => t(`policy_${v}`, {}, v),
  kind: (v) => t(`kind_${v}`, {}, v),
  only: (v) => t(`b_${v}`, {}, v),
  type: (v) => typeLabel(v),
  would_be: (v) => t(`e_${v}`, {}, v),
};

/**
 * A rule refusal in the reader's language, built from its `code` and `params` with the
 * dictionary's `r_<code>_<reason>` or `r_<code>`: players by name, deeds by their names,
 * amounts as money. null for a code this console has no sentence for.
 */
function refusalText(ctx, code, params) {
  if (!params || typeof params !== 'object') return null;
  const deed = (id) => (ctx.deedName ? ctx.deedName(id) : id);
  const words = {};
  for (const [name, value] of Object.entries(params)) {
    if (ACCOUNT_PARAMS.has(name)) words[name] = ctx.name(value);
    else if (name === 'property') words[name] = deed(value);
    // An IOU by who owes how much, never its id (iou-4); a string of no IOU's form as typed.
    else if (name === 'iou') words[name] = /^iou-\d+$/.test(value) ? iouName(ctx, value) : String(value);
    else if (MONEY_PARAMS.has(name)) words[name] = ctx.money(value);
    else if (name === 'levels') words[name] = Object.entries(value).map(([d, n]) => `${deed(d)} ${n}`).join(', ');
    else words[name] = PARAM_WORDS[name] ? PARAM_WORDS[name](value) : String(value);
  }
  for (const key of [params.reason ? `r_${code}_${params.reason}` : null, `r_${code}`]) {
    const text = key ? t(key, words, '') : '';
    if (text) return text;
  }
  return null;
}

/** A context for views drawn outside any game (a refusal on the start or new-game screen):
 * names and amounts as they come, the server without a token. */
export function plainContext() {
  return {name: (x) => x, money: (x) => String(x), api: new Api()};
}

/**
 * A refusal explained: the localized reason, the sentence built from its `code` and `params`
 * (the server's English `detail` only for a code this console does not know), the fields it
 * names, and for insufficient_funds the shortfall and what the payer could raise; for
 * disputes_open (a finish), where the page can show them, the way to the open disputes.
 * @param {*} ctx
 * @param {*} err
 * @param {{onLiquidation?: Function, extra?: any, again?: Function}} [options]
 */
export function problemView(ctx, err, {onLiquidation, extra, again} = {}) {
  const body = err.body || {};
  const box = h('div', {class: 'problem', role: 'alert'});
  const known = t(`e_${err.code}`, {}, '');
  box.append(h('p', {class: 'problem-title'}, known || body.title || t('refused')));
  const said = refusalText(ctx, err.code, body.params) || (known || body.errors ? null : body.detail);
  if (said) box.append(h('p', {class: 'problem-detail'}, said));
  if (body.errors) {
    // The fields named, in the reader's language; the server's own words (English) only for
    // a field this console has no name for.
    box.append(h('ul', {}, Object.entries(body.errors).map(([f, msgs]) => {
      const leaf = f.split('.').pop();
      const known = t(`b_${leaf}`, {}, '');
      return h('li', {}, known ? t('field_to_check', {field: known}) : `${f}: ${[].concat(msgs).join(' ')}`);
    })));
  }
  if (err.code === 'insufficient_funds') {
    const p = body.params || {};
    const payer = p.payer ?? body.account;
    const who = ctx.name(payer);
    box.append(h('p', {class: 'shortfall', dataset: {testid: 'shortfall'}},
      t('short_by', {name: who, amount: ctx.money(p.shortfall ?? body.shortfall)})));
    const canRaise = p.can_raise ?? body.can_raise ?? 0;
    box.append(h('p', {class: 'can-raise'}, canRaise > 0
      ? t('could_raise', {name: who, amount: ctx.money(canRaise)}) : t('could_raise_nothing', {name: who})));
    if (payer && payer !== 'bank' && payer !== 'pot') {
      const slot = h('div', {class: 'liquidation-slot'});
      box.append(h('div', {class: 'row'},
        h('button', {type: 'button', class: 'secondary', onclick: async (ev) => {
          ev.currentTarget.disabled = true;
          try {
            replace(slot, liquidationView(ctx, await ctx.api.liquidation(ctx.id, payer)));
            slot.scrollIntoView({block: 'nearest'});
          } catch (e2) {
            replace(slot, problemView(ctx, e2));
          }
        }}, t('what_can_raise', {name: who})),
        onLiquidation ? onLiquidation(payer, p) : null), slot);
    }
  }
  if (err.code === 'disputes_open' && ctx.showDisputes) {
    // The game cannot end with a dispute open: the way to settle them first.
    const p = body.params || {};
    box.append(h('p', {class: 'small'}, t('dp_finish_blocked')),
      h('div', {class: 'row'}, h('button', {type: 'button', class: 'secondary', dataset: {testid: 'settle-disputes'},
        onclick: () => ctx.showDisputes(p.seq)}, t('dp_settle', {n: p.count}))));
  }
  if (err.code === 'void_conflict' && ctx.voidFirst) {
    // The way forward: the later transactions to void first, each with its own Void; `again`
    // asks the refused void once more after each.
    const way = ctx.voidFirst(body.params || {}, again);
    if (way) box.append(way);
  }
  if (err.code === 'idempotency_key_reused' && body.seq) box.append(h('p', {}, t('already_recorded', {seq: body.seq})));
  if (extra) box.append(extra);
  return box;
}

/** What a player could raise: cash, each building sale, each mortgage, shares. */
export function liquidationView(ctx, liq) {
  const rows = [[t('cash'), liq.cash]];
  for (const b of liq.buildings || []) rows.push([t('liq_buildings', {deed: ctx.deedName(b.property), what: buildingsText(b)}), b.amount]);
  for (const m of liq.mortgages || []) rows.push([t('liq_mortgage', {deed: ctx.deedName(m.property)}), m.amount]);
  if (liq.shares) rows.push([t('sell_shares'), liq.shares]);
  return h('table', {class: 'liquidation'},
    h('caption', {}, t('liquidation_of', {name: ctx.name(liq.player)})),
    h('tbody', {}, rows.map(([k, v]) => h('tr', {}, h('th', {scope: 'row'}, k), h('td', {class: 'num'}, ctx.money(v))))),
    h('tfoot', {},
      h('tr', {}, h('th', {scope: 'row'}, t('can_raise')), h('td', {class: 'num'}, ctx.money(liq.can_raise))),
      h('tr', {class: 'total'}, h('th', {scope: 'row'}, t('total')), h('td', {class: 'num'}, ctx.money(liq.total)))));
}

/** Final standings, best first. */
export function standingsView(ctx, standings) {
  return h('ol', {class: 'standings'}, standings.map((s) => h('li', {},
    h('span', {class: 'rank'}, `${s.rank}.`), ' ', h('strong', {}, ctx.name(s.player)), ' ', ctx.money(s.score))));
}

/** Who recorded a transaction, in the page's words: the banker, the server's admin (a game
 * closed by the admin token: `finish`), or a player by name. */
function byWhom(ctx, by) {
  if (by === 'banker') return t('banker');
  if (by === 'admin') return t('server_admin');
  return ctx.name(by);
}
