/** The addresses of the import benchmark, by position: the CSV the command reads and the bare COPY share them. */
export function benchAddress(index: number): string {
  return `user${index}@example${index % 97}.com`;
}
