import { describe, expect, it } from 'vitest';
import { DEFAULT_BOUNCE_ACTIONS } from '../../src/domain/bounce-categories.js';
import { classifyBounce } from '../../src/bounces/bounce-classifier.js';
import { words } from '../../src/bounces/phrase-matcher.js';

const permanent = (diagnostic: string, status?: string) => classifyBounce({ type: 'permanent', status, diagnostic });

describe('families of meaning: a subject with what is said of it', () => {
  it.each([
    ['the predicate after the subject', '550 Recipient address is no longer valid', 'text:address is no longer valid'],
    [
      'words between them',
      '550 The email address you entered could not be found',
      'text:email address ... could not be found',
    ],
    ['the qualifier before the subject', '550 Requested action not taken: unknown local user', 'text:unknown ... user'],
    ['a member of no organisation', '550 This user is not a member of our organization', 'text:user is not a member'],
    [
      'an address that cannot be verified',
      '550 5.1.0 Recipient could not be verified',
      'text:recipient could not be verified',
    ],
    [
      'a registered user it is not',
      "550 'jane@example.com' is not a registered gateway user",
      'text:not a registered ... user',
    ],
  ])('when a server words a dead address with %s, then the family decides invalid_address', (_how, text, rule) => {
    expect(permanent(text)).toMatchObject({ category: 'invalid_address', reason: 'user_unknown', rule });
  });

  it('when the words stand side by side, then the rule names them as a phrase, and a tighter match elsewhere wins over a loose one', () => {
    expect(permanent('smtp; 550 5.1.1 user unknown').rule).toBe('text:user unknown');
    expect(permanent('550 5.1.1 <jane@example.com>: Recipient address rejected: User unknown').rule).toBe(
      'text:user unknown',
    );
  });

  it('when more words than the family allows stand between subject and predicate, then it does not hold', () => {
    expect(permanent('550 the user of this service is by all accounts unknown')).toMatchObject({ category: 'unknown' });
  });

  it.each([
    ['the sender’s address', '550 5.1.7 The sender address could not be verified'],
    ['the connecting IP address', '550 IP address not found in our allow list'],
    ['the sender’s address, in German', '550 Adresse des Absenders ungültig'],
    ['the sender’s address, in French', "550 L'adresse de l'expéditeur est invalide"],
    ['the sender’s address, in Russian', '550 Адрес отправителя не найден'],
    ['the sender’s address, in Japanese', '550 送信者アドレス不明'],
  ])('when the address said to be unknown is %s, then the recipient is never suppressed', (_whose, text) => {
    const { category } = permanent(text);
    expect(DEFAULT_BOUNCE_ACTIONS[category]).not.toBe('suppress');
  });

  it('when a list refuses a poster who is not a member, then it is the sender who is refused', () => {
    expect(permanent('550 You are not a member of this mailing list')).toMatchObject({ category: 'sender_blocked' });
  });
});

describe('the same families in the languages of the large mailbox providers', () => {
  it.each([
    ['German', '550 5.1.1 Die Empfängeradresse existiert nicht'],
    ['German, before the noun', '550 Unbekannter Empfänger'],
    ['French', "550 5.1.1 L'adresse du destinataire n'existe pas"],
    ['French, as Orange writes it', '550 5.1.1 Adresse d au moins un destinataire invalide'],
    ['Spanish', '550 La dirección de correo no existe'],
    ['Portuguese', '550 O endereço de e-mail não existe'],
    ['Italian', "550 L'indirizzo email non esiste"],
    ['Dutch', '550 Het e-mailadres bestaat niet'],
    ['Polish', '550 Użytkownik nie istnieje'],
    ['Russian', '550 Пользователь с таким адресом не найден'],
    ['Japanese', '550 宛先のメールアドレスは存在しません'],
    ['Japanese, as Domino writes it', 'ユーザー Neko (neko@example.jp) は Domino ディレクトリには見つかりません。'],
    ['Chinese', '550 收件人地址无效'],
    ['Chinese, traditional', '550 該用戶不存在'],
  ])('when a dead address is written in %s, then it is invalid_address', (_language, text) => {
    expect(permanent(text)).toMatchObject({ category: 'invalid_address' });
  });

  it.each([
    ['German', '552 Postfach voll'],
    ['French', '552 5.1.1 Boite du destinataire pleine'],
    ['Spanish', '552 Buzón lleno'],
    ['Portuguese', '552 Caixa postal cheia'],
    ['Italian', '552 Casella di posta piena'],
    ['Dutch', '552 Mailbox is vol'],
    ['Polish', '552 Skrzynka jest pełna'],
    ['Russian', '552 Почтовый ящик переполнен'],
    ['Japanese', '552 メールボックスがいっぱいです'],
    ['Chinese', '552 邮箱已满'],
  ])('when a full mailbox is written in %s, then it is mailbox_unavailable, not a dead address', (_language, text) => {
    expect(permanent(text)).toMatchObject({ category: 'mailbox_unavailable', reason: 'mailbox_full' });
  });

  it.each([
    ['German', '554 Ihre IP-Adresse steht auf einer schwarzen Liste'],
    ['French', '550 Votre adresse IP est sur liste noire'],
    ['Russian', '550 Ваш IP в черном списке'],
    ['Japanese', '550 迷惑メールと判定されました'],
    ['Chinese', '550 该邮件被判定为垃圾邮件'],
  ])('when a refusal of the sender is written in %s, then it is sender_blocked', (_language, text) => {
    expect(permanent(text)).toMatchObject({ category: 'sender_blocked' });
  });

  it.each([
    ['German', 'Ich bin bis zum 3. Mai nicht im Büro'],
    ['French', "Je suis absent du bureau jusqu'au 3 mai"],
    ['Chinese', '我正在休假中，稍后回复'],
  ])('when an automatic reply is written in %s, then it is an auto_reply', (_language, text) => {
    expect(classifyBounce({ diagnostic: text })).toMatchObject({ category: 'auto_reply' });
  });

  it('when a server says only to try later, in French, then it is a failure of the road, not a refusal of the recipient', () => {
    expect(classifyBounce({ diagnostic: '451 Service refusé. Veuillez réessayer plus tard' })).toMatchObject({
      category: 'delivery_failure',
    });
  });
});

describe('reading scripts without spaces, accents and elisions', () => {
  it('when a text has Chinese or Japanese, then each of its characters is a word, and CJK punctuation separates', () => {
    expect(words('用户不存在。ユーザー')).toEqual(['用', '户', '不', '存', '在', 'ユ', 'ー', 'ザ', 'ー']);
  });

  it('when a Japanese sentence holds an address without spaces, then the address is one word and the sentence stays read', () => {
    expect(words('宛先neko@example.jpは存在しません')).toEqual([
      '宛',
      '先',
      '@',
      'は',
      '存',
      '在',
      'し',
      'ま',
      'せ',
      'ん',
    ]);
  });

  it('when a phrase sits inside a longer CJK run, then it matches there, as a substring would', () => {
    expect(permanent('您发送的邮件因收件人用户不存在而被退回')).toMatchObject({ category: 'invalid_address' });
  });

  it('when a text has accents, or drops them, then both read the same', () => {
    expect(words('Service refusé')).toEqual(words('Service refuse'));
    expect(words('ungültig')).toEqual(['ungultig']);
  });

  it('when French or Italian elides an article, then the article and its noun are two words', () => {
    expect(words("l'adresse n'existe pas")).toEqual(['l', 'adresse', 'n', 'existe', 'pas']);
    expect(words("doesn't")).toEqual(['doesnt']);
  });
});

describe('the enhanced status read where it says more than the words', () => {
  it('when storage that names no mailbox comes with a status of the mail system or the network, then it is the server’s disk', () => {
    expect(
      classifyBounce({ status: '4.4.5', diagnostic: '452 4.4.5 Insufficient disk space; try again later' }),
    ).toMatchObject({
      category: 'delivery_failure',
      rule: 'status:X.4.5',
    });
    expect(classifyBounce({ status: '4.3.1', diagnostic: '452 Insufficient disk space' })).toMatchObject({
      category: 'delivery_failure',
    });
  });

  it('when the same storage comes with a status of the mailbox, or none, then it is a full mailbox', () => {
    expect(classifyBounce({ status: '4.2.2', diagnostic: '452 Not enough disk space' })).toMatchObject({
      reason: 'mailbox_full',
    });
    expect(classifyBounce({ diagnostic: 'Insufficient disk space' })).toMatchObject({ reason: 'mailbox_full' });
  });

  it('when a refusal names only the stage it came at, then a status that says more decides', () => {
    expect(
      classifyBounce({ status: '4.3.0', diagnostic: '421 4.3.0 Upstream error (in reply to end of DATA command)' }),
    ).toMatchObject({ category: 'delivery_failure', rule: 'status:X.3.0' });
    expect(classifyBounce({ diagnostic: '550 Message refused (in reply to end of DATA command)' })).toMatchObject({
      category: 'sender_blocked',
    });
  });

  it('when a provider’s own detail under a subject is not registered, then the subject decides; a registered detail that says nothing still does not', () => {
    expect(permanent('550 5.7.512 Access denied, message must be RFC 5322 section 3.6.2 compliant')).toMatchObject({
      category: 'sender_blocked',
    });
    expect(classifyBounce({ status: '5.7.708' })).toMatchObject({ category: 'sender_blocked', rule: 'status:X.7.708' });
    expect(classifyBounce({ status: '5.4.1' })).toMatchObject({ category: 'unknown' });
  });
});

describe('block lists by their operators’ host names and listing codes', () => {
  it.each([
    ['Spamhaus', '554 rejected, see https://check.spamhaus.org/listed/?searchterm=192.0.2.1', 'host:spamhaus'],
    [
      'Microsoft’s delisting portal',
      '550 5.7.1 To request removal from this list please visit https://sender.office.com',
      'host:microsoft',
    ],
    ['Proofpoint', '554 Email rejected, see https://ipcheck.proofpoint.com/?ip=192.0.2.1', 'host:proofpoint'],
    ['Cloudmark', '550 5.7.1 Rejected, please see csi.cloudmark.com/reset-request', 'host:cloudmark'],
    ['UCEPROTECT', 'Client host [192.0.2.1] refused, dnsbl-1.uceprotect.net', 'host:uceprotect'],
    [
      'Barracuda',
      '550 Message from 192.0.2.1 refused, see http://www.barracudacentral.org/rbl',
      'host:barracudacentral',
    ],
  ])('when the text names %s, then it is blocklisted', (_operator, text, rule) => {
    expect(permanent(text)).toMatchObject({ category: 'sender_blocked', reason: 'blocklisted', rule });
  });

  it('when Outlook.com gives its listing code, then it is blocklisted, even with 5.1.1 beside it', () => {
    expect(permanent("550 5.1.1 Unfortunately, messages from [192.0.2.1] weren't sent (S3150)")).toMatchObject({
      reason: 'blocklisted',
      rule: 'text:s3150',
    });
  });

  it('when Yahoo defers for reputation, temporarily or for good, then it is the sender’s reputation and nothing counts against the recipient', () => {
    const deferred = classifyBounce({
      type: 'transient',
      diagnostic:
        '421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints',
    });
    expect(deferred).toMatchObject({ category: 'sender_blocked', reason: 'bad_reputation', rule: 'text:tss04' });
    expect(DEFAULT_BOUNCE_ACTIONS[deferred.category]).toBe('record');
    expect(permanent('553 5.7.2 [TSS09] All messages from 192.0.2.1 will be permanently deferred')).toMatchObject({
      reason: 'bad_reputation',
    });
  });

  it('when Gmail refuses for its rate of unsolicited mail or for missing authentication, then it is sender_blocked', () => {
    expect(
      classifyBounce({ diagnostic: '421-4.7.28 Gmail has detected an unusual rate of unsolicited mail from your IP' }),
    ).toMatchObject({ category: 'sender_blocked' });
    expect(permanent('550-5.7.26 Your email has been blocked because the sender is unauthenticated')).toMatchObject({
      category: 'sender_blocked',
      reason: 'authentication',
    });
  });

  it('when Orange or La Poste gives its code, then the code decides as Orange documents it', () => {
    expect(permanent('550 5.5.0 Service refuse. Veuillez essayer plus tard. OFR_999 [999]')).toMatchObject({
      reason: 'blocklisted',
      rule: 'code:orange-999',
    });
    expect(permanent('552 5.1.1 Boite du destinataire pleine. Recipient overquota. OFR_417 [417]')).toMatchObject({
      reason: 'mailbox_full',
    });
    expect(permanent('421 4.2.0 Service refuse. OFR005_505 [505]')).toMatchObject({ category: 'delivery_failure' });
  });
});
