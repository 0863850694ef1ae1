// The clock of one sandbox (like Stripe's test clocks): real time plus an offset kept in the
// sandbox's meta, so that it is shared by every process on the same store. Set and advanced
// through /__sandbox/clock; read by version negotiation, Expires and ctx.now.
import type { Tx } from '../store/types.js';

const CLOCK_KEY = 'clock';

interface ClockMeta {
  offsetMs: number;
}

/** The times a sandbox clock may show: years 0001 to 9999, which every date field can write. */
export const EARLIEST_CLOCK = new Date('0001-01-01T00:00:00Z').getTime();
export const LATEST_CLOCK = new Date('9999-12-31T23:59:59.999Z').getTime();

/** Whether the clock may show `at` (ms). */
export const clockInRange = (at: number) => Number.isFinite(at) && at >= EARLIEST_CLOCK && at <= LATEST_CLOCK;

export async function clockOffset(tx: Tx): Promise<number> {
  const meta = await tx.getMeta<ClockMeta>(CLOCK_KEY);
  const offset = typeof meta?.offsetMs === 'number' && Number.isFinite(meta.offsetMs) ? meta.offsetMs : 0;
  // An offset kept before the range was enforced still reads as a valid time.
  const now = Date.now();
  return Math.min(LATEST_CLOCK - now, Math.max(EARLIEST_CLOCK - now, offset));
}

export async function sandboxNow(tx: Tx): Promise<number> {
  return Date.now() + (await clockOffset(tx));
}

/** Sets the clock to `at` (ms); null goes back to real time. */
export async function setClock(tx: Tx, at: number | null): Promise<void> {
  await tx.setMeta(CLOCK_KEY, { offsetMs: at === null ? 0 : at - Date.now() } satisfies ClockMeta);
}

/** Moves the clock on by `byMs`; false (and nothing changed) when it would leave the range. */
export async function advanceClock(tx: Tx, byMs: number): Promise<boolean> {
  const offsetMs = (await clockOffset(tx)) + byMs;
  if (!clockInRange(Date.now() + offsetMs)) return false;
  await tx.setMeta(CLOCK_KEY, { offsetMs } satisfies ClockMeta);
  return true;
}
