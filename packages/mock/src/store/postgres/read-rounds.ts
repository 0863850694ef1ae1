// Reads of one sandbox that arrive together share one transaction's opening.
import type pg from 'pg';
import type { StateRow } from './connection.js';

export interface OpenedRound {
  client: pg.PoolClient;
  state: StateRow[];
}

/** The readers of one sandbox that share one transaction (see ReadRounds). */
export class ReadRound {
  readonly opened: Promise<OpenedRound>;
  private open!: (opening: Promise<OpenedRound>) => void;
  private members = 0;
  private lost = false;
  /** Whether the opening failed (the round reported it to onError). */
  openingFailed = false;

  constructor() {
    this.opened = new Promise<OpenedRound>((resolve, reject) => {
      this.open = (opening) => opening.then(resolve, (error: unknown) => {
        this.openingFailed = true;
        reject(error);
      });
    });
  }

  start(opening: Promise<OpenedRound>): void {
    this.open(opening);
  }

  enter(): this {
    this.members++;
    return this;
  }

  /** One reader is done; the last hands the connection back (`lost`: it failed to reach the database). */
  leave(lost: boolean, release: (client: pg.PoolClient, lost: boolean) => void): void {
    this.lost ||= lost;
    if (--this.members > 0) return;
    this.opened.then(
      ({ client }) => release(client, this.lost),
      () => undefined,
    );
  }
}

/**
 * Reads of one sandbox share the opening of their transaction. Those that arrive while an
 * opening is on its way to the database make the next round, sent when it is back: a round's
 * snapshot is taken after each of its readers arrived (none reads a state older than when it
 * asked), and under load one round trip opens many reads, most of them answered again from the
 * answer cache without a query. A round's readers query on its one connection (their queries
 * pipelined), while the next round opens on another.
 */
export class ReadRounds {
  private readonly slots = new Map<string, { flying: number; next?: ReadRound }>();

  constructor(private readonly open: (sandbox: string) => Promise<OpenedRound>) {}

  join(sandbox: string): ReadRound {
    let slot = this.slots.get(sandbox);
    if (!slot) this.slots.set(sandbox, (slot = { flying: 0 }));
    if (slot.next) return slot.next.enter();
    const round = new ReadRound().enter();
    if (slot.flying >= OPENINGS_IN_FLIGHT) slot.next = round;
    else this.launch(sandbox, slot, round);
    return round;
  }

  private launch(sandbox: string, slot: { flying: number; next?: ReadRound }, round: ReadRound): void {
    slot.flying++;
    round.start(this.open(sandbox));
    const landed = () => {
      slot.flying--;
      const next = slot.next;
      slot.next = undefined;
      if (next) this.launch(sandbox, slot, next);
      else if (slot.flying === 0 && this.slots.get(sandbox) === slot) this.slots.delete(sandbox);
    };
    void round.opened.then(landed, landed);
  }
}

/** Openings of one sandbox's read rounds on their way at once; readers arriving meanwhile wait
 * for the next round. One measured best: more rounds in flight make smaller rounds. */
const OPENINGS_IN_FLIGHT = 1;
