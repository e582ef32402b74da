// Replay: the game step by step from GET .../replay, with a timeline slider, every balance and
// net worth at that step, net worth over time (one line per player) drawn by uPlot (js/chart.js),
// and the statistics as of the step shown (js/stats.js).

import {h, replace, field} from './dom.js';
import {t, locale} from './i18n.js';
import {describeTxn} from './views.js';
import {loadUplot} from './chart.js';
import {statsSection} from './stats.js';
import {colour, onThemeChange} from './theme.js';

let onResize = null;
// The chart on screen drawn again in the colours of a theme that came into force meanwhile.
let redrawChart = null;
onThemeChange(() => { if (redrawChart) redrawChart(); });

// A player's line is her colour of the stylesheet (--p1 to --p8, as .pc1 to .pc8) in the theme
// in force; the axes, the grid and the step's line are its ink and lines.
const playerColour = (i) => colour(`p${(i % 8) + 1}`);

/** The replay in `main`: a step per transaction, the last shown first; `stale()` says the
 * banker went elsewhere meanwhile. */
export async function replayScreen(ctx, main, stale = () => false) {
  const {steps} = await ctx.api.replay(ctx.id);
  if (stale()) return; // the banker went elsewhere meanwhile
  if (!steps.length) {
    replace(main, h('section', {class: 'card'}, h('p', {}, t('nothing_yet'))));
    return;
  }
  const last = steps.length - 1;
  const slider = h('input', {type: 'range', min: 0, max: last, step: 1, value: last, name: 'step', dataset: {testid: 'replay-slider'}});
  const stepLabel = h('output', {class: 'step-label', 'aria-live': 'polite'});
  const table = h('div', {class: 'replay-balances'});
  const chartBox = h('div', {class: 'chart', role: 'img', 'aria-label': t('chart_label')});
  let chart = null;
  let current = last;
  const show = (i) => {
    current = i;
    const {title, moves} = describeTxn(ctx, steps[i].transaction);
    stepLabel.value = `${t('step_n', {n: i + 1, of: steps.length})}: ${title}`;
    replace(table, h('p', {class: 'small'}, moves || t('no_money_moved')), balancesTable(ctx, steps[i]));
    if (chart) chart.redraw();
  };
  // The statistics as of the step shown, asked once the slider settles (not at every pixel).
  const statsBox = h('section', {class: 'card'});
  const showStats = () => replace(statsBox, statsSection(ctx, {seq: steps[current].seq}));
  const go = (i) => {
    slider.value = String(Math.min(last, Math.max(0, i)));
    show(Number(slider.value));
    showStats();
  };
  const prev = h('button', {type: 'button', class: 'secondary', 'aria-label': t('previous_step'), onclick: () => go(current - 1)}, '◀');
  const next = h('button', {type: 'button', class: 'secondary', 'aria-label': t('next_step'), onclick: () => go(current + 1)}, '▶');
  slider.addEventListener('input', () => show(Number(slider.value)));
  slider.addEventListener('change', showStats);
  replace(main, h('section', {class: 'card replay'}, h('h1', {}, t('nav_replay')),
    field(t('timeline'), slider), h('div', {class: 'row'}, prev, stepLabel, next), table),
  h('section', {class: 'card'}, h('h2', {}, t('net_worth_over_time')), chartBox), statsBox);
  show(last);
  showStats();
  chart = await netWorthChart(ctx, steps, chartBox, () => steps[current].seq, stale);
}

/** Every account's cash and net worth at one step. */
function balancesTable(ctx, step) {
  return h('table', {class: 'balances'},
    h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('account')), h('th', {scope: 'col', class: 'num'}, t('cash')),
      h('th', {scope: 'col', class: 'num'}, t('net_worth_column')))),
    h('tbody', {}, Object.entries(step.balances).map(([acc, bal]) => h('tr', {class: ctx.playerClass(acc), dataset: {account: acc}},
      h('th', {scope: 'row'}, ctx.name(acc)),
      h('td', {class: 'num', dataset: {testid: `replay-cash-${acc}`}}, ctx.money(bal)),
      h('td', {class: 'num'}, step.net_worths[acc] === undefined ? '' : ctx.money(step.net_worths[acc]))))));
}

/**
 * The players' net worth over the steps in `box`, drawn by uPlot, a dashed line at the step
 * shown (`seqShown()`); drawn again in a new theme's colours and at a new width. Resolves to
 * what draws the step's line again ({redraw()}), or null (the banker went elsewhere, or uPlot
 * could not load: said in the box).
 */
async function netWorthChart(ctx, steps, box, seqShown, stale) {
  let chart = null;
  try {
    const UPlot = await loadUplot();
    if (stale()) return null;
    const data = [steps.map((s) => s.seq), ...ctx.players.map((p) => steps.map((s) => s.net_worths[p.id] ?? null))];
    const width = () => Math.max(280, box.clientWidth || 320);
    const draw = () => {
      if (chart) chart.destroy();
      chart = new UPlot(chartOptions(ctx, width(), seqShown), data, box);
    };
    draw();
    redrawChart = () => { if (box.isConnected) draw(); };
    if (onResize) window.removeEventListener('resize', onResize);
    onResize = () => { if (box.isConnected) chart.setSize({width: width(), height: 260}); };
    window.addEventListener('resize', onResize);
    return {redraw: () => chart.redraw(false, false)};
  } catch {
    replace(box, h('p', {class: 'muted'}, t('chart_failed')));
    return null;
  }
}

/** uPlot's options for the chart: its size, the step's line, and axes and series in the theme's
 * colours, the console's numbers and money. */
function chartOptions(ctx, width, seqShown) {
  const ink = colour('ink');
  const grid = {stroke: colour('line')};
  const ticks = {stroke: colour('line')};
  const fmt = new Intl.NumberFormat(locale());
  const shown = (v, said) => (v === null || v === undefined ? '—' : said(v));
  return {
    width,
    height: 260,
    plugins: [stepLine(seqShown)],
    scales: {x: {time: false}},
    // A transaction's number as the console writes it everywhere (#1041), never in uPlot's own
    // format of the browser's language; a tick between two transactions has none.
    axes: [{label: '#', stroke: ink, grid, ticks, values: (u, vals) => vals.map((v) => (Number.isInteger(v) ? `${v}` : ''))},
      {values: (u, vals) => vals.map((v) => fmt.format(v)), size: 60, stroke: ink, grid, ticks}],
    series: [{label: '#', value: (u, v) => shown(v, (x) => `#${x}`)},
      ...ctx.players.map((p, i) => ({label: p.name, stroke: playerColour(i), width: 2, value: (u, v) => shown(v, (x) => ctx.money(x))}))],
  };
}

/** A uPlot plugin drawing a dashed line at the step shown. */
function stepLine(seqShown) {
  return {hooks: {draw: [(u) => {
    const x = Math.round(u.valToPos(seqShown(), 'x', true));
    const c = u.ctx;
    c.save();
    c.strokeStyle = colour('ink');
    c.lineWidth = 2;
    c.setLineDash([4, 4]);
    c.beginPath();
    c.moveTo(x, u.bbox.top);
    c.lineTo(x, u.bbox.top + u.bbox.height);
    c.stroke();
    c.restore();
  }]}};
}
