import { z } from 'zod';

/** The two headers of RFC 8058 for one address, and the link they carry. */
export const unsubscribeLinkSchema = z
  .object({
    email: z.string().meta({ description: 'The address, trimmed and lower-cased.', example: 'reader@example.com' }),
    url: z.url().meta({
      description: 'The link: GET shows a page with one button, POST unsubscribes at once.',
      example: 'https://mail.example.com/unsubscribe/AQGc66uI...',
    }),
    list_unsubscribe: z.string().meta({
      description: 'The value of the `List-Unsubscribe` header: the link in angle brackets.',
      example: '<https://mail.example.com/unsubscribe/AQGc66uI...>',
    }),
    list_unsubscribe_post: z.literal('List-Unsubscribe=One-Click').meta({
      description: 'The value of the `List-Unsubscribe-Post` header.',
    }),
  })
  .strict()
  .meta({ id: 'UnsubscribeLink' });

export const unsubscribeLinksSchema = z
  .object({
    object: z.literal('unsubscribe_links'),
    scope: z.string().nullable().meta({ description: 'The scope the links unsubscribe from; `null`: all mail.' }),
    data: z.array(unsubscribeLinkSchema).meta({ description: 'One per distinct valid address, in first-seen order.' }),
    invalid: z
      .array(
        z
          .object({ index: z.int().min(0), email: z.string(), reason: z.string() })
          .strict()
          .meta({ id: 'UnsubscribeLinkInvalid' }),
      )
      .meta({ description: 'The items that are not addresses, by their index in `emails`.' }),
  })
  .strict()
  .meta({ id: 'UnsubscribeLinks' });
export type UnsubscribeLinks = z.output<typeof unsubscribeLinksSchema>;

export const unsubscribedSchema = z
  .object({ object: z.literal('unsubscribe'), unsubscribed: z.literal(true) })
  .strict()
  .meta({ id: 'Unsubscribed' });
export type Unsubscribed = z.output<typeof unsubscribedSchema>;

export const secretRotatedSchema = z
  .object({ object: z.literal('unsubscribe_secret'), rotated: z.literal(true) })
  .strict()
  .meta({ id: 'UnsubscribeSecretRotated' });
export type SecretRotated = z.output<typeof secretRotatedSchema>;
