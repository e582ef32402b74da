// When the server cannot be reached: one view of the connection for the whole page (the live
// stream's state, and whether the last request got an answer), the banner that says so, and the
// service worker that keeps the console's own files so that a reload without a server still
// opens the page.

import {inPocket, send} from './transport.js';
import {h, replace} from './dom.js';
import {t, onLangChange} from './i18n.js';
import {reachability} from './api.js';

const PROBE_FIRST_MS = 500;
const PROBE_MAX_MS = 10000;

/**
 * The page's connection: `online`, `reconnecting` or `offline`, from the stream it follows
 * (live.js) and from the answers of its requests (api.js); a `change` event on each change.
 */
class Connection extends EventTarget {
  constructor() {
    super();
    this.live = null;
    this.requestsDown = false;
    this.probing = false;
    reachability.addEventListener('up', () => this.answered(true));
    reachability.addEventListener('down', () => this.answered(false));
  }

  get state() {
    const stream = this.live && this.live.state;
    if (stream === 'offline' || this.requestsDown) return 'offline';
    return stream === 'reconnecting' ? 'reconnecting' : 'online';
  }

  /** The stream the page follows now (null: none). */
  follow(live) {
    this.live = live;
    if (live) {
      live.onState((state) => {
        if (state === 'live') this.requestsDown = false; // the stream got through: so can requests
        this.changed();
      });
    }
    this.changed();
  }

  /** Whether the last request got an answer, for the banner.
   * The server back wakes the stream; away with no stream, it is probed until back. */
  answered(up) {
    if (up === !this.requestsDown) return;
    this.requestsDown = !up;
    if (up && this.live) this.live.kick(); // the server is back: the stream need not wait
    if (!up && !this.live) this.probe();
    this.changed();
  }

  /** Without a stream to tell, ask the server now and then whether it is back. */
  async probe() {
    if (this.probing) return;
    this.probing = true;
    for (let delay = PROBE_FIRST_MS; this.requestsDown && !this.live; delay = Math.min(delay * 2, PROBE_MAX_MS)) {
      await new Promise((resolve) => { setTimeout(resolve, delay); });
      try {
        const response = await send('/healthz', {cache: 'no-store', credentials: 'omit'});
        if (response.ok) this.answered(true);
      } catch {
        // still away
      }
    }
    this.probing = false;
  }

  /** Tells the banner (each listener) that the connection may have changed. */
  changed() {
    this.dispatchEvent(new Event('change'));
  }
}

export const connection = new Connection();

let slot = null;
/** @type {(state: string) => any} */
let extra = () => null;

/**
 * The banner at the top of the screen, in the dock above the toasts (dom.js), the page
 * scrolling below it (role=status): shown while the server cannot be reached, or
 * while `more(state)` has something to say (the banker's moves waiting to be sent).
 */
export function showBanner(more = () => null) {
  extra = more;
  if (!slot) {
    slot = h('div', {id: 'net', class: 'net-slot', role: 'status', 'aria-live': 'polite'});
    document.getElementById('dock').prepend(slot); // over the toasts, clear of the page
    connection.addEventListener('change', drawBanner);
    onLangChange(drawBanner);
  }
  drawBanner();
}

/** The banner drawn again for the connection now (nothing while all is well). */
export function drawBanner() {
  if (!slot) return;
  const state = connection.state;
  const more = extra(state);
  // Where the stream stands (connecting, live, reconnecting, offline; none): for the tests.
  slot.dataset.stream = connection.live ? connection.live.state : 'none';
  if (state === 'online' && !more) {
    replace(slot);
    return;
  }
  replace(slot, h('div', {class: `net-banner net-${state}`, dataset: {testid: 'net-banner', state}},
    state === 'online' ? null : h('strong', {}, t(`net_${state}`)),
    more ? h('span', {}, ' ', more) : null));
}

/**
 * The service worker (/sw.js): the console's files from the network, or from its cache when
 * there is none. Browsers allow one only in a secure context (https, or this machine's own
 * address); elsewhere the console works as before, without an offline reload.
 */
export function registerWorker() {
  // The pocket bundle has a worker of its own (pocket.js registers it), which keeps the bank too.
  if (!('serviceWorker' in navigator) || inPocket()) return;
  navigator.serviceWorker.register('/sw.js', {scope: '/'}).catch(() => {
    // no worker (private mode, a browser that refuses): the page works, online only
  });
}
