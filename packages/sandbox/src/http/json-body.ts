// JSON request bodies parsed within bounds, for API and control bodies alike: nesting at most
// MAX_JSON_DEPTH deep (deeper values overflow the recursive checks that follow a parse), only
// strings PostgreSQL's jsonb can store (no lone UTF-16 surrogate; the memory store refuses them
// too, so that both stores agree), and a large text parsed in pieces with a pause between
// them, so that one large body never holds every other request up for long.
import { Slices } from '../util/slices.js';
import { strictUtf8InSlices } from '../util/bytes.js';

/** The deepest nesting of arrays and objects a body may have. */
export const MAX_JSON_DEPTH = 64;
/** Texts up to this many characters are parsed in one go (a few milliseconds). */
const WHOLE_UP_TO = 512 * 1024;
/** Characters scanned or parsed between two looks at the clock. */
const SLICE = 32 * 1024;
/** A container whose text is longer than this is taken apart; a shorter value is parsed whole. */
const PIECE = 64 * 1024;

export type JsonRead = { ok: true; value: unknown } | { ok: false; description: string; field: string };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

class JsonProblem extends Error {
  constructor(readonly description: string, readonly field = 'body') {
    super(description);
  }
}

/** A field as the envelope's `properties` name it: dotted, with [n] for array items. */
function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

/** Refuses a lone surrogate in any string or key of `value` (walked without recursion). */
function checkStrings(value: unknown, at: string): void {
  const stack: Array<[unknown, string]> = [[value, at]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      if (LONE_SURROGATE.test(item)) throw new JsonProblem(`${path ? `The field ${path}` : 'The request body'} holds a lone UTF-16 surrogate (such as \\ud800), which is not text and cannot be stored.`, path || 'body');
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) stack.push([item[i], join(path, i)]);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        if (LONE_SURROGATE.test(key)) throw new JsonProblem(`A field name${path ? ` in ${path}` : ''} holds a lone UTF-16 surrogate (such as \\ud800), which is not text and cannot be stored.`, path || 'body');
        stack.push([inner, join(path, key)]);
      }
    }
  }
}

const OPENERS = new Set([0x5b, 0x7b]);
const STRUCTURE = /["[\]{}]/g;

/** The index just past the string opening at `from` (a quote), or -1 when it does not end. */
function stringEnd(text: string, from: number): number {
  let at = from + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/**
 * One pass over the text outside strings: refuses nesting deeper than the limit, and notes where
 * each container longer than PIECE ends (the ones the parse takes apart).
 */
async function scan(text: string, maxDepth: number, sliced: boolean): Promise<Map<number, number>> {
  const ends = new Map<number, number>();
  const open: number[] = [];
  const slices = new Slices();
  let looked = 0;
  STRUCTURE.lastIndex = 0;
  for (let match = STRUCTURE.exec(text); match; match = STRUCTURE.exec(text)) {
    const at = match.index;
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      const end = stringEnd(text, at);
      if (end < 0) break;
      STRUCTURE.lastIndex = end;
    } else if (OPENERS.has(code)) {
      open.push(at);
      if (open.length > maxDepth) throw new JsonProblem(`The request body is nested more than ${maxDepth} levels deep (arrays and objects within each other).`);
    } else {
      const start = open.pop();
      if (start !== undefined && at - start > PIECE) ends.set(start, at);
    }
    if (sliced && at - looked > SLICE) {
      looked = at;
      const resume = STRUCTURE.lastIndex;
      await slices.due();
      STRUCTURE.lastIndex = resume;
    }
  }
  return ends;
}

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** A large text parsed piece by piece: containers longer than PIECE are built here, member by
 * member; every other value goes to JSON.parse on its own. */
class PieceParser {
  private at = 0;
  private sinceLook = 0;
  private readonly slices = new Slices();

  constructor(private readonly text: string, private readonly ends: Map<number, number>) {}

  async parse(): Promise<unknown> {
    const value = await this.value('');
    this.skipSpace();
    if (this.at < this.text.length) this.fail('Unexpected text after the JSON value');
    return value;
  }

  private fail(what: string): never {
    throw new JsonProblem(`The request body is not valid JSON: ${what} at position ${this.at}.`);
  }

  private skipSpace(): void {
    while (isSpace(this.text.charCodeAt(this.at))) this.at++;
  }

  private expect(char: string): void {
    this.skipSpace();
    if (this.text[this.at] !== char) this.fail(`expected '${char}'`);
    this.at++;
  }

  /** The end of the value starting at `at` that is not taken apart (a scalar or a short container). */
  private endOfValue(): number {
    const text = this.text;
    const code = text.charCodeAt(this.at);
    if (code === 0x22) return stringEnd(text, this.at);
    if (!OPENERS.has(code)) {
      let end = this.at;
      while (end < text.length && !/[\s,\]}]/.test(text[end]!)) end++;
      return end;
    }
    let depth = 0;
    for (let i = this.at; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i = stringEnd(text, i) - 1;
        if (i < 0) return -1;
      } else if (OPENERS.has(c)) depth++;
      else if (c === 0x5d || c === 0x7d) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }

  private async value(path: string): Promise<unknown> {
    this.skipSpace();
    const start = this.at;
    if (this.ends.has(start)) return this.text[start] === '[' ? this.array(path) : this.object(path);
    const end = this.endOfValue();
    if (end < 0) this.fail('Unterminated value');
    let value: unknown;
    try {
      value = JSON.parse(this.text.slice(start, end));
    } catch (error) {
      this.fail((error as Error).message.replace(/ in JSON at position \d+.*$/s, ''));
    }
    checkStrings(value, path);
    this.at = end;
    this.sinceLook += end - start;
    if (this.sinceLook > SLICE) {
      this.sinceLook = 0;
      await this.slices.due();
    }
    return value;
  }

  private async array(path: string): Promise<unknown[]> {
    const items: unknown[] = [];
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === ']') {
      this.at++;
      return items;
    }
    for (;;) {
      items.push(await this.value(join(path, items.length)));
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === ']') return items;
      if (next !== ',') this.fail("expected ',' or ']'");
    }
  }

  private async object(path: string): Promise<Record<string, unknown>> {
    const members: Record<string, unknown> = {};
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at++;
      return members;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] !== '"') this.fail('expected a property name');
      const key = (await this.value(path)) as string;
      this.expect(':');
      // Defined, not assigned: a member named __proto__ stays a member, as JSON.parse keeps it.
      Object.defineProperty(members, key, { value: await this.value(join(path, key)), enumerable: true, writable: true, configurable: true });
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === '}') return members;
      if (next !== ',') this.fail("expected ',' or '}'");
    }
  }
}

/** Parses a JSON body within the bounds above; the refusal names what is wrong and where. */
export async function parseJsonBody(text: string, maxDepth = MAX_JSON_DEPTH): Promise<JsonRead> {
  try {
    const large = text.length > WHOLE_UP_TO;
    const ends = await scan(text, maxDepth, large);
    if (!large) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        return { ok: false, description: `The request body is not valid JSON: ${(error as Error).message}.`, field: 'body' };
      }
      checkStrings(value, '');
      return { ok: true, value };
    }
    return { ok: true, value: await new PieceParser(text, ends).parse() };
  } catch (error) {
    if (error instanceof JsonProblem) return { ok: false, description: error.description, field: error.field };
    throw error;
  }
}

/** A JSON body's bytes parsed within the bounds above (decoded in slices); undefined when they
 * are not UTF-8. A server may run it off its main thread (SandboxRequest.parseJson). */
export async function parseJsonBytes(bytes: Uint8Array): Promise<JsonRead | undefined> {
  const text = await strictUtf8InSlices(bytes);
  return text === undefined ? undefined : parseJsonBody(text);
}
