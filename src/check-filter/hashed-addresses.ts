import { hashEach } from './bloom-probe.js';

/** A check's addresses, each once, with the filter's hash of each. */
export interface HashedAddresses {
  /** In first-seen order. */
  emails: string[];
  /** The hash state after each address, four 16-bit limbs each (`hashEach`): a filter key begins with it. */
  heads: Uint16Array;
}

/** The same, told apart by a `Set`. */
function distinctBySet(addresses: readonly string[], all: Uint16Array): HashedAddresses {
  const seen = new Set<string>();
  const emails: string[] = [];
  const heads = new Uint16Array(all.length);
  for (let index = 0; index < addresses.length; index += 1) {
    const email = addresses[index] as string;
    const size = seen.size;
    seen.add(email);
    if (seen.size === size) continue;
    heads.set(all.subarray(index * 4, index * 4 + 4), emails.length * 4);
    emails.push(email);
  }
  return { emails, heads: heads.subarray(0, emails.length * 4) };
}

/** Slots looked at, per address, past which the addresses are told apart by a `Set` instead. */
const MAX_STEPS_PER_ADDRESS = 8;

/**
 * The addresses each once, in first-seen order, told apart by the hash the filter needs of each
 * anyway: a `Set` would hash every address again in a pass of its own, which cost a check of 1,000
 * about as much as the filter's probes. Two addresses are the same only when their texts are; the
 * hash only says which to compare. Slots are chosen by the hash's upper 32 bits, in which every
 * character is mixed (its lowest limb sees only the characters' low bits). The hash has no secret:
 * addresses chosen to share it would fill one run of slots, so once the slots looked at pass eight
 * for each address, the table gives way to a `Set`, whose hash V8 seeds at random.
 */
export function distinctHashed(addresses: readonly string[]): HashedAddresses {
  const all = hashEach(addresses);
  let size = 16;
  while (size < addresses.length * 2) size *= 2;
  const mask = size - 1;
  // Each slot's position in `emails`, plus one (0 is an empty slot), and its address's upper bits.
  const slots = new Int32Array(size);
  const uppers = new Int32Array(size);
  const emails: string[] = [];
  const heads = new Uint16Array(all.length);
  const maxSteps = MAX_STEPS_PER_ADDRESS * addresses.length;
  let steps = 0;
  for (let index = 0; index < addresses.length; index += 1) {
    const email = addresses[index] as string;
    const at = index * 4;
    const upper = ((all[at + 3] as number) << 16) | (all[at + 2] as number);
    let slot = (upper ^ (upper >>> 16)) & mask;
    let seen = false;
    for (let position = slots[slot] as number; position !== 0; position = slots[slot] as number) {
      if (uppers[slot] === upper && emails[position - 1] === email) {
        seen = true;
        break;
      }
      slot = (slot + 1) & mask;
      steps += 1;
      if (steps > maxSteps) return distinctBySet(addresses, all);
    }
    if (seen) continue;
    const to = emails.length * 4;
    for (let limb = 0; limb < 4; limb += 1) heads[to + limb] = all[at + limb] as number;
    emails.push(email);
    slots[slot] = emails.length;
    uppers[slot] = upper;
  }
  return { emails, heads: heads.subarray(0, emails.length * 4) };
}
