// exactodds paytable designer: the one script of an HTML math sheet (exactodds/report/designer.py).
// When a payout is edited, the bet's figures are recomputed exactly, with BigInt fractions, from
// the combinations the page holds, and formatted as exactodds/numbers.py formats them (half to
// even on the exact value, integer square roots), so the page shows the digits `exactodds
// report` prints for the edited paytable. Payouts are parsed by the grammar of
// exactodds/bets/payout.py, sent in the page's data. No eval; text is never parsed as HTML.
(() => {
  "use strict";

  // Several sheets printed to one stream are several documents run together: the first sheet's
  // script works on the elements before its data block, the others do nothing.
  const source = document.getElementById("exactodds-data");
  if (source === null || globalThis.exactoddsDesigner !== undefined) return;
  const ours = (node) =>
    (node.compareDocumentPosition(source) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  const DATA = JSON.parse(source.textContent);
  const PRECISION = DATA.precision;
  const FIXED = new Set(DATA.fixed_figures);
  const FLAG = "PLAYER-FAVOURABLE";
  const DASH = "\u2014";

  // -- exact rationals ---------------------------------------------------------------------------

  const abs = (a) => (a < 0n ? -a : a);
  const gcd = (a, b) => {
    a = abs(a);
    b = abs(b);
    while (b !== 0n) [a, b] = [b, a % b];
    return a;
  };
  const pow10 = (k) => 10n ** BigInt(k);
  const floorDiv = (n, d) => {
    const q = n / d;
    return n % d !== 0n && n < 0n !== d < 0n ? q - 1n : q;
  };

  class Q {
    constructor(n, d = 1n) {
      if (d === 0n) throw new RangeError("division by zero");
      if (d < 0n) [n, d] = [-n, -d];
      const g = gcd(n, d) || 1n;
      this.n = n / g;
      this.d = d / g;
      Object.freeze(this);
    }
    static of(text) {
      const [n, d] = String(text).split("/");
      return new Q(BigInt(n), d === undefined ? 1n : BigInt(d));
    }
    add(o) { return new Q(this.n * o.d + o.n * this.d, this.d * o.d); }
    sub(o) { return new Q(this.n * o.d - o.n * this.d, this.d * o.d); }
    mul(o) { return new Q(this.n * o.n, this.d * o.d); }
    div(o) { return new Q(this.n * o.d, this.d * o.n); }
    cmp(o) {
      const x = this.n * o.d - o.n * this.d;
      return x < 0n ? -1 : x > 0n ? 1 : 0;
    }
    sign() { return this.n < 0n ? -1 : this.n > 0n ? 1 : 0; }
    eq(o) { return this.n === o.n && this.d === o.d; }
  }
  const ZERO = new Q(0n);
  const ONE = new Q(1n);
  const HUNDRED = new Q(100n);
  const MINUS_ONE = new Q(-1n);
  const HALF = new Q(1n, 2n);

  // Python's round() of a Fraction: to the nearest integer, ties to even.
  const roundHalfEven = (x) => {
    const floor = floorDiv(x.n, x.d);
    const twice = 2n * (x.n - floor * x.d);
    if (twice < x.d) return floor;
    if (twice > x.d) return floor + 1n;
    return floor + (floor & 1n);
  };

  const isqrt = (n) => {
    if (n < 2n) return n;
    let x = 1n << BigInt((n.toString(2).length >> 1) + 1);
    for (;;) {
      const y = (x + n / x) >> 1n;
      if (y >= x) return x;
      x = y;
    }
  };

  // -- numbers as exactodds/numbers.py prints them -----------------------------------------------

  const grouped = (n) =>
    (n < 0n ? "-" : "") + abs(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fixedUnits = (units, places) => {
    const sign = units < 0n ? "-" : "";
    const text = abs(units).toString().padStart(places + 1, "0");
    return places ? `${sign}${text.slice(0, -places)}.${text.slice(-places)}` : sign + text;
  };
  const scale = (x, places) => x.mul(new Q(pow10(places)));
  const fixed = (x, places) => fixedUnits(roundHalfEven(scale(x, places)), places);
  const signed = (x, places) => {
    const text = fixed(x, places);
    return /[1-9]/.test(text) && !text.startsWith("-") ? `+${text}` : text;
  };
  const percent = (x) => `${fixed(x.mul(HUNDRED), PRECISION.percent)}%`;
  const pct = (x) => (x === null ? DASH : percent(x));
  const sqrtFixed = (x, places) => {
    const scaled = scale(x, 2 * (places + 1));
    const root = isqrt(floorDiv(scaled.n, scaled.d));
    return fixedUnits(root / 10n + (root % 10n >= 5n ? 1n : 0n), places);
  };
  const oneIn = (p, places = 2) => {
    if (p.sign() <= 0) return DASH;
    const n = roundHalfEven(scale(ONE.div(p), places));
    const tail = places ? `.${(n % pow10(places)).toString().padStart(places, "0")}` : "";
    return `1 in ${grouped(n / pow10(places))}${tail}`;
  };
  const exact = (x) => `${x.n}/${x.d}`;
  const formatNumber = (x) => {
    if (x.d === 1n) return x.n.toString();
    let d = x.d;
    let twos = 0;
    let fives = 0;
    while (d % 2n === 0n) [d, twos] = [d / 2n, twos + 1];
    while (d % 5n === 0n) [d, fives] = [d / 5n, fives + 1];
    if (d !== 1n) return exact(x);
    const places = Math.max(twos, fives);
    const scaled = (x.n * pow10(places)) / x.d;
    const digits = abs(scaled).toString().padStart(places + 1, "0");
    return `${scaled < 0n ? "-" : ""}${digits.slice(0, -places)}.${digits.slice(-places)}`;
  };

  // center + sign·z·√radicand correctly rounded (fixed_z_sqrt in exactodds/analysis/confidence.py): z
  // and the root are enclosed between fractions, narrowed until both ends round alike.
  const zInterval = (digits) => {
    const [whole, decimals] = digits.split(".");
    const low = new Q(BigInt(whole + decimals), pow10(decimals.length));
    return [low, low.add(new Q(1n, pow10(decimals.length)))];
  };
  const fixedZSqrt = (center, sign, z, radicand, places) => {
    if (radicand.sign() === 0) return fixedUnits(roundHalfEven(scale(center, places)), places);
    const [zLow, zHigh] = zInterval(z);
    for (let guard = 8; guard <= 30; guard += 8) {
      const k = places + guard;
      const scaled = scale(radicand, 2 * k);
      const root = isqrt(floorDiv(scaled.n, scaled.d));
      const spreadLow = zLow.mul(new Q(root, pow10(k)));
      const spreadHigh = zHigh.mul(new Q(root + 1n, pow10(k)));
      const ends =
        sign > 0
          ? [center.add(spreadLow), center.add(spreadHigh)]
          : [center.sub(spreadHigh), center.sub(spreadLow)];
      const [first, last] = ends.map((end) => roundHalfEven(scale(end, places)));
      if (first === last) return fixedUnits(first, places);
    }
    return DASH;
  };

  // -- payouts (exactodds/bets/payout.py) -------------------------------------------------------------

  const GRAMMAR = DATA.payout;
  const RATIO = new RegExp(GRAMMAR.ratio);
  // The characters Python's str.split() and str.strip() take for whitespace.
  const WHITE =
    "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680" +
    "\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  const SPACES = new RegExp(`[${WHITE}]+`, "g");
  const EDGES = new RegExp(`^[${WHITE}]+|[${WHITE}]+$`, "g");
  const strip = (text) => text.replace(EDGES, "");
  // Only ASCII letters matter: no other character lower-cases into the grammar's alphabet.
  const lowerAscii = (text) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

  class PayoutError extends Error {}
  // A jackpot row whose meter cannot be read: the meter's input says why, not the row's.
  class MeterUnread extends PayoutError {}

  // The largest net win per unit a payout may have, as Payout refuses beyond it.
  const MAX_NET = new Q(BigInt(GRAMMAR.max_net));
  const bounded = (net) => {
    if (net.cmp(MAX_NET) > 0) {
      const limit = grouped(BigInt(GRAMMAR.max_net));
      throw new PayoutError(`it wins more than the limit of ${limit} to 1`);
    }
    return net;
  };

  const parseNumber = (body) => {
    if (body.length > 4 * GRAMMAR.max_digits) throw new PayoutError(`not a number: "${body}"`);
    const digits = body.replace(/[^0-9]/g, "").length;
    if (digits > GRAMMAR.max_digits) {
      const limit = GRAMMAR.max_digits;
      throw new PayoutError(`number ${body} has more than ${limit} digits (the limit)`);
    }
    const [top, bottom] = body.split("/");
    const [whole, decimals = ""] = top.split(".");
    const value = new Q(BigInt(whole + decimals), pow10(decimals.length));
    if (bottom === undefined) return value;
    if (BigInt(bottom) === 0n) throw new PayoutError(`division by zero in ${body}`);
    return value.div(new Q(BigInt(bottom)));
  };

  // {net, text} of a payout in any notation a paytable file accepts; PayoutError otherwise.
  const parsePayout = (value) => {
    const length = Array.from(value).length;
    if (length > GRAMMAR.max_chars) {
      throw new PayoutError(
        `a payout of ${length} characters is longer than the limit of ${GRAMMAR.max_chars}`,
      );
    }
    const text = lowerAscii(value)
      .split(SPACES)
      .filter((part) => part !== "")
      .join(" ");
    if (Object.prototype.hasOwnProperty.call(GRAMMAR.words, text)) {
      return { net: Q.of(GRAMMAR.words[text]), text: strip(value) };
    }
    if (text.startsWith("-")) throw new PayoutError("negative payouts are not allowed");
    const match = RATIO.exec(text);
    if (match === null) {
      throw new PayoutError("use a:b, a to b, a for b, 1:1 less 5%, push or lose");
    }
    const { a, op, b, c } = match.groups;
    const top = parseNumber(a);
    const bottom = parseNumber(b);
    if (bottom.sign() === 0) throw new PayoutError("division by zero");
    let net = top.div(bottom);
    if (op === "for") net = net.sub(ONE);
    if (net.sign() < 0) throw new PayoutError("it returns less than the stake on a win");
    if (c !== undefined) {
      const commission = parseNumber(c);
      if (commission.cmp(HUNDRED) > 0) throw new PayoutError("the commission is over 100%");
      net = net.mul(ONE.sub(commission.div(HUNDRED)));
    }
    return { net: bounded(net), text: strip(value) };
  };

  // A progressive bet's row may pay a share of a meter (exactodds/bets/progressive.py): "jackpot",
  // "P% of jackpot", "LEVEL jackpot", "P% of LEVEL jackpot", returning share x meter for the
  // stake, so its net per unit is share x meter / stake - 1 at the meter the page sets.
  const JACKPOT = new RegExp(GRAMMAR.jackpot);
  const parseRow = (bet, value) => {
    const text = lowerAscii(value.replace(/\u212a/g, "k"))
      .split(SPACES)
      .filter((part) => part !== "")
      .join(" ");
    const match = bet.progressive === null || text.length > 100 ? null : JACKPOT.exec(text);
    if (match === null) return parsePayout(value);
    const level = match.groups.level || "jackpot";
    const meter = bet.progressive.meters.get(level);
    if (meter === undefined) {
      const names = [...bet.progressive.meters.keys()].join(", ");
      throw new PayoutError(`the bet has no meter "${level}" (its meters: ${names})`);
    }
    const { share: percent } = match.groups;
    const share = percent === undefined ? ONE : parseNumber(percent).div(HUNDRED);
    if (share.sign() <= 0 || share.cmp(ONE) > 0) {
      throw new PayoutError("a jackpot share must be above 0% and at most 100%");
    }
    if (meter.value === null) throw new MeterUnread(`the ${level} meter cannot be read`);
    const net = share.mul(meter.value).div(bet.progressive.stake).sub(ONE);
    return { net: bounded(net), text: strip(value) };
  };
  // A meter as typed: an amount like 25000 or 25000.50 (commas between thousands allowed).
  const parseMeter = (value) => {
    const body = strip(value).replace(/,(?=\d{3}(\D|$))/g, "");
    if (!/^[0-9]+(\.[0-9]+)?$/.test(body)) throw new PayoutError("write an amount like 25000.50");
    const amount = parseNumber(body);
    if (amount.cmp(new Q(BigInt(GRAMMAR.max_meter))) > 0) {
      throw new PayoutError(`over the limit of ${grouped(BigInt(GRAMMAR.max_meter))}`);
    }
    return amount;
  };
  // A fee as a file writes it: a percentage 0..100% such as 20% or 1/3% (parse_percent).
  const parsePercent = (value) => {
    const body = strip(value);
    const match = /^([0-9]+(?:\.[0-9]+)?(?:\/[0-9]+)?)[ ]*%$/.exec(body);
    if (match === null) throw new PayoutError("write a percentage like 20%");
    const share = parseNumber(match[1]).div(HUNDRED);
    if (share.cmp(ONE) > 0) throw new PayoutError("it is over 100%");
    return share;
  };
  // A multiplier weight: a probability 0..1 such as 0.25 or 1/4.
  const parseWeight = (value) => {
    const body = strip(value);
    if (!/^[0-9]+(\.[0-9]+)?(\/[0-9]+)?$/.test(body)) {
      throw new PayoutError("write a probability like 0.25 or 1/4");
    }
    const p = parseNumber(body);
    if (p.cmp(ONE) > 0) throw new PayoutError("it is above 1");
    return p;
  };
  // Why a meter cannot show this amount (below its reset, above its cap), or null.
  const meterRange = (meter, amount) => {
    if (amount.cmp(meter.reset) < 0) return `below its reset of ${meter.text}`;
    if (meter.cap !== null && amount.cmp(meter.cap) > 0) return `above its cap of ${meter.capText}`;
    return null;
  };

  const toOne = (net) =>
    net.sign() === 0 ? "push" : net.eq(MINUS_ONE) ? "lose" : `${formatNumber(net)} to 1`;
  const forOne = (net) => `${formatNumber(net.add(ONE))} for 1`;
  const canonical = (net) =>
    net.sign() === 0
      ? "push"
      : net.eq(MINUS_ONE)
        ? "lose"
        : net.sign() < 0
          ? forOne(net)
          : `${net.n}:${net.d}`;
  // Payout.stated: as written ("both"), or its "to" or "for" form.
  const stated = (net, text, notation) => {
    if (notation === "both") return text || canonical(net);
    if (net.sign() === 0 || net.eq(MINUS_ONE)) return toOne(net);
    if (notation === "to" && net.sign() >= 0) return toOne(net);
    return forOne(net);
  };

  // -- figures (exactodds/figures/metrics.py) ------------------------------------------------------------

  const CONFIDENCE = DATA.confidence;
  const EXAMPLE_STAKE = new Q(100n);

  const applyRounding = (rounding, amount) => {
    const units = amount.div(rounding.step);
    const floor = floorDiv(units.n, units.d);
    const rest = units.sub(new Q(floor));
    let whole;
    if (rounding.mode === "down" || rest.cmp(HALF) < 0) whole = floor;
    else if (rest.cmp(HALF) > 0 || rounding.mode === "half-up") whole = floor + 1n;
    else whole = floor + (floor & 1n);
    return rounding.step.mul(new Q(whole));
  };
  // Net result per unit staked at this stake, after the bet's rounding (Bet.row_net).
  const rowNet = (bet, net, stake) => {
    if (bet.rounding === null) return net;
    return applyRounding(bet.rounding, stake.mul(ONE.add(net))).sub(stake).div(stake);
  };
  // RTP at this stake of a bet whose rows are not multiplied (a rounded or progressive bet): per
  // money paid, the stake and any fee (a commission taken from each win).
  const rtpAt = (bet, nets, stake) => {
    const ev = bet.rows.reduce(
      (sum, row, k) => sum.add(row.probability.mul(rowNet(bet, unitNet(bet, k, nets[k]), stake))),
      ZERO,
    );
    const fee = bet.live === null ? ZERO : bet.live.feeValue;
    return ONE.add(ev.sub(fee).div(ONE.add(fee)));
  };

  // -- fees, random multipliers and peeks (exactodds/bets/multipliers.py, figures/peek.py) -------

  const comb = (n, k) => {
    if (k < 0 || k > n) return 0n;
    let out = 1n;
    for (let i = 0; i < k; i++) out = (out * BigInt(n - i)) / BigInt(i + 1);
    return out;
  };
  // The paytable's multiplier tables, each weight with the value set on the page (null: unread)
  const TABLES = new Map(
    Object.entries(DATA.multipliers || {}).map(([name, t]) => {
      const part = (entries) =>
        entries.map(([key, p, text]) => ({ key, value: Q.of(p), text, input: null }));
      return [
        name,
        {
          name, deck: t.deck, cap: t.cap === null ? null : BigInt(t.cap), repeat: t.repeat,
          cards: part(t.cards), values: part(t.values), problem: null, cache: new Map(),
          error: null,
        },
      ];
    }),
  );
  // P(exactly a given t of j given identities are drawn, the others not), t = 0..j
  // (MultiplierTable.drawn_chances): the drawn set is a uniform k-subset of the deck.
  const drawnChances = (table, j) => {
    const out = [];
    for (let t = 0; t <= j; t++) {
      let sum = ZERO;
      for (const { key: k, value: p } of table.cards) {
        if (k >= t) sum = sum.add(p.mul(new Q(comb(table.deck - j, k - t), comb(table.deck, k))));
      }
      out.push(sum);
    }
    return out;
  };
  // The capped product's distribution for identities of these multiplicities (descending), as
  // _product_distribution walks them: (number drawn, capped product) -> probability of values.
  const productDistribution = (table, multiplicities) => {
    const key = multiplicities.join(",");
    const known = table.cache.get(key);
    if (known !== undefined) return known;
    const capped = (x) => (table.cap !== null && x > table.cap ? table.cap : x);
    let states = new Map([["0|1", [0, 1n, ONE]]]);
    for (const m of multiplicities) {
      const power = table.repeat === "each" ? BigInt(m) : 1n;
      const step = new Map();
      const add = (t, product, p) => {
        const k = `${t}|${product}`;
        const old = step.get(k);
        step.set(k, [t, product, old === undefined ? p : old[2].add(p)]);
      };
      for (const [t, product, p] of states.values()) {
        add(t, product, p);
        for (const { key: v, value: q } of table.values) {
          add(t + 1, capped(product * BigInt(v) ** power), p.mul(q));
        }
      }
      states = step;
    }
    const chances = drawnChances(table, multiplicities.length);
    const out = new Map();
    for (const [t, product, p] of states.values()) {
      const old = out.get(product);
      const q = p.mul(chances[t]);
      out.set(product, old === undefined ? q : old.add(q));
    }
    const sorted = [...out.entries()].filter(([, p]) => p.sign() !== 0);
    sorted.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    table.cache.set(key, sorted);
    return sorted;
  };
  // A multiplied row's products: its identity patterns mixed (pattern_products).
  const rowProducts = (table, patterns) => {
    const out = new Map();
    for (const [multiplicities, w] of patterns) {
      for (const [product, p] of productDistribution(table, multiplicities)) {
        const old = out.get(product);
        out.set(product, old === undefined ? p.mul(w) : old.add(p.mul(w)));
      }
    }
    return [...out.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  };
  // Row.net_at(1): the commission is taken from a win.
  const unitNet = (bet, k, net) =>
    bet.live === null || net.sign() <= 0 ? net : net.sub(bet.live.rows[k].commission);
  // (probability, net per unit stake) of each outcome of row k (RowFigures.outcomes): a
  // multiplied win at each product of its table, net × product less the commission.
  const rowOutcomes = (bet, k, net) => {
    const row = bet.rows[k];
    const live = bet.live === null ? null : bet.live.rows[k];
    if (live === null || live.table === null) {
      return [[row.probability, rowNet(bet, unitNet(bet, k, net), ONE)]];
    }
    const table = TABLES.get(live.table);
    if (table.problem !== null) return null;
    const products = rowProducts(table, live.patterns);
    return products.map(([m, q]) => [
      row.probability.mul(q),
      net.sign() > 0 ? net.mul(new Q(m)).sub(live.commission) : net,
    ]);
  };
  // A peek bet under the optimal decision (figures/peek.py): each cell's conditional EV from its
  // rows' combinations, the stake r in {1} and the raises maximising r·EV (ties to the
  // smaller); the outcomes (q·P(v)·n/total, r·net), the expected net and the expected stake.
  const peekPlay = (bet, nets) => {
    const { raises, rules } = bet.live.peek;
    const stakes = [1n, ...raises].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const outcomes = [];
    const cells = rules.map(() => []); // per rule, each cell's [stake r*, conditional EV]
    let mean = ZERO;
    let stake = ZERO;
    let base = ZERO; // the expected net staking 1 in every cell (PeekRule.base_ev, weighed)
    rules.forEach((rule, j) => {
      for (const [P, counts] of rule.cells) {
        const total = counts.reduce((a, n) => a + n, 0n);
        if (total === 0n) continue;
        const ev = counts
          .reduce((sum, n, i) => sum.add(nets[i].mul(new Q(n))), ZERO)
          .div(new Q(total));
        let best = 1n;
        for (const r of stakes) if (new Q(r).mul(ev).cmp(new Q(best).mul(ev)) > 0) best = r;
        const weight = rule.probability.mul(P);
        const r = new Q(best);
        mean = mean.add(weight.mul(r).mul(ev));
        stake = stake.add(weight.mul(r));
        base = base.add(weight.mul(ev));
        cells[j].push([best, ev]);
        counts.forEach((n, i) => {
          if (n !== 0n) outcomes.push([weight.mul(new Q(n, total)), r.mul(nets[i])]);
        });
      }
    });
    const reach = rules.reduce((sum, rule) => sum.add(rule.probability), ZERO);
    return { outcomes, mean, stake, base, reach, cells, largest: stakes[stakes.length - 1] };
  };
  // A peek bet's figures and decision tables (report/live.py _peek_blocks): the RTPs of never
  // raising and always raising the most (PeekFigures._rtp), the value of peeking, the expected
  // stake, and each cell's decision (as words and as the chart's letter) and conditional edge.
  const DECISIONS = new Map([[1n, ["keep", "K"]], [2n, ["double", "D"]], [3n, ["triple", "T"]]]);
  const peekValues = (play, fee, rtp, put) => {
    const staking = (r) => ONE.add(r.mul(play.base).sub(fee).div(r.mul(play.reach).add(fee)));
    const never = staking(ONE);
    const always = staking(new Q(play.largest));
    const value = rtp.sub(never);
    const shown = [
      ["peek.rtp_never_raise", pct(never), never],
      ["peek.rtp_always_max", pct(always), always],
      ["peek.value_of_peeking", `${signed(value.mul(HUNDRED), PRECISION.percent)} pp`, value],
      ["peek.expected_stake", fixed(play.stake, PRECISION.return), play.stake],
    ];
    for (const [key, text, x] of shown) {
      put(key, text);
      put(key, exact(x), "", "exact");
    }
    play.cells.forEach((cells, j) =>
      cells.forEach(([r, ev], i) => {
        const [word, letter] = DECISIONS.get(r) || [`\u00d7${r}`, `\u00d7${r}`];
        const edge = ZERO.sub(ev);
        put(`peek.${j}.decision`, word, i);
        put(`peek.${j}.letter`, letter, i);
        put(`peek.${j}.edge`, pct(edge), i);
        put(`peek.${j}.edge`, exact(edge), i, "exact");
      }),
    );
  };
  // The outcomes of exactodds/bets/returns.py (probability, net per unit stake before the
  // fee), a peek's under its optimal decision (play: null for other bets).
  const betOutcomes = (bet, nets) => {
    if (bet.live !== null && bet.live.peek !== null) {
      const play = peekPlay(bet, nets.map((net, k) => unitNet(bet, k, net)));
      return { outcomes: play.outcomes, play };
    }
    return { outcomes: nets.flatMap((net, k) => rowOutcomes(bet, k, net)), play: null };
  };
  // Why the bet's multiplier tables cannot be used as set (weights unread or not a
  // distribution), or null.
  const tableProblems = (bet) =>
    bet.tables.map((t) => t.problem).filter((p) => p !== null);

  // A figure as the sheet shows it, by its kind (exactodds/report/figures.py Kind); null for a
  // figure shown only as an exact fraction.
  const showFigure = (kind, value, notation) => {
    if (value === null) return DASH;
    switch (kind) {
      case "percent":
        return pct(value);
      case "signed":
        return signed(value, PRECISION.return);
      case "units":
        return fixed(value, PRECISION.return);
      case "sqrt":
        return sqrtFixed(value, PRECISION.std_dev);
      case "volatility":
        return fixedZSqrt(ZERO, 1, CONFIDENCE.vi_z, value, PRECISION.std_dev);
      case "payout":
        return value.sign() > 0 ? stated(value, "", notation) : DASH;
      case "odds":
        return value.sign() > 0 ? oneIn(value) : DASH;
      default:
        return null;
    }
  };

  // Every figure of a bet whose payouts all parse: a map "figure|row|form" -> text.
  const betValues = (bet, payouts) => {
    const values = new Map();
    const put = (figure, text, row = "", form = "") => values.set(`${figure}|${row}|${form}`, text);
    const nets = payouts.map((p) => p.net);
    rowValues(bet, payouts, put);
    const { outcomes, play } = betOutcomes(bet, nets);
    const peek = play !== null;
    let mean = ZERO;
    let push = ZERO;
    let hit = ZERO;
    let second = ZERO;
    let top = null;
    for (const [p, net] of outcomes) {
      const ret = p.mul(net);
      mean = mean.add(ret);
      if (net.sign() === 0) push = push.add(p);
      if (net.sign() > 0) hit = hit.add(p);
      second = second.add(ret.mul(net));
      if (p.sign() > 0 && (top === null || net.cmp(top) > 0)) top = net;
    }
    const largest = top === null ? ZERO : top;
    let largestP = ZERO;
    for (const [p, net] of outcomes) {
      if (largest.sign() > 0 && net.eq(largest)) largestP = largestP.add(p);
    }
    const variance = second.sub(mean.mul(mean));
    // the fee is paid every round and never returned; RTP and house edge are per money paid
    const fee = bet.live === null ? ZERO : bet.live.feeValue;
    const ev = mean.sub(fee);
    const paid = (peek ? play.stake : ONE).add(fee);
    const rtp = ONE.add(ev.div(paid));
    const edge = ZERO.sub(ev).div(paid);
    const resolved = ONE.sub(push);
    const edgeResolved = resolved.sign() === 0 ? null : edge.div(resolved);
    // The quantities of exactodds/figures/metrics.py; the figures shown are the page's list
    // (DATA.figures, from exactodds/report/figures.py), each computed from one of them.
    const quantities = {
      house_edge: edge,
      house_edge_resolved: edgeResolved,
      rtp,
      ev,
      hit_frequency: hit,
      push_probability: push,
      variance,
      largest_win: largest,
      largest_win_probability: largestP,
      rtp_per_stake: paid.add(ev),
      paid,
      fee,
      mean_net: mean,
    };
    if (bet.rounding !== null) quantities.unrounded_rtp = rtpAt({ ...bet, rounding: null }, nets, ONE);
    if (peek) peekValues(play, fee, rtp, put);
    // a streak bet (exactodds/bets/streak.py): its house edge spread over the rounds a bet lasts
    if (bet.streak !== null) put("edge_per_round", pct(edge.div(bet.streak.expectedRounds)));
    const notation = DATA.notation === "both" ? "to" : DATA.notation;
    for (const figure of DATA.figures) {
      if (!Object.hasOwn(quantities, figure.source)) continue;
      const value = quantities[figure.source];
      const shown = showFigure(figure.kind, value, notation);
      if (shown !== null) put(figure.key, shown);
      if (figure.exact) put(figure.key, value === null ? DASH : exact(value), "", "exact");
    }
    CONFIDENCE.rounds.forEach((n, i) => {
      const spread = variance.mul(new Q(10000n)).div(new Q(BigInt(n)));
      const center = rtp.mul(HUNDRED);
      CONFIDENCE.z.forEach((z, j) => {
        const low = fixedZSqrt(center, -1, z, spread, PRECISION.percent);
        const high = fixedZSqrt(center, 1, z, spread, PRECISION.percent);
        put("confidence", `${low}% to ${high}%`, i * CONFIDENCE.z.length + j);
      });
    });
    if (bet.rounding !== null) {
      const base = quantities.unrounded_rtp;
      bet.stakes.forEach((stake, i) => {
        const at = rtpAt(bet, nets, stake);
        put("rtp_by_stake.rtp", pct(at), i);
        put("rtp_by_stake.rtp", exact(at), i, "exact");
        const difference = signed(at.sub(base).mul(HUNDRED), PRECISION.percent);
        put("rtp_by_stake.difference", `${difference} pp`, i);
        put("rtp_by_stake.equals_unrounded", at.eq(base) ? "yes (exact)" : "no", i);
      });
    }
    // the sheet flags no streak bet (its section has no flag)
    return { values, favourable: bet.streak === null ? ev.sign() > 0 : false, ev };
  };

  // The figures of single rows that parse (also when another row does not).
  const rowValues = (bet, payouts, put) => {
    // a progressive bet's examples are placed with its fixed wager (worked_examples.example_stake)
    const exampleStake = bet.progressive ? bet.progressive.stake : EXAMPLE_STAKE;
    payouts.forEach((payout, k) => {
      if (payout.net === undefined) return;
      const { net, text } = payout;
      put("pays", stated(net, text, DATA.notation), k);
      put("to_one", toOne(net), k);
      put("for_one", forOne(net), k);
      const unit = rowNet(bet, unitNet(bet, k, net), exampleStake);
      const paid = exampleStake.add(exampleStake.mul(unit));
      put("example.returns", formatNumber(paid), k);
      const outcomes = rowOutcomes(bet, k, net);
      if (outcomes === null) return; // its multiplier table cannot be used as set
      const ret = outcomes.reduce((sum, [p, x]) => sum.add(p.mul(x)), ZERO);
      put("return", signed(ret, PRECISION.return), k);
      put("return", exact(ret), k, "exact");
      productValues(bet, k, net, put);
    });
  };

  // A multiplied row's product tables (report/live.py _products_blocks): its mean and top
  // product with the top's odds, and each printed product's net, its probability given the row
  // and per round (0 for a product the weights set here no longer give).
  const PRODUCT_FIELD = /^product\.(\d+)\.(net|probability|per_round)$/;
  const productValues = (bet, k, net, put) => {
    const live = bet.live === null ? null : bet.live.rows[k];
    if (live === null || live.table === null) return;
    const products = new Map(rowProducts(TABLES.get(live.table), live.patterns));
    const row = bet.rows[k].probability;
    let mean = ZERO;
    let top = [1n, ONE]; // _top_product's default: no product has a chance
    for (const [m, q] of products) {
      mean = mean.add(q.mul(new Q(m)));
      if (q.sign() > 0) top = [m, q]; // ascending: the last with a chance is the largest
    }
    put("products.mean", fixed(mean, PRECISION.return), k);
    put("products.top", `\u00d7${top[0]}`, k);
    put("products.top_odds", oneIn(top[1]), k);
    put("products.top_per_round", oneIn(row.mul(top[1])), k);
    for (const f of bet.fields) {
      const match = f.row === k ? PRODUCT_FIELD.exec(f.figure) : null;
      if (match === null) continue;
      const m = BigInt(match[1]);
      const q = products.get(m) ?? ZERO;
      if (match[2] === "net") {
        const at = net.sign() > 0 ? net.mul(new Q(m)).sub(live.commission) : net; // Row.net_at
        put(f.figure, formatNumber(at), k);
      } else if (match[2] === "per_round") {
        put(f.figure, fixed(row.mul(q), PRECISION.probability), k);
      } else {
        put(f.figure, fixed(q, PRECISION.probability), k);
        put(f.figure, exact(q), k, "exact");
      }
    }
  };

  // -- the page ----------------------------------------------------------------------------------

  const make = (tag, attributes = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    node.append(...children);
    return node;
  };
  const strong = (text) => make("strong", {}, text);

  const bets = DATA.bets.map((b, index) => ({
    index,
    id: b.id,
    name: b.name,
    data: b,
    rounding:
      b.rounding === null
        ? null
        : { step: Q.of(b.rounding.step), mode: b.rounding.mode, text: b.rounding.text },
    stakes: b.stakes.map((s) => Q.of(s)),
    // a progressive bet's stake and meters, each with its input and the value it holds
    progressive:
      b.progressive === null
        ? null
        : {
            stake: Q.of(b.progressive.stake),
            meters: new Map(
              b.progressive.meters.map((m) => [
                m.name,
                {
                  name: m.name,
                  text: m.text,
                  reset: Q.of(m.reset),
                  cap: m.cap === null ? null : Q.of(m.cap),
                  capText: m.cap_text,
                  value: Q.of(m.reset),
                  input: null,
                },
              ]),
            ),
            // the top meter's values on the RTP-against-meter chart (report/progressive.py)
            points: b.progressive.points.map((m) => Q.of(m)),
          },
    // a streak bet's expected rounds per bet; its rows hold exact probabilities
    streak: b.streak === null ? null : { expectedRounds: Q.of(b.streak.expected_rounds) },
    // a bet with a fee, multiplied rows or a peek (designer.py _live): the fee as set (null:
    // unread), each row's commission and identity patterns, a peek's cells
    live:
      !b.live
        ? null
        : {
            fee: Q.of(b.live.fee),
            feeValue: Q.of(b.live.fee),
            feeText: b.live.fee_text,
            feeInput: null,
            rows: b.live.rows.map((r) => ({
              commission: Q.of(r.commission),
              table: r.table,
              patterns: r.patterns.map(([m, p]) => [m, Q.of(p)]),
            })),
            peek:
              b.live.peek === null
                ? null
                : {
                    raises: b.live.peek.raises.map((r) => BigInt(r)),
                    rules: b.live.peek.rules.map((rule) => ({
                      positions: rule.positions,
                      probability: Q.of(rule.probability),
                      cells: rule.cells.map(([p, rows]) => [Q.of(p), rows.map((n) => BigInt(n))]),
                    })),
                  },
          },
    tables: !b.live
      ? []
      : [...new Set(b.live.rows.map((r) => r.table).filter((t) => t !== null))].map((t) =>
          TABLES.get(t),
        ),
    // per round, or per offered round for a bet with an offer (metrics.bet_figures); a streak
    // bet's per bet, rounds independent
    rows: b.rows.map((r) => ({
      probability:
        r.probability === undefined
          ? new Q(BigInt(r.combinations), BigInt(b.total) || 1n)
          : Q.of(r.probability),
    })),
    inputs: [],
    fields: [],
    simulated: [], // a streak bet's one-shoe figures: a simulation, never recomputed
    flagPara: null,
    flagRow: null,
    panel: null,
    favourable: null,
  }));
  const byId = new Map(bets.map((b) => [b.id, b]));
  let favouriteNames = null;

  for (const input of document.querySelectorAll("input.pays")) {
    const bet = byId.get(input.dataset.bet);
    if (bet !== undefined && ours(input)) bet.inputs[Number(input.dataset.row)] = input;
  }
  for (const node of document.querySelectorAll("[data-figure]")) {
    if (!ours(node)) continue;
    const { figure, row, form } = node.dataset;
    if (figure === "favourable_bets") {
      favouriteNames = node;
      continue;
    }
    const bet = byId.get(node.dataset.bet);
    if (bet === undefined) continue;
    if (figure.startsWith("one_shoe.")) {
      bet.simulated.push({ node, figure, printed: node.textContent });
      continue;
    }
    bet.fields.push({ node, figure, row: row === undefined ? "" : Number(row), form: form || "" });
  }
  const tableOf = (bet, figure) => {
    const found = bet.fields.find((f) => f.figure === figure);
    return found === undefined ? null : found.node.closest("table");
  };
  for (const bet of bets) {
    bet.returnTable = bet.inputs.length ? bet.inputs[0].closest("table") : null;
    bet.figureTable = tableOf(bet, "volatility_index");
    bet.favourable = bet.fields.some((f) => f.figure === "player_favourable" && f.node.textContent);
    for (const f of bet.fields) {
      const para = f.node.closest("p.flag");
      if (f.figure === "ev" && para !== null) bet.flagPara = para;
      if (f.figure === "player_favourable" && f.node.closest("table") === bet.figureTable) {
        bet.flagRow = f.node.closest("tr");
      }
    }
  }

  const field = (bet, figure, text) =>
    make("span", { "data-bet": bet.id, "data-figure": figure }, text);

  // The flag paragraph above the return table and the flag row of the figures, as printed for a
  // player-favourable bet.
  const showFlags = (bet, favourable, evText) => {
    if (favourable && bet.flagPara === null && bet.returnTable !== null) {
      const ev = field(bet, "ev", evText);
      const parts = [strong(`${FLAG}:`), " EV = ", ev, " per unit staked."];
      bet.flagPara = make("p", { class: "flag" }, ...parts);
      bet.returnTable.before(bet.flagPara);
      bet.fields.push({ node: ev, figure: "ev", row: "", form: "" });
    } else if (!favourable && bet.flagPara !== null) {
      bet.flagPara.remove();
      bet.flagPara = null;
    }
    if (favourable && bet.flagRow === null && bet.figureTable !== null) {
      const flag = field(bet, "player_favourable", strong(FLAG));
      bet.flagRow = make("tr", {}, make("td", {}, "Flag"), make("td", { class: "r" }, flag));
      bet.figureTable.tBodies[0].append(bet.flagRow);
    } else if (!favourable && bet.flagRow !== null) {
      bet.flagRow.remove();
      bet.flagRow = null;
    }
    bet.fields = bet.fields.filter((f) => f.node.isConnected);
  };

  // The line under a bet's return table: its rounding, why a payout cannot be read, a reset.
  const panelOf = (bet) => {
    if (bet.panel === null && bet.returnTable !== null) {
      const note = make("span", { class: "rounding" });
      if (bet.rounding !== null) {
        note.textContent =
          `Recomputed figures are, as printed, for a stake of 1 with its return rounded ` +
          `${bet.rounding.mode} to a multiple of ${bet.rounding.text}; the RTP at other stakes ` +
          `is in the RTP-by-stake table below, recomputed too. `;
      }
      const meters = make("span", { class: "meters" });
      if (bet.progressive !== null) {
        const stake = formatNumber(bet.progressive.stake);
        for (const meter of bet.progressive.meters.values()) {
          const label = meter.name === "jackpot" ? "Jackpot meter" : `Meter ${meter.name}`;
          meter.input = make("input", {
            class: "meter", type: "text", size: "14", spellcheck: "false",
            "data-bet": bet.id, "data-meter": meter.name, "aria-label": `${label} of ${bet.name}`,
          });
          meter.input.defaultValue = meter.text;
          const cap = meter.capText === null ? "" : `, cap ${meter.capText}`;
          meters.append(`${label}: `, meter.input, ` (reset ${meter.text}${cap}). `);
        }
        meters.append(
          `Its jackpot rows pay their share of the meter for the stake of ${stake}; ` +
            "the figures above are recomputed at these meters. ",
        );
      }
      if (bet.live !== null && bet.live.fee.sign() > 0) {
        bet.live.feeInput = make("input", {
          class: "fee", type: "text", size: "8", spellcheck: "false",
          "data-bet": bet.id, "aria-label": `Fee of ${bet.name}`,
        });
        bet.live.feeInput.defaultValue = bet.live.feeText;
        meters.append(
          "Fee: ", bet.live.feeInput,
          " of the stake, paid every round and never returned; the RTP and house edge are " +
            "per money paid (stake and fee). ",
        );
      }
      if (bet.live !== null) {
        bet.live.note = make("span", { class: "live-note", hidden: "" });
        bet.live.note.textContent =
          "Recomputed for the payouts, fee and weights set here: the figures, the fee " +
          "table, the return chart, the products' tables and charts and the peek's figures " +
          "and decisions" +
          (bet.live.peek === null ? ". " : "; the RTP by reveal rule below stays as printed. ");
        meters.append(bet.live.note);
      }
      const error = make("span", { class: "error", id: `designer-error-${bet.index}` });
      const reset = make(
        "button",
        { type: "button", "data-action": "reset-bet", "data-bet": bet.id, hidden: "" },
        `Reset ${bet.name}`,
      );
      const attributes = { class: "designer-bet", "aria-live": "polite" };
      bet.panel = make("p", attributes, note, meters, error, " ", reset);
      bet.returnTable.after(bet.panel);
      for (const input of bet.inputs) input.setAttribute("aria-describedby", error.id);
      for (const input of meterInputs(bet)) input.setAttribute("aria-describedby", error.id);
    }
    return bet.panel;
  };

  const meterInputs = (bet) => {
    const inputs =
      bet.progressive === null
        ? []
        : [...bet.progressive.meters.values()].map((m) => m.input).filter((i) => i !== null);
    if (bet.live !== null && bet.live.feeInput !== null) inputs.push(bet.live.feeInput);
    return inputs;
  };
  const weightInputs = (tables) =>
    tables.flatMap((t) => [...t.cards, ...t.values].map((w) => w.input).filter((i) => i !== null));
  const isEdited = (bet) =>
    [...bet.inputs, ...meterInputs(bet), ...weightInputs(bet.tables)].some(
      (input) => input.value !== input.defaultValue,
    );

  // The bet's charts, in its section (after the return table, before the next heading), by
  // what they show (figure.chart[data-chart], exactodds/report/html.py): "return", its return
  // distribution, and for a progressive bet "meter", its RTP against the top meter; each with
  // its printed content and title.
  const chartsOf = (bet) => {
    const found = {};
    let node = bet.returnTable === null ? null : bet.returnTable.nextElementSibling;
    while (node !== null && !/^H[1-3]$/.test(node.tagName)) {
      if (node.matches('figure.chart[data-chart="products"]')) {
        // a multiplied row's products (report/live.py), one chart per row in row order
        if (found.products === undefined) found.products = [];
        found.products.push({
          node,
          printed: [...node.childNodes].map((n) => n.cloneNode(true)),
          title: node.querySelector("svg > title").textContent,
        });
      } else if (
        node.matches("figure.chart[data-chart]") &&
        !Object.hasOwn(found, node.dataset.chart)
      ) {
        found[node.dataset.chart] = {
          node,
          printed: [...node.childNodes].map((n) => n.cloneNode(true)),
          title: node.querySelector("svg > title").textContent,
        };
      }
      node = node.nextElementSibling;
    }
    return found;
  };
  const SVG = "http://www.w3.org/2000/svg";
  const CHART = { width: 640, bar: 22, label: 190, value: 90 };
  const svgNode = (tag, attributes, text) => {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const chartPercent = (x, places = 4) => `${fixed(x.mul(HUNDRED), places)}%`;
  const outcomeLabel = (net) => {
    if (net.sign() > 0) return `wins ${formatNumber(net)} to 1`;
    if (net.sign() === 0) return "push";
    if (net.eq(MINUS_ONE)) return "loses the stake";
    return `loses ${formatNumber(ZERO.sub(net))} of the stake`;
  };
  // (label, probability) by net result, largest win first, impossible outcomes left out.
  const returnBars = (bet, payouts) => {
    const byNet = [];
    // the rows' outcomes, a multiplied row's by product; a peek bet's with the stake kept, as
    // the printed chart (report/live.py)
    for (const [p, net] of payouts.flatMap((x, k) => rowOutcomes(bet, k, x.net))) {
      if (p.sign() === 0) continue;
      const found = byNet.find((e) => e.net.eq(net));
      if (found === undefined) byNet.push({ net, p });
      else found.p = found.p.add(p);
    }
    byNet.sort((a, b) => b.net.cmp(a.net));
    return byNet.map(({ net, p }) => [outcomeLabel(net), p]);
  };
  const drawChart = (chart, title, bars, places = 4) => {
    const text = `${bars.map(([label, p]) => `${label}: ${chartPercent(p, places)}`).join("; ")}.`;
    const top = bars.reduce((m, [, p]) => (p.cmp(m) > 0 ? p : m), ZERO);
    const most = top.sign() === 0 ? ONE : top;
    const span = CHART.width - CHART.label - CHART.value;
    // charts.py _label_width: wider for labels that would not fit, up to 420 px
    const longest = bars.reduce((m, [label]) => Math.max(m, [...label].length), 0);
    const labelWidth = Math.max(CHART.label, Math.min(420, 16 + Math.ceil(7.2 * longest)));
    const width = CHART.width + labelWidth - CHART.label;
    const height = CHART.bar * bars.length + 8;
    const font = { "font-family": "system-ui, sans-serif", "font-size": "13", fill: "#1b1f24" };
    const svg = svgNode("svg", {
      role: "img", width, height, viewBox: `0 0 ${width} ${height}`,
    });
    svg.append(svgNode("title", {}, title), svgNode("desc", {}, text));
    bars.forEach(([label, p], k) => {
      const y = 4 + k * CHART.bar;
      const length = Number(roundHalfEven(p.div(most).mul(new Q(BigInt(span * 10))))) / 10;
      const middle = y + CHART.bar / 2 + 4;
      svg.append(
        svgNode("text", { x: labelWidth - 8, y: middle, "text-anchor": "end", ...font }, label),
        svgNode("rect", {
          x: labelWidth, y: y + 3, width: Math.max(length, 1), height: CHART.bar - 6,
          fill: "#2f6fb3",
        }),
        svgNode(
          "text",
          { x: labelWidth + length + 6, y: middle, ...font },
          chartPercent(p, places),
        ),
      );
    });
    chart.querySelector("svg").replaceWith(svg);
    chart.querySelector("figcaption").textContent = `${title}: ${text}`;
  };
  // A chart as printed, or redrawn with these bars and title; a note ends its caption.
  const showChart = (chart, redrawn, note, stale = false) => {
    chart.node.replaceChildren(...chart.printed.map((n) => n.cloneNode(true)));
    if (redrawn !== null) drawChart(chart.node, redrawn.title, redrawn.bars, redrawn.places);
    chart.node.classList.toggle("stale", stale);
    chart.node.classList.toggle("redrawn", redrawn !== null);
    if (note !== "") {
      const css = stale ? "stale-note" : "redrawn-note";
      chart.node.querySelector("figcaption").append(make("span", { class: css }, ` ${note}`));
    }
  };
  const amountText = (x) => {
    const [whole, cents] = fixed(x, 2).split(".");
    return `${grouped(BigInt(whole))}.${cents}`;
  };
  // The RTP against the top meter at the chart's printed values and at the meter set (the
  // other meters as set), each by the bet's rows paid at that meter, as rtp_at in
  // exactodds/bets/progressive.py computes it.
  const meterBars = (bet) => {
    const meters = [...bet.progressive.meters.values()];
    const top = meters[0];
    const set = top.value;
    const points = bet.progressive.points.filter((m) => !m.eq(set));
    points.push(set);
    points.sort((a, b) => a.cmp(b));
    const bars = points.map((m) => {
      top.value = m;
      const nets = bet.inputs.map((input) => parseRow(bet, input.value).net);
      const label = `meter ${amountText(m)}${m.eq(set) ? " (set)" : ""}`;
      return [label, rtpAt(bet, nets, ONE)];
    });
    top.value = set;
    const others = meters.slice(1).some((m) => !m.value.eq(m.reset));
    return {
      title: `${bet.charts.meter.title}${others ? " (the other meters as set)" : ""}`,
      bars,
    };
  };
  // A bet's charts after an edit: the return distribution redrawn for the payouts and meters
  // set; the RTP against the meter redrawn for the meters set, but shown as printed once a
  // payout is edited, like the rest of its progressive section (for the sheet's payouts).
  const markCharts = (bet, payouts) => {
    if (bet.charts === undefined) bet.charts = chartsOf(bet); // as printed: before any redraw
    const { return: ret, meter, products } = bet.charts;
    if (products !== undefined && bet.live !== null) markProducts(bet, products);
    const edited = isEdited(bet);
    const unread = "As printed: this chart shows the sheet's payouts and meters; a payout or " +
      "meter above cannot be read.";
    if (ret !== undefined) {
      if (!edited) showChart(ret, null, "");
      else if (payouts === null) showChart(ret, null, unread, true);
      else {
        const note = bet.progressive === null
          ? "Redrawn for the edited payouts."
          : "Redrawn for the payouts and meters set on this page.";
        showChart(ret, { title: ret.title, bars: returnBars(bet, payouts) }, note);
      }
    }
    if (meter === undefined) return;
    const paysEdited = bet.inputs.some((input) => input.value !== input.defaultValue);
    if (paysEdited) {
      const note = "As printed: for the sheet's payouts, like the rest of this section; the " +
        "figures above are recomputed for the payouts edited on this page.";
      showChart(meter, null, note, true);
    } else if (!edited) showChart(meter, null, "");
    else if (payouts === null) showChart(meter, null, unread, true);
    else showChart(meter, meterBars(bet), "Redrawn for the meters set on this page.");
  };

  // A multiplied row's product chart (probability given the row: the weights', not the pays'):
  // redrawn for the weights set, at the printed chart's decimals (report/live.py _PLACES).
  const PRODUCT_PLACES = 6;
  const markProducts = (bet, charts) => {
    const rows = bet.live.rows.filter((r) => r.table !== null && r.patterns.length > 0);
    const edited = weightInputs(bet.tables).some((input) => input.value !== input.defaultValue);
    charts.forEach((chart, i) => {
      const row = rows[i];
      const table = row === undefined ? null : TABLES.get(row.table);
      if (!edited || table === null) showChart(chart, null, "");
      else if (table.problem !== null) {
        const note = "As printed: the multiplier weights set on this page cannot be used.";
        showChart(chart, null, note, true);
      } else {
        const bars = rowProducts(table, row.patterns)
          .filter(([, q]) => q.sign() > 0)
          .map(([m, q]) => [`\u00d7${m}`, q]);
        const redrawn = { title: chart.title, bars, places: PRODUCT_PLACES };
        showChart(chart, redrawn, "Redrawn for the multiplier weights set on this page.");
      }
    });
  };

  // A streak bet's one-shoe figures were simulated for the printed payouts: once a payout is
  // edited they show a dash, and the caption says why, instead of stale values.
  const markSimulated = (bet) => {
    const edited = isEdited(bet);
    for (const f of bet.simulated) {
      f.node.classList.toggle("stale", edited);
      if (!edited) f.node.textContent = f.printed;
      else if (f.figure === "one_shoe.caption") {
        f.node.textContent =
          "Dealt from one shoe: a simulation of the printed payouts, not recomputed for the " +
          "payouts edited on this page (the dashes above); `exactodds report` on the exported " +
          "paytable simulates them.";
      } else f.node.textContent = DASH;
    }
  };

  // Parse the bet's payouts and show its figures: all of them when every payout parses, else the
  // rows that parse and a dash for the rest.
  const update = (bet) => {
    const panel = panelOf(bet); // made first: it holds a progressive bet's meters
    const problems = [];
    if (bet.live !== null && bet.live.feeInput !== null) {
      const input = bet.live.feeInput;
      try {
        bet.live.feeValue = parsePercent(input.value);
        input.removeAttribute("aria-invalid");
      } catch (error) {
        if (!(error instanceof PayoutError)) throw error;
        bet.live.feeValue = null;
        input.setAttribute("aria-invalid", "true");
        problems.push(`Fee: cannot read ${JSON.stringify(input.value)}: ${error.message}.`);
      }
      input.classList.toggle("edited", input.value !== input.defaultValue);
    }
    problems.push(...tableProblems(bet));
    for (const input of meterInputs(bet)) {
      if (input.dataset.meter === undefined) continue; // the fee
      const meter = bet.progressive.meters.get(input.dataset.meter);
      try {
        meter.value = parseMeter(input.value);
        input.removeAttribute("aria-invalid");
        const range = meterRange(meter, meter.value);
        if (range !== null) {
          meter.value = null; // no figure is computed from a meter the bet cannot show
          input.setAttribute("aria-invalid", "true");
          const what = `${meter.name} meter ${JSON.stringify(strip(input.value))}`;
          problems.push(`${what}: ${range}; no figure is computed from it.`);
        }
      } catch (error) {
        if (!(error instanceof PayoutError)) throw error;
        meter.value = null;
        input.setAttribute("aria-invalid", "true");
        const what = `${meter.name} meter: cannot read ${JSON.stringify(input.value)}`;
        problems.push(`${what}: ${error.message}.`);
      }
      input.classList.toggle("edited", input.value !== input.defaultValue);
    }
    const payouts = bet.inputs.map((input) => {
      try {
        return parseRow(bet, input.value);
      } catch (error) {
        if (error instanceof PayoutError) {
          return { error: error.message, meter: error instanceof MeterUnread };
        }
        throw error;
      }
    });
    bet.inputs.forEach((input, k) => {
      const bad = payouts[k].error !== undefined && !payouts[k].meter;
      if (bad) {
        input.setAttribute("aria-invalid", "true");
        const what = `Row ${k + 1} (${bet.data.rows[k].event})`;
        problems.push(`${what}: cannot read ${JSON.stringify(input.value)}: ${payouts[k].error}.`);
      } else {
        input.removeAttribute("aria-invalid");
      }
      input.classList.toggle("edited", input.value !== input.defaultValue);
      const mirror = input.nextElementSibling;
      if (mirror !== null && mirror.classList.contains("print-only")) {
        mirror.textContent = input.value;
      }
    });
    let result;
    if (problems.length === 0) {
      result = betValues(bet, payouts);
    } else {
      const values = new Map();
      rowValues(bet, payouts, (figure, text, row = "", form = "") =>
        values.set(`${figure}|${row}|${form}`, text),
      );
      result = { values, favourable: null, ev: null };
    }
    bet.favourable = result.favourable;
    showFlags(bet, result.favourable === true, result.values.get("ev||") || DASH);
    for (const f of bet.fields) {
      if (FIXED.has(f.figure)) continue; // does not depend on payouts: as printed
      if (f.figure === "player_favourable") {
        const flag = result.favourable ? strong(FLAG) : "";
        f.node.replaceChildren(result.favourable === null ? DASH : flag);
      } else {
        f.node.textContent = result.values.get(`${f.figure}|${f.row}|${f.form}`) || DASH;
      }
    }
    markCharts(bet, problems.length === 0 ? payouts : null);
    if (bet.live !== null && bet.live.note !== undefined) bet.live.note.hidden = !isEdited(bet);
    markSimulated(bet);
    if (panel !== null) {
      panel.querySelector(".error").textContent = problems.join(" ");
      panel.querySelector("button").hidden = !isEdited(bet);
      panel.hidden =
        bet.rounding === null && bet.progressive === null && bet.live === null &&
        problems.length === 0 && !isEdited(bet);
    }
  };

  // What depends on every bet: the summary's flag, the edited banner, notes on sections that are
  // not recomputed.
  const summaryHeading = document.getElementById("summary");
  const designer = document.getElementById("designer");
  const staleNotes = [
    ["compliance", "these checks are"],
    ["verification", "this verification is"],
  ];
  let banner = null;
  const refreshPage = () => {
    const favourable = bets.filter((b) => b.favourable === true);
    const para = favouriteNames === null ? null : favouriteNames.closest("p");
    if (favourable.length && favouriteNames === null && summaryHeading !== null) {
      const table = summaryHeading.nextElementSibling;
      favouriteNames = make("span", { "data-figure": "favourable_bets" });
      const tail = " \u2014 expected value above zero.";
      const created = make("p", { class: "flag" }, strong(`${FLAG}:`), " ", favouriteNames, tail);
      if (table !== null) table.after(created);
    } else if (!favourable.length && para !== null) {
      para.remove();
      favouriteNames = null;
    }
    if (favouriteNames !== null) {
      favouriteNames.textContent = favourable.map((b) => `${b.name} (${b.id})`).join(", ");
    }
    const edited = bets.filter(isEdited);
    if (edited.length && banner === null && designer !== null) {
      banner = make("p", { class: "flag", id: "designer-edited" });
      designer.before(banner);
    } else if (!edited.length && banner !== null) {
      banner.remove();
      banner = null;
    }
    if (banner !== null) {
      const names = edited.map((b) => `${b.name} (${b.id})`).join(", ");
      banner.replaceChildren(
        strong("Edited on this page:"),
        ` the payouts, meters, fees or multiplier weights of ${names} differ from the ` +
          `paytable ${DATA.file || ""}; their ` +
          "figures are recomputed for them. The paytable's file, its SHA-256 and the " +
          "Compliance section still describe the paytable as printed.",
      );
    }
    for (const [id, text] of staleNotes) {
      const heading = document.getElementById(id);
      if (heading === null) continue;
      const next = heading.nextElementSibling;
      const present = next !== null && next.hasAttribute("data-stale");
      if (edited.length && !present) {
        const note = `As printed: ${text} of the paytable's own payouts, not of the payouts ` +
          "edited on this page.";
        heading.after(make("p", { class: "flag", "data-stale": "" }, note));
      }
      else if (!edited.length && present) next.remove();
    }
    if (exported !== null && exported !== exportText()) {
      exportStatus.textContent =
        "The payouts changed since the export: export again to include them.";
    }
  };

  // -- export as TOML ----------------------------------------------------------------------------

  const tomlString = (text) => {
    const escapes = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\" };
    let out = '"';
    for (const ch of text) {
      const code = ch.codePointAt(0);
      if (escapes[code] !== undefined) out += escapes[code];
      else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, "0")}`;
      else if (code >= 0xd800 && code <= 0xdfff) out += "\\ufffd";
      else out += ch;
    }
    return `${out}"`;
  };

  // The edited paytable as TOML, or null while a payout cannot be read: the paytable's text as
  // the page carries it (its own file, or exactodds' writing of it; exactodds/bets/paytable_toml.py)
  // with only the edited payouts put in, and the edits listed after the description, as
  // Paytable.with_payout does in Python (edited_description: the description may state the old
  // payouts).
  const exportText = () => {
    const inputs = [...bets.flatMap((bet) => [...bet.inputs, ...meterInputs(bet)]),
      ...weightInputs([...TABLES.values()])];
    if (inputs.some((input) => input.hasAttribute("aria-invalid"))) return null;
    const EXPORT = DATA.export;
    const clean = (text) => text.replace(/[\u0000-\u001f\u007f]/g, " ");
    const edits = [];
    const payouts = new Map();
    for (const bet of bets) {
      bet.data.rows.forEach((row, k) => {
        const input = bet.inputs[k];
        if (input !== undefined && input.value !== input.defaultValue) {
          const pays = strip(input.value);
          payouts.set(`${k}|${bet.id}`, pays);
          edits.push(`${bet.data.name}: ${row.event} ${pays} (was ${row.text})`);
        }
      });
    }
    // fees and multiplier weights as set (designer.py _live_slots: their slots in the text)
    const fees = new Map();
    for (const bet of bets) {
      const input = bet.live === null ? null : bet.live.feeInput;
      if (input !== null && input.value !== input.defaultValue) {
        fees.set(bet.id, strip(input.value));
        edits.push(`${bet.data.name}: fee ${strip(input.value)} (was ${input.defaultValue})`);
      }
    }
    const weights = new Map();
    for (const table of TABLES.values()) {
      for (const [part, entries] of [["cards", table.cards], ["values", table.values]]) {
        for (const w of entries) {
          if (w.input !== null && w.input.value !== w.input.defaultValue) {
            weights.set(`${table.name}|${part}|${w.key}`, strip(w.input.value));
            edits.push(`multipliers ${table.name} ${part} ${w.key}: ${strip(w.input.value)} ` +
              `(was ${w.text})`);
          }
        }
      }
    }
    const listed = [...EXPORT.edits, ...edits].join("; ");
    const description = !edits.length
      ? null
      : EXPORT.description
        ? `${EXPORT.description} Edited: ${listed}.`
        : `${EXPORT.name} with ${listed}.`;
    const out = [
      `# Exported from an exactodds designer page (${clean(DATA.software)}, sheet of ` +
        `${clean(DATA.date)}):\n`,
      "# the paytable of the sheet, with its payouts as edited there.\n",
    ];
    for (const piece of EXPORT.pieces) {
      if (typeof piece === "string") out.push(piece);
      else if (piece.fee !== undefined) {
        const fee = fees.get(piece.fee);
        out.push(fee === undefined ? piece.text : tomlString(fee));
      } else if (piece.weight !== undefined) {
        const weight = weights.get(piece.weight.join("|"));
        out.push(weight === undefined ? piece.text : tomlString(weight));
      } else if (piece.bet !== "") {
        const pays = payouts.get(`${piece.row}|${piece.bet}`);
        out.push(pays === undefined ? piece.text : tomlString(pays));
      } else if (description === null) out.push(piece.text);
      else if (piece.insert) out.push(`description = ${tomlString(description)}\n`);
      else out.push(tomlString(description));
    }
    return out.join("");
  };

  const exportArea = document.querySelector("textarea[data-export]");
  const exportStatus = document.querySelector("[data-export-status]");
  const download = document.querySelector("a[data-download]");
  let exported = null;
  let blobUrl = null;
  const runExport = () => {
    const text = exportText();
    if (text === null) {
      exportStatus.textContent =
        "Some payouts, fees or weights cannot be read (marked in red): correct them first.";
      return;
    }
    exported = text;
    if (exportArea !== null) {
      exportArea.value = text;
      exportArea.hidden = false;
    }
    if (blobUrl !== null) URL.revokeObjectURL(blobUrl);
    blobUrl = URL.createObjectURL(new Blob([text], { type: "application/toml;charset=utf-8" }));
    if (download !== null) {
      download.href = blobUrl;
      download.download = DATA.export_name;
      download.textContent = `Download ${DATA.export_name}`;
      download.hidden = false;
    }
    const count = `${bets.length} bet${bets.length === 1 ? "" : "s"}`;
    exportStatus.textContent = `Exported ${count} as TOML (below).`;
  };

  const reset = (targets) => {
    const tables = [...new Set(targets.flatMap((bet) => bet.tables))];
    for (const input of weightInputs(tables)) input.value = input.defaultValue;
    for (const table of tables) if (table.error !== null) readTable(table);
    const all = bets.filter(
      (bet) => targets.includes(bet) || bet.tables.some((t) => tables.includes(t)),
    );
    for (const bet of targets) {
      for (const input of [...bet.inputs, ...meterInputs(bet)]) input.value = input.defaultValue;
    }
    for (const bet of all) update(bet);
    refreshPage();
  };

  document.addEventListener("input", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement)) return;
    const table = tableOfInput(input);
    if (table !== undefined && table.error !== null) {
      readTable(table);
      for (const bet of bets) if (bet.tables.includes(table)) update(bet);
      refreshPage();
      return;
    }
    const bet = byId.get(input.dataset.bet);
    if (bet === undefined) return;
    if (!bet.inputs.includes(input) && !meterInputs(bet).includes(input)) return;
    update(bet);
    refreshPage();
  });
  document.addEventListener("click", (event) => {
    const target = event.target;
    const button = target instanceof Element ? target.closest("button[data-action]") : null;
    if (button === null) return;
    const action = button.dataset.action;
    if (action === "reset") reset(bets);
    else if (action === "reset-bet" && byId.has(button.dataset.bet)) {
      reset([byId.get(button.dataset.bet)]);
    }
    else if (action === "export") runExport();
  });

  // The multiplier tables' weights, editable in the designer section: each table's number of
  // cards and multiplier values with their probabilities; every bet multiplying by a table is
  // recomputed when one changes (its products mixed anew from the identity patterns).
  const readTable = (table) => {
    const problems = [];
    for (const [part, entries] of [["cards", table.cards], ["values", table.values]]) {
      let sum = ZERO;
      let readable = true;
      for (const w of entries) {
        const input = w.input;
        try {
          w.value = parseWeight(input.value);
          input.removeAttribute("aria-invalid");
          sum = sum.add(w.value);
        } catch (error) {
          if (!(error instanceof PayoutError)) throw error;
          w.value = null;
          readable = false;
          input.setAttribute("aria-invalid", "true");
          problems.push(`${part} ${w.key}: cannot read ${JSON.stringify(input.value)}: ` +
            `${error.message}`);
        }
        input.classList.toggle("edited", input.value !== input.defaultValue);
      }
      if (readable && !sum.eq(ONE)) {
        for (const w of entries) w.input.setAttribute("aria-invalid", "true");
        problems.push(`the ${part} probabilities sum to ${formatNumber(sum)}, not exactly 1`);
      }
    }
    table.cache.clear();
    table.problem = problems.length
      ? `Multiplier table ${table.name}: ${problems.join("; ")}; no figure is computed from it.`
      : null;
    table.error.textContent = table.problem || "";
  };
  if (designer !== null) {
    for (const table of TABLES.values()) {
      const para = make("p", { class: "multipliers", "data-table": table.name });
      const inputs = (part, entries, label) => {
        for (const w of entries) {
          w.input = make("input", {
            class: "weight", type: "text", size: "6", spellcheck: "false",
            "data-table": table.name, "data-part": part, "data-key": String(w.key),
            "aria-label": `Multiplier table ${table.name}: probability of ${label(w.key)}`,
          });
          w.input.defaultValue = w.text;
          para.append(` ${label(w.key)}: `, w.input);
        }
      };
      para.append(strong(`Multiplier table ${table.name}`), ". Number of cards —");
      inputs("cards", table.cards, (k) => `${k} card${k === 1 ? "" : "s"}`);
      para.append(". Each card's multiplier —");
      inputs("values", table.values, (v) => `\u00d7${v}`);
      const cap = table.cap === null ? "" : ` (products capped at ${table.cap})`;
      table.error = make("span", { class: "error" });
      para.append(`${cap}. Each part's probabilities must sum to exactly 1. `, table.error);
      designer.append(para);
    }
  }
  const tableOfInput = (input) =>
    input.classList.contains("weight") ? TABLES.get(input.dataset.table) : undefined;

  // Form values a browser restored on reload are recomputed; rounded bets show their note.
  for (const bet of bets) {
    if (bet.live !== null) panelOf(bet); // its fee input; the figures stay as printed
    if (isEdited(bet) || bet.rounding !== null || bet.progressive !== null) update(bet);
  }
  refreshPage();
  if (designer !== null) designer.hidden = false;

  globalThis.exactoddsDesigner = Object.freeze({
    // For tests and the console: the payout as "p/q", or why it cannot be read.
    parsePayout(text) {
      try {
        return { net: exact(parsePayout(String(text)).net) };
      } catch (error) {
        if (error instanceof PayoutError) return { error: error.message };
        throw error;
      }
    },
  });
})();
