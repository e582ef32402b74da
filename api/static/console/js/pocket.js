// The pocket bundle's page (dist/pocket/index.html, tools/pocket/build.py) loads this before
// the console: it starts the pocket bank (pocket-worker.js) and sends every request of the
// console there (transport.js), so that the console works as it does with a server. It also
// keeps the bundle for offline use (the bundle's sw.js).

import {sendTo} from './transport.js';

const RUNTIME = new URL('../../../pyodide/', import.meta.url).href;
const SITE = new URL('../../../python/site.zip', import.meta.url).href;
// Answers with no body, which a Response cannot be made with.
const EMPTY = new Set([101, 103, 204, 205, 304]);

const worker = new Worker(new URL('./pocket-worker.js', import.meta.url), {type: 'module'});
const waiting = new Map(); // request id -> the promise's resolve and reject
let next = 1;

/** Where the bank stands: starting, elsewhere (another tab holds it), ready or failed. */
export const pocket = new EventTarget();
pocket.state = 'starting';

worker.addEventListener('message', (event) => {
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
});
worker.addEventListener('error', (event) => {
  // The worker died (out of memory, a script that failed to load): no answer will come.
  for (const [, pending] of waiting) pending.reject(new TypeError(`the pocket bank stopped: ${event.message}`));
  waiting.clear();
});
worker.postMessage({type: 'start', runtime: RUNTIME, site: SITE});
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
    worker.postMessage({type: 'request', id, method: init.method || 'GET',
      path: address.pathname.replace(/^.*(?=\/api\/v1\/|\/healthz$)/, '') + address.search, headers, body});
  });
});

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register(new URL('../../../sw.js', import.meta.url)).catch(() => {
    // no worker (private mode, plain http on another host): the bank works, online only
  });
}
