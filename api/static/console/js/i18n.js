// The console's languages (`LANGUAGES`): chosen from the browser's languages unless the
// user switched; amounts formatted per locale (Intl.NumberFormat) with the rule set's currency
// label. English is here, the others in their own dictionaries (js/i18n-<code>.js), each
// imported by name. (No import of dom.js: it imports this module.)

import * as store from './store.js';
import {ru} from './i18n-ru.js';
import {pl} from './i18n-pl.js';

export const en = {
  // navigation and screens
  sections: 'Sections', nav_table: 'Table', nav_players: 'Links & QR', nav_history: 'History', nav_replay: 'Replay',
  nav_pocket: 'Server & file',
  theme: 'Theme', theme_auto: 'Auto', theme_light: 'Light', theme_dark: 'Dark',
  language: 'Language', home_title: 'The bank of your board game',
  home_intro: 'Record every movement of money at the table; the players follow their own money on their phones.',
  home_intro_pocket: 'Record every movement of money at the table. The whole bank is on this device and works with no network.',
  new_game: 'New game', games_here: 'Games on this device', no_games_here: 'No games on this device yet.',
  forget: 'Forget', forget_confirm: 'Forget “{name}” on this device? The game stays on the server.',
  forget_confirm_pocket: 'Forget “{name}” on this device? Without its file, nobody can open it again.',
  open_banker_link: 'Continue on this device', open_banker_link_hint: 'Paste the banker link from the device that created the game.',
  banker_link: 'Banker link', banker_link_hint: 'Opens this game as banker on another device, with the players’ links. Keep it secret: it can record anything.',
  open: 'Open', back_home: 'Back to the start', something_wrong: 'Something went wrong',
  no_token_here: 'This device has no banker token for this game',
  no_token_hint: 'Open the banker link from the device that created it.',
  close: 'Close', skip_to_content: 'Skip to content',
  // shared devices (issue 20): a game forgotten on the banker's device, a player's link on a phone
  fg_title: 'Forget this game on this device',
  fg_hint: 'Only this device forgets it: its banker link, the players’ links and the table as last seen. The game and its log stay on the server, and another device with the banker link goes on as before. If no other device has the banker link, keep a copy first (Links & QR, Banker link): without it nobody can record in this game again.',
  fg_hint_pocket: 'This game is kept only on this device, in this browser. Once forgotten, it leaves the list: nobody can open it or record in it again. Its log stays in the browser’s storage, out of reach. To go on with it later or elsewhere, first download its file (Server & file, Keep this game).',
  fg_hint_moved: 'This copy was moved to a server, where the game goes on: forgetting it here changes nothing there.',
  fg_waiting: 'Moves made on this device that have not reached the server yet: {n}. Forgetting the game drops them: they will never be recorded.',
  fg_confirm: 'Forget the game', fg_drop: 'Forget it and drop the moves',
  fg_done: '“{name}” is forgotten on this device. It stays on the server.',
  fg_done_pocket: '“{name}” is forgotten on this device. Its file, if you kept one, opens it again as a new game.',
  dv_title: 'This device',
  dv_hint: 'This device keeps your link, so this page opens again by itself. On a phone others use too, tap “Forget this device” when you leave the table.',
  dv_forget: 'Forget this device', dv_forget_title: 'Forget this device?',
  dv_forget_text: 'This device will no longer keep {name}’s link to “{game}”: this page closes, and nobody can open your account here without the link. Your money and the game stay as they are.',
  dv_forget_yes: 'Forget', dv_forgotten_title: 'Forgotten on this device',
  dv_forgotten_text: 'This device no longer keeps {name}’s link to “{game}”.',
  dv_forgotten_text_short: 'This device no longer keeps {name}’s link to this game.',
  dv_come_back: 'To come back, open your link again or scan your QR code.',
  // live updates, the offline banner and the outbox (live.js, offline.js, outbox.js)
  net_offline: 'Offline: the server cannot be reached. This page keeps trying by itself.',
  net_reconnecting: 'Reconnecting to the server…',
  net_sending: 'Sending the moves that waited: {n} left.', net_waiting: 'Waiting to be sent: {n}.',
  net_last_seen: 'The table as last seen, at #{seq}.', waiting_for_server: 'Waiting for the server…',
  lv_paid: '{from} paid {to} {amount}',
  ob_title: 'Waiting to be sent', ob_intro: 'Moves made while the server could not be reached. They go in this order when it is back, each recorded once.',
  ob_kept_title: 'Kept in the outbox', ob_kept: 'Not sent yet: the move waits in the outbox and goes by itself when the server is back. It will be recorded once.',
  ob_already_waiting: 'This move is already waiting to be sent.', ob_waiting: 'waiting', ob_sending: 'sending…',
  ob_refused: 'Refused when it was sent:', ob_dismiss: 'Dismiss',
  c_iou_outstanding: 'IOU outstanding', c_iou_holder: 'IOU holder', c_built_this_turn: 'built this turn',
  loading: 'Loading…', ok: 'OK', yes: 'yes', no: 'no', all: 'All', more: 'More…',
  // new game
  game: 'Game', game_name: 'Name of the game', ruleset: 'Rule set', currency: 'currency',
  players_range: '{min} to {max} players', deals_deeds: '{deeds} dealt to each player at the start',
  players_in_order: 'Players, in seat order', player_n: 'Player {n}', add_player: 'Add a player',
  the_deal_legend: 'The deal: {deeds} each', deal_at_table: 'Dealt at the table: tap what each player got',
  deal_hint: 'Otherwise the server deals at random, and the table shows who got what: hand those deeds out.', dealt_to: 'Deeds dealt to {name}',
  remove_player: 'Remove this player', house_rules: 'House rules', create_game: 'Create the game',
  opt_free_parking_pot: 'Free Parking pot', opt_player_loans: 'Loans between players (IOUs)',
  opt_no_rent_in_jail: 'No rent while in jail', opt_keep_bankrupt_players: 'Bankrupt players stay seated',
  opt_one_house_per_turn: 'One house per turn', opt_income_tax: 'Income tax', opt_luxury_tax: 'Luxury tax',
  choice_choice: 'player’s choice: flat or %', choice_flat: 'flat only', choice_percent: 'percent only',
  rs_classic: 'Classic', rs_short: 'Short game', rs_timed: 'Timed game', 'rs_millionaire-elite': 'Millionaire Elite',
  // your own box (ownbox.js)
  box_own: 'Your own box', box_own_hint: 'Start from the rule set above and change its money to your box’s figures.',
  box_figures: 'Your box’s money, from {base}', box_title: '{base}: our own box',
  pm_starting_cash: 'Starting cash', pm_salary: 'Salary', pm_jail_fine: 'Jail fine', pm_luxury_tax: 'Luxury tax',
  pm_income_tax_flat: 'Income tax (flat)', pm_pot_seed: 'Jackpot at the start', pm_share_price: 'Share price at the start',
  pm_share_tax: 'Round tax per share', pm_share_point: 'One point on the exchange',
  pm_currency: 'Currency (its name or symbol)', pm_currency_hint: 'Left as it is, the rule set’s own stays.',
  box_whole: 'Enter a whole number from {min} to {max}.', box_currency_long: 'Too long: at most {max} characters.',
  box_currency_bad: 'Write the currency’s name or symbol.',
  box_fix: 'Some figures of your box were not accepted: see the note beside each one.',
  // links
  // a new link for a role (issue 31): a lost or shared phone
  new_link: 'New link',
  new_link_title: 'A new link for {name}?',
  new_link_text: 'For a lost or shared phone: {name}’s old link and QR code stop working at once, on every device. Then give {name} the new one.',
  new_link_confirm: 'Make a new link',
  new_link_made: 'New link for {name}: the old one no longer works.',
  new_link_failed: 'No new link was made: try again.',
  new_banker_link_text: 'For a lost or shared device: the old banker link stops working at once, everywhere. This device keeps working with the new one; copy it to your other devices.',
  link_replaced_title: 'This link was replaced',
  link_replaced_text: 'The banker made a new link for this seat, so this one no longer opens the game. Ask the banker for the new link or QR code.',
  banker_link_replaced_text: 'A new banker link for “{name}” was made on another device, so this device no longer opens the game. Open the new banker link here to go on.',
  players_links: 'Players’ links', links_intro: 'Each player scans their code (or opens their link) to follow their own money. A link is that player’s key: give it only to them.',
  pocket_no_links: 'This game is kept on this device: the players have no links, and their phones do not follow the table. To give them links, move the game to a tablebank server.', move_to_server: 'Move to a server', move_to_server_hint: 'Download the game’s file below, then open it on the start screen of the server’s console: the game goes on there, with links for the players. This copy stays here as it was.',
  move_here: 'Move to this server', moving: 'Moving the game…', move_failed: 'The server did not answer: the game stays here. Try again, or use the file.', moved_notice: 'Moved to the server: the game goes on there, and this copy stays here as it was.', open_on_server: 'Open it on the server', moved_badge: 'moved to the server',
  address_for_players: 'Address the players’ phones use', address_hint: 'Filled in with the server’s address on the table’s network. Change it if the phones cannot open their links.',
  to_the_table: 'To the table', qr_of: 'QR code of {name}’s link', link_of: '{name}’s link', copy: 'Copy',
  open_link: 'Open', copied: 'Copied', select_copy: 'Selected: copy it with your device’s menu',
  qr_failed: 'The QR code could not be made', no_player_tokens: 'The players’ links were shown on the device that created the game.',
  // table
  players: 'Players', status_active: 'active', status_finished: 'finished', bank_supply: 'Bank: {houses} houses, {hotels} hotels',
  share_price: 'Share price', their_turn: 'their turn', as_of: 'The table as it stood after #{seq}.',
  back_to_now: 'Back to now', standings: 'Standings', head_note: 'Photograph this code: later, it proves that the log has not changed.',
  bankrupt: 'bankrupt', in_jail: 'in jail', tax_exempt: 'tax exempt', net_worth: 'net worth', shares: 'Shares',
  owes: 'owes {name} {amount}', is_owed: '{name} owes {amount}', income: 'Income', salary: 'Salary',
  table_moves: 'Moves for the whole table', deeds_by_colour: 'Deeds by colour',
  minutes_left: '{n} min left', time_up: 'Time is up',
  deeds: 'Deeds', no_deeds: 'No deeds', hotel: 'hotel', n_houses: '{n} ⌂', mortgaged: 'mortgaged', mortgaged_short: 'mtg',
  price_entered: 'price entered', choose_deed: 'Choose a deed', no_deed_fits: 'No deed fits.',
  // actions
  a_payment: 'Payment', a_pay: 'Pay', a_rent: 'Rent', a_buy: 'Buy', a_auction: 'Auction', a_tax: 'Tax', a_card: 'Card',
  a_jail: 'Jail', a_build: 'Build / sell', a_mortgage: 'Mortgage', a_trade: 'Trade', a_iou: 'IOU', a_bankruptcy: 'Bankruptcy',
  a_shares: 'Shares', a_share_price: 'Exchange: share price', a_round_tax: 'Round tax', a_tax_exemption: 'Tax exemption',
  a_insurance: 'Insurance', a_jackpot: 'Jackpot', a_finish: 'Finish the game', a_void: 'Void #{seq}',
  // a player renamed (API.md v1.3): the row's button, its dialog, what it would record, its refusal
  a_rename: 'Rename', rename_title: 'Rename {name}', rename_record: 'Rename',
  rename_hint: 'The new name shows everywhere at once; no money moves, and the history keeps the old name.',
  rename_preview: 'Was {old}, will be {new}.',
  rename_taken: 'Too like {name}’s name: the players could mix them up. Choose another name.',
  rename_same: 'The name is “{name}” already.',
  rename_bad: 'A name is 1 to {max} characters, not only spaces, with no hidden characters.',
  from: 'From', to: 'To', amount: 'Amount', memo: 'Memo', memo_hint: 'Optional: the card’s text, the deal…',
  record_payment: 'Record the payment', same_account: 'From and to must differ.',
  enter_amount: 'Enter a whole number of at least {min}.', payer: 'Who pays', deed_landed_on: 'The deed landed on',
  dice_total: 'Dice total', dice_hint: 'Utilities: the total of the dice thrown.', multiplier: 'Multiplier',
  multiplier_hint: 'Only when a card multiplies the rent: how many times (e.g. 2).', rent_amount: 'Rent',
  rent_amount_hint: 'Only where the rule set prints no figure: the amount on the box’s table.',
  record_rent: 'Record rent', rent: 'Rent', owner: 'owner',
  buy: 'Buy', buyer: 'Buyer', price: 'Price', price_hint: 'The rule set prints no price: enter the one agreed.',
  winner: 'Winner', winning_bid: 'Winning bid', no_bid_hint: 'No bid at all? Record nothing.', record_auction: 'Record the auction',
  printed_price: 'Printed price', unmortgage: 'Lift', mortgage: 'Mortgage', sell_buildings_first: 'sell the group’s buildings first',
  no_complete_group: '{name} holds no complete colour group.', group_mortgaged: 'A deed of this group is mortgaged: lift it to build.',
  no_buildings: 'none', house_on_each: '+1 house on each', hotel_on_each: 'Hotel on each', house_on_these: '+1 house on {deeds}', hotels_on_these: 'Hotels on {deeds}', cash_of: 'Cash — {name}: {cash}', auction_prompt_title: 'Deeds to auction', auction_prompt: '{name}’s deeds went back to the Bank, to be auctioned: pick one to record its auction.', tax_paid_flat: 'flat {amount}', tax_paid_percent: '{percent} % of a total worth of {worth}: {amount}', iou_passed: 'held by {to} now, not {from}: {amount} outstanding', opt_free_parking_pot_hint: 'Taxes, fines and card payments to the Bank go into a pot; a player landing on Free Parking takes it.', opt_player_loans_hint: 'Players may lend each other money; the banker records an IOU.', opt_no_rent_in_jail_hint: 'An owner in jail collects no rent.', opt_keep_bankrupt_players_hint: 'A bankrupt player keeps a seat with nothing and plays on.', opt_one_house_per_turn_hint: 'At most one house a turn.', opt_buy_after_first_lap_hint: 'A player buys deeds only after the first salary on GO.', opt_income_tax_hint: 'Flat or a percent of all a player has, as the player chooses, or only one of them.', opt_luxury_tax_hint: 'What the luxury tax square takes (later editions print 100).', opt_minutes_hint: 'Play to a clock: the richest player wins when the time is up. Empty: no clock.', hotel_on: 'Hotel on {deed}', house_on: '+1 house on {deed}',
  sell_all_group: 'Sell every building', break_down_on: 'Break the hotel on {deed} down', sell_hotel_on: 'Sell the hotel on {deed}',
  sell_house_on: '−1 house on {deed}', build: 'Build', sell: 'Sell', no_legal_moves: 'No legal move now.',
  more_fields: 'More', price_per_building: 'Price per building', price_per_building_hint: 'Only when scarce buildings were auctioned.', price_per_building_asked: 'The box prints no price here: the price of one building, as on the plot’s card, for the first on each plot.',
  player: 'Player', income_tax: 'Income tax', luxury_tax: 'Luxury tax', flat: 'flat',
  card_effect: 'What the card says', effect_collect: 'Collect from the Bank', effect_pay: 'Pay the Bank',
  effect_collect_from_each: 'Collect from each player', effect_pay_each: 'Pay each player', effect_repairs: 'Repairs',
  per_house: 'Per house', per_hotel: 'Per hotel',
  record_card: 'Record the card',
  is_in_jail: '{name} is in jail.', not_in_jail: '{name} is not in jail.', go_to_jail: 'Go to jail', pay_fine: 'Pay the fine',
  leave_jail_doubles: 'Rolled doubles: leaves', use_card: 'Use the {deck} card', draw_card: 'Draws the {deck} card',
  deck: 'deck', deck_chance: 'Chance', deck_community_chest: 'Community Chest', jail_card_of: '{deck} jail card',
  trade_hint: 'Each leg is what one player gives another. Everything happens at once, or nothing.',
  leg: 'Leg', gives: 'Gives', cash: 'Cash', deeds_given: 'Deeds given', remove_leg: 'Remove this leg', add_leg: 'Add a leg',
  lift_hint: 'A deed not ticked stays mortgaged; its new owner pays the interest now.', party_one: 'One player', party_other: 'The other player', lift_at_once: 'Lift mortgages at once',
  the_deal: 'The deal', record_trade: 'Record the trade', empty_trade: 'The trade moves nothing.',
  iou_hint: 'An IOU records a debt only: the debtor owes the creditor the amount, and no cash moves with it. Notes lent at the table are a payment of their own: tick the box to record it with the IOU.',
  iou_records: 'A debt is recorded: {debtor} owes {holder} {amount}. The IOU itself moves no cash.', iou_with_cash: 'The creditor hands over the cash now (a payment, recorded before the IOU)',
  debtor: 'Debtor', creditor: 'Creditor', issue_iou: 'Issue the IOU',
  open_ious: 'Open IOUs', iou_line: '{debtor} owes {holder} {amount} (of {of})', repay: 'Repay', repay_amount: 'Amount to repay',
  pass_to: 'Pass to', pass_on: 'Pass on', forgive: 'Forgive',
  bankruptcy_intro: 'What {name} could raise, before declaring the bankruptcy:', owed: 'Amount owed',
  owed_hint: 'The unpaid debt; the server checks it cannot be raised.',
  creditor_lifts: 'The creditor lifts at once', declare_bankruptcy: 'Declare the bankruptcy',
  action: 'Action', count: 'How many', broker: 'Brokered on the EXCHANGE', commission_to: 'Broker', commission: 'Commission',
  record_shares: 'Record', price_up: 'Up', price_down: 'Down',
  tax_exempt_now: 'Exempt: this round tax is waived.',
  plot_tax: 'Plot tax', plot_tax_hint: 'From the box’s TAX table, where the rule set has no figure.', record_round_tax: 'Record the round tax',
  policies_held: 'Policies', policy_green: 'green', policy_blue: 'blue', policy_orange: 'orange', policy_red: 'red',
  use_policy: 'Use', return_policy: 'Hand back', buy_policy: 'Buy', stake: 'Stake', payout: 'Payout',
  payout_hint: '0 when the stake is lost.', record_jackpot: 'Record', jackpot_kitty: 'Jackpot',
  finish_intro: 'The game ends now: players are ranked by net worth, and nothing more can be recorded.', finish_now: 'Finish now',
  void_hint: 'The transaction stays in the log, reversed. Refused if a later one depends on it.', reason: 'Reason',
  void_reason_default: 'recorded by mistake',
  reason_required: 'Say why.', void: 'Void', void_ellipsis: 'Void…', collect_pot: 'Collect the pot',
  what_can_raise: 'What can {name} raise?', sell_buildings: 'Sell buildings', liq_buildings: 'Buildings on {deed} ({what})', liq_mortgage: 'Mortgage {deed}',
  sell_shares: 'Sell shares', liquidation_of: '{name}: cash and what could be raised', can_raise: 'Could raise', total: 'Total',
  // outcomes and problems
  recorded: 'Recorded', undo: 'Undo', undo_reason: 'undone at the table', undone: '#{seq} voided', undo_failed: 'Could not undo',
  already_done: 'Done: recorded as #{seq} a moment ago', record_again: 'Record again', again_title: 'Record it again?', again_text: 'The same move was recorded as #{seq} a moment ago. Record it a second time?', cancel: 'Cancel',
  already_recorded_short: 'already recorded', already_recorded: 'This was already recorded as #{seq}.', refused: 'Refused',
  short_by: '{name} is short by {amount}.', could_raise: '{name} could raise {amount} more by selling buildings and mortgaging.', could_raise_nothing: '{name} has nothing left to sell or mortgage.',
  e_insufficient_funds: 'Not enough cash', e_network: 'No connection to the server. Try again: it will be recorded only once.',
  e_validation_error: 'Check the form', e_not_owner: 'Not the owner', e_already_owned: 'Already owned',
  e_mortgaged: 'Mortgaged', e_not_mortgaged: 'Not mortgaged', e_group_incomplete: 'The group is not complete',
  e_group_has_buildings: 'The group has buildings', e_uneven_building: 'Build evenly', e_building_limit: 'No more buildings there',
  e_no_houses_left: 'The Bank has no houses left', e_no_hotels_left: 'The Bank has no hotels left',
  e_player_bankrupt: 'That player is bankrupt', e_game_finished: 'The game is finished', e_option_disabled: 'Not a rule of this game',
  e_void_conflict: 'A later transaction depends on it', e_already_voided: 'Already voided', e_not_insolvent: 'Could still pay',
  e_claim_window_closed: 'Another player’s turn', e_owner_in_jail: 'The owner is in jail', e_forbidden: 'Not allowed',
  e_unauthorized: 'The link is not valid', e_not_found: 'Not found', e_no_jail_card: 'No such jail card',
  e_own_property: 'Rent to oneself', e_not_owned: 'The Bank holds that deed', e_not_buildable: 'Nothing can be built there',
  e_no_buildings: 'No buildings there', e_iou_settled: 'The IOU is settled', e_shares_unavailable: 'No shares for sale',
  e_insufficient_shares: 'Not enough shares', e_idempotency_key_reused: 'Already recorded with other figures',
  e_version_conflict: 'The game moved on',
  e_disputes_open: 'Disputes are still open',
  // history
  type: 'Type', account: 'Account', deed: 'Deed', n_transactions: '{n} transactions', statement: 'Statement',
  statement_of: 'Statement of', balance: 'balance', balance_col: 'Balance', what: 'What', no_postings: 'No money moved yet.',
  recorded_by: 'Recorded by', banker: 'the banker', server_admin: 'the server’s admin', voided_by: 'Voided by #{seq}', voided: 'voided', postings: 'Money',
  no_money_moved: 'No money moved.', no_money_moves: 'No money moves.', changes: 'What else moved', basis: 'Basis', hash: 'Hash', table_as_of: 'Table as of #{seq}',
  quote_name: 'Name: {from} → {to}.', quote_name_back: 'The name goes back: {from} → {to}.',
  verify_log: 'Check the log', verify_hint: 'Recomputes the hash chain of every transaction.', verify: 'Check',
  verify_ok: 'The log holds: {n} transactions.', verify_bad: 'The log does not hold!', head: 'Head',
  c_deed: 'deed', c_houses: 'houses', c_hotel: 'hotel', c_mortgage: 'mortgage', c_jail: 'jail', c_jail_card: 'jail card',
  c_bankrupt: 'bankrupt', c_status: 'game', c_void: 'void', c_shares: 'shares', c_share_price: 'share price',
  c_policy: 'policy', c_figure: 'figure entered', c_paid: 'paid at auction', c_iou: 'IOU', c_turn: 'turn',
  c_exempt: 'tax exemption', c_first_lap: 'first lap', c_name: 'name',
  kind_street: 'street', kind_railroad: 'railroad', kind_utility: 'utility', kind_plot: 'plot', kind_central: 'central plot',
  b_property: 'deed', b_kind: 'kind', b_owner: 'owner', b_houses: 'houses', b_hotel: 'hotel', b_monopoly: 'whole group',
  b_base_rent: 'rent', b_multiplier: 'multiplier', b_rent: 'rent due', b_railroads_held: 'railroads held',
  b_utilities_held: 'utilities held', b_dice: 'dice', b_factor: 'times', b_price: 'price', b_printed: 'printed',
  b_bid: 'bid', b_printed_price: 'printed price', b_tax: 'tax', b_choice: 'choice', b_flat: 'flat', b_percent: 'percent',
  b_total_worth: 'total worth', b_percent_amount: 'percent amount', b_amount: 'amount', b_salary: 'salary', b_player: 'player',
  b_starting_cash: 'starting cash', b_fine: 'fine', b_mortgage_value: 'mortgage value', b_interest: 'interest',
  b_total: 'total', b_effect: 'effect', b_players: 'players', b_debtor: 'debtor', b_creditor: 'creditor', b_owed: 'owed',
  b_cash: 'cash', b_deeds: 'deeds', b_reason: 'reason', b_voided: 'voided', b_standings: 'standings',
  b_action: 'action', b_bank_pays_creditor: 'the Bank pays the creditor', b_buildings: 'buildings',
  b_commission: 'commission', b_commission_to: 'broker', b_count: 'count', b_deck: 'deck',
  b_deeds_returned: 'deeds back to the Bank', b_direction: 'direction', b_doubles: 'doubles',
  b_entered: 'entered', b_from: 'from', b_hotels: 'hotels', b_income: 'income', b_interest_base: 'interest on',
  b_iou: 'IOU', b_ious_received: 'IOUs received', b_ious_written_off: 'IOUs written off',
  b_later_transactions_checked: 'later transactions checked', b_legs: 'legs',
  b_liquidation_total: 'could raise in all', b_mortgaged_received: 'mortgaged deeds received',
  b_orders: 'orders', b_payout: 'payout', b_per_hotel: 'per hotel', b_per_house: 'per house',
  b_per_share: 'per share', b_plot_tax: 'plot tax', b_plot_tax_entered: 'plot tax entered', b_points: 'points',
  b_policies_expired: 'policies expired', b_policies_returned: 'policies handed back', b_policy: 'policy',
  b_pot: 'pot', b_previous: 'before', b_old_name: 'old name', b_new_name: 'new name', b_scoring: 'scoring', b_seller: 'seller', b_share_income: 'share income',
  b_share_income_percent: 'share income %', b_share_price: 'share price', b_shares: 'shares',
  b_shares_sold: 'shares sold', b_shares_value: 'value of the shares', b_stake: 'stake', b_to: 'to',
  b_voided_type: 'type voided', b_waived: 'waived', b_waives: 'waives the next round tax', b_won: 'the stake won',
  // replay
  timeline: 'Timeline', step_n: 'Step {n} of {of}', previous_step: 'Previous step', next_step: 'Next step',
  net_worth_over_time: 'Net worth over time', chart_label: 'A chart of each player’s net worth after every transaction',
  chart_failed: 'The chart could not be drawn.', nothing_yet: 'Nothing recorded yet.',
  // players' view
  ask_banker_link: 'Ask the banker for your link or QR code.', my_deeds: 'My deeds', my_statement: 'My statement',
  the_table: 'The table', pay_from_my_account: 'Pay from my account', pay: 'Pay', pay_rent: 'Pay rent',
  bank: 'Bank', pot: 'Free Parking pot',
  // transaction types
  ty_starting_cash: 'Starting cash', ty_deal: 'Deeds dealt', ty_pot_seed: 'Jackpot seed', ty_salary: 'Salary',
  ty_payment: 'Payment', ty_card: 'Card', ty_buy: 'Purchase', ty_auction: 'Auction', ty_rent: 'Rent', ty_tax: 'Tax',
  ty_jail_fine: 'Jail fine', ty_jail_card: 'Jail card', ty_go_to_jail: 'Go to jail', ty_leave_jail: 'Leaves jail',
  ty_build: 'Build', ty_sell_buildings: 'Sale of buildings', ty_mortgage: 'Mortgage', ty_unmortgage: 'Mortgage lifted',
  ty_trade: 'Trade', ty_bankruptcy: 'Bankruptcy', ty_pot_collect: 'Pot collected', ty_iou: 'IOU', ty_iou_repay: 'IOU repaid',
  ty_iou_transfer: 'IOU passed on', ty_iou_forgive: 'IOU forgiven', ty_turn: 'Turn', ty_shares: 'Shares',
  ty_share_price: 'Share price', ty_round_tax: 'Round tax', ty_tax_exemption: 'Tax exemption', ty_insurance: 'Insurance',
  ty_jackpot: 'Jackpot', ty_void: 'Void', ty_finish: 'Finish', ty_rename_player: 'Rename',
  // rule refusals, from their code and params (ledger/refusals.py); r_<code>_<reason> first
  r_insufficient_funds: '{payer} must pay {amount} but holds {cash}.',
  r_not_insolvent: '{debtor} could still raise {total} ({cash} in cash + {can_raise}) and owes {owed}.',
  r_unknown_player: 'There is no player “{player}” at this table.',
  r_player_bankrupt: '{player} is bankrupt and out of the game.',
  r_unknown_property: 'There is no deed “{property}” in this rule set.',
  r_not_owned: 'The Bank holds {property}.',
  r_already_owned: '{property} belongs to {owner}.',
  r_not_owner: '{player} does not hold {property}.',
  r_own_property: '{property} is {payer}’s own: no rent to oneself.',
  r_owner_in_jail: '{owner} is in jail and collects no rent for {property}.',
  r_claim_window_closed: 'It is {turn}’s turn: rent can only be charged to {turn}, not to {payer}.',
  r_mortgaged: '{property} is mortgaged.',
  r_mortgaged_rent: '{property} is mortgaged: no rent.',
  r_mortgaged_build: '{property} is mortgaged: nothing can be built on its group.',
  r_mortgaged_mortgage: '{property} is mortgaged already.',
  r_mortgaged_trade: '{property} is mortgaged: it changes hands only in a bankruptcy.',
  r_mortgaged_auction: '{property} is mortgaged: it cannot be auctioned.',
  r_not_mortgaged: '{property} is not mortgaged.',
  r_group_incomplete: '{owner} does not hold every deed of the group of {property}.',
  r_group_has_buildings: 'Sell the buildings first ({property}).',
  r_group_has_buildings_group: 'Sell the buildings of the group of {property} before mortgaging it.',
  r_group_has_buildings_plot: 'Sell the buildings on {property} before mortgaging it.',
  r_group_has_buildings_trade: 'The group of {property} has buildings: sell them before trading it.',
  r_group_has_buildings_auction: '{property} has buildings: no auction.',
  r_not_buildable: '{property} is a {kind}: nothing can be built on it.',
  r_uneven_building: 'The group of {property} would stand uneven.',
  r_uneven_building_uneven: 'The group of {property} would stand uneven: {levels}.',
  r_uneven_building_hotel: 'A hotel on {property} needs {needed} houses there first (it has {houses}).',
  r_building_limit: 'No more buildings there.',
  r_building_limit_hotel: '{property} already has a hotel.',
  r_building_limit_houses: 'At most {limit} houses on {property}.',
  r_building_limit_one_house_per_turn: 'One house a turn (house rule): {player} would build {built}.',
  r_no_houses_left: 'The Bank has {left} houses left; {property} needs {needed}.',
  r_no_houses_left_build: 'The Bank has {left} houses left; {property} needs {needed}.',
  r_no_houses_left_break_down: 'Breaking the hotel on {property} down needs {needed} houses; the Bank has {left}.',
  r_no_hotels_left: 'The Bank has no hotels left for {property}.',
  r_no_buildings: 'There are no such buildings on {property}.',
  r_no_buildings_hotel: '{property} has no hotel.',
  r_no_buildings_houses: '{property} has {houses} houses, fewer than {count}.',
  r_no_jail_card: 'The {deck} jail card is not there.',
  r_no_jail_card_held: '{holder} holds the {deck} jail card.',
  r_no_jail_card_not_held: '{player} holds no {deck} jail card.',
  r_option_disabled: 'This game does not have that rule.',
  r_option_disabled_income_tax: 'This game’s income tax is {only} only.',
  r_option_disabled_free_parking_pot: 'This game has no Free Parking pot.',
  r_option_disabled_player_loans: 'This game has no loans between players (IOUs).',
  r_unknown_iou: 'No such IOU in this game: {iou}.',
  r_iou_settled: 'Settled already: {iou}.',
  r_shares_unavailable: 'At price 0 the Bank sells no shares.',
  r_insufficient_shares: '{player} holds {held} shares, fewer than {count}.',
  r_no_policy: '{player} holds no {policy} policy.',
  r_insured: '{owner} is insured: {property} cannot be auctioned.',
  r_game_finished: 'The game is finished: nothing more is recorded.',
  r_already_voided: '#{seq} was voided already, by #{voided_by}.',
  r_void_conflict: 'It cannot be voided.',
  r_void_conflict_not_voidable: '#{seq} ({type}) cannot be voided.',
  r_void_conflict_refused: '#{seq} ({type}) depends on #{depends_on}: without it, it would be refused ({would_be}).',
  r_void_conflict_changed: '#{seq} ({type}) depends on #{depends_on}: without it, it would move other amounts or assets.',
  r_void_conflict_table_changed: '#{seq} depends on #{depends_on}: the table has changed since.',
  vf_intro: 'Later moves depend on it. Void these first, in this order, then #{seq}:', vf_reason: 'voided first, so that #{seq} can be voided',
  r_unknown_dispute: 'There is no dispute #{dispute} in this game.',
  r_dispute_closed: 'Dispute #{dispute} is closed already.',
  r_disputes_open: 'Open disputes: {count}, the first is #{seq}. Uphold or void each before the game ends.',
  // issue 14 (server side): disputes, the first-lap house rule, Millionaire Elite trades per plot
  ty_dispute: 'Dispute', ty_dispute_resolve: 'Dispute resolved',
  opt_buy_after_first_lap: 'Deeds only after the first lap',
  opt_minutes: 'Length of the game, minutes (empty: no clock)',
  r_first_lap_not_done: '{player} has not been round the board yet: no deeds before the first salary.',
  r_group_has_buildings_plot_trade: '{property} has buildings: sell them before trading it.',
  // quotes (dry run) and raising money for a pending move
  quote_unreachable: 'The figures show when the server answers.',
  pending_move: 'Waiting to be paid',
  pending_hint: 'Raise the money here; the move below is recorded as the server would record it now.',
  rent_enter_dice: 'Enter the dice total to see the rent.',
  rent_enter_amount: 'Enter the rent printed in the box to record it.',
  enter_price: 'Enter the price: the rule set prints none for this deed.',
  tax_cash: 'Cash {cash}.',
  percent_of_worth: '% of total worth',
  lift_now: 'lift the mortgage now',
  keep_mortgaged: 'keep it mortgaged (interest now)',
  shares_held: '{name} holds {shares}; the share price is {price}.',
  round_tax_intro: '{shares} shares, and the plot tax read off the box.',
  enter_plot_tax: 'Enter the plot tax from the box’s table to see the round tax.',
  go_quick: 'GO',
  b_stake_returned: 'stake returned',
  field_to_check: 'Check: {field}',
  // countdown, turn mode, names
  clock_label: 'Time left', clock_ends: 'ends at {time}',
  clock_up_banker: 'Tap “Finish the game”: the richest wins.',
  tt_title: 'Turn tracking', tt_on: 'on', tt_off: 'off',
  tt_off_text: 'Off: rent can be charged to any player at any time. Switched on, rent can be charged only to the player whose turn it is, and you mark every turn as it starts.',
  tt_switch_on: 'Track turns…', tt_switch_on_title: 'Track turns',
  tt_what: 'From the first turn you mark, rent can be charged only to the player whose turn it is: rent claimed from anyone else is refused. Mark each turn as it starts with “Next turn”.',
  tt_no_off: 'The server has no way to switch it off again for this game: only Undo, right after, takes the first turn back.',
  tt_who_first: 'Who plays first?', tt_starts: '{name} starts',
  tt_on_text: 'Rent can be charged only to the player whose turn it is. Mark each turn as it starts.',
  tt_now: 'Now: {name}’s turn', tt_nobody: 'Nobody’s turn', tt_nobody_why: 'The player whose turn it was went bankrupt: choose who plays next.',
  tt_next: 'Next turn: {name}', tt_other: 'Another player’s turn…', tt_turn_of: '{name}’s turn',
  name_too_long: 'Too long: at most {max} characters, and this one has {n}. Shorten it.',
  names_fix: 'A name is too long: shorten it to create the game.',
  // disputes and fair play
  dp_title: 'Disputes', dp_open_n: '{n} open', dp_none_open: 'No dispute is open.', dp_closed_n: 'Closed disputes ({n})',
  dp_none: 'No disputes about your money.', dp_line: '#{seq}: {name} disputes', dp_choice: '{name} disputes {about}: “{reason}”', dp_reason: 'Reason',
  dp_status_open: 'open', dp_status_upheld: 'upheld', dp_status_voided: 'voided',
  dp_open_wait: 'The banker has not decided yet.',
  dp_upheld_note: 'by #{seq}: the transaction stands.', dp_voided_note: 'by #{seq}:',
  dp_void: 'Void it', dp_uphold: 'Uphold', dp_void_send: 'Void the transaction',
  dp_void_title: 'Void #{seq}, as disputed',
  dp_void_hint: 'The transaction is reversed, and dispute #{dispute} closes with this reason.',
  dp_uphold_title: 'Uphold #{seq}',
  dp_uphold_hint: 'The transaction stands, and dispute #{dispute} closes with this note.',
  dp_note: 'Note', dp_note_required: 'Say why the transaction stands.', dp_uphold_send: 'Uphold it',
  dp_pick: 'Dispute a transaction', dp_pick_hint: 'The transactions that moved your money, newest first.',
  dp_nothing: 'Nothing to dispute.', dp_dispute: 'Dispute…', dp_dispute_title: 'Dispute #{seq}',
  dp_dispute_hint: 'The banker sees your reason, then keeps the transaction or voids it. No money moves now.',
  dp_send: 'Send the dispute', dp_reason_required: 'Say what is wrong.', dp_sent: 'recorded: your dispute of #{seq}',
  dp_hist_dispute: 'About #{about}, disputed by {name}:', dp_hist_resolve: 'Dispute #{dispute} closed, the transaction stands:',
  dp_hist_void: 'Closes dispute #{dispute}: the transaction is voided', dp_disputed_by: 'disputed (#{seq})',
  dp_finish_blocked: 'Once the game ends nothing more can be recorded, so a dispute left open could never be settled: settle them first.',
  dp_settle: 'To the open disputes ({n})',
  b_about: 'disputed transaction', b_dispute: 'dispute', b_by: 'by', b_status: 'status', b_resolved_by: 'resolved by',
  b_note: 'note', b_seq: 'number', c_dispute: 'dispute', c_dispute_status: 'dispute',
  fp_title: 'Fair play',
  fp_intro: 'Handovers between players that look like offences of the rules: asset dumping, and propping up another player. A flag is for the table to judge; it changes nothing.',
  fp_check: 'Check', fp_none: 'No flags: no handover between players looks like an offence.',
  fp_rule_asset_dumping: 'Asset dumping', fp_rule_propping_up: 'Propping up a player', fp_exempt_debt_payment: 'exempt: a debt paid',
  fp_handover: '{type}: {giver} handed {receiver} {given}, and {received} came back.',
  fp_far_below: '{percent}\u00a0% of it came back; under {limit}\u00a0% is far below its value.',
  fp_shift: '{net} moved to {receiver}, whose net worth was {worth} before; {shift}\u00a0% of that or more shifts the balance of power.',
  fp_propping: 'Before it {receiver} could raise {raise} (about to go bankrupt: under {limit}); the next transaction paid out {paid}.',
  fp_exempt_why: 'The exception for a debt: #{seq} ({type}) owed {receiver} {debt} with {cash} in cash, short by {shortfall}; {giver} keeps: {groups}.',
  fp_figures: 'The figures', fp_f_given: 'Handed over', fp_f_received: 'Came back',
  fp_f_received_percent: 'Came back, % of what was handed over', fp_f_dumping_percent: 'Far below: under',
  fp_f_net: 'Net value moved', fp_f_giver_worth_before: 'Giver’s net worth before', fp_f_receiver_worth_before: 'Receiver’s net worth before',
  fp_f_shift_percent: 'A shift of power: at least', fp_f_receiver_could_raise: 'Receiver could raise before',
  fp_f_distress_limit: 'About to go bankrupt: under', fp_f_receiver_paid_next: 'Receiver paid out next',
  fp_nothing: 'nothing', fp_iou: 'IOU ({iou})', fp_group_of: 'the group of {deeds}',
  // The statistics of a game (stats.js): a row per figure the server gives, a deed's columns.
  st_title: 'Statistics', st_more_players: 'More players to the side: swipe the table →', st_intro: 'What came in and went out for each player, and what each deed earned. Voided transactions do not count.',
  st_as_of: 'As they stood after #{seq}.', st_figure: 'Figure', st_at_seq: 'at\u00a0#{seq}',
  st_salary: 'Salary', st_rent_received: 'Rent received', st_rent_paid: 'Rent paid', st_taxes: 'Taxes and fines',
  st_bought: 'Paid for deeds', st_buildings_bought: 'Paid for buildings', st_buildings_sold: 'Buildings sold back',
  st_interest: 'Mortgage interest and fees', st_peak_net_worth: 'Best net worth',
  st_deeds: 'Deeds', st_deed: 'Deed', st_price_paid: 'Price paid', st_rent_collected: 'Rent collected', st_rent_count: 'Times paid',
  st_not_bought: 'not bought', st_no_deeds: 'No deed has been bought or has collected rent yet.',
  st_chart_title: 'Each deed: the rent it collected (green) against the price its owner paid (grey).',
  st_chart_label: 'A bar chart of each deed’s rent collected and the price its owner paid',
  // The moves' forms (moves.js): fields by name, choices by field and value.
  mf_action: 'Action', mf_amount: 'Amount', mf_bid: 'Winning bid', mf_break_down: 'Break the hotel down into houses',
  mf_cash: 'Cash', mf_choice: 'How income tax is paid', mf_commission: 'Commission', mf_commission_to: 'Broker',
  mf_count: 'How many', mf_creditor: 'Creditor', mf_debtor: 'Debtor', mf_deck: 'Deck', mf_dice: 'Dice thrown',
  mf_direction: 'Direction', mf_dispute: 'Dispute', mf_effect: 'What the card does', mf_from: 'From',
  mf_hotel: 'Hotel', mf_houses: 'Houses', mf_iou: 'IOU', mf_jail_cards: 'Get out of jail cards',
  mf_legs: 'Parts of the deal', mf_multiplier: 'Multiplier', mf_note: 'Note', mf_orders: 'Orders',
  mf_owed: 'Amount owed', mf_payer: 'Who pays', mf_payout: 'Payout', mf_per_hotel: 'Per hotel',
  mf_per_house: 'Per house', mf_player: 'Player', mf_plot_tax: 'Plot tax', mf_points: 'Points', mf_policy: 'Policy',
  mf_price: 'Price', mf_properties: 'Deeds', mf_property: 'Deed', mf_reason: 'Reason', mf_name: 'New name', mf_seq: 'Transaction #',
  mf_stake: 'Stake', mf_tax: 'Tax', mf_to: 'To', mf_unmortgage: 'Lift the mortgage of', mf_winner: 'Winner', mf_rent_amount: 'Rent', mf_buy_player: 'Buyer',
  mc_action_buy: 'Buy', mc_action_sell: 'Sell', mc_action_draw: 'Draw it', mc_action_use: 'Use it',
  mc_action_return: 'Return it', mc_direction_up: 'Up', mc_direction_down: 'Down', mc_jail_cards_chance: 'Chance',
  mc_jail_cards_community_chest: 'Community Chest', mc_tax_income: 'Income tax', mc_tax_luxury: 'Luxury tax', mc_choice_flat: 'flat', mc_choice_percent: '% of total worth',
  record_move: 'Record', move_unavailable: 'This move is not open now.', move_missing: 'Fill in: {fields}.', iou_choice: '{debtor} owes {holder} {amount}',
  all_moves: 'All moves', all_moves_hint: 'Every move this game can record now, as the server lists it.',
  // files (issue 22)
  fi_keep_title: 'Keep this game',
  fi_keep_hint: 'Save the game’s file: its whole log, every transaction with its hash, and no link or token. Open it on the start screen of any tablebank to go on with the game there: it becomes a new game, with new links for the players.',
  fi_download: 'Download the game’s file', fi_making: 'Writing the game’s file…',
  fi_saved: 'Saved:', fi_try_again: 'Try again',
  fi_waiting: 'Moves made on this device that have not reached the server yet are not in the file: {n}.',
  fi_busy: 'The server is busy with other long reads. Try again in {s} s.',
  fi_offline_export: 'No connection to the server: the server writes the file from the game it keeps. Try again when the connection is back.',
  fi_opened_on: 'opened from a file on {date}', fi_open_title: 'Open a game’s file',
  fi_open_hint: 'A file saved with “Download the game’s file” (….tablebank.json), from this server or another: it becomes a new game here, on this device, with new links for the players.',
  fi_open_hint_pocket: 'A file saved with “Download the game’s file” (….tablebank.json), on this device, another one or a server: it becomes a new game here, kept on this device.',
  fi_choose: 'Choose a file…', fi_opening: 'Opening {file}…',
  fi_refused: 'The file was not opened', fi_nothing_made: 'No game was made.',
  fi_not_a_file: 'This is not a game’s file saved by tablebank.',
  fi_log_header: 'The file’s game (its name, rule set or players) is not as the server wrote it.',
  fi_log_seq: 'The game’s log does not hold from transaction #{seq} on: the file was changed after it was saved, or it breaks the rules.',
  fi_log_by: 'Transaction #{seq} names someone who could not have recorded it: the file was changed after it was saved.',
  fi_bad_transaction: 'Transaction #{seq} is not written in the file as tablebank writes it.',
  fi_bad_name: 'The game’s name is not one a game may have.', fi_bad_players: 'The players’ names are not ones a game may have.',
  fi_bad_header: 'The file’s game (its rule set, options or date) is not written as tablebank writes it.',
  fi_bad_field: 'The file’s {field} is not written as tablebank writes it.',
  fi_too_large: 'The file is larger than this server takes.',
  fi_rate_limited: 'Too many games were made from this address just now. Try again in {s} s.',
  fi_offline_import: 'No connection to the server: the file can be opened only when it answers. Try again when the connection is back.',
  // words (issue 22)
  b_bankrupt: 'bankrupt', b_break_down: 'hotel broken down', b_cost: 'cost',
  b_entered_rent: 'rent entered', b_fee: 'fee', b_forgiven: 'forgiven', b_holder: 'holder',
  b_jail_cards: 'jail cards', b_lifted: 'mortgage', b_merged: 'merged', b_outstanding: 'still owed',
  b_prices: 'prices', b_properties: 'deeds', b_rank: 'place', b_receiver: 'goes to',
  b_repaid: 'repaid', b_score: 'score', b_unit_price: 'price each', bv_lifted_yes: 'lifted at once',
  bv_lifted_no: 'kept mortgaged (interest now)', bv_waived_yes: 'waived: exempt',
  bv_doubles_yes: 'rolled doubles', bv_hotel_yes: 'a hotel',
  bv_break_down_yes: 'broken down into houses', bt_waives: 'the next round tax',
  bt_scoring: 'cash, deeds at their price (mortgaged ones at half) and buildings at cost',
  iou_of_seq: 'the IOU of #{seq}', iou_named: 'the IOU of #{seq}: {debtor}, {amount}',
  move_needs: 'Enter {fields} to see what it would record.', net_worth_column: 'Net worth',
  dn_branch_plot: 'Branch {branch}, plot {n}', dn_central: 'Central plot {n}',
  cnt_shares_one: '{n} share', cnt_shares_other: '{n} shares', cnt_houses_one: '{n} house',
  cnt_houses_other: '{n} houses', cnt_hotels_one: '{n} hotel', cnt_hotels_other: '{n} hotels',
  cnt_deeds_one: '{n} deed', cnt_deeds_other: '{n} deeds', cnt_railroads_one: '{n} railroad', cnt_railroads_other: '{n} railroads',
  n_transactions_one: '{n} transaction', n_transactions_other: '{n} transactions',
};

// The console's languages, in the order of the switch. A new language is its dictionary file
// (js/i18n-<code>.js, exporting its dictionary as `code`), its import above and its line here:
// everything else is derived (tests/api/test_console_languages.py holds the files, the imports
// and this list to each other).
export const LANGUAGES = [
  {code: 'en', name: 'English', locale: 'en-US', dict: en},
  {code: 'ru', name: 'Русский', locale: 'ru-RU', dict: ru},
  {code: 'pl', name: 'Polski', locale: 'pl-PL', dict: pl},
];
const BY_CODE = Object.fromEntries(LANGUAGES.map((language) => [language.code, language]));

/** The console's first language: the one chosen here, else the browser's, else English. */
function detect() {
  const chosen = store.get('lang');
  if (chosen && BY_CODE[chosen]) return chosen;
  for (const tag of navigator.languages || [navigator.language || 'en']) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (BY_CODE[base]) return base;
  }
  return 'en';
}

let current = detect();
const listeners = [];

/** The console's language now, its code. */
export function lang() { return current; }
/** The locale of the console's language now (en-US, ru-RU, pl-PL), for Intl. */
export function locale() { return BY_CODE[current].locale; }

/** Switches the console to language `code`, kept on this device; each listener is told. */
export function setLang(code) {
  if (!BY_CODE[code]) return;
  current = code;
  store.set('lang', code);
  setDocumentLang();
  listeners.forEach((fn) => fn(code));
}

/** Calls `fn(code)` each time the console's language changes. */
export function onLangChange(fn) { listeners.push(fn); }

/** The page's language attribute, and the one text the static HTML carries (the skip link). */
export function setDocumentLang() {
  document.documentElement.lang = current;
  const skip = document.querySelector('.skip-link');
  if (skip) skip.textContent = t('skip_to_content');
}

/** The text of `key` in the current language; {name} placeholders filled from `params`. */
export function t(key, params = {}, fallback) {
  let text = BY_CODE[current].dict[key] ?? en[key];
  if (text === undefined) text = fallback !== undefined ? fallback : key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** A transaction type's name in the console's language (else the type's code in words). */
export function typeLabel(type) {
  return t(`ty_${type}`, {}, type.replaceAll('_', ' '));
}

/** A rule set's title in the console's language, else the title the server gives, else its name. */
export function rulesetTitle(name, title) {
  return t(`rs_${name}`, {}, title || name);
}

const pluralRules = {};
/** The CLDR plural category of `n` ('one', 'few', 'many', 'other'…) in a language of the
 * console (the current one by default), by Intl.PluralRules of that language's locale. */
export function pluralCategory(n, code = current) {
  const tag = BY_CODE[code].locale;
  if (!pluralRules[tag]) pluralRules[tag] = new Intl.PluralRules(tag);
  return pluralRules[tag].select(Math.abs(n));
}

/** A whole number in the console's locale (not the browser's): "2 050", "2,050". */
export function number(n) {
  return new Intl.NumberFormat(locale(), {maximumFractionDigits: 0}).format(n);
}

/**
 * The text of `key` for the count `n`, in the form the language's plural rules choose:
 * `key_one`, `key_few`, `key_many` or `key_other` of the current dictionary (then its
 * `key_other`, then `key` itself: "транзакций: {n}" needs no form), else English's; {n} is
 * the count in the console's locale.
 */
export function plural(n, key, params = {}) {
  const own = BY_CODE[current].dict;
  const found = [`${key}_${pluralCategory(n)}`, `${key}_other`, key].find((k) => own[k] !== undefined)
    ?? [`${key}_${pluralCategory(n, 'en')}`, `${key}_other`].find((k) => en[k] !== undefined);
  return t(found || key, {n: number(n), ...params});
}

/** Names joined as the console's language lists them ("A, B and C", "А, Б и В", "A, B i C"). */
export function listOf(items) {
  return new Intl.ListFormat(locale(), {type: 'conjunction'}).format(items);
}

/** A date in the console's language (Intl with its locale, not the browser's). */
export function date(when = new Date()) {
  return new Intl.DateTimeFormat(locale()).format(when);
}

const positions = {};
/** Whether this locale writes a currency symbol before the number ($1,500) or after (1 500 $). */
function symbolFirst() {
  if (!(current in positions)) {
    const parts = new Intl.NumberFormat(locale(), {style: 'currency', currency: 'USD'}).formatToParts(1);
    positions[current] = parts.findIndex((p) => p.type === 'currency') < parts.findIndex((p) => p.type === 'integer');
  }
  return positions[current];
}

/** A rule set's currency as the rule set gives it: one label for every language, or
 * {en, ru, …} by language (the current one's, else the English one, else the first). */
function ownLabel(currency) {
  if (!currency || typeof currency !== 'object') return currency || '';
  return currency[current] ?? currency.en ?? Object.values(currency)[0] ?? '';
}

/** A rule set's currency as a label in the reader's language: the rule set's own, or where
 * the dictionary knows that word (`cu_<label>`: the box's "фанты" in Polish), its word. */
export function currencyLabel(currency) {
  const label = ownLabel(currency);
  return BY_CODE[current].dict[`cu_${label}`] ?? label;
}

/** The currency word after the figure `n`, in the form the language counts it in
 * (`cu_<label>_<plural category>`: "1 фант", "3 фанта", "2 050 фантов"). */
function counted(label, n) {
  const own = BY_CODE[current].dict;
  return own[`cu_${label}_${pluralCategory(n)}`] ?? own[`cu_${label}_other`] ?? own[`cu_${label}`] ?? label;
}

/** An amount in the current locale with the rule set's currency label. */
export function money(amount, currency = '') {
  const n = number(Math.abs(amount));
  const sign = amount < 0 ? '−' : '';
  const label = ownLabel(currency);
  if (!label) return sign + n;
  // A one-character symbol goes where the locale puts symbols; a word always after.
  if ([...label].length === 1 && symbolFirst()) return `${sign}${label}${n}`;
  return `${sign}${n}\u00a0${counted(label, Math.abs(amount))}`;
}

/** The language switch for the top bar. */
export function langSwitch() {
  const id = 'lang-switch';
  const sel = element('select', {id, class: 'lang'},
    LANGUAGES.map(({code, name}) => element('option', {value: code, lang: code}, [name])));
  sel.value = current;
  sel.addEventListener('change', (ev) => setLang(ev.target.value));
  const label = element('label', {for: id, class: 'sr-only'}, [t('language')]);
  return element('div', {class: 'lang-box'}, [label, sel]);
}

/** An element with attributes and children (nodes or texts): dom.js's `h`, which imports this. */
function element(tag, attrs, children = []) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  el.append(...children);
  return el;
}
