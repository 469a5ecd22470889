/**
 * Diagnostics of 2,000 characters built to be slow to read: long runs of the words that start
 * phrases without finishing them, near-misses of every gap, one endless word, one endless address,
 * dots everywhere, statuses everywhere. A matcher that backtracked would take seconds on one of these.
 */
export function adversarialDiagnostics(length = 2000): { name: string; text: string }[] {
  const fill = (unit: string) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  return [
    { name: 'phrase starts without ends', text: fill('user mailbox no such sender domain ip client host blocked ') },
    { name: 'gaps that never close', text: fill('ip a b c d e client x y z w host ') },
    { name: 'prefix words', text: fill('relayrelay blacklisting throttling ratelimit filtering ') },
    { name: 'one endless word', text: fill('a') },
    { name: 'one endless address', text: `${fill('a').slice(0, length - 12)}@example.com` },
    { name: 'dots', text: fill('a.') },
    { name: 'statuses', text: fill('5.1.1 550 ') },
    { name: 'digits and dots', text: fill('5.5.5.5.5.') },
    { name: 'negations', text: fill('not not never ') },
    { name: 'apostrophes', text: fill("doesn't'''' ") },
    { name: 'non-ASCII', text: fill('ユーザー不明 ') },
    { name: 'family subjects without predicates', text: fill('user address mailbox account recipient email address ') },
    { name: 'family qualifiers without subjects', text: fill('invalid unknown no such not a valid bad ') },
    { name: 'CJK subjects without predicates', text: fill('ユーザーアドレス宛先用户邮箱地址') },
    { name: 'accents and elisions', text: fill("l'adresse d'un n'ést ùtilisateur ") },
    { name: 'block-list host names', text: fill('zen.spamhaus.org.a.b.c.d.e.f ') },
  ];
}
