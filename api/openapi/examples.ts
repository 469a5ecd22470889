/** Realistic values for the document's examples: UUIDv7 ids, `created_at` with milliseconds. */

import { CLASSIFIER_VERSION } from '../../src/bounces/bounce-classifier.js';

export const exampleIds = [
  '019cebab-8995-77f7-9262-77a618303564',
  '019cebab-8d7d-76a0-8f24-546e4de3bc59',
  '019cebab-9165-711e-8683-335430abe2ad',
] as const;

export const exampleSuppression = {
  object: 'suppression',
  id: exampleIds[0],
  email: 'bounced@example.com',
  origin: 'bounce',
  source_id: '019ceba9-0a44-7d3e-b8c1-3f2e8a9d6b10',
  scope: null,
  created_at: '2026-03-14T09:26:53.589Z',
} as const;

export const exampleManualSuppression = {
  object: 'suppression',
  id: exampleIds[1],
  email: 'unsubscribed@example.org',
  origin: 'manual',
  source_id: null,
  scope: 'newsletter-weekly',
  created_at: '2026-03-14T09:26:54.589Z',
} as const;

/** An address's history: the bounce that added it, then its removal through the API. */
export const exampleHistory = [
  {
    object: 'suppression_event',
    event_id: '019cebb2-0c1d-7a55-9e0b-6c4f1d2a8e37',
    type: 'removal',
    outcome: 'removed',
    email: 'bounced@example.com',
    scope: null,
    source_id: null,
    bounce: null,
    complaint: null,
    provider_message_id: null,
    removed_by_key_id: '019ceba0-7f12-7c4e-8d3a-2b9e5f1c0a64',
    removal_reason: null,
    reason: null,
    actor: { type: 'api_key', id: '019ceba0-7f12-7c4e-8d3a-2b9e5f1c0a64' },
    suppression_id: exampleIds[0],
    occurred_at: null,
    received_at: '2026-03-14T09:34:02.118Z',
  },
  {
    object: 'suppression_event',
    event_id: 'ses-0102018f5e2c9b1a-7d1c',
    type: 'bounce',
    outcome: 'suppressed',
    email: 'bounced@example.com',
    scope: null,
    source_id: exampleSuppression.source_id,
    bounce: {
      type: 'permanent',
      sub_type: 'General',
      status: '5.1.1',
      reply_code: null,
      diagnostic: 'smtp; 550 5.1.1 <bounced@example.com>: Recipient address rejected: User unknown',
      provider: 'ses',
      remote_mta: '203.0.113.25',
      classification: {
        category: 'invalid_address',
        reason: 'user_unknown',
        rule: 'text:user unknown',
        version: CLASSIFIER_VERSION,
      },
    },
    complaint: null,
    provider_message_id: null,
    removed_by_key_id: null,
    removal_reason: null,
    reason: null,
    actor: { type: 'queue', id: null },
    suppression_id: exampleIds[0],
    occurred_at: '2026-03-14T09:26:52.004Z',
    received_at: exampleSuppression.created_at,
  },
] as const;

/** What providers post to a feed: a Resend bounce and a SendGrid batch, as their documentation shows them. */
export const exampleFeedBodies = {
  resend: {
    value: {
      type: 'email.bounced',
      created_at: '2026-03-14T09:26:53.589Z',
      data: {
        email_id: '56761188-7520-42d8-8898-ff6fc54ce618',
        from: 'Acme <onboarding@resend.dev>',
        to: ['bounced@example.com'],
        subject: 'Sending this example',
        created_at: '2026-03-14T09:26:50.000Z',
        bounce: { message: 'The recipient’s mailbox does not exist.', subType: 'General', type: 'Permanent' },
      },
    },
  },
  sendgrid: {
    value: [
      {
        email: 'bounced@example.com',
        event: 'bounce',
        type: 'bounce',
        status: '5.1.1',
        reason: '550 5.1.1 The email account that you tried to reach does not exist.',
        timestamp: 1773480413,
        sg_event_id: 'ZmJkNzA0ZjItYTYzZC00ZjBiLWI2YjEtN2I5YzZkMmM0ZDk1',
        sg_message_id: '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0',
      },
    ],
  },
};

export const exampleWebhookIds = [
  '019cec0a-1f3e-7b51-a0d2-3c8e41f9b6a7',
  '019cec0a-3b90-7e24-8c5f-d17a2e9b04c6',
] as const;

export const exampleSigningSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3Kd5eOqx0Aw=';

export const exampleListedWebhook = {
  id: exampleWebhookIds[0],
  endpoint: 'https://hooks.example.com/suppressions',
  created_at: '2026-03-14T10:02:11.302Z',
  status: 'enabled',
  events: ['suppression.added', 'suppression.removed'],
} as const;

export const exampleWebhook = {
  object: 'webhook',
  ...exampleListedWebhook,
  signing_secret: exampleSigningSecret,
} as const;

export const exampleEventIds = [
  'msg_3f1c9e2a7b5d4e0f8a6c2b1d9e7f5a3c',
  'msg_8a0d4c6e2f1b3a5d7c9e0f2a4b6d8c1e',
] as const;

export const exampleWebhookEvent = {
  object: 'webhook_event',
  id: exampleEventIds[0],
  type: 'suppression.added',
  created_at: '2026-03-14T10:05:42.117Z',
  status: 'attempting',
  next_attempt_at: '2026-03-14T10:10:47.530Z',
  payload: {
    type: 'suppression.added',
    created_at: '2026-03-14T10:05:42.117Z',
    data: { ...exampleSuppression, created_at: '2026-03-14T10:05:42.117Z' },
  },
} as const;

export const exampleAttempt = {
  id: '019cec0b-5a21-7c03-9e4f-81d2b7a6c3e0',
  http_status_code: 503,
  response: 'Service Unavailable',
  sent_at: '2026-03-14T10:05:47.498Z',
} as const;
