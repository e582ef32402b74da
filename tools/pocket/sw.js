// The pocket bundle's service worker (tools/pocket/build.py writes in its list of files, each
// with its digest, and its version). It keeps every file of the bundle, then answers them all
// from that copy, network or none: the bank opens offline, and a later visit asks the network
// for nothing but this script (which the browser checks for a new version by itself).
//
// Each file crosses the network once. At the first visit the page starts its bank only once
// this worker has taken it (pocket.js), and the big files the bank loads (the interpreter, the
// standard library, our Python) are kept as they pass through here; the install fetches the
// rest. A new bundle is a new script: its install copies each file whose digest did not change
// from the copy kept before and fetches only the others, and the old copy goes once it is
// active. A file is kept only if its digest is the one listed here.

const VERSION = /* VERSION */;
const PREFIX = 'tablebank-pocket-';
const CACHE = `${PREFIX}${VERSION}`;
// Every file of the bundle, relative to this script ("./" is index.html), with its SHA-256.
const FILES = [/* FILES */];
// The files the bank's own worker loads as it starts (pocket-worker.js).
const LOADED = /^(pyodide|python)\//;
// The header a kept copy carries its digest in.
const DIGEST = 'X-Tablebank-Digest';
const SCOPE = new URL('./', self.location.href);
const KEPT = new Map(FILES.map(([file, digest]) => [new URL(file, SCOPE).href, {file, digest}]));

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const older = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
    const cache = await caches.open(CACHE);
    await Promise.all([...KEPT].map(async ([url, {file, digest}]) => {
      const same = await keptBefore(older, url, digest);
      if (same) {
        await cache.put(url, same);
      } else if (!(older.length === 0 && LOADED.test(file))) {
        // 'no-cache': the browser's own cache may answer, once the server says it is current.
        await keep(cache, url, digest, await fetch(new Request(url, {cache: 'no-cache'})));
      } // else the first visit: the bank's start loads it through here (below), once
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
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
  const listed = KEPT.get(url.href);
  if (!listed) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(url.href);
    if (kept) return kept;
    const response = await fetch(request);
    if (response.ok) {
      event.waitUntil(keep(cache, url.href, listed.digest, response.clone()).catch(() => {}));
    }
    return response;
  })());
});

/** The copy an older version kept of this file, if its digest is this one's. */
async function keptBefore(older, url, digest) {
  for (const name of older) {
    const kept = await (await caches.open(name)).match(url);
    if (kept && kept.headers.get(DIGEST) === digest) return kept;
  }
  return null;
}

/** The file kept under its address, if its bytes are the ones listed (else an error). */
async function keep(cache, url, digest, response) {
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const body = await response.arrayBuffer();
  const found = [...new Uint8Array(await crypto.subtle.digest('SHA-256', body))]
    .map((byte) => byte.toString(16).padStart(2, '0')).join('');
  if (found !== digest) throw new Error(`${url}: not the file this version lists`);
  const headers = new Headers(response.headers);
  // The body is kept as the browser decoded it, whatever the server sent it compressed in.
  headers.delete('Content-Encoding');
  headers.delete('Content-Length');
  headers.set(DIGEST, digest);
  await cache.put(url, new Response(body, {status: 200, headers}));
}
