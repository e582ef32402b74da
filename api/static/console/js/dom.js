// Building the page from data without ever parsing data as HTML: every text goes in through
// textContent (names typed by players included), every attribute through setAttribute.

import {t} from './i18n.js';

/**
 * h('button', {class: 'primary', onclick: fn}, 'Pay', child, ...): an element.
 * Attributes: `class`, `on<event>` handlers, `dataset`, booleans (true sets, false omits),
 * anything else through setAttribute. Children: nodes, strings (text), arrays, null/false.
 */
export function h(tag, attrs = {}, ...children) {
  const el = tag.startsWith('svg:')
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2), value);
    } else if (name === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (name === 'value' && 'value' in el) {
      el.value = value;
    } else if (name === 'checked' || name === 'selected') {
      el[name] = Boolean(value);
    } else if (name === 'style') {
      throw new Error('no inline styles: the Content-Security-Policy forbids them');
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/** Appends children to an element, arrays flattened: nodes as they are, the rest as text.
 * Null, undefined and false are left out. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Empties an element of its children. */
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** An element's children replaced by new ones, taken as append takes them. */
export function replace(el, ...children) {
  clear(el);
  return append(el, children);
}

let uid = 0;
/** A fresh id for label/for and aria-describedby pairs. */
export function nextId(prefix = 'f') {
  uid += 1;
  return `${prefix}-${uid}`;
}

/** A labelled field: <label>text</label> + control, the label tied to the control. */
export function field(labelText, control, hint) {
  if (!control.id) control.id = nextId();
  const hintEl = hint ? h('small', {class: 'hint', id: nextId('hint')}, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', {class: 'field'}, h('label', {for: control.id}, labelText), control, hintEl);
}

/** A <select> of [value, text] options, `value` the one selected. */
export function select(options, value, attrs = {}) {
  return h('select', attrs, options.map(([v, text]) =>
    h('option', {value: v, selected: String(v) === String(value)}, text)));
}

/** An input for a whole number, with a phone's number keypad. */
export function numberInput(attrs = {}) {
  return h('input', {type: 'number', inputmode: 'numeric', step: 1, ...attrs});
}

/**
 * A short message that announces itself to screen readers, and goes after a while.
 * `move`: it tells of a move just recorded, so older toasts lose their Undo (an `action` with
 * `undo: true`): only the latest move's toast offers to undo it.
 * @param {*} message
 * @param {{action?: any, kind?: string, timeout?: number, move?: boolean}} [options]
 */
export function toast(message, {action, kind = 'info', timeout = 6000, move = false} = {}) {
  const box = document.getElementById('toasts');
  if (move) for (const undo of box.querySelectorAll('button[data-undo]')) undo.remove();
  const item = h('div', {class: `toast toast-${kind}`}, h('span', {}, message));
  if (action) {
    item.append(h('button', {type: 'button', class: 'link', dataset: action.undo ? {undo: ''} : undefined, onclick: () => {
      item.remove();
      action.run();
    }}, action.label));
  }
  item.append(h('button', {type: 'button', class: 'close', 'aria-label': t('close'),
    onclick: () => item.remove()}, '×'));
  box.append(item);
  // The newest few only: older news is in the history.
  while (box.children.length > 2) box.firstElementChild.remove();
  if (timeout) setTimeout(() => item.remove(), timeout);
  return item;
}

// The dock (#dock: the offline banner and the toasts) is fixed at the top of the screen. While
// it holds anything, the page scrolls in the room under it (html.docked: the body is the
// scroller, from the dock's foot down), so nothing is ever drawn over a control: a tap meant
// for the next player's button is never taken by a toast (issue 22). What the screen showed
// stays where it was, under the finger: as the dock grows the page scrolls on by as much, so
// only its top, as tall as the dock, goes out of sight above (and scrolls back into it).
const root = document.documentElement;
let docked = 0; // px: the dock's height the page makes room for
let padded = 0; // px: room added at the page's foot, so that a short page can scroll on too

/** Makes room above the page for the dock at its new height, the screen's view kept in place. */
function fitDock(height) {
  height = Math.round(height);
  if (height === docked) return;
  const body = document.body;
  const page = document.scrollingElement;
  const view = docked ? body.scrollTop - docked : page.scrollTop; // the screen's top in the page
  docked = height;
  root.classList.toggle('docked', height > 0);
  if (!height) {
    padded = 0;
    root.style.removeProperty('--dock');
    root.style.removeProperty('--dock-pad');
    page.scrollTop = view;
    return;
  }
  root.style.setProperty('--dock', `${height}px`);
  body.scrollTop = view + height;
  const short = view + height - body.scrollTop;
  if (short >= 1) {
    padded += short;
    root.style.setProperty('--dock-pad', `${padded}px`);
    body.scrollTop = view + height;
  }
}

const dock = document.getElementById('dock');
if (dock && 'ResizeObserver' in window) {
  new ResizeObserver(() => fitDock(dock.getBoundingClientRect().height)).observe(dock);
}

/** The page back at its top, whichever element scrolls it (the body while the dock holds
 * something). */
export function scrollToTop() {
  (docked ? document.body : document.scrollingElement).scrollTop = 0;
}

// The browser's back closes the dialog on top, as a phone's user expects, and leaves the page
// under it as it was: each open dialog has a history entry of its own (same address, so no
// route changes), pushed when it opens. Closed any other way (its button, Escape, a move
// recorded), its entry is taken back, so no back press is left that does nothing. A dialog
// that closes while another opens in its place (a sheet opening a move) hands its entry on.
// The console places the page itself (a dispute the banker is sent to, an error brought into
// view): the browser's own restoring of the scroll when a dialog's entry is taken back came
// after it, at a moment of its own, and sent the page back to where the dialog had opened.
if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
const openDialogs = []; // the modal dialogs open, oldest first
let entries = 0; // history entries pushed for them, the newest the current entry
let syncing = false;
let traversing = false; // a history.go() of our own on its way: its popstate is no back press

const openCount = () => openDialogs.filter((d) => d.open).length;

/** Brings the dialogs' history entries in line with the dialogs open (pushed or taken back). */
function syncHistory() {
  syncing = false;
  if (traversing) return; // again once it has arrived
  const open = openCount();
  if (entries > open) {
    // Only our own entry is taken back: after a link followed from a dialog, the page's own
    // entry is current and stays.
    const ours = history.state && history.state.tbDialog === entries;
    const extra = entries - open;
    entries = open;
    if (ours) {
      traversing = true;
      history.go(-extra);
      setTimeout(() => { if (traversing) { traversing = false; queueSync(); } }, 2000); // never came
      return;
    }
  }
  while (entries < open) {
    entries += 1;
    history.pushState({...(history.state || {}), tbDialog: entries}, '');
  }
}

/** Syncs the dialogs' history entries once, after what runs now. */
function queueSync() {
  if (syncing) return;
  syncing = true;
  setTimeout(syncHistory, 0);
}

window.addEventListener('popstate', (ev) => {
  if (traversing) {
    traversing = false;
    queueSync(); // a dialog opened meanwhile gets its entry now
    return;
  }
  const at = (ev.state && ev.state.tbDialog) || 0;
  if (at > entries) {
    // Forward onto the entry of a dialog closed since: it cannot open again, so back off it.
    traversing = true;
    history.go(entries - at);
    return;
  }
  if (at === entries) return; // not a dialog's entry: the page's own navigation
  entries = at;
  for (const dialog of openDialogs.slice(at).reverse()) dialog.close();
});

// Reloaded with a dialog's entry current (the dialog is gone with the old page): back to the
// page's own entry, so that no back press is left that does nothing.
if (history.state && history.state.tbDialog) {
  traversing = true;
  history.go(-history.state.tbDialog);
}

/** A modal <dialog>: focus moves into it, Escape and the browser's back close it, focus goes
 * back on close.
 * @param {*} title
 * @param {*} build
 * @param {{wide?: boolean}} [options]
 */
export function modal(title, build, {wide = false} = {}) {
  const opener = document.activeElement;
  const titleId = nextId('dlg');
  const body = h('div', {class: 'dialog-body'});
  const dialog = h('dialog', {class: wide ? 'wide' : null, 'aria-labelledby': titleId},
    h('div', {class: 'dialog-head'},
      h('h2', {id: titleId}, title),
      h('button', {type: 'button', class: 'close', 'aria-label': t('close'),
        onclick: () => dialog.close()}, '×')),
    body);
  dialog.addEventListener('close', () => {
    dialog.remove();
    const i = openDialogs.indexOf(dialog);
    if (i >= 0) openDialogs.splice(i, 1);
    queueSync(); // closed by its button, Escape or a move: its entry goes too
    if ((opener instanceof HTMLElement || opener instanceof SVGElement) && opener.isConnected) opener.focus();
  });
  document.body.append(dialog);
  build(body, dialog);
  dialog.showModal();
  openDialogs.push(dialog);
  queueSync();
  // Focus the first control the banker can see: a field to fill, else the first move.
  const visible = (el) => el.getClientRects().length > 0 && !el.closest('details:not([open]), [hidden]');
  const controls = [...body.querySelectorAll('[autofocus], input:not([type=hidden]), select, textarea, button')].filter(visible);
  const first = controls.find((el) => el.matches('[autofocus], input, select, textarea')) || controls[0];
  if (first) first.focus();
  return dialog;
}

/** A moment (ISO text) as a short date and time in `locale`, or the text as it came. */
export function fmtTime(iso, locale) {
  try {
    return new Date(iso).toLocaleString(locale, {dateStyle: 'short', timeStyle: 'medium'});
  } catch {
    return iso;
  }
}
