// Long work in slices, in any runtime: a loop over a large body or a large state calls `due()`
// between two items, and it pauses (a timer, so that other requests' I/O goes first) once
// SLICE_MS of work have passed since the last pause. One large import or parse then never holds
// every other request of the process up for long.

/** Milliseconds of work between two pauses. */
const SLICE_MS = 15;

export class Slices {
  private since = performance.now();

  /** The pause, once SLICE_MS have passed since the last one; undefined (go on at once) before. */
  due(): Promise<void> | undefined {
    if (performance.now() - this.since < SLICE_MS) return undefined;
    return new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
      this.since = performance.now();
    });
  }
}

/**
 * Runs a generator that yields between items to its end, pausing when a slice is due; its return
 * value at once (not a promise) when it ends within the first slice, so that a small piece of work
 * keeps its place among others as it did when it ran in one go.
 */
export function runInSlices<T>(steps: Generator<void, T>, slices = new Slices()): T | Promise<T> {
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    const pause = slices.due();
    if (pause) return rest(pause);
  }

  async function rest(pause: Promise<void>): Promise<T> {
    await pause;
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      await slices.due();
    }
  }
}
