// What this browser keeps: the games created or opened here as banker, with their tokens (the
// server shows them once and keeps only their hashes), a player's link to a game (play.js), and
// the language chosen. A token comes in an address and is kept here at once; the address is
// then rewritten without it (banker.js, play.js): the address bar, the history entry and a
// bookmark never hold one.

const PREFIX = 'tablebank.';
const GAMES = `${PREFIX}games`;
const PLAY = `${PREFIX}play.`;

function read() {
  try {
    return JSON.parse(localStorage.getItem(GAMES) || '{}') || {};
  } catch {
    return {};
  }
}

function write(games) {
  localStorage.setItem(GAMES, JSON.stringify(games));
}

export function games() {
  return Object.values(read()).sort((a, b) => String(b.created || '').localeCompare(String(a.created || '')));
}

export function game(id) {
  return read()[id] || null;
}

export function save(entry) {
  const all = read();
  all[entry.id] = {...(all[entry.id] || {}), ...entry};
  write(all);
  return all[entry.id];
}

export function forget(id) {
  const all = read();
  delete all[id];
  write(all);
}

export function get(key, fallback = null) {
  try {
    return localStorage.getItem(`${PREFIX}${key}`) ?? fallback;
  } catch {
    return fallback;
  }
}

export function set(key, value) {
  try {
    localStorage.setItem(`${PREFIX}${key}`, value);
  } catch {
    // private mode: the choice lasts this page only
  }
}

// -- a player's link ----------------------------------------------------------------------

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
