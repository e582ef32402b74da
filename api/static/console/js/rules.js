// The rule set as the console reads it: the deeds in board order with their names in the
// page's language, the colour groups, the figures printed on the deeds, the currency. It
// computes no rule: every amount a screen shows (rent, taxes, mortgages, buildings, what a
// player could raise) is the server's answer, asked with a dry run (quote.js).

import {lang, currencyLabel} from './i18n.js';

/** Everything the console needs to know about a rule set, indexed once. */
export class Board {
  constructor(ruleset) {
    this.rs = ruleset;
    this.params = ruleset.parameters || {};
    // Each deed's `name` is read in the language of the page when it is shown, so that every
    // screen drawn again after a change of language shows the new names; `printed` keeps the
    // rule set's own.
    this.deeds = [...ruleset.deeds].sort((a, b) => a.position - b.position).map((raw) => {
      const deed = {...raw, printed: raw.name};
      Object.defineProperty(deed, 'name', {enumerable: true, get: () => this.localName(deed)});
      return deed;
    });
    this.byId = new Map(this.deeds.map((d) => [d.id, d]));
    // Colour groups in board order, then railroads, utilities and other non-street groups.
    const streetsFirst = [...this.deeds].sort((a, b) => (this.buildable(a) ? 0 : 1) - (this.buildable(b) ? 0 : 1) || a.position - b.position);
    this.groups = new Map();
    for (const d of streetsFirst) {
      if (!this.groups.has(d.group)) this.groups.set(d.group, []);
      this.groups.get(d.group).push(d);
    }
    this.groupIndex = new Map([...this.groups.keys()].map((g, i) => [g, i]));
  }

  deed(id) { return this.byId.get(id); }
  name(id) { const d = this.byId.get(id); return d ? d.name : id; }

  /** A deed's name in the page's language (the rule set's `names`), else its printed name. */
  localName(deed) {
    const names = (this.rs.names || {})[lang()];
    return (names && Object.hasOwn(names, deed.id) && names[deed.id]) || deed.printed;
  }

  /** What the figures count, in the page's language: a currency by language gives its entry
   * for the language, else the English one, else the first. */
  currency() { return currencyLabel(this.rs.currency); }
  group(id) { return this.groups.get(this.byId.get(id).group); }
  buildable(deed) { return deed.house_price !== undefined && deed.kind !== 'railroad' && deed.kind !== 'utility' && deed.kind !== 'central'; }

  deedsOf(state, owner) {
    return this.deeds.filter((d) => state.properties[d.id] && state.properties[d.id].owner === owner);
  }
}

/** Colour class of a deed group: the board's colours, or a palette for other boards. */
export function groupClass(board, group) {
  const known = ['brown', 'light-blue', 'pink', 'orange', 'red', 'yellow', 'green', 'dark-blue', 'railroad', 'utility', 'central'];
  if (known.includes(group)) return `g-${group}`;
  return `g-x${(board.groupIndex.get(group) || 0) % 10}`;
}
