// What the banker's browser keeps: the games created or opened here, with their tokens (the
// server shows them once and keeps only their hashes), and the language chosen.

const GAMES = 'tablebank.games';

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
    return localStorage.getItem(`tablebank.${key}`) ?? fallback;
  } catch {
    return fallback;
  }
}

export function set(key, value) {
  try {
    localStorage.setItem(`tablebank.${key}`, value);
  } catch {
    // private mode: the choice lasts this page only
  }
}
