// Following a game as it is played: its event stream (GET /api/v1/games/{game}/events), one
// server-sent event per recorded transaction. EventSource cannot send an Authorization header,
// and the token must never be in a URL, so the stream is read with fetch() and parsed here.
//
// A dropped stream comes back by itself with Last-Event-ID, the seq of the last transaction it
// delivered, so nothing recorded meanwhile is missed. Attempts back off from 0.5 s to 10 s, or
// wait the Retry-After of a refusal (429 too_many_streams: the token's other tabs hold its
// streams; 503 busy); the state (connecting, live, reconnecting, offline) goes to listeners for
// the banner. A server without the stream (404) is polled instead; the pocket bank (no stream
// either) is polled seldom: nobody else writes its games (one tab holds the bank), so a poll
// there only keeps the banner and the outbox's retries going, at no cost to the phone's battery.

import {inPocket, send} from './transport.js';
import {access, replacedToken} from './api.js';

const BASE = '/api/v1';
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10000;
// The server sends a comment at least every 15 s: a stream silent for longer is dead (a phone
// that left the Wi-Fi gets no error, only silence).
const SILENCE_MS = 35000;
const POLL_MS = 3000;
const POCKET_POLL_MS = 60000;
// Failed attempts in a row after which "reconnecting" becomes "offline".
const OFFLINE_AFTER = 2;
// The longest a Retry-After is waited out; a longer one is taken as this.
const MAX_RETRY_AFTER_S = 60;
// What a server without the stream answers: poll it instead.
const NO_STREAM = new Set([404, 405, 501]);

/** A server without the event stream (404, 405, 501): the game is polled instead. */
class NoStream extends Error {}

/** The token was replaced (a new link for its role): no stream will open with it again. */
class Replaced extends Error {
  constructor(token) {
    super('HTTP 401');
    this.token = token;
  }
}

/** The server took the request and said when to come back (429 too_many_streams: this
 * device's other tabs hold the token's streams; 503: busy): wait that long, not less. */
class ComeBackLater extends Error {
  constructor(status, seconds) {
    super(`HTTP ${status}`);
    this.ms = Math.min(seconds, MAX_RETRY_AFTER_S) * 1000;
  }
}

/**
 * Server-sent events (the WHATWG event-stream format) from text in chunks of any size:
 * `push(text)` calls `onEvent({id, event, data})` for each complete event. Comments and `retry`
 * are read and dropped (the reconnection delay is ours).
 */
export class SseParser {
  constructor(onEvent) {
    this.onEvent = onEvent;
    this.pending = '';
    this.afterCR = false; // a chunk ended in \r: a \n starting the next one ends no second line
    this.lastId = null;
    this.event = '';
    this.data = [];
  }

  /** Reads the next chunk of the stream, line by line; a line cut off waits for the next. */
  push(chunk) {
    let text = this.pending + chunk;
    if (this.afterCR && text.startsWith('\n')) text = text.slice(1);
    this.afterCR = false;
    let start = 0;
    for (let i = 0; i < text.length; i += 1) {
      const c = text[i];
      if (c !== '\n' && c !== '\r') continue;
      this.line(text.slice(start, i));
      if (c === '\r') {
        if (i + 1 === text.length) this.afterCR = true;
        else if (text[i + 1] === '\n') i += 1;
      }
      start = i + 1;
    }
    this.pending = text.slice(start);
  }

  /** Reads one line: a field of the event under way, a comment, or the blank line ending it. */
  line(line) {
    if (line === '') {
      if (this.data.length) this.onEvent({id: this.lastId, event: this.event || 'message', data: this.data.join('\n')});
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return; // a comment: the keep-alive
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'data') this.data.push(value);
    else if (name === 'event') this.event = value;
    else if (name === 'id' && !value.includes('\0')) this.lastId = value;
  }
}

/**
 * One game followed live with the token of `api`. `onTransaction(txn)` gets each transaction
 * recorded after seq `after`, in order, each once (a reconnection resumes after the last one);
 * `poll()` is the fallback where the server has no stream: it throws when it cannot reach it.
 */
export class Live {
  /**
   * @param {import('./api.js').Api} api
   * @param {string} gameId
   * @param {{after?: number|null, onTransaction?: (txn: any) => void, poll?: Function|null, pollMs?: number}} [options]
   */
  constructor(api, gameId, {after = null, onTransaction = () => {}, poll = null,
    pollMs = inPocket() ? POCKET_POLL_MS : POLL_MS} = {}) {
    this.api = api;
    this.gameId = gameId;
    this.last = after;
    this.onTransaction = onTransaction;
    this.poll = poll;
    this.pollMs = pollMs;
    this.state = 'connecting';
    this.mode = 'stream';
    this.listeners = new Set();
    this.failures = 0;
    this.stopped = false;
    this.controller = null;
    this.wake = null;
    // The network is back, or the phone woke up: try now rather than at the end of a pause.
    this.online = () => { if (!document.hidden) this.kick(); };
  }

  /** Calls `fn(state, previous)` on every change of state; returns a function that stops it. */
  onState(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Sets the stream's state (connecting, live, reconnecting, offline); listeners are told. */
  setState(state) {
    if (state === this.state) return;
    const previous = this.state;
    this.state = state;
    for (const fn of [...this.listeners]) fn(state, previous);
  }

  /** Starts following the game, trying again at once when the network or the page is back. */
  start() {
    window.addEventListener('online', this.online);
    document.addEventListener('visibilitychange', this.online);
    this.run();
    return this;
  }

  /** Stops following the game for good: the connection, any pause, every listener. */
  stop() {
    this.stopped = true;
    window.removeEventListener('online', this.online);
    document.removeEventListener('visibilitychange', this.online);
    if (this.controller) this.controller.abort();
    this.kick();
    this.listeners.clear();
  }

  /** Try again now rather than at the end of the pause: the network or the server is back. */
  kick() {
    if (!this.wake) return;
    const wake = this.wake;
    this.wake = null;
    wake();
  }

  /** Waits `ms` before the next try, or less when kick() wakes it. */
  pause(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.wake = null; resolve(); }, ms);
      this.wake = () => { clearTimeout(timer); resolve(); };
    });
  }

  /** Keeps the stream open until stopped, backing off after failed tries, or polls instead. */
  async run() {
    while (!this.stopped) {
      let opened = false;
      let later = 0;
      try {
        // A stream cut within a second of opening (a proxy that buffers, say) counts as a
        // failed attempt, so that it backs off rather than spinning.
        opened = (await this.follow()) >= 1000;
      } catch (err) {
        if (err instanceof NoStream && this.poll) { await this.polling(); return; }
        // (A token the page has changed since, its own new link, is simply tried again.)
        if (err instanceof Replaced && err.token === this.api.token) {
          this.stop();
          access.dispatchEvent(new CustomEvent('replaced', {detail: {token: err.token}}));
          return;
        }
        if (err instanceof ComeBackLater) later = err.ms;
        // any other failure: the network, the server going away, a dead stream
      }
      if (this.stopped) return;
      // A stream that ended after it was open (the server's hour is up, a restart) comes back
      // at once; only attempts that fail in a row back off.
      this.failures = opened ? 0 : this.failures + 1;
      if (!this.failures) continue;
      this.setState(this.failures >= OFFLINE_AFTER ? 'offline' : 'reconnecting');
      const backoff = Math.min(FIRST_DELAY_MS * 2 ** (this.failures - 1), MAX_DELAY_MS);
      await this.pause(Math.max(backoff, later));
    }
  }

  /** One connection: how long it was open (ms), once it has ended; throws when it could not
   * open. */
  async follow() {
    const controller = new AbortController();
    this.controller = controller;
    const token = this.api.token;
    const headers = {Accept: 'text/event-stream', Authorization: `Bearer ${token}`};
    if (this.last !== null && this.last !== undefined) headers['Last-Event-ID'] = String(this.last);
    const response = await send(`${BASE}/games/${this.gameId}/events`, {
      headers, cache: 'no-store', credentials: 'omit', signal: controller.signal,
    });
    if (NO_STREAM.has(response.status)) throw new NoStream(`HTTP ${response.status}`);
    if (response.status === 401) {
      const body = await response.json().catch(() => null);
      if (replacedToken(401, body)) throw new Replaced(token);
    }
    const retryAfter = Number(response.headers.get('Retry-After'));
    if ((response.status === 429 || response.status === 503) && retryAfter > 0) {
      throw new ComeBackLater(response.status, retryAfter);
    }
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    const opened = Date.now();
    this.setState('live');
    const parser = new SseParser((ev) => this.deliver(ev));
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let silence = setTimeout(() => controller.abort(), SILENCE_MS);
    try {
      for (;;) {
        const {value, done} = await reader.read();
        if (done) break;
        clearTimeout(silence);
        silence = setTimeout(() => controller.abort(), SILENCE_MS);
        parser.push(decoder.decode(value, {stream: true}));
      }
    } catch {
      // cut off (or aborted) after it was open: come back with Last-Event-ID
    } finally {
      clearTimeout(silence);
      controller.abort();
    }
    return Date.now() - opened;
  }

  /** Hands each new transaction of the stream to `onTransaction`, once and in order. */
  deliver(ev) {
    if (ev.event !== 'transaction' || this.stopped) return;
    let txn;
    try { txn = JSON.parse(ev.data); } catch { return; }
    const seq = Number(ev.id ?? txn.seq);
    if (this.last !== null && this.last !== undefined && seq <= this.last) return; // had it
    this.last = seq;
    try {
      this.onTransaction(txn);
    } catch (err) {
      setTimeout(() => { throw err; }); // the page's fault: reported, the stream goes on
    }
  }

  /** The fallback: `poll()` every `pollMs` while the page is visible. */
  async polling() {
    this.mode = 'poll';
    while (!this.stopped) {
      if (!document.hidden) {
        try {
          await this.poll();
          this.failures = 0;
          this.setState('live');
        } catch {
          this.failures += 1;
          this.setState(this.failures >= OFFLINE_AFTER ? 'offline' : 'reconnecting');
        }
      }
      if (this.stopped) return;
      await this.pause(this.pollMs);
    }
  }
}
