/**
 * Just enough of Go to read other scanners' example strings out of their source: string literals, `+`, slices of
 * strings, `append`, `fmt.Sprintf("%s")`, and the helpers gitleaks' rule generator uses to build its samples
 * (`utils.GenerateSampleSecrets`, `secrets.NewSecret(<regex>)`, `utils.Hex("32")`…). Anything else evaluates to
 * "unknown" and is left out, so an example is only kept when its text is known exactly.
 */

const UNKNOWN = Symbol('unknown');

/** Go tokens: strings (interpreted and raw), identifiers (dotted), numbers, punctuation; comments dropped. */
export function tokenize(source) {
  const tokens = [];
  let at = 0;
  while (at < source.length) {
    const char = source[at];
    if (/\s/.test(char)) at++;
    else if (source.startsWith('//', at))
      at = source.indexOf('\n', at) === -1 ? source.length : source.indexOf('\n', at);
    else if (source.startsWith('/*', at)) at = source.indexOf('*/', at + 2) + 2 || source.length;
    else if (char === '`') {
      const end = source.indexOf('`', at + 1);
      tokens.push({ type: 'string', value: source.slice(at + 1, end) });
      at = end + 1;
    } else if (char === '"' || char === "'") {
      let end = at + 1;
      while (end < source.length && source[end] !== char) end += source[end] === '\\' ? 2 : 1;
      tokens.push({ type: char === '"' ? 'string' : 'rune', value: unquote(source.slice(at + 1, end)) });
      at = end + 1;
    } else if (/[A-Za-z_]/.test(char)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(source.slice(at, at + 200));
      tokens.push({ type: 'ident', value: match[0] });
      at += match[0].length;
    } else if (/[0-9]/.test(char)) {
      const match = /^[0-9][0-9a-fA-FxX_.]*/.exec(source.slice(at, at + 50));
      tokens.push({ type: 'number', value: match[0] });
      at += match[0].length;
    } else {
      const punct = ['...', ':=', '==', '!=', '&&', '||'].find((p) => source.startsWith(p, at)) ?? char;
      tokens.push({ type: 'punct', value: punct });
      at += punct.length;
    }
  }
  return tokens;
}

function unquote(body) {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, code) => {
    const simple = { n: '\n', t: '\t', r: '\r', '"': '"', "'": "'", '\\': '\\', a: '\x07', b: '\b', f: '\f', v: '\v' };
    if (code in simple) return simple[code];
    if (/^[xuU]/.test(code)) return String.fromCodePoint(Number.parseInt(code.slice(1), 16));
    return code;
  });
}

/** A deterministic generator (mulberry32), so that one extraction always writes the same files. */
export function seededRandom(seedText) {
  let seed = 0;
  for (const char of seedText) seed = (Math.imul(seed, 31) + char.charCodeAt(0)) | 0;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
const CLASS_ESCAPES = {
  d: '0123456789'.split(''),
  w: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'.split(''),
  s: [' '],
};

/** A random string one regex (of the subset scanners write) matches: classes, groups, alternation, quantifiers. */
export function randomMatch(pattern, random) {
  let at = 0;
  const pick = (list) => list[Math.floor(random() * list.length)];
  function alternation() {
    const branches = [sequence()];
    while (pattern[at] === '|') {
      at++;
      branches.push(sequence());
    }
    return pick(branches);
  }
  function sequence() {
    let out = '';
    while (at < pattern.length && pattern[at] !== '|' && pattern[at] !== ')') {
      const produce = atom();
      if (produce === null) continue;
      const [min, max] = quantifier();
      const count = min + Math.floor(random() * (Math.min(max, min + 8) - min + 1));
      for (let i = 0; i < count; i++) out += produce();
    }
    return out;
  }
  function quantifier() {
    let range = [1, 1];
    const char = pattern[at];
    if (char === '*') range = [0, 8];
    else if (char === '+') range = [1, 8];
    else if (char === '?') range = [0, 1];
    else if (char === '{') {
      const match = /^\{(\d+)(?:(,)(\d*))?\}/.exec(pattern.slice(at));
      if (!match) return range;
      const min = Number(match[1]);
      const max = match[2] ? (match[3] ? Number(match[3]) : min + 8) : min;
      at += match[0].length - 1;
      range = [min, max];
    } else return range;
    at++;
    if (pattern[at] === '?' || pattern[at] === '+') at++;
    return range;
  }
  function atom() {
    const char = pattern[at++];
    if (char === '(') {
      if (pattern[at] === '?') {
        const flags = /^\?(?:P?<[A-Za-z_][A-Za-z0-9_]*>|[a-zA-Z-]*:|[a-zA-Z-]*\))/.exec(pattern.slice(at));
        if (flags) {
          at += flags[0].length;
          if (flags[0].endsWith(')')) return null;
        }
      }
      // The group is parsed once to find its end, then re-read from its start each time it is repeated.
      const start = at;
      alternation();
      at++;
      return () => {
        const outer = at;
        at = start;
        const text = alternation();
        at = outer;
        return text;
      };
    }
    if (char === '[') return characterClass();
    if (char === '.') return () => pick(PRINTABLE.filter((c) => c !== ' '));
    if (char === '^' || char === '$') return null;
    if (char === '\\') {
      const next = pattern[at++];
      if (next === 'b' || next === 'B' || next === 'A' || next === 'z') return null;
      if (CLASS_ESCAPES[next]) return () => pick(CLASS_ESCAPES[next]);
      if (next === 'x') {
        const hex = pattern.slice(at, at + 2);
        at += 2;
        return () => String.fromCharCode(Number.parseInt(hex, 16));
      }
      return () => ({ n: '\n', t: '\t', r: '\r' })[next] ?? next;
    }
    return () => char;
  }
  function characterClass() {
    const negate = pattern[at] === '^';
    if (negate) at++;
    const members = new Set();
    let first = true;
    while (at < pattern.length && (pattern[at] !== ']' || first)) {
      first = false;
      let char = pattern[at++];
      if (char === '[' && pattern[at] === ':') {
        const end = pattern.indexOf(':]', at);
        const name = pattern.slice(at + 1, end);
        at = end + 2;
        const posix = { alnum: CLASS_ESCAPES.w.filter((c) => c !== '_'), digit: CLASS_ESCAPES.d, space: [' '] };
        for (const member of posix[name] ?? []) members.add(member);
        continue;
      }
      if (char === '\\') {
        const next = pattern[at++];
        if (CLASS_ESCAPES[next]) {
          for (const member of CLASS_ESCAPES[next]) members.add(member);
          continue;
        }
        char = next;
        if (next === 'x') {
          char = String.fromCharCode(Number.parseInt(pattern.slice(at, at + 2), 16));
          at += 2;
        }
      }
      if (pattern[at] === '-' && pattern[at + 1] !== ']' && at + 1 < pattern.length) {
        at++;
        let last = pattern[at++];
        if (last === '\\') last = pattern[at++];
        for (let code = char.charCodeAt(0); code <= last.charCodeAt(0); code++) members.add(String.fromCharCode(code));
      } else members.add(char);
    }
    at++;
    const list = negate ? PRINTABLE.filter((c) => !members.has(c) && c !== ' ') : [...members];
    return () => pick(list);
  }
  return alternation();
}

/** gitleaks' `utils` pattern helpers: the regex each returns for a size. */
const PATTERN_HELPERS = {
  Numeric: (size) => `[0-9]{${size}}`,
  Hex: (size) => `[a-f0-9]{${size}}`,
  AlphaNumeric: (size) => `[a-z0-9]{${size}}`,
  AlphaNumericExtendedShort: (size) => `[a-z0-9_-]{${size}}`,
  AlphaNumericExtended: (size) => `[a-z0-9=_\\-]{${size}}`,
  AlphaNumericExtendedLong: (size) => `[a-z0-9\\/=_\\+\\-]{${size}}`,
  Hex8_4_4_4_12: () => '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
};

/**
 * Evaluates the Go statements `name := expr` / `name = expr` of one body in order, returning the variables whose
 * values are strings or lists of strings. `sample(identifier, secret)` expands `utils.GenerateSampleSecrets`;
 * `onField(name, value, tokens)` is told each `name: expr` field of a composite literal (a test case's `input:`).
 */
export function evaluateAssignments(tokens, { random, sample, variables = new Map(), onField }) {
  let at = 0;
  const peek = (offset = 0) => tokens[at + offset];
  const isPunct = (value, offset = 0) => peek(offset)?.type === 'punct' && peek(offset).value === value;

  function expression() {
    let value = term();
    while (isPunct('+')) {
      at++;
      const right = term();
      value = typeof value === 'string' && typeof right === 'string' ? value + right : UNKNOWN;
    }
    return value;
  }
  function list(close) {
    const items = [];
    while (peek() && !isPunct(close)) {
      const value = expression();
      const spread = isPunct('...');
      if (spread) at++;
      items.push({ value, spread });
      if (isPunct(',')) at++;
      else if (!isPunct(close)) skipTo(close);
    }
    at++;
    return items;
  }
  function skipTo(close) {
    let depth = 0;
    while (peek()) {
      if (depth === 0 && (isPunct(close) || isPunct(','))) return;
      if (['(', '[', '{'].includes(peek().value) && peek().type === 'punct') depth++;
      if ([')', ']', '}'].includes(peek().value) && peek().type === 'punct') {
        if (depth === 0) return;
        depth--;
      }
      at++;
    }
  }
  const flatten = (items) => {
    const out = [];
    for (const { value } of items) {
      if (typeof value === 'string') out.push(value);
      else if (Array.isArray(value)) out.push(...value);
    }
    return out;
  };
  function call(name) {
    at++; // (
    const args = list(')');
    const values = args.map((arg) => arg.value);
    const helper = name.replace(/^utils\./, '');
    if (name.startsWith('utils.') && PATTERN_HELPERS[helper]) return PATTERN_HELPERS[helper](values[0]);
    if (name === 'secrets.NewSecret') return typeof values[0] === 'string' ? randomMatch(values[0], random) : UNKNOWN;
    if (name === 'utils.GenerateSampleSecrets')
      return typeof values[1] === 'string' ? sample(values[0], values[1]) : UNKNOWN;
    if (name === 'utils.GenerateSampleSecret')
      return typeof values[1] === 'string' ? `${values[0]}_api_token = "${values[1]}"` : UNKNOWN;
    if (name === 'append') return flatten(args);
    if (name === 'fmt.Sprintf' && values.every((v) => typeof v === 'string')) {
      let index = 1;
      return values[0].replace(/%[sv]/g, () => values[index++] ?? '');
    }
    if (name === 'strings.Repeat' && typeof values[0] === 'string')
      return values[0].repeat(typeof values[1] === 'string' ? Number(values[1]) || 0 : 0);
    return UNKNOWN;
  }
  function term() {
    const token = peek();
    if (!token) return UNKNOWN;
    if (token.type === 'string' || token.type === 'number') {
      at++;
      return token.value;
    }
    if (isPunct('(')) {
      at++;
      const value = expression();
      at++;
      return value;
    }
    if (isPunct('[') && isPunct(']', 1)) {
      at += 2;
      const type = peek();
      at++;
      if (!isPunct('{')) return UNKNOWN;
      at++;
      const items = list('}');
      return type?.value === 'string' ? flatten(items) : UNKNOWN;
    }
    if (token.type === 'ident') {
      at++;
      if (isPunct('(')) return call(token.value);
      if (variables.has(token.value)) return variables.get(token.value);
      return UNKNOWN;
    }
    at++;
    return UNKNOWN;
  }

  while (at < tokens.length) {
    const token = peek();
    if (onField && token.type === 'ident' && isPunct(':', 1) && !isPunct('=', 2)) {
      at += 2;
      const start = at;
      const value = expression();
      onField(token.value, value, tokens.slice(start, at));
      continue;
    }
    const previous = tokens[at - 1];
    const startsStatement = previous?.type !== 'punct' || !['.', '+'].includes(previous.value);
    if (token.type === 'ident' && startsStatement && (isPunct(':=', 1) || (isPunct('=', 1) && !isPunct('=', 2)))) {
      at += 2;
      const value = expression();
      if (value !== UNKNOWN) variables.set(token.value, value);
      else variables.delete(token.value);
    } else at++;
  }
  return variables;
}
