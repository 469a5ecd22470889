export const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_PART_LENGTH = 64;

// The WHATWG (HTML5) address grammar, with at least one dot in the domain: permissive enough for
// every deliverable address, strict enough to refuse what no mail system would accept.
const LOCAL_CHARACTER = "[a-z0-9.!#$%&'*+/=?^_`{|}~-]";
const DOMAIN = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+';
const EMAIL_PATTERN = new RegExp(`^${LOCAL_CHARACTER}+@${DOMAIN}$`);
/**
 * An address already trimmed, lower-cased and acceptable, local part length included: what nearly
 * every address a mail system sends looks like, told in one test.
 */
const STORED_FORM = new RegExp(`^${LOCAL_CHARACTER}{1,${MAX_LOCAL_PART_LENGTH}}@${DOMAIN}$`);

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Trimmed and lower-cased: the one form in which an address is stored and compared. Only an ASCII
 * address is lower-cased: Unicode lower-casing turns some characters into ASCII letters (the Kelvin
 * sign into `k`), and one address must never silently become another. Anything else is left as
 * given, so that `emailProblem` refuses what would be stored.
 */
export function normalizeEmail(raw: string): string {
  const trimmed = raw.trim();
  return NON_ASCII.test(trimmed) ? trimmed : trimmed.toLowerCase();
}

/** Why a normalised address is not acceptable, or null when it is. */
export function emailProblem(email: string): string | null {
  if (email.length === 0) return 'is empty';
  if (email.length > MAX_EMAIL_LENGTH) return `is longer than ${MAX_EMAIL_LENGTH} characters`;
  if (!EMAIL_PATTERN.test(email)) return 'is not a valid email address';
  if (email.indexOf('@') > MAX_LOCAL_PART_LENGTH)
    return `has a local part longer than ${MAX_LOCAL_PART_LENGTH} characters`;
  return null;
}

/**
 * Whether `raw` is already an acceptable address in its stored form: then `normalizeEmail` leaves
 * it as it is and `emailProblem` finds nothing, and neither need run.
 */
export function isStoredForm(raw: string): boolean {
  return raw.length <= MAX_EMAIL_LENGTH && STORED_FORM.test(raw);
}
