// The console's service worker, served at /sw.js so that its scope covers / and /play/<game>.
// It keeps the console's own files (pages, scripts, styles, icons, the vendored chart) so that a
// reload with no server still opens the page, its outbox and the table as last seen. Network
// first: while the server answers, every file comes from it (an update shows at once) and the
// copy here is refreshed; only when it does not answer does the copy serve. The API, the QR
// codes and everything else are never touched: they go to the network as if there were no
// worker.

const CACHE = 'tablebank-console-v1';
const STATIC = '/console/static/';
// Every file of the console, as the server lists its folder when it serves this script
// (api/console.py: a new script or dictionary is kept with no edit here).
const FILES = [/* FILES */].map((f) => STATIC + f);
// What the console serves at the root: the banker's page and the web app manifest.
const ROOT = ['/', '/manifest.webmanifest'];
// The players' page is the same file for every game: kept once, under this name.
const PLAYER_PAGE = '/play/';
// A game's own manifest (its players' page on the home screen), kept once it was asked for.
const PLAYER_MANIFEST = /^\/play\/[^/]+\/manifest\.webmanifest$/;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([...ROOT, ...FILES]);
    await cache.put(PLAYER_PAGE, await fetch(`${STATIC}play.html`, {cache: 'no-cache'}));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('tablebank-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim(); // the page that registered it is covered from now on
  })());
});

/** The name a console file is kept under; null for what is not the console's own. */
function cacheKey(url) {
  if (url.origin !== self.location.origin) return null;
  if (ROOT.includes(url.pathname)) return url.pathname;
  if (/^\/play\/[^/]+$/.test(url.pathname)) return PLAYER_PAGE;
  if (PLAYER_MANIFEST.test(url.pathname)) return url.pathname;
  if (url.pathname.startsWith(STATIC)) return url.pathname;
  return null;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const key = cacheKey(new URL(request.url));
  if (!key) return; // the API and the rest: straight to the network, never cached
  event.respondWith(networkFirst(request, key));
});

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (err) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw err;
  }
}
