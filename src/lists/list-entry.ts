/**
 * One entry of a list: the address (or suppression id) on a line, or why the line holds none.
 * `line` is where the entry starts, from 1. `field` says the value came from an `id` field.
 */
export type ListEntry = { line: number; value: string; field?: 'id' } | { line: number; problem: string };

/** What a reader says once the input is read. */
export interface ReadSummary {
  /** Lines of the input read, blank ones and a header included. */
  lines: number;
}
