// Answers of reads, kept serialized for as long as the state they were read from is current.
// A read's answer is a function of the committed state it read (the store's Tx.version), the
// request (operation, URL, headers, negotiated version), the caller as authorized and the
// sandbox date; while none of these changes, the handler, the envelope, the version window and
// JSON.stringify would produce the same bytes again. A write commits a new state, so every answer
// read from the old one stops matching. Answers whose handler read the clock to the millisecond
// are not kept. Bounded by bytes; the least recently used answers go first.

export interface CachedAnswer {
  status: number;
  contentType: string;
  /** UTF-8, encoded once for every transport that answers it again. */
  body: Uint8Array;
}

interface Entry {
  version: object | string;
  /** The description served when the answer was made (a reload makes other answers). */
  description: object;
  answer: CachedAnswer;
}

/** What one answer counts against the budget (about the bytes held). */
const weightOf = (key: string, answer: CachedAnswer) => key.length + answer.body.byteLength + answer.contentType.length;

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private held = 0;

  constructor(private readonly budget: number) {}

  /** The answer kept for `key` if it was read from `version` under `description`; a stale one is dropped. */
  answerFor(key: string, version: object | string, description: object): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== version || entry.description !== description) {
      this.held -= weightOf(key, entry.answer);
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.answer;
  }

  keep(key: string, version: object | string, description: object, answer: CachedAnswer): void {
    const weight = weightOf(key, answer);
    if (weight > this.budget / 8) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.held -= weightOf(key, previous.answer);
    }
    this.entries.set(key, { version, description, answer });
    this.held += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.budget) break;
      this.entries.delete(oldest);
      this.held -= weightOf(oldest, entry.answer);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }
}
