// Which properties and items a schema has evaluated, for unevaluatedProperties and
// unevaluatedItems, reckoned as ajv reckons it: known while compiling where it can be (the names
// under `properties`, a count of `prefixItems`, or "all"), and kept in a variable of the
// validation (a slot of the Run) where it depends on the data (a patternProperties match, the
// branch of anyOf/oneOf/if that passed). The merges follow ajv's exactly, including where a
// merge under a condition replaces what was known before it.
import type { Run } from './run.js';

/** A variable of the validation, by its index in Run.slots. */
export class Slot {
  constructor(readonly index: number) {}
}

/** Evaluated properties: none, all, these names, or a slot holding one of those. */
export type EvaluatedProps = undefined | true | Record<string, true> | Slot;
/** Evaluated items: none, all, the first n, or a slot holding one of those. */
export type EvaluatedItems = undefined | true | number | Slot;

/** What a merge does while validating (nothing when it was settled while compiling). */
export type Action = ((run: Run) => void) | undefined;

export interface Merged<T> {
  value: T;
  action: Action;
}

export interface SlotSource {
  slot(): Slot;
}

/** Both actions, in order. */
export const sequence = (first: Action, second: Action): Action => (first && second ? (run) => (first(run), second(run)) : (first ?? second));

/** Adds known names to a slot's properties. */
function namesIntoSlot(names: true | Record<string, true>, into: Slot): Action {
  const at = into.index;
  if (names === true)
    return (run) => {
      if (run.slots[at] !== true) run.slots[at] = true;
    };
  const keys = Object.keys(names);
  return (run) => {
    if (run.slots[at] === true) return;
    const props = (run.slots[at] ??= {}) as Record<string, true>;
    for (const key of keys) props[key] = true;
  };
}

/**
 * `from` merged into `to`. `toSlot`: the result must be a slot (a merge made only when a branch
 * passed, whose outcome is known only while validating).
 */
export function mergeProps(slots: SlotSource, from: EvaluatedProps, to: EvaluatedProps, toSlot: boolean): Merged<EvaluatedProps> {
  let value: EvaluatedProps;
  let action: Action;
  if (to === undefined) value = from;
  else if (to instanceof Slot) {
    value = to;
    if (from instanceof Slot) {
      const source = from.index;
      const target = to.index;
      action = (run) => {
        const s = run.slots;
        if (s[target] === true || s[source] === undefined) return;
        if (s[source] === true) s[target] = true;
        else s[target] = Object.assign((s[target] as object) || {}, s[source]);
      };
    } else if (from !== undefined) action = namesIntoSlot(from, to);
  } else if (from instanceof Slot) {
    value = from;
    action = namesIntoSlot(to, from);
  } else value = from === true ? true : { ...from, ...(to as Record<string, true>) };
  if (toSlot && !(value instanceof Slot)) {
    const known = value;
    const slot = slots.slot();
    value = slot;
    action = sequence(action, known === true ? (run) => void (run.slots[slot.index] = true) : (run) => void (run.slots[slot.index] = { ...known }));
  }
  return { value, action };
}

const furthest = (a: any, b: any) => (b === true ? true : a > b ? a : b);

export function mergeItems(slots: SlotSource, from: EvaluatedItems, to: EvaluatedItems, toSlot: boolean): Merged<EvaluatedItems> {
  let value: EvaluatedItems;
  let action: Action;
  if (to === undefined) value = from;
  else if (to instanceof Slot) {
    value = to;
    const target = to.index;
    if (from instanceof Slot) {
      const source = from.index;
      action = (run) => {
        const s = run.slots;
        if (s[target] !== true && s[source] !== undefined) s[target] = furthest(s[target], s[source]);
      };
    } else if (from !== undefined)
      action = (run) => {
        if (run.slots[target] !== true) run.slots[target] = furthest(run.slots[target], from);
      };
  } else if (from instanceof Slot) {
    value = from;
    const target = from.index;
    const known = to;
    action = (run) => {
      if (run.slots[target] !== true) run.slots[target] = furthest(run.slots[target], known);
    };
  } else value = from === true ? true : Math.max(from as number, to as number);
  if (toSlot && !(value instanceof Slot)) {
    const known = value;
    const slot = slots.slot();
    value = slot;
    action = sequence(action, (run) => void (run.slots[slot.index] = known));
  }
  return { value, action };
}

/** The properties as a slot of their own (patternProperties adds to it while validating). */
export function propsInSlot(slots: SlotSource, props: EvaluatedProps): Merged<EvaluatedProps> {
  if (props === true || props instanceof Slot) return { value: props, action: undefined };
  const slot = slots.slot();
  const known = props;
  return { value: slot, action: (run) => void (run.slots[slot.index] = { ...known }) };
}
