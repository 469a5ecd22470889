import type { Suppression } from '../api.js';
import { formatTime, originName, scopeName } from '../format.js';
import { href } from '../router.js';

interface EntriesTableProps {
  entries: readonly Suppression[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: () => void;
}

/** A page of entries, each with its box to select it, and one box for the whole page. */
export function EntriesTable({ entries, selected, onToggle, onToggleAll }: EntriesTableProps) {
  const allSelected = entries.every((entry) => selected.has(entry.id));
  return (
    <table class="table table-stack">
      <caption class="visually-hidden">Suppressed addresses, newest first</caption>
      <thead>
        <tr>
          <th scope="col" class="select">
            <input
              type="checkbox"
              aria-label="Select every address on this page"
              checked={allSelected}
              onChange={onToggleAll}
            />
          </th>
          <th scope="col">Email</th>
          <th scope="col">Origin</th>
          <th scope="col">Scope</th>
          <th scope="col">Added</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td class="select">
              <input
                type="checkbox"
                aria-label={`Select ${entry.email}`}
                checked={selected.has(entry.id)}
                onChange={() => onToggle(entry.id)}
              />
            </td>
            <td data-label="Email" class="email">
              <a href={href(`/entries/${entry.id}`)}>{entry.email}</a>
            </td>
            <td data-label="Origin">
              <span class={`badge badge-${entry.origin}`}>{originName(entry.origin)}</span>
            </td>
            <td data-label="Scope">{scopeName(entry.scope)}</td>
            <td data-label="Added">{formatTime(entry.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
