/**
 * The sessions a listener holds, and which of them are inside a message (from DATA until its reply
 * is sent): a stopping listener lets those finish and closes the others at once.
 */
export interface OpenSessions {
  opened(id: string): void;
  closed(id: string): void;
  enteredData(id: string): void;
  leftData(id: string): void;
  inData(id: string): boolean;
  /** The sessions open now. */
  readonly size: number;
}

export function openSessions(onSize: (size: number) => void): OpenSessions {
  const open = new Set<string>();
  const inData = new Set<string>();
  return {
    opened(id) {
      open.add(id);
      onSize(open.size);
    },
    closed(id) {
      open.delete(id);
      inData.delete(id);
      onSize(open.size);
    },
    enteredData: (id) => inData.add(id),
    leftData: (id) => inData.delete(id),
    inData: (id) => inData.has(id),
    get size() {
      return open.size;
    },
  };
}
