// Turn tracking on the banker's table, an explicit mode. Off, rent can be charged to anyone at
// any time. Once a `turn` is recorded, the server charges rent only to the player whose turn it
// is (`claim_window_closed` otherwise; docs/rules.md, "Claim window"), and the banker marks each
// turn as it starts. Whether it is on is the game's state, never this device's: the game's
// `turn` (null until a turn is recorded). The player whose turn it is going bankrupt clears it:
// then the log says the table was tracking turns, and the banker chooses who plays next.
// The server has no transaction that switches it off again; an Undo (a void of the first turn)
// right after switching it on is the way back.

import {h, append, modal} from './dom.js';
import {t} from './i18n.js';
import {moveBody} from './moves.js';

// After a turn is recorded the table is redrawn, and the button under the finger then names the
// player after: a double tap would skip a player. It waits this long before it can be tapped.
const SETTLE_MS = 1000;
let lastTurnAt = 0;

/** Whether this game tracks turns: 'on', 'paused' (nobody's turn since a bankruptcy) or 'off'. */
async function mode(ctx, game) {
  if (game.turn) return 'on';
  if (!game.players.some((p) => p.bankrupt)) return 'off'; // only a bankruptcy clears a turn
  const seen = ctx.turnsLogged;
  if (!seen || seen.seq !== game.last_seq) {
    try {
      const turns = await ctx.api.transactions(ctx.id, {type: 'turn'});
      ctx.turnsLogged = {seq: game.last_seq, any: turns.some((x) => !x.voided_by)};
    } catch {
      return 'off'; // no server: the table as last seen says nobody's turn
    }
  }
  return ctx.turnsLogged.any ? 'paused' : 'off';
}

/** The next player in seat order after `from` who is still at the table. */
function nextAfter(ctx, from) {
  const seats = ctx.game.players;
  const start = seats.findIndex((p) => p.id === from);
  for (let i = 1; i <= seats.length; i += 1) {
    const p = seats[(start + i) % seats.length];
    if (ctx.seated(p.id)) return p;
  }
  return null;
}

/**
 * A one-tap button giving `player` the turn; null where the game offers him none.
 * It is shut for a moment after a turn is recorded.
 * @param {*} ctx
 * @param {*} player
 * @param {*} label
 * @param {{cls?: string, after?: Function, testid?: string}} [options]
 */
function turnButton(ctx, player, label, {cls = 'secondary', after, testid} = {}) {
  const payload = moveBody(ctx, 'turn', {player: player.id});
  if (!payload) return null; // not a player the game offers a turn to now
  // A turn given back moments after it was recorded (Bob marked by mistake, Ann's again) is a
  // new move, not a double tap of the first: the game, redrawn, says it is not Ann's turn now.
  if (ctx.intents && ctx.game.turn !== player.id && ctx.intents.state(payload).state === 'done') ctx.intents.again(payload);
  const btn = ctx.quickButton(label, payload, {cls, testid, after: () => {
    lastTurnAt = Date.now();
    if (after) after();
  }});
  const wait = SETTLE_MS - (Date.now() - lastTurnAt);
  if (wait > 0) {
    btn.disabled = true;
    setTimeout(() => { btn.disabled = false; }, wait);
  }
  return btn;
}

/** Switching it on: what it means, and who plays first. */
function switchOnDialog(ctx) {
  modal(t('tt_switch_on_title'), (body, dialog) => {
    body.append(
      h('p', {}, t('tt_what')),
      h('p', {class: 'small muted'}, t('tt_no_off')),
      h('h3', {}, t('tt_who_first')),
      h('div', {class: 'moves tt-players'}, ctx.activePlayers().map((p) =>
        turnButton(ctx, p, t('tt_starts', {name: p.name}), {cls: 'primary', testid: `turn-first-${p.id}`, after: () => dialog.close()}))));
  });
}

/** The card of turn tracking on the table: its mode, and the turns when it is on. */
export async function turnsCard(ctx) {
  const game = ctx.game;
  const state = await mode(ctx, game);
  const title = h('h2', {id: 'turns-h'}, t('tt_title'), ' ',
    h('span', {class: `badge ${state === 'off' ? '' : 'ok'}`, dataset: {testid: 'turn-mode'}}, t(state === 'off' ? 'tt_off' : 'tt_on')));
  const card = h('section', {class: `card turns turns-${state}`, 'aria-labelledby': 'turns-h', dataset: {testid: 'turns'}}, title);
  if (state === 'off') {
    card.append(h('p', {class: 'small'}, t('tt_off_text')),
      h('button', {type: 'button', class: 'secondary', 'aria-haspopup': 'dialog', dataset: {testid: 'turns-on'},
        onclick: () => switchOnDialog(ctx)}, t('tt_switch_on')));
    return card;
  }
  const now = game.turn ? ctx.byId.get(game.turn) : null;
  const next = now ? nextAfter(ctx, now.id) : null;
  // append() from dom.js, not Element.append: that one would write a null out as "null".
  append(card, [h('p', {class: 'small muted'}, t('tt_on_text')),
    h('p', {class: 'turn-now', dataset: {testid: 'turn-now'}}, now ? t('tt_now', {name: now.name}) : t('tt_nobody')),
    now ? null : h('p', {class: 'small'}, t('tt_nobody_why'))]);
  const others = ctx.activePlayers().filter((p) => p.id !== (now && now.id) && p.id !== (next && next.id));
  const row = h('div', {class: 'moves'});
  if (next && next.id !== now.id) append(row, [turnButton(ctx, next, t('tt_next', {name: next.name}), {cls: 'primary', testid: 'next-turn'})]);
  card.append(row);
  const choices = now ? others : ctx.activePlayers();
  if (choices.length) {
    const list = h('div', {class: 'moves tt-players'}, choices.map((p) =>
      turnButton(ctx, p, t('tt_turn_of', {name: p.name}), {testid: `turn-${p.id}`})));
    // Nobody's turn: choosing who plays next is the move, in sight. Otherwise it is the
    // exception (a player skipped, a turn marked by mistake), one tap further.
    card.append(now ? h('details', {class: 'tt-other'}, h('summary', {}, t('tt_other')), list) : list);
  }
  return card;
}
