// Fair play (docs/audit.md "Fair play"; GET …/fairplay): the handovers between players that
// look like the economic offences of the rules, asset dumping and propping up, for the table
// to judge. Each flag in words with the figures the server raised it on, and the exception of
// a debt paid marked; the console judges nothing, it says what the server found.

import {h, replace} from './dom.js';
import {t, typeLabel} from './i18n.js';
import {problemView, iouName} from './views.js';

/** The flags of a game, asked once per state of the game (any token of the game may ask). */
function flagsOf(ctx) {
  const seq = ctx.game.last_seq;
  if (!ctx.fairplay || ctx.fairplay.id !== ctx.id || ctx.fairplay.seq !== seq) {
    const asked = ctx.api.get(`/games/${ctx.id}/fairplay`);
    ctx.fairplay = {id: ctx.id, seq, asked};
    asked.catch(() => { if (ctx.fairplay && ctx.fairplay.asked === asked) ctx.fairplay = null; });
  }
  return ctx.fairplay.asked;
}

/** What one side of a handover held: cash, deeds by name, jail cards, IOUs (by who owes
 * whom), each at its value; `inSentence`: cash as its amount alone, the others' values in
 * brackets ("Boardwalk ($400), $10"). */
function items(ctx, side, inSentence = false) {
  const out = [];
  const valued = (what, value) => (inSentence ? `${what} (${ctx.money(value)})` : `${what} ${ctx.money(value)}`);
  if (side.cash) out.push(inSentence ? ctx.money(side.cash) : `${t('cash')} ${ctx.money(side.cash)}`);
  for (const [deed, value] of Object.entries(side.deeds || {})) out.push(valued(ctx.deedName(deed), value));
  for (const [deck, value] of Object.entries(side.jail_cards || {})) out.push(valued(t('jail_card_of', {deck: t(`deck_${deck}`, {}, deck)}), value));
  for (const [iou, value] of Object.entries(side.ious || {})) out.push(valued(t('fp_iou', {iou: iouName(ctx, iou)}), value));
  return out.length ? out.join(', ') : t('fp_nothing');
}

/** The deeds of the groups a debtor keeps, by name: the server names the groups. */
function groupsText(ctx, groups) {
  return groups.map((g) => {
    const deeds = ctx.board.groups.get(g) || [];
    return t('fp_group_of', {deeds: deeds.length ? deeds.map((d) => d.name).join(', ') : g});
  }).join('; ');
}

/** One flag: the rule, the handover in a sentence, why, the exception if it holds, the figures. */
export function flagView(ctx, flag) {
  const b = flag.basis || {};
  const [giver, receiver] = (flag.players || []).map((p) => ctx.name(p));
  const exempt = flag.exempt
    ? h('span', {class: 'badge ok', dataset: {testid: 'flag-exempt'}}, t(`fp_exempt_${flag.exempt}`, {}, flag.exempt))
    : null;
  const lines = [
    h('p', {}, t('fp_handover', {giver, receiver, given: items(ctx, b.given || {}, true), received: items(ctx, b.received || {}, true), type: typeLabel(b.type || '')})),
    h('p', {}, t('fp_far_below', {percent: b.received_percent, limit: b.dumping_percent})),
  ];
  if (flag.rule === 'propping_up') {
    lines.push(h('p', {}, t('fp_propping', {receiver, raise: ctx.money(b.receiver_could_raise ?? 0),
      limit: ctx.money(b.distress_limit ?? 0), paid: ctx.money(b.receiver_paid_next ?? 0)})));
  } else {
    lines.push(h('p', {}, t('fp_shift', {receiver, net: ctx.money(b.net ?? 0), worth: ctx.money(b.receiver_worth_before ?? 0), shift: b.shift_percent})));
  }
  const debt = b.debt_payment;
  if (flag.exempt === 'debt_payment' && debt) {
    lines.push(h('p', {class: 'ok', dataset: {testid: 'flag-exempt-why'}}, t('fp_exempt_why', {
      giver, receiver, seq: debt.seq, type: typeLabel(debt.type), debt: ctx.money(debt.debt),
      cash: ctx.money(debt.cash_before), shortfall: ctx.money(debt.shortfall), groups: groupsText(ctx, debt.groups_kept || []),
    })));
  }
  const figures = [
    ['fp_f_given', items(ctx, b.given || {})],
    ['fp_f_received', items(ctx, b.received || {})],
    ['fp_f_received_percent', `${b.received_percent}\u00a0%`],
    ['fp_f_dumping_percent', `${b.dumping_percent}\u00a0%`],
    ['fp_f_net', ctx.money(b.net ?? 0)],
    ['fp_f_giver_worth_before', ctx.money(b.giver_worth_before ?? 0)],
    ['fp_f_receiver_worth_before', ctx.money(b.receiver_worth_before ?? 0)],
    ['fp_f_shift_percent', `${b.shift_percent}\u00a0%`],
    ['fp_f_receiver_could_raise', ctx.money(b.receiver_could_raise ?? 0)],
    ['fp_f_distress_limit', ctx.money(b.distress_limit ?? 0)],
    ['fp_f_receiver_paid_next', ctx.money(b.receiver_paid_next ?? 0)],
  ];
  return h('li', {class: `flag${flag.exempt ? ' exempt' : ''}`, dataset: {seq: String(flag.seq), rule: flag.rule}},
    h('p', {class: 'flag-title'}, h('strong', {}, `#${flag.seq} ${t(`fp_rule_${flag.rule}`, {}, flag.rule)}`), ' ', exempt),
    lines,
    h('details', {}, h('summary', {}, t('fp_figures')),
      h('dl', {class: 'basis'}, figures.map(([k, v]) => [h('dt', {}, t(k)), h('dd', {}, v)]))));
}

/** The answer of …/fairplay: its flags, or that there are none. */
export function fairplayView(ctx, answer) {
  const flags = (answer && answer.flags) || [];
  if (!flags.length) return h('p', {class: 'ok', dataset: {testid: 'fairplay-none'}}, t('fp_none'));
  return h('ul', {class: 'flags', dataset: {testid: 'fairplay-flags'}}, flags.map((f) => flagView(ctx, f)));
}

/** A slot that fills itself with the game's flags. */
function flagsSlot(ctx) {
  const slot = h('div', {class: 'fairplay-slot', 'aria-live': 'polite'}, h('p', {class: 'muted small'}, t('loading')));
  flagsOf(ctx).then((answer) => replace(slot, fairplayView(ctx, answer)))
    .catch((err) => replace(slot, problemView(ctx, err)));
  return slot;
}

/** The fair-play flags as a section of a finished game's summary (under the standings). */
export function fairplaySummary(ctx) {
  return h('section', {class: 'fairplay', 'aria-labelledby': 'fairplay-h', dataset: {testid: 'fairplay'}},
    h('h2', {id: 'fairplay-h'}, t('fp_title')), h('p', {class: 'muted small'}, t('fp_intro')), flagsSlot(ctx));
}

/** The history's card beside "Check the log": the flags on demand. */
export function fairplayCard(ctx) {
  const slot = h('div', {});
  return h('section', {class: 'card fairplay', 'aria-labelledby': 'fairplay-card-h', dataset: {testid: 'fairplay-card'}},
    h('h2', {id: 'fairplay-card-h'}, t('fp_title')), h('p', {class: 'small muted'}, t('fp_intro')),
    h('button', {type: 'button', class: 'secondary', dataset: {testid: 'fairplay-check'}, onclick: () => replace(slot, flagsSlot(ctx))}, t('fp_check')),
    slot);
}
