// The REST API (/api/v1), as the console uses it. Writes are safe to retry: every POST carries
// an Idempotency-Key, and a request lost on the network is sent again with the same key, so the
// server records it once whatever happens.

import {send} from './transport.js';

const BASE = '/api/v1';

/** A refusal or failure, from the server's problem+json (RFC 9457) or from the network. */
export class Problem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
    this.code = this.body.code || (status ? `http_${status}` : 'network');
    /** @type {number|undefined} seconds to wait before asking again (a 429 or 503) */
    this.retryAfter = undefined;
  }
}

/**
 * A fresh idempotency key. crypto.randomUUID exists only in secure contexts (https or
 * localhost); a phone reaching the server at http://192.168.x.y has getRandomValues only.
 */
export function newKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((v) => v.toString(16).padStart(2, '0')).join('');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** Statuses of a proxy or a store that cannot answer now: the request may go again later. */
const UNAVAILABLE = new Set([502, 503, 504]);

/** No answer from the server (the network, or a gateway or store that is down). */
export function unreachable(err) {
  return err instanceof Problem && (err.status === 0 || UNAVAILABLE.has(err.status));
}

/**
 * Whether the server answers: `up` or `down` events after each call, for the offline banner
 * (offline.js). A refusal is an answer: the server is up.
 */
export const reachability = new EventTarget();
const reached = (up) => reachability.dispatchEvent(new Event(up ? 'up' : 'down'));

/**
 * The page's token was replaced (the banker made a new link for its role: a 401 with
 * `replaced`): a `replaced` event, from any request or the event stream (live.js), its
 * `detail.token` the token that was refused.
 */
export const access = new EventTarget();

/** Whether an answer says that the token it was sent with was replaced. */
export function replacedToken(status, body) {
  return status === 401 && Boolean(body && body.replaced);
}

/** The REST API as the console calls it, with one token: the banker's, a player's, or none. */
export class Api {
  /** `via`: where the requests go (transport.js): the page's own bank unless told. */
  constructor(token = null, via = send) {
    this.token = token;
    this.send = via;
  }

  /** One call; resolves to {data, etag, status, replayed}, rejects with a Problem. `signal`
   * (an AbortSignal): the caller gives up, and no further try goes. `json`: a body already
   * written as JSON, sent as it is; `raw`: the answer's text as it came (data) with its
   * content type (type), not parsed. `retries`: how many more tries a call that may go again
   * gets (3 unless told; 0 where a fallback is at hand).
   * @param {*} method
   * @param {*} path
   * @param {{body?: any, json?: string, raw?: boolean, key?: string, headers?: Record<string, string>, signal?: AbortSignal, retries?: number}} [options]
   */
  async call(method, path, {body, json, raw = false, key, headers: extra, signal, retries: tries} = {}) {
    /** @type {Record<string, string>} */
    const headers = {Accept: 'application/json, application/problem+json', ...extra};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined || json !== undefined) headers['Content-Type'] = 'application/json';
    if (key) headers['Idempotency-Key'] = key;
    const init = {method, headers, cache: 'no-store', credentials: 'omit', signal};
    if (json !== undefined) init.body = json;
    else if (body !== undefined) init.body = JSON.stringify(body);
    // A GET, or a POST with its key, may go again: the key makes the repeat harmless.
    const retries = method === 'GET' || key ? (tries ?? 3) : 0;
    for (let attempt = 0; ; attempt += 1) {
      let response;
      try {
        response = await this.send(BASE + path, init);
      } catch (err) {
        // Given up by the caller: no answer, but nothing says the server is away.
        if (signal && signal.aborted) throw new Problem(0, {code: 'network', detail: 'stopped'});
        if (attempt < retries) { await wait(300 * 2 ** attempt); continue; }
        reached(false);
        throw new Problem(0, {code: 'network', detail: String(err && err.message || err)});
      }
      const text = await response.text();
      let data = raw && response.ok ? text : null;
      if (data === null) {
        try { data = text ? JSON.parse(text) : null; } catch { data = {detail: text}; }
      }
      // A 503 `busy` (a heavy read, an import waiting for a slot) is the server answering.
      reached(!UNAVAILABLE.has(response.status) || (data && data.code === 'busy'));
      if (response.status === 409 && data && data.code === 'idempotency_in_progress' && attempt < retries) {
        await wait(300 * 2 ** attempt);
        continue;
      }
      if (response.status === 304) return {data: null, etag: response.headers.get('ETag'), status: 304};
      if (!response.ok) {
        if (replacedToken(response.status, data)) {
          access.dispatchEvent(new CustomEvent('replaced', {detail: {token: this.token}}));
        }
        const problem = new Problem(response.status, data);
        problem.retryAfter = Number(response.headers.get('Retry-After')) || null;
        throw problem;
      }
      return {
        data,
        type: response.headers.get('Content-Type'),
        etag: response.headers.get('ETag'),
        status: response.status,
        replayed: response.headers.get('Idempotent-Replayed') === 'true',
      };
    }
  }

  /** The data a GET of `path` answers. */
  async get(path) {
    return (await this.call('GET', path)).data;
  }

  /** The server's rule sets, to choose a new game's from. */
  rulesets() { return this.get('/rulesets'); }
  /** One of the server's rule sets by its name, the whole document. */
  ruleset(name) { return this.get(`/rulesets/${encodeURIComponent(name)}`); }
  /** Every parameter a rule set may give, as the server publishes them (for a banker's own box). */
  parameters() { return this.get('/parameters'); }
  /** The game's own rule set: a built-in one or the game's own document. */
  gameRuleset(id) { return this.get(`/games/${id}/ruleset`); }

  /** A new game; `key`, its Idempotency-Key, makes a repeat of the request create it once. */
  async createGame(body, key) {
    return (await this.call('POST', '/games', {body, key})).data;
  }

  /** The game's state now, or as it stood after transaction `seq`. */
  game(id, seq) {
    return this.get(`/games/${id}${seq === undefined || seq === null ? '' : `?seq=${seq}`}`);
  }

  /** The game, asked once: where the table as last seen can be shown at once instead. */
  async gameOnce(id) {
    return (await this.call('GET', `/games/${id}`, {retries: 0})).data;
  }

  /** The game unless it is still at version `etag` (then null). */
  async gameIfChanged(id, etag) {
    const answer = await this.call('GET', `/games/${id}`, {headers: etag ? {'If-None-Match': etag} : {}});
    if (answer.status === 304 || (etag && answer.etag === etag)) return null;
    return {game: answer.data, etag: answer.etag};
  }

  /** Record one transaction; `key` is the Idempotency-Key of this intent.
   * @param {*} id
   * @param {*} body
   * @param {*} key
   * @param {{signal?: AbortSignal}} [options]
   */
  async record(id, body, key, {signal} = {}) {
    const answer = await this.call('POST', `/games/${id}/transactions`, {body, key: key || newKey(), signal});
    return {...answer.data, replayed: answer.replayed};
  }

  /** What a transaction would record now, without recording it (a dry run): the same answer
   * as the real POST, refusals included; no key, nothing kept. */
  async dryRun(id, body) {
    return (await this.call('POST', `/games/${id}/transactions?dry_run=true`, {body})).data;
  }

  /** The game's log, oldest first, page after page; `filters` narrow it (type, account, deed). */
  async transactions(id, filters = {}) {
    const items = [];
    let after = null;
    for (;;) {
      const q = new URLSearchParams({limit: '1000'});
      for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
      if (after) q.set('after', after);
      const page = await this.get(`/games/${id}/transactions?${q}`);
      items.push(...page.items);
      if (!page.next) return items;
      after = page.next;
    }
  }

  /** A new token for `role` ('banker' or a player id), the role's old one ended at once:
   * {role, token, link}. No key: the server keeps no token to answer a repeat with, and a
   * repeat would end this one; the caller sends it once (its button off meanwhile). */
  async newToken(id, role) {
    return (await this.call('POST', `/games/${id}/tokens/${encodeURIComponent(role)}`)).data;
  }

  /** What the game can record now, as the server declares it (moves.js). */
  moves(id) { return this.get(`/games/${id}/moves`); }

  /** An account's statement: every posting of it, with the running balance. */
  statement(id, account) {
    return this.get(`/games/${id}/accounts/${encodeURIComponent(account)}/statement`);
  }

  /** What a player could raise, itemised by the server (buildings sold, deeds mortgaged). */
  liquidation(id, player) {
    return this.get(`/games/${id}/players/${encodeURIComponent(player)}/liquidation`);
  }

  /** The game walked from its start: each transaction with every balance and net worth after it. */
  replay(id) { return this.get(`/games/${id}/replay`); }
  /** The game's statistics now, or as of `seq` (docs/api.md "Statistics"). */
  stats(id, seq = null) { return this.get(`/games/${id}/stats${seq === null ? '' : `?seq=${seq}`}`); }
  /** The server's check of the game's hash chain: whether the log holds, and its head. */
  verify(id) { return this.get(`/games/${id}/verify`); }

  /** The game's file: the server's export as it wrote it, {text, type} (a heavy read: it may
   * be refused with 503 busy and a Retry-After). */
  async exportLog(id) {
    const answer = await this.call('GET', `/games/${id}/export`, {raw: true});
    return {text: answer.data, type: answer.type};
  }

  /** A new game from a game's file, sent as it is: answered as a created game, with its
   * tokens (docs/audit.md "Export and import"). */
  async importGame(text, key) {
    return (await this.call('POST', '/games/import', {json: text, key})).data;
  }
}

/** The QR code of a text as an SVG blob URL, made by the server from a POST body. */
export async function qrUrl(text) {
  const response = await fetch('/console/qr', {
    method: 'POST',
    headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({text}),
    cache: 'no-store',
  });
  if (!response.ok) throw new Problem(response.status, await response.json().catch(() => null));
  return URL.createObjectURL(await response.blob());
}
