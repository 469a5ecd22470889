/** Hostile messages built in code, each about `size` bytes: for the parser's safety tests and bench:mail. */
export function hostileMessages(size: number): { name: string; raw: Buffer }[] {
  const head = 'From: MAILER-DAEMON@mx.example.net\r\nTo: a@example.com\r\nSubject: Undelivered Mail\r\n';
  const fill = (unit: string, prefix = ''): string =>
    prefix + unit.repeat(Math.max(0, Math.floor((size - prefix.length) / unit.length)));
  const nested = (depth: number): string => {
    let body = 'Content-Type: text/plain\r\n\r\nx\r\n';
    for (let level = 0; level < depth; level += 1) {
      body = `Content-Type: multipart/mixed; boundary="b${level}"\r\n\r\n--b${level}\r\n${body}--b${level}--\r\n`;
    }
    return body;
  };
  const text = (body: string): Buffer => Buffer.from(`${head}Content-Type: text/plain\r\n\r\n${body}`, 'latin1');
  return [
    { name: 'nested multiparts, 2,000 deep', raw: Buffer.from(head + nested(2000), 'latin1') },
    {
      name: 'multipart parts without end, malformed boundaries',
      raw: Buffer.from(
        fill(
          '--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b-\r\n',
          `${head}Content-Type: multipart/mixed; boundary=b\r\n\r\n`,
        ),
        'latin1',
      ),
    },
    { name: 'endless headers', raw: Buffer.from(fill('X-Noise: aaaaaaaaaaaaaaaaaaaaaaaa\r\n', head), 'latin1') },
    { name: 'one header folded forever', raw: Buffer.from(fill('\r\n a@b', `${head}X-Fold: x`), 'latin1') },
    { name: 'a line of @', raw: text(fill('@')) },
    {
      name: 'a line of local-part characters and @',
      raw: text(fill('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@')),
    },
    { name: 'addresses on one line', raw: text(fill('<a@example.org> ')) },
    { name: 'recipient lines', raw: text(fill('a@example.org: 550 5.1.1 user unknown\r\n')) },
    { name: 'blanks before a word', raw: text(fill(' ') + 'x') },
    { name: 'angle brackets', raw: text(fill('<')) },
    { name: 'digits and dots', raw: text(fill('5.5.5.5.5.')) },
    { name: 'reply codes', raw: text(fill('550 ')) },
    { name: 'ruler lines', raw: text(fill('-----------------------------------------------------------\r\n')) },
    {
      name: 'delivery-status fields',
      raw: Buffer.from(
        fill(
          'Final-Recipient: rfc822; a@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\n',
          `${head}Content-Type: multipart/report; report-type=delivery-status; boundary=r\r\n\r\n--r\r\nContent-Type: message/delivery-status\r\n\r\n`,
        ),
        'latin1',
      ),
    },
    { name: 'HTML tags', raw: Buffer.from(`${head}Content-Type: text/html\r\n\r\n${fill('<a<b')}`, 'latin1') },
  ];
}
