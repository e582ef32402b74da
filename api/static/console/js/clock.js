// A game to a clock: the minutes left until the server's `ends_at` (the option `minutes` at
// creation; docs/rules.md, "Timed game"), the same on the banker's table and on every player's
// phone. The end time is the server's; this device only counts down to it. A game without
// `ends_at` shows nothing.

import {h} from './dom.js';
import {t, locale} from './i18n.js';

const TICK_MS = 15000; // a minute's count never lags by more than a quarter of a minute

/** Whole minutes left until `end` (ms), rounded up: "1 min left" until the very end. */
function minutesLeft(end) {
  return Math.ceil((end - Date.now()) / 60000);
}

/**
 * The countdown of an active game with `ends_at`, or null. It counts on by itself every
 * TICK_MS while it is on the page; a redraw (a reload, a live update) makes a new one.
 * `upHint`: what to do once time is up (the banker's page says how to finish).
 * @param {*} game
 * @param {{upHint?: string}} [options]
 */
export function countdown(game, {upHint = ''} = {}) {
  const end = game && game.status === 'active' && game.ends_at ? Date.parse(game.ends_at) : NaN;
  if (!Number.isFinite(end)) return null;
  const left = h('strong', {class: 'left'});
  const hint = h('span', {class: 'small'});
  const at = new Date(end).toLocaleTimeString(locale(), {hour: '2-digit', minute: '2-digit'});
  const el = h('p', {class: 'countdown', role: 'timer', dataset: {testid: 'countdown', endsAt: game.ends_at}},
    h('span', {class: 'sr-only'}, `${t('clock_label')}: `), left, ' ', h('span', {class: 'muted small'}, t('clock_ends', {time: at})), hint);
  const show = () => {
    const minutes = minutesLeft(end);
    left.textContent = minutes > 0 ? t('minutes_left', {n: minutes}) : t('time_up');
    el.classList.toggle('up', minutes <= 0);
    hint.textContent = minutes <= 0 ? upHint : '';
  };
  show();
  const timer = setInterval(() => {
    if (el.isConnected) show();
    else clearInterval(timer); // redrawn: the new countdown counts instead
  }, TICK_MS);
  return el;
}
