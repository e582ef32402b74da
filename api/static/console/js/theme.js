// The theme switch (auto, light, dark) beside the language menu, and what a script drawing in
// colours reads of the theme in force. Applying the theme is js/theme-boot.js's, which runs
// before the first paint, keeps the choice and applies it.

import {h} from './dom.js';
import {t} from './i18n.js';

const boot = window.tablebankTheme;

/** The switch for the top bar: a menu of the three choices, kept on this device. */
export function themeSwitch() {
  const id = 'theme-switch';
  const sel = h('select', {id, class: 'theme', dataset: {testid: 'theme-switch'}},
    boot.CHOICES.map((choice) => h('option', {value: choice}, t(`theme_${choice}`))));
  sel.value = boot.choice();
  sel.addEventListener('change', () => boot.choose(sel.value));
  return h('div', {class: 'theme-box'}, h('label', {for: id, class: 'sr-only'}, t('theme')), sel);
}

/** The theme in force, 'light' or 'dark'. */
export function theme() {
  return document.documentElement.dataset.theme || 'light';
}

/** `fn(theme)` each time the theme in force changes (the switch, or the device's scheme). */
export function onThemeChange(fn) {
  document.addEventListener('tablebank-theme', (event) => fn(/** @type {CustomEvent} */ (event).detail.theme));
}

/** The value of one of the stylesheet's custom properties (`ink`, `p1`, …) in the theme in force. */
export function colour(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(`--${name}`).trim();
}
