// "Your own box" on the new-game screen (API.md v1.3, "Players and boxes"): the rule set chosen
// above is the one to start from; its money figures and its currency's label can be changed,
// and the game is created with a `ruleset_document` that `extends` it. Its fields are those of
// the parameters as the server publishes them (GET /api/v1/parameters: the money ones, `kind`
// "amount", that the rule set's variant reads), filled with the rule set's own values. The
// console checks no figure: a value the server refuses is shown beside its field, in the
// reader's words (the bounds are the published ones), and nothing is created.

import {h, replace, field, numberInput} from './dom.js';
import {t, number, currencyLabel, rulesetTitle} from './i18n.js';

let published = null; // GET /api/v1/parameters, asked once per page

/** The parameters as the server publishes them, asked once. */
export async function loadParameters(api) {
  if (!published) published = (await api.parameters()).parameters;
  return published;
}

/**
 * The section: a switch, then the chosen rule set's money fields. `draw(rs)` builds them for a
 * rule set (on a change of rule set, the new one's values); `toSend(rs)` is the document to
 * send, or null while the switch is off; `showRefusal(err)` puts each refused figure beside its
 * field and says whether every problem of the refusal found one.
 */
export function ownBox(parameters) {
  const on = h('input', {type: 'checkbox', id: 'own-box', name: 'own_box', 'aria-describedby': 'own-box-hint'});
  const fieldsBox = h('fieldset', {hidden: true});
  const inputs = new Map(); // parameter name (or 'currency') -> its input
  let currencyShown = '';
  const section = h('div', {class: 'own-box'},
    h('div', {class: 'check'}, on, h('label', {for: on.id}, t('box_own'))),
    h('small', {class: 'muted block', id: 'own-box-hint'}, t('box_own_hint')),
    fieldsBox);
  on.addEventListener('change', () => { fieldsBox.hidden = !on.checked; });
  const draw = (rs) => {
    currencyShown = currencyLabel(rs.currency);
    replace(fieldsBox, ...boxFields(rs, moneyOf(parameters, rs), inputs, currencyShown));
  };
  const toSend = (rs) => {
    if (!on.checked) return null;
    clearNotes(inputs);
    const params = {};
    for (const p of moneyOf(parameters, rs)) {
      const text = inputs.get(p.name).value.trim();
      // Left empty or not a number: sent as it is (null), and the server says what it takes.
      params[p.name] = text === '' || Number.isNaN(Number(text)) ? null : Number(text);
    }
    const doc = {name: `own-${rs.name}`, extends: rs.name, title: t('box_title', {base: rulesetTitle(rs.name, rs.title)}), parameters: params};
    const label = inputs.get('currency').value.trim();
    // Unchanged (or emptied): the rule set's own currency stays, by language if it has them.
    if (label && label !== currencyShown) doc.currency = label;
    return doc;
  };
  const showRefusal = (err) => placeRefusal(err, parameters, inputs, fieldsBox);
  return {section, draw, toSend, showRefusal};
}

/** The money parameters of a rule set's variant the box offers. A figure that is also the
 * default of one of the rule set's options (the luxury tax) is asked once, among the house
 * rules: two fields of one tax, one of them charged, confuse. */
function moneyOf(parameters, rs) {
  const variant = rs.parameters.variant ?? (parameters.find((p) => p.name === 'variant') || {}).default;
  return parameters.filter((p) => p.kind === 'amount' && p.variants.includes(variant) && !(p.name in (rs.options || {})));
}

/** The box's legend and fields for a rule set: a figure per money parameter, filled with the
 * rule set's value, and the currency's label (`inputs` filled anew, by name). */
function boxFields(rs, money, inputs, currencyShown) {
  inputs.clear();
  const rows = money.map((p) => {
    const value = rs.parameters[p.name] ?? p.default;
    const input = numberInput({name: p.name, value: value ?? '', min: p.min, max: p.max});
    inputs.set(p.name, input);
    return field(t(`pm_${p.name}`, {}, p.name), input);
  });
  const currency = h('input', {type: 'text', name: 'currency', value: currencyShown, autocomplete: 'off'});
  inputs.set('currency', currency);
  return [h('legend', {}, t('box_figures', {base: rulesetTitle(rs.name, rs.title)})),
    ...rows, field(t('pm_currency'), currency, t('pm_currency_hint'))];
}

/** Each problem of a refusal beside the field it names, in the reader's words, the first
 * focused; whether every problem found its field. */
function placeRefusal(err, parameters, inputs, fieldsBox) {
  const errors = (err.body && err.body.errors) || {};
  let placed = 0;
  let missed = 0;
  for (const [key, messages] of Object.entries(errors)) {
    for (const message of [].concat(messages)) {
      const name = fieldOf(key, message);
      if (name && inputs.has(name)) {
        say(inputs.get(name), name, words(parameters, name, message));
        placed += 1;
      } else missed += 1;
    }
  }
  const first = fieldsBox.querySelector('[aria-invalid="true"]');
  if (first) first.focus();
  return placed > 0 && missed === 0;
}

/** The field a problem of the server names: `ruleset_document.parameters.<name>` or
 * `ruleset_document.currency` (the request's schema), `parameters.<name>: …` or
 * `currency…: …` (the ledger's sentences under `ruleset_document`). */
function fieldOf(key, message) {
  let m = key.match(/^ruleset_document\.(parameters\.(\w+)|currency)\b/);
  if (m) return m[2] || 'currency';
  if (key !== 'ruleset_document') return null;
  m = String(message).match(/^(parameters\.(\w+)|currency)\b/);
  return m ? m[2] || 'currency' : null;
}

/** A refusal's words under the input of field `name`, the input marked invalid. */
function say(input, name, message) {
  const box = input.parentElement;
  let note = box.querySelector(':scope > .field-error');
  if (!note) {
    note = h('p', {class: 'field-error', id: `box-error-${name}`, 'aria-live': 'polite', dataset: {testid: `box-error-${name}`}});
    box.append(note);
  }
  note.textContent = message;
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-errormessage', note.id);
}

/** What a refused figure takes, in the reader's words: the currency's longest label, or the
 * parameter's published bounds. */
function words(parameters, name, message) {
  if (name === 'currency') {
    const most = String(message).match(/\d+/);
    return most ? t('box_currency_long', {max: number(Number(most[0]))}) : t('box_currency_bad');
  }
  const p = parameters.find((x) => x.name === name);
  return t('box_whole', {min: number(p.min), max: number(p.max)});
}

/** The refusals said under the fields taken away again. */
function clearNotes(inputs) {
  for (const input of inputs.values()) {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-errormessage');
    const note = input.parentElement && input.parentElement.querySelector(':scope > .field-error');
    if (note) note.remove();
  }
}
