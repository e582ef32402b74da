// The players' links screen: a link and a QR code for each player's phone, the banker's own
// link, a new link for a role whose link leaked, and in the pocket, the game moved to a server.

import {h, replace, modal, field, toast} from './dom.js';
import {Api, Problem, newKey, qrUrl} from './api.js';
import {t} from './i18n.js';
import * as store from './store.js';
import {problemView} from './views.js';
import {keepGameSection} from './files.js';
import {inPocket, sendToServer} from './transport.js';

const LOCAL_ONLY = /^(localhost|.+\.localhost|127(\.\d+){3}|0\.0\.0\.0|\[::1?\])$/i;

/** Whether only this machine reaches an address (localhost, 127.x, ::1): no phone opens it. */
function localOnly(origin) {
  try {
    return LOCAL_ONLY.test(new URL(origin).hostname);
  } catch {
    return false; // not an address at all: the banker typed it, keep it
  }
}

/** The address the players' phones open: this browser's, unless only this machine reaches it;
 * then the server's address on the table's network (GET /console/address), if it found one. */
async function reachableOrigin() {
  if (!localOnly(location.origin)) return location.origin;
  try {
    const response = await fetch('/console/address', {cache: 'no-store'});
    const {lan} = response.ok ? await response.json() : {};
    if (lan) return lan;
  } catch {
    // offline for a moment: this browser's own address, which the banker can still change
  }
  return location.origin;
}

/**
 * The players' links screen: each player's link and QR code on the address the phones open
 * (which the banker may change), the game's file, and the banker's own link; in the pocket,
 * where no phone could reach this device, the way to move the game to a server instead.
 * @param {HTMLElement} main
 * @param {*} ctx
 * @param {() => boolean} [stale]
 */
export async function playersScreen(main, ctx, stale = () => false) {
  if (inPocket()) {
    // A game on this device: no server the phones could reach, so no links to give.
    replace(main,
      h('section', {class: 'card', dataset: {testid: 'pocket-links'}}, h('h1', {}, t('players_links')),
        h('p', {}, t('pocket_no_links')),
        h('a', {class: 'button primary', href: `#/g/${ctx.id}`}, t('to_the_table'))),
      moveSection(ctx),
      keepGameSection(ctx));
    return;
  }
  const saved = ctx.saved;
  const reachable = await reachableOrigin();
  if (stale()) return;
  // Only an address the banker typed is kept (the server's may change from one evening to the
  // next); a loopback one, as older consoles saved, reaches no phone.
  const typed = saved.base && !localOnly(saved.base) ? saved.base : '';
  const base = h('input', {type: 'url', value: typed || reachable, inputmode: 'url', spellcheck: 'false'});
  const list = h('div', {class: 'links'});
  // After a new link: the screen again, with the tokens this device now keeps.
  const redraw = () => { ctx.saved = store.game(ctx.id) || ctx.saved; playersScreen(main, ctx, stale); };
  const draw = () => {
    const origin = base.value.trim().replace(/\/+$/, '') || reachable;
    replace(list, ...(saved.tokens
      ? ctx.players.filter((p) => saved.tokens[p.id]).map((p) => linkCard(ctx, p, saved.tokens[p.id], origin, redraw))
      : [h('p', {class: 'muted'}, t('no_player_tokens'))]));
  };
  base.addEventListener('change', () => {
    const chosen = base.value.trim().replace(/\/+$/, '');
    store.save({id: ctx.id, base: chosen || null});
    if (!chosen) base.value = reachable;
    draw();
  });
  replace(main,
    h('section', {class: 'card'}, h('h1', {}, t('players_links')),
      h('p', {}, t('links_intro')),
      field(t('address_for_players'), base, t('address_hint')),
      h('a', {class: 'button primary', href: `#/g/${ctx.id}`}, t('to_the_table'))),
    list,
    keepGameSection(ctx),
    bankerLinkSection(ctx, reachable, redraw));
  draw();
}

/**
 * One player's card: the link at `origin`, its QR code (drawn by the server), and the buttons
 * to copy it, open it and make a new one.
 */
function linkCard(ctx, p, token, origin, redraw) {
  const url = `${origin}/play/${ctx.id}#p=${encodeURIComponent(p.id)}&token=${encodeURIComponent(token)}`;
  const img = h('img', {class: 'qr', alt: t('qr_of', {name: p.name}), width: 196, height: 196});
  const linkInput = h('input', {type: 'text', readonly: true, value: url, 'aria-label': t('link_of', {name: p.name})});
  qrUrl(url).then((src) => {
    img.addEventListener('load', () => URL.revokeObjectURL(src), {once: true});
    img.src = src;
  }).catch(() => { img.alt = t('qr_failed'); });
  return h('article', {class: `card link-card ${ctx.playerClass(p.id)}`, dataset: {player: p.id}},
    h('h2', {}, p.name), img, linkInput,
    h('div', {class: 'row'},
      h('button', {type: 'button', class: 'secondary', onclick: () => copy(linkInput)}, t('copy')),
      h('a', {class: 'button secondary', href: url, target: '_blank', rel: 'noopener noreferrer'}, t('open_link')),
      h('button', {type: 'button', class: 'secondary', dataset: {testid: 'new-link'},
        onclick: () => askNewLink(ctx, p.id, p.name, redraw)}, t('new_link'))));
}

/** The banker's own link (with the players' tokens, to open the game on another device), out of
 * sight until asked for; copied, or made anew. */
function bankerLinkSection(ctx, reachable, redraw) {
  const saved = ctx.saved;
  const playerTokens = Object.entries(saved.tokens || {}).map(([pid, tok]) => `/${pid}:${tok}`).join('');
  const bankerLink = h('input', {type: 'text', readonly: true, value: `${reachable}/#/open/${ctx.id}/${saved.banker}${playerTokens}`, 'aria-label': t('banker_link')});
  return h('section', {class: 'card'}, h('details', {}, h('summary', {}, t('banker_link')),
    h('p', {class: 'small muted'}, t('banker_link_hint')), bankerLink,
    h('div', {class: 'row'},
      h('button', {type: 'button', class: 'secondary', onclick: () => copy(bankerLink)}, t('copy')),
      h('button', {type: 'button', class: 'secondary', dataset: {testid: 'new-banker-link'},
        onclick: () => askNewLink(ctx, 'banker', t('banker_link'), redraw)}, t('new_link')))));
}

/**
 * A new link for a role ('banker' or a player id), once the banker confirms: the server makes
 * a new token and ends the old one at once (POST /games/{game}/tokens/{role}); this device
 * keeps the new one (the banker's own: every request of this page goes with it from now on),
 * and `then()` draws the links again. The button is off while the request is out: a repeat
 * would make yet another token.
 */
function askNewLink(ctx, role, name, then) {
  modal(t('new_link_title', {name}), (body, dialog) => {
    const status = h('div', {role: 'status'});
    const make = async () => {
      confirm.disabled = true;
      try {
        const made = await ctx.api.newToken(ctx.id, role);
        if (role === 'banker') {
          store.save({id: ctx.id, banker: made.token});
          ctx.api.token = made.token;
        } else {
          store.save({id: ctx.id, tokens: {...(store.game(ctx.id) || ctx.saved).tokens, [role]: made.token}});
        }
        dialog.close();
        toast(t('new_link_made', {name}), {kind: 'ok'});
        then();
      } catch (err) {
        confirm.disabled = false;
        replace(status, err instanceof Problem && err.status ? problemView(ctx, err) : h('p', {class: 'warn'}, t('new_link_failed')));
      }
    };
    const confirm = h('button', {type: 'button', class: 'danger', dataset: {testid: 'new-link-confirm'}, onclick: make}, t('new_link_confirm'));
    body.append(
      h('p', {}, role === 'banker' ? t('new_banker_link_text') : t('new_link_text', {name})),
      status,
      h('div', {class: 'actions'},
        h('button', {type: 'button', class: 'secondary', onclick: () => dialog.close()}, t('cancel')),
        confirm));
  });
}

/** Move to a server: where the pocket page was served by a tablebank server (at /pocket/), a
 * tap imports the game's file there (the server checks every transaction again) and opens it
 * in the server's console, with links for the players; anywhere, the file to open on one. */
function moveSection(ctx) {
  const status = h('div', {role: 'status', dataset: {testid: 'move-status'}});
  const section = h('section', {class: 'card', dataset: {testid: 'move-to-server'}},
    h('h2', {}, t('move_to_server')), h('p', {}, t('move_to_server_hint')), status);
  if (ctx.saved.moved) {
    replace(status, movedNotice(ctx.saved.moved));
    return section;
  }
  const move = async () => {
    button.disabled = true;
    replace(status, h('p', {class: 'muted small'}, t('moving')));
    try {
      const {text} = await ctx.api.exportLog(ctx.id);
      const key = ctx.saved.moveKey || store.save({id: ctx.id, moveKey: newKey()}).moveKey;
      const moved = await new Api(null, sendToServer).importGame(text, key);
      store.saveOnServer({id: moved.id, name: moved.name, ruleset: moved.ruleset, created: moved.created,
        banker: moved.banker_token, tokens: moved.tokens, imported: new Date().toISOString()});
      store.save({id: ctx.id, moved: moved.id});
      window.location.assign(new URL(`/#/g/${moved.id}/players`, window.location.origin).href);
    } catch (err) {
      button.disabled = false;
      replace(status, err instanceof Problem && err.status ? problemView(ctx, err) : h('p', {class: 'warn'}, t('move_failed')));
    }
  };
  const button = h('button', {type: 'button', class: 'primary', dataset: {testid: 'move-here'}, onclick: move}, t('move_here'));
  // Only a tablebank server answers its health check here; a static host does not.
  sendToServer('/healthz', {cache: 'no-store', credentials: 'omit'})
    .then((answer) => { if (answer.ok && !ctx.saved.moved) section.insertBefore(h('div', {class: 'row'}, button), status); })
    .catch(() => { /* no server here: the file is the way */ });
  return section;
}

/** The line that says the game moved to a server, with the link to it there. */
export function movedNotice(serverId) {
  return h('p', {class: 'ok', dataset: {testid: 'moved'}}, t('moved_notice'), ' ',
    h('a', {href: new URL(`/#/g/${serverId}`, window.location.origin).href}, t('open_on_server')));
}

/** Copies a link from its input to the clipboard, or selects it where there is no clipboard. */
async function copy(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    toast(t('copied'));
  } catch {
    input.select(); // without a secure context there is no clipboard API: select for the user
    toast(t('select_copy'));
  }
}
