import { randomInt } from 'node:crypto';
import http from 'node:http';
import type { ApiResponse } from './api-client.js';

/**
 * A loopback address of its own, other than 127.0.0.1, to send requests from: every address of
 * 127.0.0.0/8 is this host's, and the app counts failed authentications per client address, so a
 * test sending from its own starts with none counted, whatever the file's other tests sent.
 */
export function freshClientAddress(): string {
  return `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

/** A client of the app at `baseUrl` that sends its requests from `localAddress`, with `token` (none when null). */
export function apiClientFrom(localAddress: string, baseUrl: string, token: string | null) {
  return {
    get(path: string): Promise<ApiResponse> {
      return new Promise((resolve, reject) => {
        const request = http.get(
          new URL(path, baseUrl),
          { localAddress, headers: token === null ? {} : { authorization: `Bearer ${token}` } },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('error', reject);
            response.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              const headers = new Headers();
              for (const [name, value] of Object.entries(response.headers)) {
                if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
              }
              resolve({
                status: response.statusCode ?? 0,
                headers,
                body: text ? (JSON.parse(text) as unknown) : undefined,
              });
            });
          },
        );
        request.on('error', reject);
      });
    },
  };
}
