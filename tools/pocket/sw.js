// The pocket bundle's service worker (tools/pocket/build.py writes in its list of files and
// version). It keeps every file of the bundle at its first visit, then answers them all from
// that copy, network or none: the bank opens offline, and a later visit asks the network for
// nothing but this script (which the browser checks for a new version by itself). A new
// bundle is a new script: its files are kept anew, and the old copy goes once it is active.

const VERSION = /* VERSION */;
const CACHE = `tablebank-pocket-${VERSION}`;
// Every file of the bundle, relative to this script ("./" is index.html).
const FILES = [/* FILES */];
const SCOPE = new URL('./', self.location.href);
const KEPT = new Set(FILES.map((file) => new URL(file, SCOPE).href));

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([...KEPT].map((url) => new Request(url, {cache: 'reload'})));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('tablebank-pocket-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  url.search = ''; // the page's ?lang= and the like: the same file
  url.hash = '';
  if (!KEPT.has(url.href)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    return (await cache.match(url.href)) || fetch(request);
  })());
});
