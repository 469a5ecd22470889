/**
 * The sizes of the API's blocks: `npm run bench`'s, and those of `--quick`. Apart from the suite, so
 * that what runs the API's blocks alone (bench:check, the replica run) loads nothing else.
 */
export interface ApiSizes {
  /** Suppressions spread over `accounts` for the lookup. */
  lookupRows: number;
  accounts: number;
  /** Accounts (of `accounts`) given an API key; lookups cycle over them. */
  keyedAccounts: number;
  /** Entries of the one account the list is paged in. */
  listRows: number;
  connections: number;
  warmupS: number;
  /** Seconds of lookup load on each server in all, split into `lookupRounds` alternating rounds. */
  loadS: number;
  lookupRounds: number;
  /** Sequential requests per list page kind. */
  listRequests: number;
  batchConnections: number;
  batchS: number;
  /** Connections of the send-time check (and concurrent queries of its baseline), and its seconds of load on each. */
  checkConnections: number;
  checkS: number;
  /**
   * When set, every round of load (lookup, check, batch add, tracing) is this many requests instead
   * of its seconds: a run that must only show the blocks work (the tests') then finishes whatever
   * the machine's load, where a window of a fraction of a second might see no answer at all.
   */
  requestsPerRound?: number;
}

export const FULL_API_SIZES: ApiSizes = {
  lookupRows: 1_000_000,
  accounts: 1000,
  keyedAccounts: 100,
  listRows: 1_000_000,
  connections: 50,
  warmupS: 2,
  loadS: 15,
  lookupRounds: 5,
  listRequests: 200,
  batchConnections: 10,
  batchS: 10,
  checkConnections: 10,
  checkS: 10,
};

export const QUICK_API_SIZES: ApiSizes = {
  lookupRows: 100_000,
  accounts: 100,
  keyedAccounts: 100,
  listRows: 100_000,
  connections: 50,
  warmupS: 1,
  loadS: 4,
  lookupRounds: 2,
  listRequests: 100,
  batchConnections: 10,
  batchS: 3,
  checkConnections: 10,
  checkS: 4,
};
