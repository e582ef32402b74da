// The pocket bank: the whole bank in this browser, in a Web Worker. Pyodide (CPython compiled
// to WebAssembly) runs the server's own Python, api/pocket.py's PocketBank: the API app over a
// store in memory, each write also written in its journal. Every request the console sends
// (pocket.js) is answered here one at a time: the app answers it, the journal's lines of what
// it recorded go to IndexedDB in one transaction of strict durability, and only once that
// transaction is complete does the answer go back to the page. A page killed in between never
// showed the answer, and finds the write there or not at all; the outbox's Idempotency-Key
// records it once either way. If IndexedDB refuses (the device's storage is full), the answer
// is a 503 storage_unavailable and the bank is made again from what IndexedDB holds.
//
// One tab at a time holds the bank (a Web Lock): a second one waits, and says so.

const DB_NAME = 'tablebank-pocket';
const STORE = 'writes'; // one line of the journal a record, under an increasing key
const LOCK = 'tablebank-pocket';

let bank = null; // the PocketBank, once started
let db = null;
let started = null; // the promise of the start
const queue = []; // the requests waiting for the one being answered
let answering = false;

self.addEventListener('message', (event) => {
  const message = event.data;
  if (message.type === 'start') {
    started = started || start(message).catch((err) => {
      self.postMessage({type: 'failed', detail: String(err && err.message || err)});
      throw err;
    });
  } else if (message.type === 'request') {
    queue.push(message);
    drain();
  }
});

/** Starts the bank once this tab holds it: Pyodide loaded, the PocketBank made from its journal. */
async function start({runtime, site}) {
  db = await openDb();
  if (navigator.locks) {
    // Held until this worker ends: the tab closes or reloads.
    await new Promise((held) => {
      navigator.locks.request(LOCK, {ifAvailable: true}, (lock) => {
        if (lock) { held(); return new Promise(() => {}); }
        self.postMessage({type: 'state', state: 'elsewhere'});
        navigator.locks.request(LOCK, () => { held(); return new Promise(() => {}); });
        return null;
      });
    });
  }
  self.postMessage({type: 'state', state: 'starting'});
  const {loadPyodide} = await import(new URL('pyodide.mjs', runtime).href);
  const pyodide = await loadPyodide({indexURL: runtime, packages: []});
  // Unpacked, not imported from the zip: a package may open its data files by their path.
  pyodide.unpackArchive(await (await fetch(site)).arrayBuffer(), 'zip', {extractDir: '/pocket'});
  pyodide.runPython("import sys; sys.path.insert(0, '/pocket')");
  self.PocketBank = pyodide.pyimport('api.pocket').PocketBank;
  bank = self.PocketBank(await readAll());
  self.postMessage({type: 'state', state: 'ready'});
}

/** Answers the waiting requests one at a time, in order, each once the bank has started. */
async function drain() {
  if (answering) return;
  answering = true;
  try {
    while (queue.length) {
      const message = queue.shift();
      let answer;
      try {
        await started;
        answer = await handle(message);
      } catch (err) {
        answer = {status: 0, headers: [], body: String(err && err.message || err)};
      }
      self.postMessage({type: 'answer', id: message.id, ...answer});
    }
  } finally {
    answering = false;
  }
}

/** Answers one request, its journal lines kept in IndexedDB before the answer goes back.
 * Where they cannot be: a 503 storage_unavailable, the bank made again from what is kept. */
async function handle({method, path, headers, body}) {
  const answer = triple(bank.handle(method, path, JSON.stringify(headers || {}), body ?? undefined));
  const taken = bank.take_writes();
  const lines = taken.toJs();
  taken.destroy();
  if (lines.length) {
    try {
      await keep(lines);
    } catch (err) {
      const refused = triple(bank.unkept());
      bank.destroy();
      bank = self.PocketBank(await readAll());
      return refused;
    }
  }
  return answer;
}

/** A (status, headers as JSON, body) answer of the bank, as the page takes it. */
function triple(proxy) {
  const [status, headers, body] = proxy.toJs();
  proxy.destroy();
  return {status, headers: JSON.parse(headers), body};
}

/** Opens the bank's IndexedDB, made with its store of journal lines the first time. */
function openDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, {autoIncrement: true});
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Every journal line kept in IndexedDB, in the order written. */
function readAll() {
  return new Promise((resolve, reject) => {
    const request = db.transaction(STORE, 'readonly').objectStore(STORE).getAll();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Writes journal lines to IndexedDB in one transaction of strict durability. */
function keep(lines) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, 'readwrite', {durability: 'strict'});
    const store = tx.objectStore(STORE);
    for (const line of lines) store.add(line);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('the write was not kept'));
  });
}
