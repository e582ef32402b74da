// Figures the console shows before the banker confirms: the rent a deed will charge, both
// income-tax figures, the legal building moves of a group, mortgage costs. They are read off
// the rule set and the game state the server sent, with the ledger's own rounding (half up);
// the server computes again when it records, and its `basis` is what the log keeps.

import {lang, currencyLabel} from './i18n.js';

export function roundHalfUp(numerator, denominator) {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

export function percent(amount, pct) {
  return roundHalfUp(amount * pct, 100);
}

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
    this.elite = this.params.variant === 'millionaire-elite';
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
  hbh() { return Number(this.params.houses_before_hotel || 4); }
  maxHouses() { return Number(this.params.max_houses || 4); }

  /** A street's building level: houses, or a hotel as one more than the houses it needs. */
  level(prop) { return prop.hotel ? this.hbh() + 1 : prop.houses; }

  holdsGroup(state, deedId, owner) {
    return this.group(deedId).every((d) => state.properties[d.id].owner === owner);
  }

  groupMortgaged(state, deedId) {
    return this.group(deedId).some((d) => state.properties[d.id].mortgaged);
  }

  groupBuilt(state, deedId) {
    return this.group(deedId).some((d) => state.properties[d.id].houses || state.properties[d.id].hotel);
  }

  mortgageValue(deed) { return deed.mortgage_value ?? null; }

  /** What lifting a mortgage costs: its value plus the interest (10 % of value or price). */
  unmortgageCost(deed) {
    if (deed.mortgage_value === null || deed.mortgage_value === undefined) return null;
    const base = this.params.mortgage_interest_base === 'price' ? deed.price : deed.mortgage_value;
    if (base === null || base === undefined) return null;
    return deed.mortgage_value + percent(base, Number(this.params.mortgage_interest_percent || 10));
  }

  /** The fee a receiver of a mortgaged deed pays at once (the interest alone). */
  mortgageFee(deed) {
    const base = this.params.mortgage_interest_base === 'price' ? deed.price : deed.mortgage_value;
    return base === null || base === undefined ? null : percent(base, Number(this.params.mortgage_interest_percent || 10));
  }

  /**
   * The rent a deed would charge now: {amount, lines, needsDice, noRent}. `amount` is null
   * when the rule set prints no figure (the banker enters it).
   */
  rent(state, deedId, {dice = null, multiplier = 1} = {}) {
    const deed = this.byId.get(deedId);
    const prop = state.properties[deedId];
    const out = {amount: null, lines: [], needsDice: false, noRent: null, owner: prop.owner};
    if (prop.owner === 'bank') { out.noRent = 'not_owned'; return out; }
    if (prop.mortgaged) { out.noRent = 'mortgaged'; return out; }
    let base = null;
    if (deed.kind === 'railroad' && (this.params.railroad_rents || []).length) {
      const held = this.group(deedId).filter((d) => state.properties[d.id].owner === prop.owner).length;
      base = this.params.railroad_rents[held - 1];
      out.lines.push(['railroads_held', held]);
    } else if (deed.kind === 'utility' && (this.params.utility_multipliers || []).length) {
      const held = this.group(deedId).filter((d) => state.properties[d.id].owner === prop.owner).length;
      const factor = this.params.utility_multipliers[held - 1];
      out.needsDice = true;
      out.lines.push(['utilities_held', held], ['factor', factor]);
      if (dice) { base = factor * dice; out.lines.push(['dice', dice]); }
    } else if (Array.isArray(deed.rents) && deed.rents.length) {
      const monopoly = this.holdsGroup(state, deedId, prop.owner) && !this.groupMortgaged(state, deedId);
      if (prop.hotel) { base = deed.rents[deed.rents.length - 1]; out.lines.push(['hotel', 1]); }
      else if (prop.houses) { base = deed.rents[prop.houses]; out.lines.push(['houses', prop.houses]); }
      else { base = deed.rents[0] * (monopoly ? 2 : 1); out.lines.push(['monopoly', monopoly]); }
    }
    if (base === null || base === undefined) return out;
    out.lines.push(['base_rent', base]);
    if (multiplier > 1) out.lines.push(['multiplier', multiplier]);
    out.amount = base * multiplier;
    return out;
  }

  buildingsCost(deed, prop) {
    if (prop.hotel) return (deed.hotel_price || 0) + this.hbh() * (deed.house_price || 0);
    return prop.houses * (deed.house_price || 0);
  }

  /** The income-tax base: cash + every deed at printed price (mortgaged too) + buildings. */
  totalWorth(state, player) {
    let worth = state.balances[player];
    for (const [id, prop] of Object.entries(state.properties)) {
      if (prop.owner !== player) continue;
      const deed = this.byId.get(id);
      worth += (deed.price || 0) + this.buildingsCost(deed, prop);
    }
    return worth;
  }

  /** Income tax both ways: {flat, percent, pct, worth, allowed: ['flat', 'percent']}. */
  incomeTax(state, player, options = {}) {
    const flat = Number(this.params.income_tax_flat || 0);
    const pct = Number(this.params.income_tax_percent || 0);
    const worth = this.totalWorth(state, player);
    const mode = options.income_tax || 'choice';
    const allowed = mode === 'choice' ? ['flat', 'percent'] : [mode];
    return {flat, pct, worth, percent: percent(worth, pct), allowed};
  }

  luxuryTax(options = {}) {
    return Number(options.luxury_tax ?? this.params.luxury_tax ?? 0);
  }

  /** Buildable groups a player holds whole, with none of it mortgaged. */
  buildableGroups(state, player) {
    const out = [];
    for (const [group, deeds] of this.groups) {
      if (!deeds.every((d) => this.buildable(d))) continue;
      if (!deeds.every((d) => state.properties[d.id].owner === player)) continue;
      out.push({group, deeds, mortgaged: deeds.some((d) => state.properties[d.id].mortgaged)});
    }
    return out;
  }

  /**
   * The legal one-step moves on a group: builds and sales that leave it even, within the
   * limits and the Bank's supply. Each move is {kind, orders, amount, deed}.
   */
  groupMoves(state, group) {
    const deeds = this.groups.get(group);
    const props = deeds.map((d) => state.properties[d.id]);
    const levels = props.map((p) => this.level(p));
    const even = (ls) => Math.max(...ls) - Math.min(...ls) <= 1;
    const supply = state.bank || {};
    const housesLeft = supply.houses === null || supply.houses === undefined ? Infinity : supply.houses;
    const hotelsLeft = supply.hotels === null || supply.hotels === undefined ? Infinity : supply.hotels;
    const hbh = this.hbh();
    const moves = {build: [], sell: []};
    const mortgaged = props.some((p) => p.mortgaged);
    deeds.forEach((deed, i) => {
      const p = props[i];
      const after = (level) => levels.map((l, j) => (j === i ? level : l));
      if (!mortgaged && !p.hotel && p.houses < this.maxHouses() && housesLeft >= 1 && even(after(levels[i] + 1))) {
        moves.build.push({kind: 'house', deed, orders: [{property: deed.id, houses: 1}], amount: deed.house_price || 0});
      }
      if (!mortgaged && !p.hotel && p.houses === hbh && hotelsLeft >= 1 && even(after(hbh + 1))) {
        moves.build.push({kind: 'hotel', deed, orders: [{property: deed.id, hotel: true}], amount: deed.hotel_price || 0});
      }
      if (p.houses > 0 && even(after(levels[i] - 1))) {
        moves.sell.push({kind: 'house', deed, orders: [{property: deed.id, houses: 1}], amount: roundHalfUp(deed.house_price || 0, 2)});
      }
      if (p.hotel) {
        if (housesLeft >= hbh && even(after(hbh))) {
          moves.sell.push({kind: 'break_down', deed, orders: [{property: deed.id, hotel: true, break_down: true}], amount: roundHalfUp(deed.hotel_price || 0, 2)});
        }
        if (even(after(0))) {
          moves.sell.push({kind: 'hotel', deed, orders: [{property: deed.id, hotel: true}], amount: roundHalfUp(deed.hotel_price || 0, 2) + hbh * roundHalfUp(deed.house_price || 0, 2)});
        }
      }
    });
    // One house on every street at the lowest level: the usual "build evenly" tap.
    const low = Math.min(...levels);
    const lowStreets = deeds.filter((_, i) => levels[i] === low && !props[i].hotel && props[i].houses < this.maxHouses());
    if (!mortgaged && lowStreets.length > 1 && lowStreets.length <= housesLeft
        && even(levels.map((l, i) => (lowStreets.includes(deeds[i]) ? l + 1 : l)))) {
      moves.build.push({kind: 'row', deeds: lowStreets, orders: lowStreets.map((d) => ({property: d.id, houses: 1})),
        amount: lowStreets.reduce((s, d) => s + (d.house_price || 0), 0)});
    }
    // Everything on the group sold at once (to mortgage it, or to raise cash).
    const built = deeds.filter((_, i) => props[i].houses || props[i].hotel);
    if (built.length) {
      const orders = built.map((d) => {
        const p = state.properties[d.id];
        return p.hotel ? {property: d.id, hotel: true} : {property: d.id, houses: p.houses};
      });
      const amount = built.reduce((s, d) => {
        const p = state.properties[d.id];
        return s + (p.hotel ? roundHalfUp(d.hotel_price || 0, 2) + hbh * roundHalfUp(d.house_price || 0, 2)
          : p.houses * roundHalfUp(d.house_price || 0, 2));
      }, 0);
      moves.sell.push({kind: 'all', deeds: built, orders, amount});
    }
    return moves;
  }

  /** House and hotel counts on a player's streets (for repairs cards). */
  buildingsOf(state, player) {
    let houses = 0;
    let hotels = 0;
    for (const prop of Object.values(state.properties)) {
      if (prop.owner !== player) continue;
      houses += prop.houses;
      hotels += prop.hotel ? 1 : 0;
    }
    return {houses, hotels};
  }

  deedsOf(state, owner) {
    return this.deeds.filter((d) => state.properties[d.id] && state.properties[d.id].owner === owner);
  }
}

/**
 * Millionaire Elite's round income on passing START: the salary plus share_income_percent of
 * the current value of the player's shares (docs/rules.md: 200 + 20 %), rounded half up.
 */
export function roundIncome(params, shares, price) {
  return Number(params.salary || 0) + percent(shares * price, Number(params.share_income_percent || 0));
}

/** Colour class of a deed group: the board's colours, or a palette for other boards. */
export function groupClass(board, group) {
  const known = ['brown', 'light-blue', 'pink', 'orange', 'red', 'yellow', 'green', 'dark-blue', 'railroad', 'utility', 'central'];
  if (known.includes(group)) return `g-${group}`;
  return `g-x${(board.groupIndex.get(group) || 0) % 10}`;
}

/**
 * What some states do not carry, read from the log's changes (each carries the value it left
 * behind, and a void the values it restored): shares and the share price, insurance policies,
 * and figures the banker entered for deeds the rule set prints none for (Millionaire Elite).
 */
export function fromLog(transactions) {
  const shares = {};
  const policies = {};
  const figures = {};
  let sharePrice = null;
  for (const txn of transactions) {
    for (const c of txn.changes || []) {
      if (c.kind === 'shares') shares[c.player] = c.to;
      else if (c.kind === 'share_price') sharePrice = c.to;
      else if (c.kind === 'policy') {
        const held = new Set(policies[c.player] || []);
        if (c.to) held.add(c.policy); else held.delete(c.policy);
        policies[c.player] = [...held].sort();
      } else if (c.kind === 'figure') {
        figures[c.property] = {...(figures[c.property] || {}), [c.field]: c.to};
      }
    }
  }
  return {shares, policies, figures, sharePrice};
}
