// The clock of one sandbox (like Stripe's test clocks): real time plus an offset kept in the
// sandbox's meta, so that it is shared by every process on the same store. Set and advanced
// through /__sandbox/clock; read by version negotiation, Expires and ctx.now.
import type { Tx } from '../store/types.js';

const CLOCK_KEY = 'clock';

interface ClockMeta {
  offsetMs: number;
}

export async function clockOffset(tx: Tx): Promise<number> {
  const meta = await tx.getMeta<ClockMeta>(CLOCK_KEY);
  return typeof meta?.offsetMs === 'number' && Number.isFinite(meta.offsetMs) ? meta.offsetMs : 0;
}

export async function sandboxNow(tx: Tx): Promise<number> {
  return Date.now() + (await clockOffset(tx));
}

/** Sets the clock to `at` (ms); null goes back to real time. */
export async function setClock(tx: Tx, at: number | null): Promise<void> {
  await tx.setMeta(CLOCK_KEY, { offsetMs: at === null ? 0 : at - Date.now() } satisfies ClockMeta);
}

export async function advanceClock(tx: Tx, byMs: number): Promise<void> {
  await tx.setMeta(CLOCK_KEY, { offsetMs: (await clockOffset(tx)) + byMs } satisfies ClockMeta);
}
