/**
 * What a removal of complaint entries asks for: the reason, kept in each entry's history, without
 * which the service refuses to remove an entry the recipient's own complaint put on the list.
 */
export function ComplaintReason({
  count,
  total,
  value,
  onInput,
}: {
  /** How many of the entries to remove are complaints, */
  count: number;
  /** of how many. */
  total: number;
  value: string;
  onInput: (value: string) => void;
}) {
  return (
    <div class="field">
      <p class="notice">
        {total === 1
          ? 'This address complained about your mail.'
          : `${count} of these addresses complained about your mail.`}{' '}
        Mailing {count === 1 ? 'it' : 'them'} again is what mailbox providers punish most: remove{' '}
        {count === 1 ? 'it' : 'them'} only if you know the complaint was a mistake.
      </p>
      <label for="removal-reason">Why? (kept in the history)</label>
      <textarea
        id="removal-reason"
        required
        maxLength={500}
        rows={2}
        value={value}
        onInput={(event) => onInput(event.currentTarget.value)}
      />
    </div>
  );
}
