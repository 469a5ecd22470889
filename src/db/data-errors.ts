/**
 * True when PostgreSQL refused a statement for a value it carried (SQLSTATE class 22, data
 * exception: text it cannot store, a number out of range): the same statement fails every time, so
 * retrying it later cannot help.
 */
export function isRefusedValue(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('22');
}
