/** The first record of a CSV list, when it names its columns rather than holding an address. */
export interface CsvHeader {
  /** Line of the input it is on (from 1). */
  line: number;
  names: string[];
  /** The column read for addresses, from 0. */
  column: number;
}

// The address column of the common providers' exports, most specific first: SendGrid `email`,
// Postmark `Email`, Mailchimp `Email Address`, Amazon SES `EmailAddress`, Mailgun `address`.
// "address" comes last, as a file that has both it and an email column may mean a postal address.
const ADDRESS_COLUMN_NAMES = [
  'email',
  'e-mail',
  'email address',
  'e-mail address',
  'emailaddress',
  'email_address',
  'recipient',
  'address',
];

const simplified = (name: string): string => name.trim().toLowerCase();

/**
 * Whether the first record is a header and, if so, which column holds the addresses (from 0);
 * null when it is data. A record with an `@` in any cell is data. Any other first record is a
 * header: its column named like an address column is read (see ADDRESS_COLUMN_NAMES), else the
 * first one whose name contains "email" or "e-mail", else the first column.
 */
export function addressColumn(record: readonly string[]): number | null {
  if (record.some((cell) => cell.includes('@'))) return null;
  const names = record.map(simplified);
  for (const wanted of ADDRESS_COLUMN_NAMES) {
    const index = names.indexOf(wanted);
    if (index >= 0) return index;
  }
  const loose = names.findIndex((name) => name.includes('email') || name.includes('e-mail'));
  return loose >= 0 ? loose : 0;
}
