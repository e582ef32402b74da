// Statistics (API.md v1.2 "Statistics of a game"; GET …/stats, docs/api.md "Statistics"): per
// player what came in and went out by kind and the best net worth reached, per deed the rent it
// collected against what its owner paid, with a chart of those two per deed (js/chart.js). A
// finished game's table shows them under the standings, the replay as of the step shown. Every
// figure and every row is the server's: the console adds, compares and counts nothing; the rows
// of a player are the fields of the server's answer, in its order.

import {h, replace} from './dom.js';
import {t, locale} from './i18n.js';
import {problemView} from './views.js';
import {loadUplot} from './chart.js';
import {colour, onThemeChange} from './theme.js';

// The chart on screen, drawn again in the colours of a theme that came into force meanwhile.
let redrawChart = null;
onThemeChange(() => { if (redrawChart) redrawChart(); });
const KEPT = 30; // the answers a page keeps (a replay asks one per step shown)
const BAR = 30; // px of chart a deed takes

/** The statistics of the game now (seq null) or as of a seq: asked once for each. */
function statsOf(ctx, seq) {
  const key = `${ctx.id} ${seq ?? `now ${ctx.game.last_seq}`}`;
  ctx.statsAnswers = ctx.statsAnswers || new Map();
  const answers = ctx.statsAnswers;
  let asked = answers.get(key);
  if (!asked) {
    asked = ctx.api.stats(ctx.id, seq);
    answers.set(key, asked);
    asked.catch(() => { if (answers.get(key) === asked) answers.delete(key); });
    if (answers.size > KEPT) answers.delete(answers.keys().next().value);
  }
  return asked;
}

/** The players' figures: one row per figure of the answer, one column per player. */
function playersTable(ctx, players) {
  const figures = Object.keys(players[0] || {}).filter((k) => k !== 'player' && k !== 'peak_seq');
  const cell = (row, figure) => {
    const shown = [ctx.money(row[figure])];
    if (figure === 'peak_net_worth') shown.push(h('span', {class: 'small muted peak-at'}, ` ${t('st_at_seq', {seq: row.peak_seq})}`));
    return h('td', {class: 'num', dataset: {testid: `stats-${figure}-${row.player}`}}, ...shown);
  };
  return sideways(h('table', {class: 'balances stats-players'},
    h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, h('span', {class: 'sr-only'}, t('st_figure'))),
      players.map((row) => h('th', {scope: 'col', class: `num ${ctx.playerClass(row.player)}`}, ctx.name(row.player))))),
    h('tbody', {}, figures.map((figure) => h('tr', {},
      h('th', {scope: 'row'}, t(`st_${figure}`, {}, figure.replaceAll('_', ' '))),
      players.map((row) => cell(row, figure)))))));
}

/** A table wider than the screen (four players on a phone), in a box that scrolls sideways
 * and says so: a line over it while some of it is out of view, and a fade on the side where
 * more is (the names of the figures stay put at the left). */
function sideways(table) {
  const box = h('div', {class: 'table-scroll'}, table);
  const frame = h('div', {class: 'scroll-frame'}, box);
  const more = h('p', {class: 'small muted scroll-more', hidden: true, dataset: {testid: 'stats-more'}}, t('st_more_players'));
  const mark = () => {
    const rest = box.scrollWidth - box.clientWidth - box.scrollLeft;
    frame.classList.toggle('more-right', rest > 1);
    more.hidden = box.scrollWidth <= box.clientWidth + 1;
  };
  box.addEventListener('scroll', mark, {passive: true});
  new ResizeObserver(mark).observe(box);
  return h('div', {}, more, frame);
}

/** The deeds a player holds or that collected rent, as the server lists them (board order). */
function deedsShown(deeds) {
  return deeds.filter((d) => d.owner !== 'bank' || d.rent_count > 0);
}

/** The deeds as a table: who holds each, the price paid, the rent collected and how often. */
function deedsTable(ctx, deeds) {
  return h('div', {class: 'table-scroll'}, h('table', {class: 'balances stats-deeds'},
    h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('st_deed')), h('th', {scope: 'col', class: 'num'}, t('st_price_paid')),
      h('th', {scope: 'col', class: 'num'}, t('st_rent_collected')), h('th', {scope: 'col', class: 'num'}, t('st_rent_count')))),
    h('tbody', {}, deeds.map((d) => h('tr', {class: ctx.playerClass(d.owner), dataset: {testid: `stats-deed-${d.property}`}},
      h('th', {scope: 'row'}, ctx.deedName(d.property), h('br'), h('span', {class: 'small muted'}, ctx.name(d.owner))),
      h('td', {class: 'num', dataset: {testid: 'price-paid'}}, d.price_paid === null ? h('span', {class: 'muted'}, t('st_not_bought')) : ctx.money(d.price_paid)),
      h('td', {class: 'num', dataset: {testid: 'rent-collected'}}, ctx.money(d.rent_collected)),
      h('td', {class: 'num', dataset: {testid: 'rent-count'}}, String(d.rent_count)))))));
}

/** Rent collected against price paid, one pair of bars per deed (uPlot, bars across). */
async function drawDeeds(ctx, box, deeds) {
  const UPlot = await loadUplot();
  // The bars in the theme's colours (rent collected: a gain's; the price paid: muted), the
  // axes in its ink and lines.
  const rent = colour('ok-mark');
  const price = colour('muted');
  const axis = {stroke: colour('ink'), grid: {stroke: colour('line')}, ticks: {stroke: colour('line')}};
  const fmt = new Intl.NumberFormat(locale());
  const width = () => Math.max(260, box.clientWidth || 320);
  const height = 70 + BAR * deeds.length;
  const names = deeds.map((d) => ctx.deedName(d.property));
  const bars = (align) => UPlot.paths.bars({size: [0.45, 40], align});
  // The deeds' names beside their bars, as wide as the longest (as uPlot's own demo measures
  // them), but never more than half the chart.
  const widest = () => width() / 2;
  // A name longer than that ends in an ellipsis on the chart (the table under it names it whole).
  const fitted = (u, name) => {
    u.ctx.font = u.axes[0].font[0];
    const room = (widest() - 24) * devicePixelRatio;
    if (u.ctx.measureText(name).width <= room) return name;
    let cut = name;
    while (cut.length > 1 && u.ctx.measureText(`${cut}…`).width > room) cut = cut.slice(0, -1);
    return `${cut.trimEnd()}…`;
  };
  const labelsWidth = (u, values, axisIdx, cycleNum) => {
    const axis = u.axes[axisIdx];
    if (cycleNum > 1) return axis._size;
    const longest = (values || []).reduce((a, b) => (String(b).length > a.length ? String(b) : a), '');
    u.ctx.font = axis.font[0];
    const text = u.ctx.measureText(longest).width / devicePixelRatio;
    return Math.ceil(Math.min(text + axis.ticks.size + axis.gap + 4, widest()));
  };
  const chart = new UPlot({
    width: width(),
    height,
    scales: {x: {time: false, ori: 1, dir: -1, range: [-0.5, deeds.length - 0.5]}, y: {ori: 0, range: (u, min, max) => [0, Math.max(1, max)]}},
    axes: [
      {...axis, side: 3, size: labelsWidth, gap: 4, splits: () => deeds.map((_, i) => i), grid: {show: false},
        values: (u, splits) => splits.map((i) => fitted(u, names[i] ?? ''))},
      {...axis, side: 0, values: (u, vals) => vals.map((v) => fmt.format(v)), size: 30},
    ],
    legend: {live: false},
    cursor: {show: false},
    series: [
      {label: t('st_deed'), value: (u, i) => names[i] ?? ''},
      {label: t('st_rent_collected'), fill: rent, stroke: rent, width: 0, paths: bars(-1), points: {show: false}},
      {label: t('st_price_paid'), fill: price, stroke: price, width: 0, paths: bars(1), points: {show: false}},
    ],
  }, [deeds.map((_, i) => i), deeds.map((d) => d.rent_collected), deeds.map((d) => d.price_paid)], box);
  const resize = () => { if (box.isConnected) chart.setSize({width: width(), height}); else window.removeEventListener('resize', resize); };
  window.addEventListener('resize', resize);
  redrawChart = () => {
    if (!box.isConnected) return;
    window.removeEventListener('resize', resize);
    chart.destroy();
    drawDeeds(ctx, box, deeds);
  };
}

/** The answer of …/stats, in tables and a chart. */
export function statsView(ctx, answer) {
  const deeds = deedsShown(answer.deeds || []);
  const chartBox = h('div', {class: 'chart stats-chart', role: 'img', 'aria-label': t('st_chart_label')});
  const out = [playersTable(ctx, answer.players || []), h('h3', {}, t('st_deeds'))];
  if (!deeds.length) return [...out, h('p', {class: 'muted', dataset: {testid: 'stats-no-deeds'}}, t('st_no_deeds'))];
  out.push(h('p', {class: 'small muted'}, t('st_chart_title')), chartBox, deedsTable(ctx, deeds));
  drawDeeds(ctx, chartBox, deeds).catch(() => replace(chartBox, h('p', {class: 'muted'}, t('chart_failed'))));
  return out;
}

/** A section that fills itself with the game's statistics, now or as of `seq`.
 * @param {*} ctx
 * @param {{seq?: number|null}} [options]
 */
export function statsSection(ctx, {seq = null} = {}) {
  const slot = h('div', {class: 'stats-slot', 'aria-live': 'polite'}, h('p', {class: 'muted small'}, t('loading')));
  statsOf(ctx, seq).then((answer) => replace(slot, ...statsView(ctx, answer)))
    .catch((err) => replace(slot, problemView(ctx, err)));
  const asOf = seq === null ? null : h('p', {class: 'small muted', dataset: {testid: 'stats-as-of'}}, t('st_as_of', {seq}));
  return h('section', {class: 'stats', 'aria-labelledby': `stats-h${seq ?? ''}`, dataset: {testid: 'stats'}},
    h('h2', {id: `stats-h${seq ?? ''}`}, t('st_title')), h('p', {class: 'muted small'}, t('st_intro')), asOf, slot);
}
