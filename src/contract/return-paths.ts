import { z } from 'zod';
import { timestamp } from './fields.js';

/** The return path of one recipient. */
export const returnPathSchema = z
  .object({
    email: z.string().meta({ description: 'The recipient, trimmed and lower-cased.', example: 'reader@example.com' }),
    return_path: z.string().meta({
      description:
        'The envelope sender (`MAIL FROM`, and so the `Return-Path`) for the message to this recipient: `<local part>+<token>@<bounce domain>`.',
      example:
        'bounces+aewi3gsbsfxgk53tnrsxi5dfoiwxozlfnnwhscehb3v7ollsmvqwizlsibsxqylnobwgkltdn5w75oiczwtkcyrbic5q@bounces.example.com',
    }),
  })
  .strict()
  .meta({ id: 'ReturnPath' });

/** The answer of `POST /return-paths`: every recipient asked about, in the same order. */
export const returnPathListSchema = z
  .object({
    object: z.literal('list'),
    data: z.array(returnPathSchema).meta({ description: 'One per recipient asked about, in the same order.' }),
  })
  .strict()
  .meta({ id: 'ReturnPathList' });
export type ReturnPathList = z.output<typeof returnPathListSchema>;

/** The account's current return-path secret, for making return paths without asking (the client's `makeReturnPath`). */
export const returnPathSecretSchema = z
  .object({
    object: z.literal('return_path_secret'),
    id: z
      .string()
      .regex(/^[0-9a-f]{8}$/)
      .meta({
        description: 'The secret’s id, 8 hex digits: the 4 bytes a return path names it by.',
        example: '2c8d9a41',
      }),
    secret: z.string().meta({
      description: 'The 32 bytes of the HMAC-SHA-256 key, in base64url.',
      example: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8',
    }),
    domains: z.array(z.string()).meta({
      description: 'The bounce domains a return path may be at (`BOUNCE_DOMAINS`), the default first.',
      example: ['bounces.example.com'],
    }),
    local_part: z
      .string()
      .meta({ description: 'The local part before `+token` (`BOUNCE_LOCAL_PART`).', example: 'bounces' }),
    created_at: timestamp,
    previous_valid_until: z.iso.datetime({ precision: 3 }).nullable().meta({
      description:
        'When the secret this one replaced stops verifying the return paths made with it; `null` when there is none still verifying.',
      example: null,
    }),
  })
  .strict()
  .meta({ id: 'ReturnPathSecret' });
export type ReturnPathSecretResource = z.output<typeof returnPathSecretSchema>;
