import { describe, expect, it } from 'vitest';
import { InvalidPayloadError } from '../../src/feeds/feed-errors.js';
import { parseSnsEnvelope, snsStringToSign } from '../../src/feeds/sns/envelope.js';
import { isSnsUrl } from '../../src/feeds/sns/hosts.js';

const notification = {
  Type: 'Notification',
  MessageId: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324',
  TopicArn: 'arn:aws:sns:us-west-2:123456789012:MyTopic',
  Subject: 'My First Message',
  Message: 'Hello world!',
  Timestamp: '2012-05-02T00:54:06.655Z',
  SignatureVersion: '1',
  Signature: 'EXAMPLE',
  SigningCertURL: 'https://sns.us-west-2.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem',
};

describe('the SNS envelope', () => {
  it('when a notification is signed, then the string to sign is its fields in SNS’s documented order', () => {
    const envelope = parseSnsEnvelope(Buffer.from(JSON.stringify(notification)), undefined);
    expect(snsStringToSign(envelope)).toBe(
      'Message\nHello world!\nMessageId\n22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324\nSubject\nMy First Message\n' +
        'Timestamp\n2012-05-02T00:54:06.655Z\nTopicArn\narn:aws:sns:us-west-2:123456789012:MyTopic\nType\nNotification\n',
    );
  });

  it('when a notification has no Subject, then the string to sign leaves it out', () => {
    const withoutSubject: Partial<typeof notification> = { ...notification };
    delete withoutSubject.Subject;
    const envelope = parseSnsEnvelope(Buffer.from(JSON.stringify(withoutSubject)), undefined);
    expect(snsStringToSign(envelope)).not.toContain('Subject');
    const nullSubject = parseSnsEnvelope(Buffer.from(JSON.stringify({ ...notification, Subject: null })), undefined);
    expect(snsStringToSign(nullSubject)).toBe(snsStringToSign(envelope));
  });

  it('when a subscription confirmation is signed, then SubscribeURL and Token are part of the string', () => {
    const confirmation = {
      ...notification,
      Type: 'SubscriptionConfirmation',
      SubscribeURL: 'https://sns.us-west-2.amazonaws.com/?Action=ConfirmSubscription&Token=abc',
      Token: 'abc',
    };
    const signed = snsStringToSign(parseSnsEnvelope(Buffer.from(JSON.stringify(confirmation)), undefined));
    expect(signed).toContain(
      'SubscribeURL\nhttps://sns.us-west-2.amazonaws.com/?Action=ConfirmSubscription&Token=abc\n',
    );
    expect(signed.indexOf('\nTimestamp\n')).toBeLessThan(signed.indexOf('\nToken\n'));
    expect(signed).not.toContain('Subject');
  });

  it('when raw message delivery is on, then the message is refused with a way to fix it', () => {
    const bare = Buffer.from(JSON.stringify({ notificationType: 'Bounce', bounce: {} }));
    expect(() => parseSnsEnvelope(bare, undefined)).toThrow(/raw message delivery/);
    expect(() => parseSnsEnvelope(Buffer.from(JSON.stringify(notification)), 'true')).toThrow(/raw message delivery/);
  });

  it('when the body is not JSON or not an SNS message, then the error names what is wrong', () => {
    expect(() => parseSnsEnvelope(Buffer.from('hello'), undefined)).toThrow(InvalidPayloadError);
    expect(() => parseSnsEnvelope(Buffer.from(JSON.stringify({ ...notification, Type: 'Other' })), undefined)).toThrow(
      /Notification, SubscriptionConfirmation or UnsubscribeConfirmation/,
    );
  });
});

describe('SNS hosts', () => {
  it('when a URL is HTTPS on an SNS host of any region, then it may be requested', () => {
    expect(isSnsUrl('https://sns.us-east-1.amazonaws.com/cert.pem', [])).toBe(true);
    expect(isSnsUrl('https://sns.cn-north-1.amazonaws.com.cn/cert.pem', [])).toBe(true);
  });

  it('when a URL is plain HTTP, on another host, on a look-alike host, or carries credentials, then it may not', () => {
    for (const url of [
      'http://sns.us-east-1.amazonaws.com/cert.pem',
      'https://sns.us-east-1.amazonaws.com.evil.example/cert.pem',
      'https://evil.example/sns.us-east-1.amazonaws.com/cert.pem',
      'https://s3.amazonaws.com/cert.pem',
      'https://user@sns.us-east-1.amazonaws.com/cert.pem',
      'https://sns.us-east-1.amazonaws.com:8443/cert.pem',
      'not a url',
    ]) {
      expect(isSnsUrl(url, []), url).toBe(false);
    }
  });

  it('when an extra host is configured, then it may be plain HTTP only on loopback', () => {
    expect(isSnsUrl('http://127.0.0.1:9000/cert.pem', ['127.0.0.1:9000'])).toBe(true);
    expect(isSnsUrl('http://127.0.0.1:9001/cert.pem', ['127.0.0.1:9000'])).toBe(false);
    expect(isSnsUrl('http://certs.example:9000/cert.pem', ['certs.example:9000'])).toBe(false);
    expect(isSnsUrl('https://certs.example:9000/cert.pem', ['certs.example:9000'])).toBe(true);
  });
});
