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
