/** A timestamp as people read it, in their own time zone, to the second. */
export function formatTime(iso: string | null): string {
  if (iso === null) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

const ORIGIN_NAMES: Record<string, string> = {
  bounce: 'Bounce',
  complaint: 'Complaint',
  manual: 'Manual',
  unsubscribe: 'Unsubscribe',
};

export function originName(origin: string): string {
  return ORIGIN_NAMES[origin] ?? origin;
}

/** "1 address", "3 addresses". */
export function addresses(count: number): string {
  return `${count.toLocaleString('en-GB')} ${count === 1 ? 'address' : 'addresses'}`;
}

/** An entry's scope as the console shows it: the whole account's entries stop every send. */
export function scopeName(scope: string | null): string {
  return scope ?? 'All mail';
}
