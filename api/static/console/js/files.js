// A game's file (issue 22, "Export and import in the console"): the banker keeps a game as the
// server's export (GET …/export, the whole log with each transaction's hash and no token), and
// any server opens such a file as a new game (POST /api/v1/games/import) with new tokens. The
// file is fetched with the banker's token and handed to the browser as a blob, so no token is
// ever in an address; the server judges an opened file (docs/audit.md "Export and import"),
// the console only says in the reader's language what it answered.

import {h, replace} from './dom.js';
import {Api, Problem, newKey} from './api.js';
import {t, LANGUAGES} from './i18n.js';
import {problemView} from './views.js';
import {inPocket} from './transport.js';

// What a file system refuses in a name (Windows' reserved characters, the slash, controls).
const UNSAFE = /[\\/:*?"<>|\u0000-\u001f\u007f]+/g;

/** The file's name: the game's and the day's, `<game name> <YYYY-MM-DD>.tablebank.json`; a
 * game named by that day's date (the new-game screen names it "Game 04.12.2026" in the
 * console's language) keeps its name alone, so the file does not carry the date twice. */
export function fileName(gameName, day = new Date()) {
  const pad = (n) => String(n).padStart(2, '0');
  const date = `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
  const safe = (text) => String(text || '').replace(UNSAFE, '-').replace(/^[\s.]+|[\s.]+$/g, '');
  const name = safe(gameName) || 'tablebank';
  const dated = [date, ...LANGUAGES.map(({locale}) => safe(new Intl.DateTimeFormat(locale).format(day)))]
    .some((written) => name.includes(written));
  return dated ? `${name}.tablebank.json` : `${name} ${date}.tablebank.json`;
}

/** Seconds a Retry-After asked for, at least 1. */
const seconds = (err) => Math.max(1, Math.ceil(err.retryAfter || 1));

/** A refusal that may go again later, with the button that sends it again. */
function tryAgain(message, again) {
  return h('div', {class: 'problem', role: 'alert', dataset: {testid: 'file-problem'}},
    h('p', {class: 'problem-detail'}, message),
    h('div', {class: 'row'}, h('button', {type: 'button', class: 'secondary', dataset: {testid: 'file-try-again'},
      onclick: again}, t('fi_try_again'))));
}

// -- keeping a game --------------------------------------------------------------------------

/**
 * The Links screen's "Keep this game": the server's export of the game as a file. Once made,
 * the file's link stays on screen (a phone that did not start the download gets it with a tap).
 */
export function keepGameSection(ctx) {
  const status = h('div', {role: 'status', dataset: {testid: 'file-status'}});
  let url = null;
  const waiting = ctx.outbox ? ctx.outbox.waiting().length : 0;
  const download = async () => {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    replace(status, h('p', {class: 'muted small'}, t('fi_making')));
    try {
      const {text, type} = await ctx.api.exportLog(ctx.id);
      if (url) URL.revokeObjectURL(url);
      url = URL.createObjectURL(new Blob([text], {type: type || 'application/json'}));
      const name = fileName(ctx.game.name);
      const link = h('a', {href: url, download: name, class: 'file-link', dataset: {testid: 'file-link'}}, name);
      replace(status, h('p', {class: 'ok'}, t('fi_saved'), ' ', link));
      link.click();
    } catch (err) {
      replace(status, exportProblem(ctx, err, download));
    } finally {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  };
  const button = h('button', {type: 'button', class: 'primary', dataset: {testid: 'download-game'}, onclick: download},
    t('fi_download'));
  return h('section', {class: 'card', dataset: {testid: 'keep-game'}},
    h('h2', {}, t('fi_keep_title')),
    h('p', {class: 'small'}, t('fi_keep_hint')),
    waiting ? h('p', {class: 'warn small'}, t('fi_waiting', {n: waiting})) : null,
    h('div', {class: 'row'}, button),
    status);
}

/** Why the game's file did not come: busy or no server (try again), else the refusal. */
function exportProblem(ctx, err, again) {
  if (err.code === 'busy') return tryAgain(t('fi_busy', {s: seconds(err)}), again);
  if (err.status === 0 || err.status >= 502) return tryAgain(t('fi_offline_export'), again);
  return problemView(ctx, err);
}

// -- opening a file as a new game --------------------------------------------------------------

/**
 * The start screen's "Open a game's file": the file chosen is sent to the server as it is;
 * the new game is kept on this device with its tokens, as a created one is, and `opened(game)`
 * shows it.
 */
export function openFileSection(opened) {
  const input = h('input', {type: 'file', accept: '.json,application/json', hidden: true, dataset: {testid: 'game-file'}});
  const status = h('div', {dataset: {testid: 'open-file-status'}});
  const choose = h('button', {type: 'button', class: 'secondary', dataset: {testid: 'open-game-file'},
    onclick: () => input.click()}, t('fi_choose'));
  const send = async (file) => {
    choose.disabled = true;
    choose.setAttribute('aria-busy', 'true');
    replace(status, h('p', {class: 'muted small', role: 'status'}, t('fi_opening', {file: file.name})));
    try {
      const created = await new Api().importGame(await file.text(), newKey());
      replace(status);
      opened(created);
    } catch (err) {
      replace(status, importProblem(err, () => send(file)));
    } finally {
      choose.disabled = false;
      choose.removeAttribute('aria-busy');
    }
  };
  input.addEventListener('change', () => {
    const [file] = input.files;
    input.value = ''; // the same file chosen again is a change too
    if (file) send(file);
  });
  return h('section', {class: 'card', dataset: {testid: 'open-file'}},
    h('h2', {}, t('fi_open_title')),
    h('p', {class: 'muted small'}, t(inPocket() ? 'fi_open_hint_pocket' : 'fi_open_hint')),
    h('div', {class: 'row'}, choose, input),
    status);
}

// The members of an export: a refusal naming one of them whole is a file of something else.
const MEMBERS = new Set(['body', 'format', 'game', 'transactions', 'head']);

/** What the server said of a file, in the reader's language. */
function importProblem(err, again) {
  const body = err.body || {};
  if (err.code === 'busy' || err.code === 'rate_limited') return tryAgain(t(`fi_${err.code}`, {s: seconds(err)}), again);
  if (err.status === 0 || err.status >= 502) return tryAgain(t('fi_offline_import'), again);
  const lines = [];
  if (err.code === 'log_invalid') {
    if (!body.seq) lines.push(t('fi_log_header'));
    else lines.push(t(body.field === 'by' ? 'fi_log_by' : 'fi_log_seq', {seq: body.seq}));
  } else if (err.code === 'validation_error' && body.errors) {
    const fields = Object.keys(body.errors);
    if (fields.some((f) => MEMBERS.has(f))) lines.push(t('fi_not_a_file'));
    else lines.push(...new Set(fields.map(fieldLine)));
  } else if (err.code === 'payload_too_large') {
    lines.push(t('fi_too_large'));
  } else {
    return problemView({name: (x) => x, money: String}, err instanceof Problem ? err : new Problem(0, body));
  }
  return h('div', {class: 'problem', role: 'alert', dataset: {testid: 'file-problem'}},
    h('p', {class: 'problem-title'}, t('fi_refused')),
    lines.map((line) => h('p', {class: 'problem-detail'}, line)),
    h('p', {class: 'small'}, t('fi_nothing_made')));
}

/** A field of the file the server refused, by what it is: a transaction, the names, the rest. */
function fieldLine(path) {
  const [member, index, name] = path.split('.');
  if (member === 'transactions' && /^\d+$/.test(index)) return t('fi_bad_transaction', {seq: Number(index) + 1});
  if (member === 'game' && (index === 'name' || index === 'players')) return t(`fi_bad_${index}`);
  if (member === 'game') return t('fi_bad_header');
  return t('fi_bad_field', {field: [member, index, name].filter(Boolean).join('.')});
}
