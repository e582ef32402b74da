// The banker's console at /: the routes of its screens, the games kept on this device, and the
// game on screen (its context, its stream, its outbox, the table as last seen). The screens are
// modules of their own: the table with every move one or two taps away (table.js, its dialogs
// in actions.js), a new game (newgame.js), the players' links and QR codes (players.js), the
// history (history.js) and the replay (replay.js).
// Routes live in the fragment (#/g/<id>/history), so nothing about a game reaches the server's
// logs but the API calls themselves.

import {h, replace, modal, field, toast, scrollToTop} from './dom.js';
import {Api, Problem, access, newKey, unreachable} from './api.js';
import {t, langSwitch, onLangChange, rulesetTitle, setDocumentLang, money, date, plural} from './i18n.js';
import {Board} from './rules.js';
import * as store from './store.js';
import {GameContext, describeTxn, problemView, plainContext, legLine} from './views.js';
import {newGameScreen} from './newgame.js';
import {playersScreen} from './players.js';
import {mortgageDialog, buildDialog} from './buildings.js';
import {bankruptcyDialog} from './deals.js';
import {Intents} from './intents.js';
import {historyScreen} from './history.js';
import {voidFirstView} from './disputes.js';
import {replayScreen} from './replay.js';
import {Live} from './live.js';
import {connection, showBanner, drawBanner, registerWorker} from './offline.js';
import {Outbox, keepDrawn, waitingMoves, discardOutbox} from './outbox.js';
import {tableScreen, quickButton} from './table.js';
import {loadMoves, movesKey, moveBody} from './moves.js';
import {themeSwitch} from './theme.js';
import {openFileSection} from './files.js';
import {inPocket} from './transport.js';

const main = document.getElementById('main');
const top = document.getElementById('top');
// The moves waiting to be sent, above every screen of the game.
const outboxSlot = h('div', {class: 'outbox-slot'});
main.before(outboxSlot);

// A game's rule set never changes: asked once per game (a custom box has no public name).
const rulesetCache = new Map();
/** A game's rule set, asked of the server once per game and kept in rulesetCache. */
async function gameRuleset(api, id) {
  if (!rulesetCache.has(id)) rulesetCache.set(id, await api.gameRuleset(id));
  return rulesetCache.get(id);
}

let current = null; // the GameContext on screen

// -- routing -------------------------------------------------------------------------------

/** The parts of the page's address after its # (g, the game's id, its screen...), each decoded. */
function parseRoute() {
  return routeParts(location.hash);
}

/** The parts of a route's fragment (#/g/<id>/history), each decoded. */
function routeParts(fragment) {
  return fragment.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
}

// Each route() is a generation: a screen whose fetch answers after the banker went elsewhere
// (History's log still loading when Table is tapped) draws nothing over the later screen.
let routing = 0;

/** Draws the screen of the address; `link`: a banker link pasted here, {id, token, players}. */
async function route(link = null) {
  const mine = ++routing;
  const stale = () => mine !== routing;
  setDocumentLang();
  const parts = parseRoute();
  if (parts[0] !== 'g') {
    unfollow();
    showOutbox(null);
  }
  try {
    if (link) return await openLink(link.id, link.token, link.players);
    if (parts[0] === 'open' && parts[1] && parts[2]) return await openLink(parts[1], parts[2], parts.slice(3));
    if (parts[0] === 'new') {
      current = null;
      topbar(null);
      return await newGameScreen(main, stale);
    }
    if (parts[0] === 'g' && parts[1]) {
      const ctx = await loadGame(parts[1]);
      if (!ctx || stale()) return undefined;
      const view = parts[2] || 'table';
      topbar(ctx, view);
      if (view === 'players') return await playersScreen(main, ctx, stale);
      if (view === 'history') return await historyScreen(ctx, main, {account: parts[3], stale});
      if (view === 'replay') return await replayScreen(ctx, main, stale);
      if (view === 'asof' && parts[3]) return await tableScreen(main, ctx, {asOf: Number(parts[3]), stale});
      return await tableScreen(main, ctx, {stale});
    }
    return homeScreen();
  } catch (err) {
    if (stale()) return undefined;
    topbar(null);
    replace(main, h('section', {class: 'card'}, h('h1', {}, t('something_wrong')),
      err instanceof Problem ? problemView(current || plainContext(), err) : h('p', {}, String(err)),
      h('p', {}, h('a', {href: '#/'}, t('back_home')))));
    return undefined;
  }
}

/** The top bar: the game's name, the tabs of its screens, the language and theme switches. */
function topbar(ctx, view) {
  document.title = ctx ? `${ctx.game.name} · tablebank` : 'tablebank';
  const nav = ctx ? h('nav', {'aria-label': t('sections')}, h('ul', {},
    [['table', t('nav_table')], ['players', t(inPocket() ? 'nav_pocket' : 'nav_players')], ['history', t('nav_history')], ['replay', t('nav_replay')]]
      .map(([v, label]) => h('li', {}, h('a', {href: `#/g/${ctx.id}${v === 'table' ? '' : `/${v}`}`,
        'aria-current': v === view ? 'page' : null}, label))))) : null;
  replace(top,
    h('div', {class: 'brand-row'},
      h('a', {class: 'brand', href: '#/'}, h('img', {src: new URL('../icons/favicon.svg', import.meta.url).href, alt: '', width: 24, height: 24}), ' tablebank'),
      ctx ? h('span', {class: 'game-name'}, ctx.game.name) : null,
      langSwitch(), themeSwitch()),
    nav);
}

// -- games on this device ------------------------------------------------------------------

/** The start: the games this device holds (each can be forgotten here), a new game, a banker
 * link from another device (not in the pocket bank, where a game comes by its file). `forgotten`: the name of a game just forgotten, said at the top.
 * @param {{forgotten?: string|null}} [options]
 */
function homeScreen({forgotten = null} = {}) {
  current = null;
  topbar(null);
  const games = store.games();
  const link = h('input', {type: 'text', autocomplete: 'off', spellcheck: 'false', inputmode: 'url'});
  replace(main,
    h('section', {class: 'card hero'},
      h('h1', {}, t('home_title')),
      h('p', {}, t(inPocket() ? 'home_intro_pocket' : 'home_intro')),
      h('a', {class: 'button primary', href: '#/new'}, t('new_game'))),
    h('section', {class: 'card'}, h('h2', {}, t('games_here')),
      forgotten ? h('p', {class: 'ok', role: 'status', dataset: {testid: 'game-forgotten'}}, t(inPocket() ? 'fg_done_pocket' : 'fg_done', {name: forgotten})) : null,
      games.length ? h('ul', {class: 'game-list'}, games.map((g) => h('li', {dataset: {game: g.id}},
        h('span', {class: 'grow'}, h('a', {href: `#/g/${g.id}`}, h('strong', {}, g.name || g.id)),
          // A finished game said so (as this device last saw it); a copy opened from a file
          // told apart from the game it was kept from, which has the same name and day.
          snapshot(g.id)?.game.status === 'finished'
            ? [' ', h('span', {class: 'badge', dataset: {testid: 'game-finished'}}, t('status_finished'))] : null,
          g.moved ? [' ', h('span', {class: 'badge', dataset: {testid: 'game-moved'}}, t('moved_badge'))] : null,
          h('span', {class: 'muted small'}, [g.ruleset ? rulesetTitle(g.ruleset) : null, createdOn(g.created),
            g.imported ? t('fi_opened_on', {date: createdOn(g.imported)}) : null]
            .filter(Boolean).map((x) => ` · ${x}`).join(''))),
        h('button', {type: 'button', class: 'secondary', dataset: {testid: 'forget-game'}, 'aria-haspopup': 'dialog',
          onclick: () => forgetGameDialog(g)}, t('forget'), h('span', {class: 'sr-only'}, ` ${g.name || g.id}`))))) : h('p', {class: 'muted'}, t('no_games_here'))),
    // A banker link opens a game on a server: the pocket bank's games come by their files.
    inPocket() ? null : h('section', {class: 'card'}, h('h2', {}, t('open_banker_link')),
      h('p', {class: 'muted small'}, t('open_banker_link_hint')),
      field(t('banker_link'), link),
      h('button', {type: 'button', class: 'secondary', onclick: () => {
        const found = bankerLinkIn(link.value);
        if (!found) {
          link.setAttribute('aria-invalid', 'true');
          return;
        }
        link.value = '';
        // An entry of its own for the game the link opens (back comes here), its address made
        // without the token (openLink): the link never goes into the address bar.
        history.pushState(null, '', location.href);
        route(found);
      }}, t('open'))),
    openFileSection(openImported));
  main.focus({preventScroll: true}); // the top bar (language, theme) stays in view on a phone
}

/** The day a game was created, in the console's language (03.12.2026, 12/3/2026); null when
 * the device does not know it. */
function createdOn(created) {
  const when = created ? new Date(created) : null;
  return when && !Number.isNaN(when.getTime()) ? date(when) : null;
}

/** A game opened from its file (files.js): kept on this device as a created one is, and its
 * table shown. */
function openImported(created) {
  store.save({id: created.id, name: created.name, ruleset: created.ruleset, banker: created.banker_token,
    tokens: created.tokens, created: created.created, imported: new Date().toISOString()});
  location.hash = `#/g/${created.id}`;
}

/** A banker link in what was pasted: {id, token, players}, or null. */
function bankerLinkIn(text) {
  const m = String(text).match(/#(\/open\/[0-9a-f-]{36}\/[\w:/-]+)/i);
  if (!m) return null;
  const [, id, token, ...players] = routeParts(m[1]);
  return token ? {id, token, players} : null;
}

/**
 * Forgetting a game on this device, once the banker confirms: its banker token, the players'
 * links, the table as last seen and the outbox go from this device; the game stays on the
 * server. Moves still waiting in the outbox are counted in the question: they are dropped only
 * if the banker says so. A pocket game is on no server: its log stays in this browser's storage
 * with no way back to it but its file, and the question says so.
 */
function forgetGameDialog(g) {
  const name = g.name || g.id;
  const waiting = waitingMoves(g.id).length;
  modal(t('fg_title'), (body, dialog) => {
    // (The DOM's append writes a null as the text "null": what is not there is left out.)
    body.append(...[
      // A pocket game is kept nowhere else: its file is the way back (unless it was moved).
      h('p', {}, t(inPocket() && !g.moved ? 'forget_confirm_pocket' : 'forget_confirm', {name})),
      h('p', {class: 'small'}, t(!inPocket() ? 'fg_hint' : g.moved ? 'fg_hint_moved' : 'fg_hint_pocket')),
      waiting ? h('p', {class: 'problem', dataset: {testid: 'forget-waiting'}}, t('fg_waiting', {n: waiting})) : null,
      h('div', {class: 'actions'},
        h('button', {type: 'button', class: 'secondary', onclick: () => dialog.close()}, t('cancel')),
        h('button', {type: 'button', class: 'danger', dataset: {testid: 'forget-game-confirm'}, onclick: () => {
          dialog.close();
          forgetGame(g.id);
          homeScreen({forgotten: name});
        }}, t(waiting ? 'fg_drop' : 'fg_confirm')))].filter(Boolean));
  });
}

/** Everything this device keeps of a game, gone (store.forgetGame), and nothing of it running. */
function forgetGame(id) {
  discardOutbox(id);
  rulesetCache.delete(id);
  if (current && current.id === id) {
    unfollow();
    current = null;
  }
  store.forgetGame(id);
}

/**
 * A banker link: #/open/<game>/<banker token>[/<player>:<token>...], from another device. Its
 * tokens are kept on this device and leave the address at once, before the server is asked
 * anything: the entry becomes #/g/<game>, so neither the address bar, the history nor a
 * bookmark holds them, and a reload opens the game from what is kept. A link the server
 * refuses is not kept (what the device held before stays).
 */
async function openLink(id, token, playerParts) {
  const before = store.game(id);
  const tokens = Object.fromEntries(playerParts.map((part) => part.split(':')).filter((kv) => kv.length === 2));
  store.save({id, banker: token, ...(Object.keys(tokens).length ? {tokens} : {})});
  history.replaceState(null, '', `#/g/${id}`);
  let game;
  try {
    game = await new Api(token).game(id);
  } catch (err) {
    if (!unreachable(err)) {
      store.forget(id);
      if (before) store.save(before);
    }
    throw err;
  }
  store.save({id, name: game.name, ruleset: game.ruleset, created: game.created});
  return route();
}

// -- one game ------------------------------------------------------------------------------

/**
 * The game `id` on this page: its context, made once and kept while the page shows it (its
 * intents, outbox, moves and stream), with the game and its moves as the server has them now,
 * or as this device last saw them when there is no server. Null for a game this device holds
 * no banker's token of.
 * @param {string} id
 */
async function loadGame(id) {
  let saved = store.game(id);
  if (!saved || !saved.banker) return noTokenHere();
  const api = new Api(saved.banker);
  const {game, rs, stale} = await gameNowOrAsSeen(api, id);
  // Opened from a banker link while the server was away: its name once the server answers.
  if (!stale && !saved.name) saved = store.save({id, name: game.name, ruleset: game.ruleset, created: game.created});
  const ctx = current && current.id === id ? current : new GameContext({id, api, board: new Board(rs), game, currency: rs.currency});
  ctx.setGame(game);
  ctx.saved = saved;
  if (!ctx.intents) ctx.intents = new Intents(id);
  if (!ctx.outbox) {
    ctx.outbox = new Outbox(id, {api, intents: ctx.intents, onSent: (entry, txn) => recorded(ctx, txn), onKept: (result) => kept(result, ctx.outbox)});
    ctx.outbox.addEventListener('change', drawBanner);
  }
  ctx.stale = stale;
  // The page's game from here on: a second route meanwhile (the moves are on their way) takes
  // this one, not a game of its own with a second outbox and stream.
  current = ctx;
  showOutbox(ctx);
  await movesNowOrAsSeen(ctx);
  if (!stale) keepSnapshot(ctx, rs);
  wire(ctx);
  follow(ctx);
  return ctx;
}

/** A game this device holds no banker's token of (or forgot in another tab): nothing of it
 * goes on running, and the page says how to open it. */
function noTokenHere() {
  unfollow();
  current = null;
  showOutbox(null);
  topbar(null);
  replace(main, h('section', {class: 'card'}, h('h1', {}, t('no_token_here')), h('p', {}, t('no_token_hint')),
    h('a', {href: '#/'}, t('back_home'))));
  return null;
}

/**
 * The game and its rule set from the server; with no server, the table as this device last
 * saw it (`stale`), so that the outbox can take moves.
 * @param {*} api
 * @param {string} id
 */
async function gameNowOrAsSeen(api, id) {
  // Just refreshed after a write: no need to ask again for the same state.
  const fresh = current && current.id === id && current.freshUntil > Date.now();
  try {
    // With the table as last seen on this device, one try: without a server the page shows
    // that at once (the stream's return draws it again), not after seconds of retries.
    const kept = snapshot(id);
    const game = fresh ? current.game : await (kept ? api.gameOnce(id) : api.game(id));
    return {game, rs: await gameRuleset(api, id), stale: false};
  } catch (err) {
    const snap = unreachable(err) ? snapshot(id) : null;
    if (!snap) throw err;
    return {game: current && current.id === id ? current.game : snap.game, rs: snap.ruleset, stale: true};
  }
}

/** The game's moves from the server; with no server, those this device last saw with the
 * table, if any. */
async function movesNowOrAsSeen(ctx) {
  try {
    if (!ctx.stale) await loadMoves(ctx);
  } catch (err) {
    if (!unreachable(err)) throw err;
  }
  if (!ctx.moves) {
    const snap = snapshot(ctx.id);
    if (snap?.moves) ctx.setMoves(snap.moves, movesKey(ctx.game));
  }
}

/** What the table's dialogs reach through the context: what follows a move recorded, the
 * one-tap button, the ways to raise money, the voids to make first, the open disputes. */
function wire(ctx) {
  ctx.after = (txn) => recorded(ctx, txn);
  ctx.quickButton = (label, payload, opts) => quickButton(ctx, label, payload, opts);
  ctx.raiseButtons = (pid, options) => raiseButtons(ctx, pid, options);
  // A void refused because later transactions depend on it: those to void first, in order.
  ctx.voidFirst = (params, again) => voidFirstView(ctx, params, again);
  // A finish refused while disputes are open: every dialog closes and the table is drawn
  // again, fresh, with the first open dispute in view and focused (table.js).
  ctx.showDisputes = (seq) => {
    for (const dialog of document.querySelectorAll('dialog[open]')) /** @type {HTMLDialogElement} */ (dialog).close();
    ctx.spotlight = seq;
    if (onTable(ctx)) route();
    else location.hash = `#/g/${ctx.id}`;
  };
}

/**
 * Ways to raise the money a refused move lacks, for player `pid`. The refused move's dialog
 * stays open underneath: the mortgage and building dialogs show it as the server would record
 * it now and record it from there; a bankruptcy comes filled in with the creditor and the debt.
 * Only the ways the payer has: nothing to mortgage or sell (the server says he could raise 0,
 * or he holds no such deed) leaves the bankruptcy alone.
 * @param {*} ctx
 * @param {string} pid
 * @param {{dialog?: any, params?: Record<string, any>, payload?: any, label?: string}} [options]
 */
function raiseButtons(ctx, pid, {dialog, params = {}, payload = null, label = ''} = {}) {
  const pending = payload ? {payload, dialog, label} : null;
  const owned = Object.values(ctx.game.properties || {}).filter((p) => p.owner === pid);
  const some = (params.can_raise ?? 1) > 0;
  return [
    some && owned.some((p) => !p.mortgaged) ? h('button', {type: 'button', class: 'secondary', dataset: {testid: 'raise-mortgage'},
      onclick: () => mortgageDialog(ctx, pid, {pending})}, t('a_mortgage')) : null,
    some && owned.some((p) => p.houses || p.hotel) ? h('button', {type: 'button', class: 'secondary', dataset: {testid: 'raise-sell'},
      onclick: () => buildDialog(ctx, pid, {pending})}, t('sell_buildings')) : null,
    h('button', {type: 'button', class: 'secondary', dataset: {testid: 'raise-bankruptcy'}, onclick: () => bankruptcyDialog(ctx, pid,
      {creditor: params.creditor || 'bank', owed: params.amount ?? null, pendingDialog: dialog})}, t('a_bankruptcy')),
  ];
}

/**
 * The game again. One request at a time per page: asked again while one is on its way (a
 * write's answer and the stream's event for it come together), it asks once more after it.
 */
function refresh(ctx) {
  if (ctx.refreshing) {
    ctx.behind = true;
    return ctx.refreshing;
  }
  ctx.refreshing = (async () => {
    do {
      ctx.behind = false;
      ctx.setGame(await ctx.api.game(ctx.id));
      await loadMoves(ctx); // asked again when the game is at another version
    } while (ctx.behind);
    ctx.freshUntil = Date.now() + 1000;
    ctx.stale = false;
    keepSnapshot(ctx);
    drawBanner();
  })().finally(() => { ctx.refreshing = null; });
  return ctx.refreshing;
}

// -- live: the game's stream, the outbox, the table as last seen ------------------------------

let live = null; // the stream of the game on screen (live.js)
let undrawOutbox = null;

/** Follows the game's stream (once per game): each transaction redraws the table. */
function follow(ctx) {
  if (live && live.gameId === ctx.id) return;
  unfollow();
  let toasted = ctx.game.last_seq;
  live = new Live(ctx.api, ctx.id, {
    after: ctx.game.last_seq,
    onTransaction: (txn) => {
      if (txn.seq > toasted) {
        toasted = txn.seq;
        if (txn.by && txn.by !== 'banker') playerMoved(ctx, txn);
      }
      if (txn.seq > ctx.game.last_seq) catchUp(ctx);
    },
    poll: () => pollOnce(ctx),
  });
  live.onState(async (state, previous) => {
    if (state !== 'live') return;
    // Back after a gap (or opened from the table as last seen): the waiting moves first, in
    // their order, then whatever else changed meanwhile.
    await ctx.outbox.flush();
    if (previous !== 'connecting' || ctx.stale) catchUp(ctx, {anyScreen: true});
  });
  connection.follow(live);
  live.start();
}

/**
 * The banker link of the game on screen was replaced on another device (a 401 `replaced` for
 * the token this device keeps, from a request or the stream): this page stops following the
 * game and says so, instead of an error. A token this page has replaced itself is not it.
 */
function bankerLinkReplaced(event) {
  const saved = current && store.game(current.id);
  if (!saved || (event.detail && event.detail.token !== saved.banker)) return;
  unfollow();
  current = null;
  replace(main, h('section', {class: 'card', dataset: {testid: 'banker-link-replaced'}},
    h('h1', {}, t('link_replaced_title')),
    h('p', {}, t('banker_link_replaced_text', {name: saved.name || saved.id})),
    h('a', {href: '#/'}, t('back_home'))));
}

access.addEventListener('replaced', bankerLinkReplaced);

/** Stops following the stream of the game on screen; the banner follows none. */
function unfollow() {
  if (live) live.stop();
  live = null;
  connection.follow(null);
}

let redrawLater = false;

/** The game again after what the stream told, and the table redrawn with it.
 * @param {*} ctx
 * @param {{anyScreen?: boolean}} [options]
 */
async function catchUp(ctx, {anyScreen = false} = {}) {
  try {
    await refresh(ctx);
  } catch {
    return; // no server: the banner says so, and the stream tells when it is back
  }
  if (current === ctx && (anyScreen || onTable(ctx))) redrawWhenFree();
}

/** Whether the page shows this game's table now. */
function onTable(ctx) {
  const parts = parseRoute();
  return parts[0] === 'g' && parts[1] === ctx.id && (!parts[2] || parts[2] === 'table');
}

/** Redraws now, or when the banker closes the dialog open now (its form stays as typed). */
function redrawWhenFree() {
  if (document.querySelector('dialog[open]')) redrawLater = true;
  else route();
}

document.addEventListener('close', () => {
  if (redrawLater && !document.querySelector('dialog[open]')) {
    redrawLater = false;
    route();
  }
}, true); // a dialog's close event does not bubble: caught on its way down

/** The fallback where the server has no stream: the game when its version changed. */
async function pollOnce(ctx) {
  const changed = await ctx.api.gameIfChanged(ctx.id, `"${ctx.game.version}"`);
  if (!changed) return;
  ctx.setGame(changed.game);
  await loadMoves(ctx);
  keepSnapshot(ctx);
  if (current === ctx && onTable(ctx)) redrawWhenFree();
}

/** A player paid from their phone: who paid whom how much, as it happens. */
function playerMoved(ctx, txn) {
  const {title} = describeTxn(ctx, txn);
  const paid = (txn.postings || []).map((p) => t('lv_paid', {from: ctx.name(p.from), to: ctx.name(p.to), amount: ctx.money(p.amount)}));
  toast([title, ...paid].join(' — '), {timeout: 10000, move: true});
}

/** A move put in the outbox: a toast, or a dialog when the page thought the server was there.
 * The dialog closes by itself once the outbox holds nothing waiting: the move's own toast
 * says it was recorded, and the table under the dialog, held back while it is open, follows. */
function kept({unexpected}, outbox) {
  if (!unexpected) {
    toast(t('ob_kept'), {kind: 'warn'});
    return;
  }
  const dialog = modal(t('ob_kept_title'), (body, dialog) => {
    body.append(h('p', {}, t('ob_kept')),
      h('div', {class: 'actions'}, h('button', {type: 'button', class: 'primary', onclick: () => dialog.close()}, t('ok'))));
  });
  const sent = () => { if (!outbox.waiting().length) dialog.close(); };
  outbox.addEventListener('change', sent);
  dialog.addEventListener('close', () => outbox.removeEventListener('change', sent));
  sent();
}

/** Draws the game's moves waiting to be sent above every screen (none for no game). */
function showOutbox(ctx) {
  if (undrawOutbox) undrawOutbox();
  undrawOutbox = null;
  if (ctx) undrawOutbox = keepDrawn(outboxSlot, ctx, ctx.outbox);
  else replace(outboxSlot);
  drawBanner();
}

/** What the banner adds on the banker's page: the moves waiting, the table as last seen. */
function bannerMore(state) {
  const ctx = current;
  if (!ctx || !ctx.outbox || parseRoute()[0] !== 'g') return null;
  const waiting = ctx.outbox.waiting().length;
  const parts = [];
  if (waiting) parts.push(t(state === 'online' ? 'net_sending' : 'net_waiting', {n: waiting}));
  if (ctx.stale && state !== 'online') parts.push(t('net_last_seen', {seq: ctx.game.last_seq}));
  return parts.join(' ') || null;
}

// The table as this device last saw it, for a reload without a server.
const SNAPSHOT = 'snapshot.';

/** Keeps the table as seen now (game, rule set, moves) on this device, for a reload offline. */
function keepSnapshot(ctx, ruleset = ctx.board.rs) {
  if (!store.game(ctx.id)) return; // forgotten on this device: an answer coming late keeps nothing
  store.set(SNAPSHOT + ctx.id, JSON.stringify({game: ctx.game, ruleset, moves: ctx.movesAnswer || null}));
}

/** The table as this device last saw a game, or null where none is kept (or it cannot be read). */
function snapshot(id) {
  try {
    const snap = JSON.parse(store.get(SNAPSHOT + id) || 'null');
    return snap && snap.game && snap.ruleset ? snap : null;
  } catch {
    return null;
  }
}

/** After a recorded transaction: the table again, and what was recorded, with an undo. */
async function recorded(ctx, txn) {
  if (txn.queued) {
    kept(txn, ctx.outbox);
    return;
  }
  // A void from History or a dispute: the move it takes back may be tapped again at once.
  if (txn.type === 'void' && txn.request) ctx.intents.voided(txn.request.seq);
  const {title, moves} = describeTxn(ctx, txn);
  const basis = basisSummary(ctx, txn);
  const undoable = ctx.voidable(txn.type) && !txn.replayed;
  toast([title, moves, basis].filter(Boolean).join(' — ') + (txn.replayed ? ` (${t('already_recorded_short')})` : ''), {
    kind: 'ok',
    timeout: 10000,
    move: !txn.replayed, // a newer move: the older toasts' Undo goes
    action: undoable ? {label: t('undo'), undo: true, run: async () => {
      // A void the game does not offer now (it has ended meanwhile): said, and nothing sent.
      const body = moveBody(ctx, 'void', {seq: txn.seq, reason: t('undo_reason')});
      if (!body) {
        toast(`${t('undo_failed')}: ${t('move_unavailable')}`, {kind: 'error'});
        return;
      }
      try {
        await ctx.api.record(ctx.id, body, newKey());
        ctx.intents.voided(txn.seq);
        toast(t('undone', {seq: txn.seq}), {move: true});
      } catch (err) {
        toast(`${t('undo_failed')}: ${err.message}`, {kind: 'error'});
      }
      await redrawFresh(ctx);
    }} : null,
  });
  await redrawFresh(ctx);
}

/** The table again after a write; without a server, the banner says so and the stream's
 * return redraws it. */
async function redrawFresh(ctx) {
  try {
    await refresh(ctx);
  } catch (err) {
    if (!unreachable(err)) throw err;
    return;
  }
  redraw();
}

/** The basis of a recorded rent, IOU passed on, income tax or trade, in a line for its toast. */
function basisSummary(ctx, txn) {
  const b = txn.basis || {};
  if (txn.type === 'rent') {
    const parts = [];
    if (b.hotel) parts.push(t('hotel'));
    else if (b.houses) parts.push(t('n_houses', {n: b.houses}));
    else if (b.monopoly) parts.push(t('b_monopoly'));
    if (b.railroads_held) parts.push(plural(b.railroads_held, 'cnt_railroads'));
    if (b.dice) parts.push(`${b.dice} × ${b.factor}`);
    if (b.multiplier > 1) parts.push(`×${b.multiplier}`);
    return `${t('basis')}: ${parts.join(', ')}${parts.length ? ' → ' : ''}${ctx.money(b.rent ?? 0)}`;
  }
  if (txn.type === 'iou_transfer') {
    return t('iou_passed', {from: ctx.name(b.from), to: ctx.name(b.to), amount: ctx.money(b.outstanding)});
  }
  if (txn.type === 'tax' && b.tax === 'income') {
    // The way it was paid, as the server recorded it: the flat sum, or the percent of what.
    return b.choice === 'flat' ? t('tax_paid_flat', {amount: ctx.money(b.flat)})
      : t('tax_paid_percent', {percent: b.percent, worth: ctx.money(b.total_worth), amount: ctx.money(b.percent_amount)});
  }
  // A trade: every leg, the deeds and jail cards with the cash (its postings are the cash alone).
  if (txn.type === 'trade') return (b.legs || []).map((leg) => legLine(ctx, leg)).join('; ');
  return '';
}

/** The screen drawn again, now or once the dialog open now closes. */
function redraw() {
  redrawWhenFree();
}


onLangChange(() => { if (!document.querySelector('dialog[open]')) route(); });
// Another tab of this browser forgot a game: this one holds nothing of it either.
store.onForgotten(({forgot, game}) => {
  if (forgot !== 'game') return;
  discardOutbox(game);
  rulesetCache.delete(game);
  store.forgetGame(game, {quiet: true}); // what this tab alone keeps of it
  const parts = parseRoute();
  if (parts[0] === 'g' && parts[1] === game) {
    for (const dialog of document.querySelectorAll('dialog[open]')) /** @type {HTMLDialogElement} */ (dialog).close();
    route();
  } else if (parts[0] !== 'g' && parts[0] !== 'new' && !document.querySelector('dialog[open]')) {
    route();
  }
});
showBanner(bannerMore);
registerWorker();
window.addEventListener('hashchange', () => {
  scrollToTop();
  route();
});
route();
