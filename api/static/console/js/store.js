// What this browser keeps: the games created or opened here as banker, with their tokens (the
// server shows them once and keeps only their hashes), a player's link to a game (play.js), and
// the language chosen. The other modules keep their own things of a game under
// `tablebank.<what>.<game>` (the outbox, the table as last seen, the keys of moves on their
// way), so that forgetting a game here removes everything of it (forgetGame). A token comes in
// an address and is kept here at once; the address is then rewritten without it (banker.js,
// play.js): the address bar, the history entry and a bookmark never hold one.

import {inPocket} from './transport.js';

const PREFIX = 'tablebank.';
// The games of the pocket bank are kept apart: served at a server's /pocket/, the pocket page
// shares this browser's storage with the server's console, whose games are the server's.
const GAMES = () => (inPocket() ? `${PREFIX}pocket.games` : `${PREFIX}games`);
const PLAY = `${PREFIX}play.`;

/** The games this device keeps as banker, by id (the pocket's apart); none if unreadable. */
function read() {
  try {
    return JSON.parse(localStorage.getItem(GAMES()) || '{}') || {};
  } catch {
    return {};
  }
}

/** Keeps the games this device holds as banker, by id. */
function write(games) {
  localStorage.setItem(GAMES(), JSON.stringify(games));
}

/** The games this device keeps as banker, the newest created first. */
export function games() {
  return Object.values(read()).sort((a, b) => String(b.created || '').localeCompare(String(a.created || '')));
}

/** What this device keeps of one game as banker (its name, rule set, tokens), or null. */
export function game(id) {
  return read()[id] || null;
}

/** Keeps more of a game on this device, merged into what is kept of it; returns the whole entry. */
export function save(entry) {
  const all = read();
  all[entry.id] = {...(all[entry.id] || {}), ...entry};
  write(all);
  return all[entry.id];
}

/** Keep a game of the server that served the page in its console's list, from the pocket
 * page (a game moved there): the server's console then opens it as its own. */
export function saveOnServer(entry) {
  const key = `${PREFIX}games`;
  const all = JSON.parse(localStorage.getItem(key) || '{}') || {};
  all[entry.id] = entry;
  localStorage.setItem(key, JSON.stringify(all));
}

/** Takes a game off the games this device keeps as banker (the rest of it: forgetGame). */
export function forget(id) {
  const all = read();
  delete all[id];
  write(all);
}

/** A text kept under `tablebank.<key>` on this device, else `fallback`. */
export function get(key, fallback = null) {
  try {
    return localStorage.getItem(`${PREFIX}${key}`) ?? fallback;
  } catch {
    return fallback;
  }
}

/** Keeps a text under `tablebank.<key>` on this device (for this page only if blocked). */
export function set(key, value) {
  try {
    localStorage.setItem(`${PREFIX}${key}`, value);
  } catch {
    // private mode: the choice lasts this page only
  }
}

// -- a game forgotten on this device ------------------------------------------------------

/** This tab's storage and the device's, each where the browser lets us use it. */
function storages() {
  const found = [];
  for (const where of ['sessionStorage', 'localStorage']) {
    try {
      if (globalThis[where]) found.push(globalThis[where]);
    } catch {
      // blocked: nothing kept there
    }
  }
  return found;
}

/** Every kept thing of one game, wherever it is: its banker's entry and each
 * `tablebank.<what>.<game>` (the outbox, the table as last seen, a player's link, the keys of
 * moves), in this tab and on the device. The game itself stays on the server. The other tabs
 * are told, unless `quiet` (a tab that was told itself).
 * @param {*} id
 * @param {{quiet?: boolean}} [options]
 */
export function forgetGame(id, {quiet = false} = {}) {
  try { forget(id); } catch { /* blocked: nothing kept */ }
  const suffix = `.${id}`;
  for (const storage of storages()) {
    try {
      const keys = Array.from({length: storage.length}, (_, i) => storage.key(i));
      for (const key of keys) {
        if (key && key.startsWith(PREFIX) && key.endsWith(suffix)) storage.removeItem(key);
      }
    } catch {
      // blocked: nothing kept
    }
  }
  if (!quiet) announce({forgot: 'game', game: id});
}

// -- a player's link ----------------------------------------------------------------------

/** The player's link to a game kept here, `{p, token}`: this tab's first (a phone passed around
 * the table keeps one player per tab), else the device's; or null. */
export function playerLink(gameId) {
  for (const storage of storages()) {
    try {
      const kept = JSON.parse(storage.getItem(PLAY + gameId) || 'null');
      if (kept && kept.p && kept.token) return {p: kept.p, token: kept.token};
    } catch {
      // unreadable: try the next
    }
  }
  return null;
}

/** Keeps a player's link to a game, in this tab and on the device (a reload opens it). */
export function keepPlayerLink(gameId, link) {
  for (const storage of storages()) {
    try { storage.setItem(PLAY + gameId, JSON.stringify({p: link.p, token: link.token})); } catch { /* full or blocked */ }
  }
}

/**
 * Forgets one player's link to a game: wherever this device keeps that token (another player's
 * link, kept by another tab, stays), with this tab's keys of the moves made with it. Other tabs
 * open on the same player are told (onForgotten), unless `quiet`.
 * @param {*} gameId
 * @param {*} link
 * @param {{quiet?: boolean}} [options]
 */
export function forgetPlayerLink(gameId, link, {quiet = false} = {}) {
  for (const storage of storages()) {
    try {
      const kept = JSON.parse(storage.getItem(PLAY + gameId) || 'null');
      if (!kept || kept.token === link.token) storage.removeItem(PLAY + gameId);
    } catch {
      try { storage.removeItem(PLAY + gameId); } catch { /* blocked */ }
    }
  }
  try { globalThis.sessionStorage.removeItem(`${PREFIX}intents.${gameId}`); } catch { /* blocked */ }
  // The table as this player last saw it (play.js): nothing of the game is left to show here.
  try { localStorage.removeItem(`${PREFIX}seen.${link.p}.${gameId}`); } catch { /* blocked */ }
  if (!quiet) announce({forgot: 'player', game: gameId, player: link.p});
}

// -- the other tabs of this browser ---------------------------------------------------------

// A tab that forgets tells the others (never a token: the game and the player are enough), so
// that none goes on holding in memory what the device no longer keeps.
const CHANNEL = 'tablebank.device';
let channel = null;

/** The channel to this browser's other tabs, opened on first use; null where there is none. */
function open() {
  if (!channel && typeof BroadcastChannel === 'function') channel = new BroadcastChannel(CHANNEL);
  return channel;
}

/** Tells this browser's other tabs what was forgotten here. */
function announce(message) {
  try { open()?.postMessage(message); } catch { /* no channel: this tab only */ }
}

/** Calls `fn({forgot, game, player})` when another tab of this browser forgets a game or a
 * player's link. */
export function onForgotten(fn) {
  const ch = open();
  if (ch) ch.addEventListener('message', (ev) => { if (ev.data && ev.data.forgot) fn(ev.data); });
}
