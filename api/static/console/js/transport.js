// Where the console's requests go: to the server that served the page (fetch), or, in the
// pocket bundle, to the bank running in this browser (pocket.js sends them to its Web Worker).
// Both answer the same requests with the same answers; the rest of the console asks `send`
// and never knows which.

let sender = null;

/** fetch(url, init), by the page's server or by the pocket bank. */
export function send(url, init) {
  return sender ? sender(url, init) : fetch(url, init);
}

/** From now on every request goes to `pocket` (a function with fetch's arguments and answer). */
export function sendTo(pocket) {
  sender = pocket;
}

/** Whether the games are kept on this device (the pocket bank), not on a server. */
export function inPocket() {
  return sender !== null;
}

/** fetch(url, init) to the server that served the page, even in the pocket bundle: a pocket
 * page served by a tablebank server at /pocket/ moves its games there. */
export function sendToServer(url, init) {
  return fetch(url, init);
}
