import http from 'node:http';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { listen } from '../../api/server.js';
import { sleep } from '../support/sleep.js';

/** An app with a slow route, standing in for a request in flight when SIGTERM arrives. */
function slowApp(delayMs: number) {
  const app = express();
  app.get('/slow', async (_req, res) => {
    await sleep(delayMs);
    res.json({ done: true });
  });
  app.get('/fast', (_req, res) => {
    res.json({ done: true });
  });
  return app;
}

function get(url: string, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('graceful shutdown of the HTTP server', () => {
  it('when close() is called during a slow request, then it completes, connections after the listener closed are refused and close() resolves', async () => {
    const running = await listen(slowApp(400), '127.0.0.1', 0);
    const agent = new http.Agent({ keepAlive: true });
    try {
      // An idle keep-alive connection must not hold shutdown open.
      expect((await get(`${running.url}/fast`, agent)).status).toBe(200);
      const inFlight = get(`${running.url}/slow`, new http.Agent({ keepAlive: true }));
      await sleep(100);
      const started = Date.now();
      const closed = running.close();
      while (running.server.listening) await sleep(5);
      await expect(get(`${running.url}/fast`, new http.Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      const response = await inFlight;
      expect(response).toStrictEqual({ status: 200, body: '{"done":true}' });
      await closed;
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      agent.destroy();
    }
  });

  it('when connections wait in the kernel while the process is busy as close() is called, then each is accepted and answered, none reset', async () => {
    const running = await listen(slowApp(1), '127.0.0.1', 0);
    const answers = Array.from({ length: 30 }, () =>
      get(`${running.url}/fast`, new http.Agent()).catch((error: NodeJS.ErrnoException) => error.code),
    );
    // The connections complete in the kernel while this process's event loop is held.
    await new Promise((resolve) => setImmediate(resolve));
    const heldUntil = Date.now() + 100;
    while (Date.now() < heldUntil);
    await running.close();
    expect(await Promise.all(answers)).toStrictEqual(answers.map(() => ({ status: 200, body: '{"done":true}' })));
  });

  it('when a request outlives the grace period, then its connection is cut and close() still resolves', async () => {
    const running = await listen(slowApp(60_000), '127.0.0.1', 0, { shutdownGraceMs: 300 });
    const stuck = get(`${running.url}/slow`, new http.Agent()).catch((error: unknown) => error);
    await sleep(100);
    const started = Date.now();
    await running.close();
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await stuck).toMatchObject({ code: 'ECONNRESET' });
  });

  it('when listening with defaults, then request and header timeouts are bounded', async () => {
    const running = await listen(slowApp(1), '127.0.0.1', 0);
    try {
      expect(running.server.requestTimeout).toBe(300_000);
      expect(running.server.headersTimeout).toBe(10_000);
    } finally {
      await running.close();
    }
  });
});
