// A player's view at /play/<game>#p=<player>&token=<token>: own balance, deeds and statement,
// paying out of one's own account, the others at a glance; redrawn on each transaction of the
// game's live stream (live.js), with a banner while the server cannot be reached. The token
// comes in the fragment, which browsers never send; the page keeps it and takes it out of the
// address bar (playerLink). On a phone others use too, the player makes this device forget it
// (forgetDevice).

import {loadMoves, moveForm, askedIn} from './moves.js';
import {h, replace, modal, field, toast} from './dom.js';
import {Api, Problem, access, unreachable} from './api.js';
import {Intents} from './intents.js';
import {askAgain} from './dialog.js';
import {t, langSwitch, onLangChange, setDocumentLang} from './i18n.js';
import {themeSwitch} from './theme.js';
import {Board} from './rules.js';
import {GameContext, deedChips, statementTable, problemView, standingsView} from './views.js';
import {Live} from './live.js';
import {playerDisputes} from './disputes.js';
import {fairplaySummary} from './fairplay.js';
import {statsSection} from './stats.js';
import {quoteBox, netFor} from './quote.js';
import {connection, showBanner, drawBanner, registerWorker} from './offline.js';
import {countdown} from './clock.js';
import * as store from './store.js';

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10000;
const main = document.getElementById('main');
const top = document.getElementById('top');
const gameId = location.pathname.split('/').filter(Boolean)[1];
// Put on a home screen, the app opens this game's players' page (the server's manifest of it),
// named after the game once the page knows its name (two games' apps are not both "tablebank").
const manifestOf = (name) => `/play/${encodeURIComponent(gameId)}/manifest.webmanifest${name ? `?name=${encodeURIComponent(name)}` : ''}`;
const manifest = h('link', {rel: 'manifest', href: manifestOf(null)});
document.head.append(manifest);
const link = playerLink();
const me = link.p;
const api = new Api(link.token);
let ctx = null;
let etag = null;
let statement = null;
const intents = new Intents(gameId);
let payEl = null; // the pay form, kept while the player is typing into it
let live = null; // the game's stream, while the page follows it
let forgotten = null; // the player's and the game's names once this device forgot the link
let replacedBy = null; // the game's name once the server said this link was replaced

/** The player's top bar: the game's name once known, the language and theme switches. */
function topbar() {
  replace(top, h('div', {class: 'brand-row'},
    h('span', {class: 'brand'}, h('img', {src: new URL('../icons/favicon.svg', import.meta.url).href, alt: '', width: 24, height: 24}), ' tablebank'),
    ctx ? h('span', {class: 'game-name'}, ctx.game.name) : null,
    langSwitch(), themeSwitch()));
}

/** The game, its moves and the player's statement, when the game changed; false when not. */
async function load() {
  if (forgotten) return false; // an answer on its way when the device forgot the link: dropped
  const answer = await api.gameIfChanged(gameId, etag);
  if (!answer) return false;
  etag = answer.etag;
  if (!ctx) {
    const rs = await api.gameRuleset(gameId);
    ctx = new GameContext({id: gameId, api, board: new Board(rs), game: answer.game, currency: rs.currency});
  }
  ctx.setGame(answer.game);
  await loadMoves(ctx); // what this player may record, as the server lists it
  statement = await api.statement(gameId, me);
  if (ctx.stale) {
    ctx.stale = false;
    drawBanner();
  }
  keepSeen();
  return true;
}

// -- the table as last seen -------------------------------------------------------------------

// What this device last saw of the game for this player (the game, its rule set and the
// player's statement), as the banker's page keeps its table: a reload without a server shows
// it, said to be as last seen, instead of only "Waiting for the server…". Kept under the game's
// id, so that forgetting the game or this player's link forgets it too (store.js).
const SEEN = `seen.${me}.${gameId}`;

/** Keeps what the player's page shows now on this device, for a reload without a server. */
function keepSeen() {
  if (forgotten || !ctx) return;
  store.set(SEEN, JSON.stringify({game: ctx.game, ruleset: ctx.board.rs, statement}));
}

/** The table as last seen, drawn while the server cannot be reached; false if none is kept. */
function showSeen() {
  let seen = null;
  try {
    seen = JSON.parse(store.get(SEEN) || 'null');
  } catch {
    seen = null;
  }
  if (!seen || !seen.game || !seen.ruleset) return false;
  ctx = new GameContext({id: gameId, api, board: new Board(seen.ruleset), game: seen.game, currency: seen.ruleset.currency});
  ctx.stale = true;
  statement = seen.statement || {items: []};
  draw();
  drawBanner();
  return true;
}

/** Draws the player's page: his money, deeds, payment, statement, disputes, the others. */
function draw() {
  setDocumentLang();
  if (forgotten) {
    drawForgotten();
    return;
  }
  if (replacedBy) {
    drawReplaced();
    return;
  }
  topbar();
  const p = ctx.byId.get(me);
  if (!p) {
    replace(main, h('section', {class: 'card'}, h('p', {}, t('ask_banker_link'))));
    return;
  }
  const game = ctx.game;
  document.title = `${p.name} · ${game.name} · tablebank`;
  if (manifest.getAttribute('href') !== manifestOf(game.name)) manifest.setAttribute('href', manifestOf(game.name));
  const badges = [];
  if (p.bankrupt) badges.push(h('span', {class: 'badge danger'}, t('bankrupt')));
  if (p.in_jail) badges.push(h('span', {class: 'badge warn'}, t('in_jail')));
  for (const deck of p.jail_cards || []) badges.push(h('span', {class: 'badge'}, t('jail_card_of', {deck: t(`deck_${deck}`)})));
  const ious = (game.ious || []).filter((i) => i.outstanding > 0 && (i.debtor === me || i.holder === me));

  const mine = h('section', {class: `card player me ${ctx.playerClass(me)}`, 'aria-labelledby': 'me-h'},
    h('header', {}, h('h1', {id: 'me-h'}, p.name), h('div', {class: 'badges'}, badges)),
    countdown(game),
    h('p', {class: 'cash big-cash', dataset: {testid: 'my-cash'}, 'aria-live': 'polite'}, ctx.money(p.cash)),
    h('p', {class: 'worth small muted'}, `${t('net_worth')} ${ctx.money(p.net_worth)}`),
    ctx.sharePrice() !== null ? h('p', {class: 'small'}, `${t('shares')}: ${ctx.shares(me)} · ${t('share_price')}: ${ctx.money(ctx.sharePrice() ?? 0)}`) : null,
    // The policies held (Millionaire Elite) and the IOUs still open, as the banker's table
    // shows them: what the net worth counts beside the cash and the deeds.
    ctx.policies(me).length ? h('p', {class: 'small', dataset: {testid: 'my-policies'}},
      `${t('policies_held')}: ${ctx.policies(me).map((x) => t(`policy_${x}`)).join(', ')}`) : null,
    ious.length ? h('p', {class: 'small', dataset: {testid: 'my-ious'}}, ious.map((i) => (i.debtor === me
      ? t('owes', {name: ctx.name(i.holder), amount: ctx.money(i.outstanding)})
      : t('is_owed', {name: ctx.name(i.debtor), amount: ctx.money(i.outstanding)}))).join(' · ')) : null,
    h('h2', {class: 'sub'}, t('my_deeds')), deedChips(ctx, me));

  if (game.status === 'finished' && game.standings) {
    mine.append(h('h2', {}, t('standings')), standingsView(ctx, game.standings), statsSection(ctx), fairplaySummary(ctx));
  }

  const others = h('section', {class: 'card'}, h('h2', {}, t('the_table')),
    h('ul', {class: 'others'}, game.players.filter((x) => x.id !== me).map((x) => h('li', {class: ctx.playerClass(x.id)},
      h('span', {class: 'grow'}, x.name, x.bankrupt ? ` (${t('bankrupt')})` : ''), h('span', {class: 'num'}, ctx.money(x.cash))))));

  if (!(payEl && payEl.contains(document.activeElement))) {
    payEl = game.status === 'active' && (ctx.can('payment') || ctx.can('rent')) ? payCard() : null;
  }
  const pay = payEl;
  replace(main, mine, pay, h('section', {class: 'card'}, h('h2', {}, t('my_statement')), statementTable(ctx, statement)),
    playerDisputes(ctx, {me, intents, after: () => { etag = null; return update(); }}), others, deviceCard(p));
}

// -- this device ---------------------------------------------------------------------------

/** Forgetting this player's link on this device, one tap further in a dialog: it cannot be
 * undone here (only the link itself, opened again, brings the page back). */
function deviceCard(p) {
  const ask = () => modal(t('dv_forget_title'), (body, dialog) => {
    body.append(h('p', {}, t('dv_forget_text', {name: p.name, game: ctx.game.name})),
      h('div', {class: 'actions'},
        h('button', {type: 'button', class: 'secondary', onclick: () => dialog.close()}, t('cancel')),
        h('button', {type: 'button', class: 'danger', dataset: {testid: 'forget-device-confirm'}, onclick: () => {
          dialog.close();
          forgetDevice();
        }}, t('dv_forget_yes'))));
  });
  return h('section', {class: 'card device', 'aria-labelledby': 'device-h'},
    h('h2', {id: 'device-h'}, t('dv_title')),
    h('p', {class: 'small muted'}, t('dv_hint')),
    h('div', {class: 'actions'}, h('button', {type: 'button', class: 'secondary', 'aria-haspopup': 'dialog',
      dataset: {testid: 'forget-device'}, onclick: ask}, t('dv_forget'))));
}

/**
 * This device forgets the player's link: the token goes from this tab and from the device
 * (store.forgetPlayerLink), the page stops following the game and asks the server nothing more,
 * and it says so. Other tabs open on the same player forget it too, unless this one was `told`
 * by one of them.
 * @param {{told?: boolean}} [options]
 */
function forgetDevice({told = false} = {}) {
  if (forgotten || !link.token) return;
  const p = ctx && ctx.byId.get(me);
  forgotten = {name: p ? p.name : me, game: ctx ? ctx.game.name : ''};
  // Nothing of the game left in sight: no dialog over the page, no toast of a payment.
  leaveGame();
  store.forgetPlayerLink(gameId, link, {quiet: told});
  replace(document.getElementById('toasts'));
  link.token = null;
  api.token = null;
  drawForgotten();
}

/** The page follows the game no more: no stream, no dialog over it, no game in memory. */
function leaveGame() {
  if (live) live.stop();
  live = null;
  connection.follow(null);
  for (const dialog of document.querySelectorAll('dialog[open]')) /** @type {HTMLDialogElement} */ (dialog).close();
  ctx = null;
  statement = null;
  payEl = null;
}

/** The page once this device forgot the link: what it forgot, and how to come back. */
function drawForgotten() {
  endedPage('device-forgotten', h('h1', {}, t('dv_forgotten_title')),
    h('p', {}, t(forgotten.game ? 'dv_forgotten_text' : 'dv_forgotten_text_short', forgotten)),
    h('p', {class: 'muted'}, t('dv_come_back')));
}

/** A page with no game on it any more (`testid`: which), its words in the reader's language. */
function endedPage(testid, ...children) {
  setDocumentLang();
  document.title = 'tablebank';
  topbar();
  replace(main, h('section', {class: 'card', dataset: {testid}}, ...children));
  main.focus();
}

/**
 * The banker made a new link for this player (a lost or shared phone): the server answers this
 * token 401 `replaced`, on any request or the stream (api.js `access`). The page stops
 * following the game and says so, in the player's words; the new link, opened or scanned,
 * replaces the one this device keeps.
 */
function linkReplaced() {
  if (replacedBy || forgotten) return;
  replacedBy = {game: ctx ? ctx.game.name : ''};
  leaveGame();
  drawReplaced();
}

/** The page once the banker replaced this link: the game's name, and what to do. */
function drawReplaced() {
  endedPage('link-replaced', h('h1', {}, t('link_replaced_title')),
    replacedBy.game ? h('p', {class: 'muted'}, replacedBy.game) : null, h('p', {}, t('link_replaced_text')));
}

access.addEventListener('replaced', linkReplaced);

/** Paying out of one's own account: a payment to anyone, or rent for a deed landed on. Both
 * are the moves' forms (moves.js) with this player's account in them: what the server lists
 * for his token, its accounts and deeds (somebody else's). */
function payCard() {
  const errorBox = h('div', {});
  const send = (btn, body) => sendOwn(btn, body, errorBox);
  const card = h('section', {class: 'card'}, h('h2', {}, t('pay_from_my_account')));
  const payment = ctx.move('payment');
  if (payment) card.append(...paymentForm(payment, errorBox, send));
  const rent = ctx.move('rent');
  if (rent) card.append(rentForm(rent, errorBox, send));
  card.append(errorBox);
  return card;
}

/** Sends one of the player's own moves, once per intent (intents.js): the same payment again
 * moments after it was recorded is asked about, never sent twice silently. Recorded, it says
 * what moved and draws the page again; refused, it says why in `errorBox`. */
async function sendOwn(btn, body, errorBox) {
  if (intents.state(body).state === 'sending') return;
  replace(errorBox);
  const now = intents.state(body);
  if (now.state === 'done') {
    if (!(await askAgain(now.seq))) return;
    intents.again(body);
  }
  btn.disabled = true;
  try {
    const txn = await intents.send(api, gameId, body);
    toast(`#${txn.seq} ${t('recorded')}: ${(txn.postings || []).map((x) => `${ctx.name(x.from)} → ${ctx.name(x.to)} ${ctx.money(x.amount)}`).join('; ')}`, {kind: 'ok'});
    etag = null;
    await update();
  } catch (err) {
    replace(errorBox, problemView(ctx, err));
    btn.disabled = false;
  }
}

/** A payment from the player to anyone the move offers (the Bank first), with a memo. */
function paymentForm(payment, errorBox, send) {
  const m = moveForm(ctx, payment, {to: 'bank'}, {fixed: {from: me}});
  m.sync();
  const memo = h('input', {type: 'text', name: 'memo', maxlength: 500, autocomplete: 'off'});
  const payBtn = h('button', {type: 'button', class: 'primary', dataset: {testid: 'pay'}, onclick: () => {
    const body = m.body() || m.sayMissing(errorBox);
    if (!body) return;
    if (memo.value.trim()) body.memo = memo.value.trim();
    send(payBtn, body);
  }}, t('pay'));
  return [h('div', {class: 'grid2'}, m.rows), field(t('memo'), memo), h('div', {class: 'actions'}, payBtn)];
}

/** Rent from the player for a deed landed on: the dice (a utility) or the amount only when the
 * server asks for them; a card's multiplier is the banker's to enter. The rent as the server
 * would charge it now (a dry run with the player's own token), or why it would not: the page
 * computes no rule itself. */
function rentForm(rent, errorBox, send) {
  const r = moveForm(ctx, rent, {}, {fixed: {payer: me}, pickers: {property: {label: t('deed_landed_on')}},
    asked: ['dice', 'amount', 'multiplier']});
  r.sync();
  const rentBtn = h('button', {type: 'button', class: 'secondary', onclick: () => {
    const body = r.body() || r.sayMissing(errorBox);
    if (body) send(rentBtn, body);
  }}, t('pay_rent'));
  const rentView = quoteBox(ctx, () => r.body() || null, {testid: 'rent-quote', basis: false, onAnswer: (answer) => {
    rentBtn.textContent = t('pay_rent');
    if (answer && answer.txn) {
      rentBtn.textContent = `${t('pay_rent')} ${ctx.money(-netFor(answer.txn, me))}`;
    } else if (r.ask(askedIn(answer))) {
      replace(rentView.el, h('p', {class: 'muted small'}, t('rent_enter_dice')));
    }
  }});
  for (const {f, el} of r.inputs.values()) {
    el.addEventListener(el.tiles ? 'change' : 'input', () => {
      if (f.kind === 'deed') r.unask();
      rentView.refresh();
    });
  }
  return h('details', {}, h('summary', {}, t('pay_rent')), r.rows, rentView.el, h('div', {class: 'actions'}, rentBtn));
}

let updating = null;
let behind = false;

/** The game again after the stream told of a transaction (several at once: one more load). */
function update() {
  if (updating) {
    behind = true;
    return updating;
  }
  updating = (async () => {
    try {
      do {
        behind = false;
        if (await load()) draw();
      } while (behind);
    } catch {
      // no server: the banner says so, and the stream tells when it is back
    }
  })().finally(() => { updating = null; });
  return updating;
}

/** Follows the game's stream: each transaction, and a return after a gap, loads the game again. */
function follow() {
  live = new Live(api, gameId, {
    after: ctx.game.last_seq,
    onTransaction: () => update(),
    poll: async () => { if (await load()) draw(); },
  });
  // Back after a gap: the stream resumes after the last transaction it delivered; the
  // statement and net worths come with the game.
  live.onState((state, previous) => { if (state === 'live' && previous !== 'connecting') update(); });
  connection.follow(live);
  live.start();
}

/** Resolves after `ms`, or sooner when the server answers again. */
function pause(ms) {
  return new Promise((resolve) => {
    const back = () => { if (connection.state === 'online') done(); };
    const timer = setTimeout(() => done(), ms);
    /** Ends the pause: the timer and the listener gone, the promise resolved. */
    function done() {
      clearTimeout(timer);
      connection.removeEventListener('change', back);
      resolve();
    }
    connection.addEventListener('change', back);
  });
}

let started = false;

/** Opens the player's page: the game once the server answers, then its stream followed.
 * Meanwhile the table as last seen is shown, where this device keeps it. */
async function start() {
  setDocumentLang();
  topbar();
  if (forgotten) return;
  if (!gameId || !me || !link.token) {
    replace(main, h('section', {class: 'card'}, h('h1', {}, 'tablebank'), h('p', {}, t('ask_banker_link'))));
    return;
  }
  if (started) return;
  started = true;
  for (let delay = RETRY_FIRST_MS; ; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
    try {
      await load();
      if (forgotten) return;
      draw();
      break;
    } catch (err) {
      if (replacedBy || (err instanceof Problem && err.body.replaced)) return;
      if (!unreachable(err)) {
        replace(main, h('section', {class: 'card'}, h('h1', {}, t('something_wrong')),
          problemView({name: (x) => x, money: (x) => String(x)}, err)));
        return;
      }
      // Opened without a server (the service worker gave the page): the table as last seen
      // if this device keeps it, else a word; and wait for the server.
      if (!ctx && !showSeen()) replace(main, h('section', {class: 'card'}, h('p', {}, t('waiting_for_server'))));
      await pause(delay);
    }
  }
  follow();
}

/**
 * The player's link (#p=<player>&token=<token>; ?p=…&token=… too, as a link typed by hand may
 * put it), kept for this game in this tab's storage and on this device, as the banker's page
 * keeps its token, then taken out of the address at once (the entry replaced): the address
 * shown, the history, a bookmark or a photo carry no token, and a reload still opens the page.
 * The link opened again (its QR code scanned) brings its own player and token. A tab keeps its
 * own player first, for a phone the players pass around.
 */
function playerLink() {
  const none = {p: null, token: null};
  const found = takeLink();
  if (!gameId) return none;
  if (found) {
    store.keepPlayerLink(gameId, found);
    return found;
  }
  return store.playerLink(gameId) || none;
}

/** The player and token in the address, if any; the address without them, at once. */
function takeLink() {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const query = new URLSearchParams(location.search);
  const given = [fragment, query].find((params) => params.has('token'));
  if (!given) return null;
  const found = given.get('p') && given.get('token') ? {p: given.get('p'), token: given.get('token')} : null;
  let address = location.pathname;
  if (given === query) {
    query.delete('p');
    query.delete('token');
    const rest = query.toString();
    address += (rest ? `?${rest}` : '') + location.hash;
  } else {
    address += location.search;
  }
  history.replaceState(history.state, '', address);
  return found;
}

// The link opened again in this tab changes only the fragment: kept, out of the address, and
// the page starts again with it.
window.addEventListener('hashchange', () => {
  const found = takeLink();
  if (!found || !gameId) return;
  store.keepPlayerLink(gameId, found);
  location.reload();
});

// Another tab forgot this player's link, or the banker's console this game: so does this one.
store.onForgotten(({forgot, game, player}) => {
  if (game === gameId && (forgot === 'game' || player === me)) forgetDevice({told: true});
});

onLangChange(() => { if (ctx || forgotten || replacedBy) draw(); else if (!started) start(); });
showBanner(() => (ctx && ctx.stale ? t('net_last_seen', {seq: ctx.game.last_seq}) : null));
registerWorker();
start();
