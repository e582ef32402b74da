// The pocket bundle's page (dist/pocket/index.html, tools/pocket/build.py) loads this before
// the console: it starts the pocket bank (pocket-worker.js) and sends every request of the
// console there (transport.js), so that the console works as it does with a server. It also
// keeps the bundle for offline use (the bundle's sw.js).

import {sendTo} from './transport.js';

const RUNTIME = new URL('../../../pyodide/', import.meta.url).href;
const SITE = new URL('../../../python/site.zip', import.meta.url).href;
// How long the first visit waits for the service worker to take the page before it starts the
// bank anyway (the big files are then fetched twice: by the bank and by the install).
const TAKEN_MS = 15_000;
// Answers with no body, which a Response cannot be made with.
const EMPTY = new Set([101, 103, 204, 205, 304]);

const waiting = new Map(); // request id -> the promise's resolve and reject
let next = 1;

/** Where the bank stands: starting, elsewhere (another tab holds it), ready or failed; and
 * why, when it failed (`detail`). */
export const pocket = Object.assign(new EventTarget(), {state: 'starting', detail: null});

/** A message of the bank's worker: an answer settles its request, a state goes to the page. */
function heard(event) {
  const message = event.data;
  if (message.type === 'answer') {
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    if (!pending) return;
    if (message.status === 0) {
      pending.reject(new TypeError(`the pocket bank failed: ${message.body}`));
      return;
    }
    pending.resolve(new Response(EMPTY.has(message.status) ? null : message.body,
      {status: message.status, headers: message.headers}));
  } else if (message.type === 'state' || message.type === 'failed') {
    pocket.state = message.type === 'failed' ? 'failed' : message.state;
    pocket.detail = message.detail || null;
    document.documentElement.dataset.pocket = pocket.state;
    pocket.dispatchEvent(new Event('change'));
  }
}

/** Fails every request still waiting for an answer, once the bank's worker has died. */
function died(event) {
  // The worker died (out of memory, a script that failed to load): no answer will come.
  for (const [, pending] of waiting) pending.reject(new TypeError(`the pocket bank stopped: ${event.message}`));
  waiting.clear();
}

// The bank's worker, once the page may start it: where a service worker can keep the bundle,
// only once it has taken the page (the first visit's big files then cross the network once:
// it keeps them as the bank loads them, sw.js). Whatever goes wrong with the service worker,
// the bank starts: it then works online only.
const worker = controlled().catch(() => undefined).then(() => {
  const started = new Worker(new URL('./pocket-worker.js', import.meta.url), {type: 'module'});
  started.addEventListener('message', heard);
  started.addEventListener('error', died);
  started.postMessage({type: 'start', runtime: RUNTIME, site: SITE});
  return started;
});
// The requests the bank has not answered yet, which the browser tests wait for as they wait
// for a server's (tests/e2e/console_steps.py, settled()).
Object.defineProperty(window, '__tbPocketWaiting', {value: () => waiting.size});

sendTo((url, init = {}) => {
  const address = new URL(url, window.location.href);
  const headers = Object.fromEntries(new Headers(init.headers || {}).entries());
  const body = typeof init.body === 'string' ? init.body : null;
  return new Promise((resolve, reject) => {
    if (init.signal && init.signal.aborted) {
      reject(new DOMException('stopped', 'AbortError'));
      return;
    }
    const id = next;
    next += 1;
    waiting.set(id, {resolve, reject});
    const path = address.pathname.replace(/^.*(?=\/api\/v1\/|\/healthz$)/, '') + address.search;
    worker.then((bank) => bank.postMessage({type: 'request', id, method: init.method || 'GET',
      path, headers, body}));
  });
});

/** Once the bundle's service worker controls the page, or none will: none can register (a
 * private window, plain http away from this device), the page was loaded past it (a forced
 * reload), or it did not take the page within a while. */
async function controlled() {
  if (!('serviceWorker' in navigator)) return;
  let registration;
  try {
    registration = await navigator.serviceWorker.register(new URL('../../../sw.js', import.meta.url));
  } catch {
    return; // the bank works, online only
  }
  // No registration, and no refusal either: a browser (or its automation) that only says it
  // will not register one.
  if (!registration) return;
  if (navigator.serviceWorker.controller) return;
  if (registration.active && registration.active.state === 'activated') return; // a forced reload
  await new Promise((done) => {
    navigator.serviceWorker.addEventListener('controllerchange', done, {once: true});
    const installing = registration.installing || registration.waiting;
    if (installing) {
      installing.addEventListener('statechange', () => {
        if (installing.state === 'redundant') done(); // its install failed
      });
    }
    setTimeout(done, TAKEN_MS);
  });
}
