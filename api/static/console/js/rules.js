// The rule set as the console reads it: the deeds in board order with their names in the
// page's language, the colour groups, the figures printed on the deeds, the currency. It
// computes no rule: every amount a screen shows (rent, taxes, mortgages, buildings, what a
// player could raise) is the server's answer, asked with a dry run (quote.js), and what a deed
// is (its mortgage value, whether it carries buildings) is the rule set's answer.

import {lang, currencyLabel, t} from './i18n.js';

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

  /** A deed of the rule set by its id. */
  deed(id) { return this.byId.get(id); }
  /** A deed's name by its id in the page's language; the id itself for no deed of the rule set. */
  name(id) { const d = this.byId.get(id); return d ? d.name : id; }

  /** A deed's name in the page's language (the rule set's `names`), else its printed name;
   * a deed printed as its id alone (Millionaire Elite's plots `b3-2`, `central-1`: the box
   * names none) by its group and number, "Branch 3, plot 2". */
  localName(deed) {
    const names = (this.rs.names || {})[lang()];
    if (names && Object.hasOwn(names, deed.id) && names[deed.id]) return names[deed.id];
    return deed.printed === deed.id ? numberedName(deed) : deed.printed;
  }

  /** What the figures count, in the page's language: a currency by language gives its entry
   * for the language, else the English one, else the first. */
  currency() { return currencyLabel(this.rs.currency); }
  /** The deeds of the group a deed is in, in board order. */
  group(id) { return this.groups.get(this.byId.get(id).group); }
  /** Whether the deed carries houses and hotels, as the server says it (a rule set's answer). */
  buildable(deed) { return Boolean(deed.buildable); }

  /** The deeds `owner` holds in a game's state, in board order. */
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

/** A deed the rule set names by its id alone, `<group>-<n>`, in the reader's words: a plot
 * of a numbered branch ("b3" -> "Branch 3, plot 2"), or of another group ("Central plot 1"),
 * by the dictionary's `dn_<kind>`; the id itself where it has no such form. */
function numberedName(deed) {
  const own = /^(.*?)-(\d+)$/.exec(deed.id);
  if (!own || own[1] !== deed.group) return deed.id;
  const branch = /^[a-z]+(\d+)$/.exec(deed.group);
  if (branch) return t('dn_branch_plot', {branch: branch[1], n: own[2]});
  return t(`dn_${deed.kind}`, {n: own[2]}, deed.id);
}
